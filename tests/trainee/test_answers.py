"""The trainee's answer and the right one (``helpers/trainee/answers.py``): fields, output shape, candidates."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.answers import (
    FILLED_CASE_RULES,
    Answer,
    answer_fields,
    answer_key,
    candidate_ids,
    correct_answer,
    decisive_rules,
    id_list,
    keyed_rule_of,
)
from helpers.trainee.cases.filled import filled_cases, get_case


def test_each_check_names_its_two_lists_and_its_flag() -> None:
    assert answer_fields("target-scope") == ("missing", "added", "preserved")
    assert answer_fields("sentinels") == ("missing", "changed", "intact")
    with pytest.raises(KeyError):
        answer_fields("spelling")


def test_an_answer_stands_for_the_output_it_describes() -> None:
    lost = get_case("lost-comparison")
    answer = Answer("target-scope", missing=frozenset({"b", "a"}), second=frozenset({"c"}), flag=False)
    assert answer.as_dict(lost) == {"missing": ["a", "b"], "added": ["c"], "preserved": False}
    held = {"original": ["x"], "rewritten": [], "unresolved": ["the Q3 report", "payroll", "payroll"]}
    assert Answer("target-scope", hold=True).as_dict(replace(lost, input=held)) == {
        "held": "needs staff labels",
        "unresolved": ["payroll", "the Q3 report"],
        "preserved": False,
    }
    assert Answer("sentinels", hold=True).as_dict(get_case("sentinel-mutated")) == {
        "error": "the check refuses this input"
    }


@pytest.mark.parametrize("case", filled_cases(), ids=lambda case: case.id)
def test_the_right_answer_is_the_expected_output_with_its_deciding_rule(case) -> None:
    right = correct_answer(case)
    assert right.as_dict(case) == dict(case.expected)
    assert right.reason == FILLED_CASE_RULES[case.id][0] == decisive_rules(case)[0] == keyed_rule_of(case)


def test_candidates_are_every_id_of_both_sides_sorted_once() -> None:
    assert candidate_ids(get_case("lost-comparison")) == ["induction", "refresher"]
    assert candidate_ids(get_case("new-case-only")) == ["C2", "S1"]
    odd = replace(get_case("new-target"), input={"original": ["b", 3, None], "rewritten": "not a list"})
    assert candidate_ids(odd) == ["b"]
    assert id_list(["a", 1, "b"]) == ["a", "b"] and id_list({"a": "b"}) == []
    assert answer_key({"S1": "R"}) == {"S1": "R"} and answer_key(["S1"]) == {}


def test_a_case_without_rules_or_a_filled_entry_has_no_deciding_rule() -> None:
    stranger = replace(get_case("lost-comparison"), id="not-a-filled-case")
    assert decisive_rules(stranger) == ()
    assert correct_answer(stranger).reason is None


ids = st.frozensets(st.text(max_size=5), max_size=4)


@given(
    st.builds(
        Answer,
        check=st.sampled_from(["target-scope", "sentinels"]),
        missing=ids,
        second=ids,
        flag=st.sampled_from([None, True, False]),
        hold=st.booleans(),
        reason=st.one_of(st.none(), st.text(max_size=8)),
    )
)
def test_the_stored_form_gives_back_the_same_answer(answer: Answer) -> None:
    assert Answer.from_data(answer.to_data()) == answer
