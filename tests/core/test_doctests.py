"""The docstring examples in ``helpers.core`` run as doctests, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import helpers.core

CORE_MODULES = sorted(f"helpers.core.{info.name}" for info in pkgutil.iter_modules(helpers.core.__path__))


def test_core_has_doctests():
    examples = sum(
        len(test.examples)
        for name in CORE_MODULES
        for test in doctest.DocTestFinder().find(importlib.import_module(name))
    )
    assert examples >= 10, f"only {examples} doctest examples in helpers.core"


@pytest.mark.parametrize("name", CORE_MODULES)
def test_core_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
