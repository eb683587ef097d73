"""The set course (``helpers/trainee/drill/course_session.py``): fixed cases in a seeded order, scored once each."""

from __future__ import annotations

import pytest
from trainees import Clock

from helpers.core.errors import InvalidInputError
from helpers.trainee.answers import Answer, correct_answer
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.drill.course import drill_order
from helpers.trainee.drill.course_session import CourseSession


def _course(size: int = 4) -> CourseSession:
    return CourseSession.start(seed=1, size=size, clock=Clock())


def test_the_cases_come_in_the_seeded_order_labelled_by_number() -> None:
    course = _course()
    order = [case.key for case in drill_order(practice_cases(), 1, size=4)]
    assert list(course.progress.order) == order
    labels = []
    while (view := course.next_case()) is not None:
        labels.append(view.label)
        assert course.current_case is not None and course.current_case.key == order[view.number - 1]
        course.check(correct_answer(course.current_case))
    assert labels == [f"Case {n} of 4" for n in range(1, 5)]
    assert course.progress.finished and course.progress.correct == 4 and course.current_case is None


def test_each_way_of_working_a_case_scores_as_the_course_says() -> None:
    course = _course(size=4)
    course.next_case()
    course.check(correct_answer(course.current_case))
    course.next_case()
    course.hint()
    course.check(correct_answer(course.current_case))
    course.next_case()
    course.reveal()
    course.next_case()
    course.next_case()  # the fourth, never checked, is skipped
    assert [attempt.how for attempt in course.progress.attempts.values()] == [
        "correct",
        "helped",
        "revealed",
        "skipped",
    ]
    assert [attempt.correct for attempt in course.progress.attempts.values()] == [True, False, False, False]
    assert course.progress.score_line() == "Score: 1 of 4 correct (25%) · 4 of 4 cases done"


def test_a_missed_case_keeps_the_rule_it_was_about() -> None:
    course = _course()
    course.next_case()
    case = course.current_case
    course.check(Answer(case.check))
    (attempt,) = course.progress.attempts.values()
    assert not attempt.correct and attempt.rules_missed[0] == case.rules[0]


def test_one_checks_course_and_an_empty_one_is_refused() -> None:
    course = CourseSession.start(seed=2, check="sentinels", clock=Clock())
    assert {case.check for case in course.cases} == {"sentinels"}
    assert course.progress.total == len(practice_cases("sentinels"))
    with pytest.raises(InvalidInputError, match="a drill needs at least one practice case"):
        CourseSession.start(cases=[])
