"""Input shapes (:mod:`helpers.core.validation`): ID lists, answer keys and records, refused with the field named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.core.validation import require_answer_key, require_id_list, require_record


def _refusal(call, *args, **kwargs) -> tuple[str, str | None]:
    with pytest.raises(InvalidInputError) as caught:
        call(*args, **kwargs)
    return caught.value.message, caught.value.field


@given(ids=st.lists(st.text(min_size=1), max_size=5))
def test_a_list_or_tuple_of_non_empty_strings_is_returned_as_a_list(ids):
    assert require_id_list(ids, "original") == ids
    assert require_id_list(tuple(ids), "original") == ids


@pytest.mark.parametrize(
    ("value", "message", "field"),
    [
        ("a", 'original is "a", expected a list of string IDs', "original"),
        ({"a": 1}, 'original is {"a": 1}, expected a list of string IDs', "original"),
        (["a", 7], "original[1] is 7, expected a string ID", "original[1]"),
        (["a", None], "original[1] is null, expected a string ID", "original[1]"),
        (["a", ""], "original[1] is an empty string, expected a non-empty ID", "original[1]"),
    ],
)
def test_an_id_list_of_the_wrong_shape_names_the_first_bad_place(value, message, field):
    assert _refusal(require_id_list, value, "original") == (message, field)


def test_an_answer_key_is_copied_and_a_bad_one_names_its_place():
    key = {"S1": "R"}
    copy = require_answer_key(key, "baseline")
    assert copy == key and copy is not key
    assert _refusal(require_answer_key, ["S1"], "baseline") == (
        'baseline is ["S1"], expected an object mapping IDs to answers',
        "baseline",
    )
    assert _refusal(require_answer_key, {1: "R"}, "baseline") == (
        "baseline has the key 1, expected a string ID",
        "baseline",
    )
    assert _refusal(require_answer_key, {"": "R"}, "baseline") == (
        "baseline has an empty ID, expected a non-empty ID",
        'baseline[""]',
    )
    assert _refusal(require_answer_key, {"S1": 2}, "baseline") == (
        'baseline["S1"] is 2, expected a string answer',
        'baseline["S1"]',
    )


def test_a_record_needs_its_fields_and_no_others():
    record = {"original": [], "rewritten": [], "id": "r1"}
    assert require_record(record, required=("original", "rewritten"), optional=("id",)) is record
    assert _refusal(require_record, [], required=("original", "rewritten")) == (
        'input is [], expected an object with the fields "original", "rewritten"',
        "input",
    )
    assert _refusal(require_record, {"original": []}, required=("original", "rewritten")) == (
        'input has no "rewritten" field',
        "rewritten",
    )
    assert _refusal(require_record, {"original": [], "ID": 1}, required=("original",), optional=("id",)) == (
        'input has an unknown field "ID" (allowed: "original", "id")',
        "ID",
    )
