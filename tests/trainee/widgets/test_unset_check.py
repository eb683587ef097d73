"""Check with the flag or the reason unset names what is unset and scores nothing, in every widget with Check.

The filled-case exercise (02, 03), the set course and the mastery drill (04), driven with no front end.
In a drill nothing is recorded: no attempt, no miss, no streak lost; the case stays open, and the
first complete check is the one scored.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from trainees import _blind_answer

from helpers.trainee.cases.filled import get_case
from helpers.trainee.grading import Answer, Grade, correct_answer
from helpers.trainee.widgets import CaseExercise, MasteryDrill, PracticeDrill

FLAG = {"target-scope": "preserved", "sentinels": "intact"}
TICK = {"target-scope": "Hold", "sentinels": "Refuse"}


def _expected_unset(check: str, answer: Answer) -> list[str]:
    parts = []
    if answer.flag is None and not answer.hold:
        parts.append(f"{FLAG[check]} (true or false, or tick {TICK[check]})")
    if answer.reason is None:
        parts.append("the reason")
    return parts


PARTLY = [
    pytest.param({}, id="nothing-set"),
    pytest.param({"flag": False}, id="reason-unset"),
    pytest.param({"hold": True}, id="held-reason-unset"),
    pytest.param({"reason": "right"}, id="flag-unset"),
    pytest.param({"reason": "right", "missing": True}, id="ids-ticked-flag-unset"),
]


def _partial(case, parts: dict) -> Answer:
    right = correct_answer(case)
    return Answer(
        case.check,
        missing=right.missing if parts.get("missing") else frozenset(),
        flag=parts.get("flag"),
        hold=parts.get("hold", False),
        reason=right.reason if parts.get("reason") else None,
    )


@pytest.mark.parametrize("case_id", ["lost-comparison", "sentinel-missing"])
@pytest.mark.parametrize("parts", PARTLY)
def test_the_exercise_names_what_is_unset_and_grades_nothing(case_id: str, parts: dict) -> None:
    case = get_case(case_id)
    graded: list[Grade] = []
    exercise = CaseExercise(case, on_graded=graded.append)
    answer = _partial(case, parts)
    exercise.set_answer(answer)
    assert exercise.check() is None
    exercise.check_button.click()
    shown = exercise.feedback.value
    assert graded == [] and "⚠ Not checked yet." in shown and 'role="alert"' in shown
    assert f"Still unset: {', '.join(_expected_unset(case.check, answer))}." in shown
    assert "Not yet" not in shown and "Fully correct" not in shown  # not graded, right or wrong
    exercise.set_answer(correct_answer(case))
    exercise.check_button.click()
    assert [g.correct for g in graded] == [True] and "Fully correct" in exercise.feedback.value


def test_an_exercise_without_a_reason_question_asks_only_for_the_flag() -> None:
    case = get_case("lost-comparison")
    exercise = CaseExercise(case, ask_reason=False)
    exercise.check_button.click()
    assert "Still unset: preserved (true or false, or tick Hold)." in exercise.feedback.value
    exercise.flag.value = False
    assert exercise.check() is not None


@pytest.mark.parametrize("parts", PARTLY)
def test_the_set_course_scores_nothing_while_a_part_is_unset(tmp_path, monkeypatch, parts: dict) -> None:
    monkeypatch.chdir(tmp_path)
    drill = PracticeDrill(size=3)
    case, area = drill.current, drill.exercise
    assert case is not None and area is not None
    answer = _partial(case, parts)
    area.set_answer(answer)
    area.check_button.click()
    assert f"Still unset: {', '.join(_expected_unset(case.check, answer))}." in drill.area.feedback.value
    assert drill.progress.done == 0 and drill.progress.attempts == {} and drill.bar.value == 0
    assert drill.scored.value == "" and drill.next_button.disabled  # the case stays open
    assert "nothing checked yet" in drill.score.value
    area.set_answer(correct_answer(case))
    area.check_button.click()
    assert drill.progress.correct == 1 and "✔ Scored: correct first try, unaided." in drill.scored.value


def _open_rule(drill: MasteryDrill) -> str:
    """The rule of the case on show, which the engine keeps to itself until the case is scored."""
    opened = drill.session._open
    assert opened is not None
    return opened.rule


def _snapshot(drill: MasteryDrill):
    m = drill.session.mastery
    return (
        m.step,
        list(drill.session.attempts),
        copy.deepcopy(m.states),
        copy.deepcopy(m.facet_states),
        m.record_so_far(),
    )


def test_the_mastery_drill_records_nothing_loses_no_streak_and_scores_the_next_complete_check() -> None:
    drill = MasteryDrill(seed=11)
    m = drill.session.mastery
    # Work right answers until the case on show is about a rule with a streak to lose.
    for _ in range(60):
        if m.states[_open_rule(drill)].streak >= 1:
            break
        drill.set_answer(_blind_answer(drill.view, None))
        drill.check_button.click()
        drill.next_button.click()
    rule, view = _open_rule(drill), drill.view
    assert m.states[rule].streak >= 1 and view is not None
    before = _snapshot(drill)
    right = _blind_answer(view, None)
    for unset in (Answer(view.check), replace(right, reason=None)):
        drill.set_answer(unset)
        drill.check_button.click()
        assert "Still unset" in drill.feedback.value and "the reason" in drill.feedback.value
        assert _snapshot(drill) == before  # no attempt, no miss, no streak lost
        assert drill.session.current_scored is None and drill.scored_view.value == ""
        assert drill.next_button.description == "Skip this case (counts as a miss)"
    assert "This case was about" not in drill.scored_view.value  # the rule is not named: nothing was scored
    # The first complete check is the one scored: here a wrong reason, which does lose the streak.
    wrong = next(r for _text, r in view.reason_options if r != right.reason)
    drill.set_answer(replace(right, reason=wrong))
    drill.check_button.click()
    assert drill.session.attempts[-1].outcome == "missed" and m.step == before[0] + 1
    assert m.states[rule].streak == 0


def test_the_own_drill_after_start_also_scores_nothing_while_a_part_is_unset(tmp_path) -> None:
    drill = MasteryDrill(path=tmp_path / "mine.json")
    drill.start_button.click()
    drill.check_button.click()
    assert "Still unset" in drill.feedback.value
    assert drill.session.attempts == [] and drill.session.mastery.step == 0
    assert "Unsaved work" not in drill.unsaved.value
