"""Text fields of fixture records (``helpers/trainee/cases/fixture_fields.py``): non-empty strings, else named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.fixture_fields import text_field


def test_a_non_empty_string_is_returned_as_written() -> None:
    assert text_field({"title": "  A case  "}, "title", "cases[0]") == "  A case  "


@pytest.mark.parametrize("value", ["", "   ", "\n\t", None, 3, ["a"], {"a": "b"}])
def test_anything_else_is_refused_naming_where_and_which_field(value) -> None:
    with pytest.raises(InvalidInputError) as caught:
        text_field({"title": value}, "title", "cases[2]")
    assert str(caught.value).endswith("cases[2].title must be a non-empty string")
    assert caught.value.field == "cases[2].title"


def test_a_missing_field_is_a_key_error_for_the_caller_to_name() -> None:
    with pytest.raises(KeyError):
        text_field({}, "title", "cases[0]")


@given(st.text())
def test_a_string_is_taken_exactly_when_it_holds_more_than_spaces(text: str) -> None:
    if text.strip():
        assert text_field({"name": text}, "name", "rules") == text
    else:
        with pytest.raises(InvalidInputError):
            text_field({"name": text}, "name", "rules")
