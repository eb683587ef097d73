"""The guard in conftest.py: a widget callback that raises fails the test that clicked."""

from __future__ import annotations

import ipywidgets as w
import pytest

from helpers.trainee.grading import correct_answer
from helpers.trainee.widgets import CaseExercise


def test_a_raising_button_callback_reaches_the_test():
    button = w.Button(description="Boom")

    def boom(_):
        raise RuntimeError("callback broke")

    button.on_click(boom)
    with pytest.raises(RuntimeError, match="callback broke"):
        button.click()


def test_a_broken_grade_fails_the_check_click(filled, monkeypatch):
    exercise = CaseExercise(filled[0])

    def broken(*_args, **_kwargs):
        raise RuntimeError("grade broke")

    exercise.set_answer(correct_answer(filled[0]))  # a complete answer: Check grades it
    monkeypatch.setattr("helpers.trainee.widgets.exercise.grade", broken)
    with pytest.raises(RuntimeError, match="grade broke"):
        exercise.check_button.click()
