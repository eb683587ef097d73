"""Feedback that doesn't hand over the answer, the hint ladder, the reason, and the mastery drill.

Driven with no front end, through ``.value`` and ``.click()``.
"""

from __future__ import annotations

import dataclasses
import html
import re

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import helpers
from helpers.core.chardiff import visible_id
from helpers.trainee.cases.filled import Case, get_case
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import (
    REASON_OPTIONS,
    Answer,
    candidate_ids,
    correct_answer,
    decisive_rules,
    grade,
    hints,
    reason_options,
)
from helpers.trainee.widgets import CaseExercise

RULES = load_rules()
RULE_BY_ID = {rule.id: rule for rule in RULES}
GENERATED = [generate(rule, seed) for rule in GENERATORS for seed in (0, 1, 7)]
CASES: list[Case] = [*helpers.filled_cases(), *practice_cases(), *GENERATED]


def _unmarked(case: Case, answer: Answer) -> list[str]:
    marked = answer.missing | answer.second
    return [i for i in candidate_ids(case) if i not in marked]


def _without_quotes(text: str) -> str:
    """Feedback text without its backticked fields and IDs (the trainee's own marks)."""
    return re.sub(r"`[^`]*`", "", text)


def _assert_leak_free(case: Case, answer: Answer, messages: list[str], shown: str) -> None:
    marked_shown = [visible_id(i) for i in answer.missing | answer.second]
    for case_id in _unmarked(case, answer):
        seen = visible_id(case_id)
        for message in messages:
            assert f"`{seen}`" not in message, (case.id, case_id, message)
            bare = _without_quotes(message)
            if len(seen) >= 4 and not any(seen in m for m in marked_shown):
                assert seen not in bare, (case.id, case_id, message)
        assert f'<code class="eic-id">{html.escape(seen, quote=True)}</code>' not in shown, (case.id, case_id)
    for message in messages:
        # No expected flag value: never "true"/"false", never "should be".
        assert not re.search(r"\b(true|false|should be)\b", _without_quotes(message), re.IGNORECASE), message


@st.composite
def case_and_answer(draw: st.DrawFn) -> tuple[Case, Answer]:
    case = draw(st.sampled_from(CASES))
    ids = candidate_ids(case)
    pick = st.frozensets(st.sampled_from(ids), max_size=len(ids)) if ids else st.just(frozenset())
    choices = [rule.id for rule in reason_options(case, rules=RULES)]
    return case, Answer(
        case.check,
        missing=draw(pick),
        second=draw(pick),
        flag=draw(st.sampled_from([True, False, None])),
        hold=draw(st.booleans()),
        reason=draw(st.sampled_from([None, *choices])),
    )


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case_and_answer())
def test_feedback_before_any_hint_names_no_unmarked_id_and_no_expected_flag(drawn) -> None:
    case, answer = drawn
    exercise = CaseExercise(case, rules=RULES)
    exercise.set_answer(answer)
    result = exercise.check()
    assert exercise.hints_used == 0 and not exercise.revealed
    unset = (answer.flag is None and not answer.hold) or (exercise.asks_reason and answer.reason is None)
    assert (result is None) == unset  # an answer with its flag or reason unset is not graded
    if result is None:
        assert "Still unset" in exercise.feedback.value and "Not yet" not in exercise.feedback.value
        _assert_leak_free(case, answer, [], exercise.feedback.value)
        return
    _assert_leak_free(case, answer, [m.message for m in result.mistakes], exercise.feedback.value)
    if not result.correct:
        assert "✘" in exercise.feedback.value and "Not yet" in exercise.feedback.value
        for mistake in result.mistakes:
            assert mistake.message.startswith(f"`{mistake.field}`"), mistake.message  # names the field
            assert mistake.rule in RULE_BY_ID  # and the rule to apply


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.check}/{c.id}")
def test_every_case_blank_and_right_answers(case: Case) -> None:
    blank = Answer(case.check)
    result = grade(case, blank, ask_reason=True, rules=RULES)
    assert not result.correct
    _assert_leak_free(case, blank, [m.message for m in result.mistakes], "")
    assert grade(case, correct_answer(case), ask_reason=True, rules=RULES).correct


@pytest.mark.parametrize("case", CASES[:6] + GENERATED[::5], ids=lambda c: f"{c.check}/{c.id}")
def test_the_hint_ladder_goes_method_then_where_then_the_rule(case: Case) -> None:
    ladder = hints(case, rules=RULES)
    assert [rung.split(",")[0] for rung in ladder] == ["Hint 1 of 3", "Hint 2 of 3", "Hint 3 of 3"]
    (rule,) = decisive_rules(case)
    assert "the method" in ladder[0] and "where to look" in ladder[1]
    assert rule in ladder[2] and RULE_BY_ID[rule].statement in ladder[2]
    assert rule not in ladder[0] + ladder[1]
    # The ladder is the case's alone: it never pre-checks an answer or names what to tick.
    _assert_leak_free(case, Answer(case.check), ladder, "")
    assert all("already right" not in rung and "Tick " not in rung for rung in ladder)


def test_hint_three_names_the_rule_then_points_to_the_worked_answer() -> None:
    case = get_case("lost-comparison")
    exercise = CaseExercise(case)
    exercise.flag.value = False
    shown = [exercise.hint() for _ in range(3)]
    assert shown[0].startswith("Hint 1 of 3, the method")
    assert all("refresher" not in rung for rung in shown)
    assert shown[2].startswith("Hint 3 of 3, the rule that decides this case: ts-lost.")
    assert exercise.hints_used == 3 and exercise.hint_button.disabled
    assert "Next comes the worked answer" in exercise.hint_view.value
    assert 'role="status"' in exercise.hint_view.value
    # The reveal stays free in notebooks 02 and 03.
    exercise.reveal_button.click()
    assert exercise.revealed and exercise.reveal.value


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.check}/{c.id}")
def test_the_reason_offers_the_right_rules_and_distractors_from_the_same_check(case: Case) -> None:
    choices = reason_options(case, rules=RULES)
    right = set(decisive_rules(case))
    assert right and right <= {rule.id for rule in choices}
    assert all(rule.check == case.check for rule in choices)
    assert len([r for r in choices if r.id not in right]) == REASON_OPTIONS - 1
    assert reason_options(case, rules=RULES) == choices  # deterministic


def test_a_wrong_reason_gets_one_sentence_on_why_that_rule_does_not_apply() -> None:
    case = get_case("reordered-targets")
    exercise = CaseExercise(case)
    wrong = next(r for r in exercise.choices if r.id != "ts-order")
    exercise.set_answer(Answer(case.check, flag=True, reason=wrong.id))
    result = exercise.check()
    assert not result.correct
    (mistake,) = result.mistakes
    assert mistake.field == "reason" and mistake.rule == "ts-order"
    assert wrong.not_here and wrong.not_here in mistake.message
    assert "ts-order" not in mistake.message
    exercise.reason.value = "ts-order"
    assert exercise.check().correct
    assert "✔ Fully correct" in exercise.feedback.value


def test_every_rule_has_a_not_here_sentence() -> None:
    for rule in RULES:
        assert rule.not_here.endswith(".") and rule.not_here.count(". ") == 0, rule.id


def test_a_reason_no_rule_has_gets_the_plain_sentence() -> None:
    from helpers.trainee.grading import grade_reason

    case = get_case("lost-comparison")
    (unknown,) = grade_reason(case, "ts-retired", RULES)
    assert (
        unknown.message
        == "`reason` is wrong: ts-retired doesn't apply here. That rule does not decide this case."
    )
    silent = [dataclasses.replace(rule, not_here="") for rule in RULES]
    (plain,) = grade_reason(case, "ts-added", silent)
    assert plain.message.endswith("doesn't apply here. That rule does not decide this case.")
