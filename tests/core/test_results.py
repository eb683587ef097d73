"""Results are immutable and hashable."""

from __future__ import annotations

import dataclasses

import pytest

import helpers
from helpers.core.chardiff import char_diff
from helpers.trainee import grading
from helpers.trainee.cases.filled import get_case
from helpers.trainee.views import case_html, mistakes

RESULTS = {
    "target scope": lambda: helpers.check_target_scope(["a", "b"], ["a", "c"]),
    "held": lambda: helpers.check_target_scope_input(
        {"original": ["a"], "rewritten": ["a"], "unresolved": ["the spring course"]}
    ),
    "sentinels": lambda: helpers.check_sentinels({"S1": "R", "S2": "A"}, {"S1": "S"}),
    "diff piece": lambda: char_diff("R", "S")[0],
    "answer": lambda: grading.Answer("target-scope", missing=frozenset({"a"}), flag=False),
    "grade": lambda: grading.grade(get_case("lost-comparison"), grading.Answer("target-scope", flag=True)),
    "mistake": lambda: mistakes.typical_mistakes(get_case("lost-comparison"))[0],
    "feedback": lambda: grading.grade(
        get_case("lost-comparison"), grading.Answer("target-scope", flag=True)
    ).mistakes[0],
    "shown block": lambda: case_html.HtmlBlock("<p>x</p>", "x"),
}


@pytest.mark.parametrize("make", RESULTS.values(), ids=RESULTS.keys())
def test_a_result_cannot_be_changed(make):
    result = make()
    field = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, field, ())


@pytest.mark.parametrize("make", RESULTS.values(), ids=RESULTS.keys())
def test_equal_results_hash_alike_and_work_as_keys(make):
    first, second = make(), make()
    assert first == second and hash(first) == hash(second)
    assert {first: "seen"}[second] == "seen"
    assert len({first, second}) == 1
