"""What every drill shares (``helpers/trainee/drill/case_engine.py``): one case open, hints, one scored check."""

from __future__ import annotations

import pytest
from trainees import Clock

from helpers.core.errors import InvalidInputError
from helpers.trainee.answers import Answer, correct_answer
from helpers.trainee.drill.course_session import CourseSession
from helpers.trainee.hints import hints


def _opened() -> CourseSession:
    engine = CourseSession.start(seed=1, size=3, clock=Clock())
    engine.next_case()
    return engine


def test_nothing_can_be_worked_before_a_case_is_open() -> None:
    engine = CourseSession.start(seed=1, size=3, clock=Clock())
    assert engine.current is None and engine.current_check is None and engine.shown_hints() == []
    for act in (engine.hint, engine.reveal, lambda: engine.check(Answer("sentinels"))):
        with pytest.raises(InvalidInputError, match=r"no case is open: call next_case\(\) first"):
            act()


def test_only_the_first_check_is_scored_and_the_rule_is_named_only_after_it() -> None:
    engine = _opened()
    case = engine.current_case
    assert engine.scored_rule is None and engine.worked_case() is None
    first = engine.check(Answer(case.check))
    assert first.scored and first.outcome == "missed" and not first.correct
    assert first.text.splitlines()[0] == "Not yet right:"
    assert first.text.splitlines()[-2] == "Scored: missed. This rule comes round again soon."
    assert first.text.splitlines()[-1].startswith(f"This case was about {case.rules[0]}: ")
    again = engine.check(correct_answer(case))
    assert again.correct and not again.scored and again.outcome is None and again.mistakes == ()
    assert again.text == "Fully correct.\nThis case was already scored; checking again gives feedback only."
    assert engine.scored_rule == case.rules[0] and engine.worked_case() is case


def test_an_answer_for_the_other_check_is_refused() -> None:
    engine = _opened()
    other = "sentinels" if engine.current_check == "target-scope" else "target-scope"
    with pytest.raises(InvalidInputError, match="the answer is for"):
        engine.check(Answer(other))
    assert engine.current_scored is None


def test_hints_climb_the_ladder_and_stop_at_its_last_rung() -> None:
    engine = _opened()
    ladder = hints(engine.current_case, rules=engine.rules)
    assert [engine.hint() for _ in range(len(ladder) + 2)] == [*ladder, ladder[-1], ladder[-1]]
    assert engine.hints_used == len(ladder) and engine.shown_hints() == ladder


def test_a_reveal_before_a_check_is_scored_as_a_miss_and_shows_the_worked_answer() -> None:
    engine = _opened()
    case = engine.current_case
    shown = engine.reveal().splitlines()
    assert shown[0].startswith("Expected output: {") and shown[-1].startswith(f"The rule: {case.rules[0]}: ")
    assert engine.current_scored.how == "revealed"
    assert engine.check(correct_answer(case)).scored is False


def test_the_view_shows_the_case_without_its_answer() -> None:
    engine = _opened()
    view, case = engine.current, engine.current_case
    assert view.label == "Case 1 of 3" and view.check == case.check
    assert set(view.ids) >= set(correct_answer(case).missing)
    assert "expected" not in view.input and len(view.reason_options) == 5
