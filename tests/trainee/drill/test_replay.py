"""What the trainer's replay takes short: each recorded time as the file wrote it (its own text), and a
check scored without the feedback a trainee reads (the same attempt recorded)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from trainees import _blind_answer

from helpers.core.errors import InvalidInputError
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.replay import _Clock
from helpers.trainee.drill.times import now_text, parse_time
from helpers.trainee.grading import Answer

_MOMENTS = st.datetimes(
    min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(9999, 12, 31, 23, 59, 59), timezones=st.just(dt.UTC)
).map(lambda moment: moment.replace(microsecond=0))


@settings(max_examples=examples(400), deadline=None)
@given(_MOMENTS)
def test_a_recorded_time_in_the_files_form_is_its_own_text(moment):
    text = now_text(moment)
    clock = _Clock()
    clock.set(text)
    assert clock.text == text == now_text(clock()) and clock() == moment


@settings(max_examples=examples(200), deadline=None)
@given(_MOMENTS, st.sampled_from(["%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%-H:%-M:%-SZ", "%Y-%-m-%-dT%H:%M:%SZ"]))
def test_a_time_in_another_form_is_written_out_again(moment, form):
    text = moment.strftime(form).replace(moment.strftime("%Y"), f"{moment.year:04d}", 1)
    clock = _Clock()
    clock.set(text)
    assert clock() == parse_time(text) == moment and clock.text == now_text(moment)


def test_the_engine_tells_the_time_the_clock_keeps_and_reads_any_other_clock():
    clock = _Clock()
    clock.set("2026-11-02T09:00:30Z")
    session = DrillSession.start(seed=5, clock=clock)
    assert session.now() == "2026-11-02T09:00:30Z"
    clock.text = "not the time"  # the text is what the engine takes, not the moment
    assert session.now() == "not the time"
    plain = DrillSession.start(seed=5, clock=lambda: dt.datetime(2026, 11, 2, 10, 0, 1, 7, tzinfo=dt.UTC))
    assert plain.now() == "2026-11-02T10:00:01Z"


def test_a_check_scored_without_its_feedback_records_the_same_attempts():
    moment = [dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)]
    checked = DrillSession.start(seed=11, clock=lambda: moment[0])
    scored = DrillSession.start(seed=11, clock=lambda: moment[0])
    rng = random.Random(3)
    for _ in range(60):
        moment[0] += dt.timedelta(seconds=40)
        view = checked.next_case()
        scored.serve()
        answer = _blind_answer(view, None) if rng.random() < 0.8 else Answer(view.check)
        moment[0] += dt.timedelta(seconds=20)
        checked.check(answer)
        scored.score(answer)
    assert scored.mastery.attempts == checked.mastery.attempts and len(checked.mastery.attempts) == 60
    assert {a.outcome for a in checked.mastery.attempts} >= {"correct", "missed"}
    scored.serve()
    other = "sentinels" if scored.current_check == "target-scope" else "target-scope"
    with pytest.raises(InvalidInputError, match="the answer is for"):
        scored.score(Answer(other))
    assert len(scored.mastery.attempts) == 60
