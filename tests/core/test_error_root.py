"""One root error class (:mod:`helpers.core.error_root`): every error the helpers raise is a ``HelpersError``."""

from __future__ import annotations

import inspect

import pytest

from helpers.core import errors, jsonwalk
from helpers.core.error_root import HelpersError


def test_errors_takes_the_root_from_this_module():
    assert errors.HelpersError is HelpersError
    assert HelpersError.__bases__ == (Exception,)


@pytest.mark.parametrize(
    "error",
    [cls for _, cls in inspect.getmembers(errors, inspect.isclass) if issubclass(cls, Exception)]
    + [jsonwalk.NotJsonShaped],
    ids=lambda cls: cls.__name__,
)
def test_every_error_class_of_the_core_descends_from_the_root(error):
    assert issubclass(error, HelpersError)


def test_catching_the_root_catches_an_input_error():
    with pytest.raises(HelpersError, match=r"^bad$"):
        raise errors.InvalidInputError("bad", field="original")
