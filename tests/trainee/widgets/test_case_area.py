"""The case on show in a drill (``helpers/trainee/widgets/case_area.py``), over a real engine, no front end."""

from __future__ import annotations

from trainees import Clock

from helpers.trainee.answers import Answer, correct_answer
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.course_session import CourseSession
from helpers.trainee.views.answer_html import HIDE_SUMMARY, REVEAL_SUMMARY
from helpers.trainee.widgets.case_area import OUTCOME_NOTES, CaseArea, input_html

RULES = load_rules()


def _area(next_label: str = "Next case") -> tuple[CaseArea, CourseSession, list[int]]:
    course = CourseSession.start(seed=1, size=3, clock=Clock(), rules=RULES)
    scored: list[int] = []
    area = CaseArea(lambda: course, RULES, on_scored=lambda: scored.append(1), next_label=next_label)
    area.show(course.next_case())
    return area, course, scored


def test_a_case_shows_its_input_and_fresh_controls_and_none_left_shows_the_end() -> None:
    area, course, _ = _area()
    view = course.current
    assert area.case_view.value.endswith(str(input_html(view)) + "</div>")
    assert f"<b>Supplied input</b> for {view.label}:" in area.case_view.value
    assert area.describe_lines()[0] == f"  {view.label} ({view.check})"
    assert "The JSON you are building" in area.live.value and "not picked yet" in area.live.value
    area.show(None)
    assert area.inputs is None and area.slot.children == () and area.describe_lines() == []
    assert area.buttons.layout.display == "none"


def test_a_check_with_the_flag_or_reason_unset_records_nothing() -> None:
    area, course, scored = _area()
    area.check_button.click()
    assert "Still unset" in area.feedback.value and course.current_scored is None and scored == []


def test_the_first_check_scores_and_the_note_names_the_rule_and_what_comes_next() -> None:
    area, course, scored = _area(next_label="Onwards")
    case = course.current_case
    area.set_answer(correct_answer(case))
    assert area.answer() == correct_answer(case)
    area.check_button.click()
    assert "✔ Fully correct." in area.feedback.value and scored == [1]
    note = area.scored_view.value
    assert OUTCOME_NOTES["correct"] in note and f"This case was about <code>{case.rules[0]}</code>:" in note
    assert "Press <b>Onwards</b> when you are ready." in note
    area.set_answer(Answer(case.check, flag=not correct_answer(case).flag, reason=case.rules[0]))
    area.check_button.click()
    assert "Checking again gives feedback but does not change your score." in area.scored_view.value
    assert course.current_scored.how == "correct"


def test_hints_run_out_and_a_hinted_right_answer_is_helped() -> None:
    area, course, _ = _area()
    for _ in range(3):
        area.hint_button.click()
    assert area.hint_button.disabled and "That was the last hint." in area.hint_view.value
    area.set_answer(correct_answer(course.current_case))
    area.check_button.click()
    assert OUTCOME_NOTES["helped"] in area.scored_view.value and area.hint_view.value == ""


def test_the_worked_answer_toggles_and_scores_a_miss_when_shown_first() -> None:
    area, course, scored = _area()
    area.reveal_button.click()
    assert (
        area.reveal_button.description == HIDE_SUMMARY and "Expected structured output" in area.reveal.value
    )
    assert course.current_scored.how == "revealed" and OUTCOME_NOTES["revealed"] in area.scored_view.value
    area.reveal_button.click()
    assert area.reveal.value == "" and area.reveal_button.description == REVEAL_SUMMARY and scored == [1]
