"""The verdict on one check of a drill case (``helpers/trainee/drill/check_result.py``)."""

from __future__ import annotations

import dataclasses

import pytest
from trainees import Clock

from helpers.trainee.answers import Answer, correct_answer
from helpers.trainee.drill.check_result import CheckResult
from helpers.trainee.drill.course_session import CourseSession


def test_a_verdict_is_fixed_once_given() -> None:
    result = CheckResult(True, "Fully correct.", True, "correct", (), "ts-lost")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.correct = False  # type: ignore[misc]
    assert result == CheckResult(True, "Fully correct.", True, "correct", (), "ts-lost")


def test_the_mistakes_name_fields_and_rules_never_the_expected_ids() -> None:
    course = CourseSession.start(seed=3, size=2, clock=Clock())
    course.next_case()
    case = course.current_case
    result = course.check(Answer(case.check, flag=True))
    assert isinstance(result, CheckResult) and not result.correct
    assert result.scored and result.outcome == "missed" and result.rule == case.rules[0]
    assert result.mistakes and all(message.startswith(f"`{field}`") for field, message in result.mistakes)
    expected = correct_answer(case)
    for hidden in expected.missing | expected.second:
        assert all(f"`{hidden}`" not in message for _field, message in result.mistakes)
