"""Exit codes and output objects (:mod:`helpers.core.outcomes`)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.core.outcomes import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_HELD,
    EXIT_MEANINGS,
    EXIT_PASS,
    SEVERITY,
    code_for,
    json_safe,
    output_object,
    worst_code,
)
from helpers.core.sentinels import check_sentinels
from helpers.core.target_scope import check_target_scope_input


def test_the_most_serious_code_wins_in_either_order():
    assert SEVERITY == (0, 1, 3, 4)
    assert set(EXIT_MEANINGS) == set(SEVERITY)
    for first, second in itertools.product(SEVERITY, repeat=2):
        assert (
            worst_code(first, second) == worst_code(second, first) == max(first, second, key=SEVERITY.index)
        )
    assert worst_code(EXIT_HELD, EXIT_FAILED) == EXIT_HELD


def test_each_result_gives_its_own_code():
    assert code_for(check_target_scope_input({"original": ["a"], "rewritten": ["a"]})) == EXIT_PASS
    assert code_for(check_target_scope_input({"original": ["a"], "rewritten": []})) == EXIT_FAILED
    held = check_target_scope_input({"original": ["a"], "rewritten": ["a"], "unresolved": ["x"]})
    assert code_for(held) == EXIT_HELD
    assert code_for(check_sentinels({"S1": "R"}, {"S1": "S"})) == EXIT_FAILED


def test_json_safe_writes_non_finite_numbers_as_null_at_any_depth():
    value = {"a": [1.5, math.inf, {"b": -math.inf}], "c": math.nan, "d": "x"}
    assert json_safe(value) == {"a": [1.5, None, {"b": None}], "c": None, "d": "x"}
    assert json_safe(math.inf) is None and json_safe("id") == "id"
    deep: list = [math.inf]
    for _ in range(20_000):
        deep = [deep]
    copy = json_safe(deep)
    for _ in range(20_000):
        copy = copy[0]
    assert copy == [None]


@given(
    value=st.recursive(
        st.integers() | st.text(max_size=2) | st.none(), lambda inner: st.lists(inner, max_size=3)
    )
)
def test_json_safe_copies_finite_values_unchanged(value):
    copy = json_safe(value)
    assert copy == value
    assert (copy is not value) == isinstance(value, list)  # a list is always a fresh copy


def test_the_output_object_carries_the_id_and_query_after_the_line():
    record = {"query": "q", "id": math.inf, "original": ["a"], "rewritten": []}
    outcome = (5, EXIT_FAILED, check_target_scope_input(record), None, record)
    assert output_object(outcome) == {"missing": ["a"], "added": [], "preserved": False}
    carried = output_object(outcome, carry=True)
    assert list(carried) == ["line", "id", "query", "missing", "added", "preserved"]
    assert carried["line"] == 5 and carried["id"] is None


@pytest.mark.parametrize("record", [["not", "an", "object"], {"original": "a"}])
def test_a_bad_record_gives_its_error_object_once_with_its_line(record):
    error = InvalidInputError('original is "a", expected a list of string IDs', field="original")
    outcome = (9, EXIT_BAD_INPUT, None, error, record)
    assert output_object(outcome) == {"line": 9, "field": "original", "error": error.message}
    assert output_object(outcome, carry=True) == {"line": 9, "field": "original", "error": error.message}
