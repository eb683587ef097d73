"""What the trainer's replay takes short: each recorded time as the file wrote it (its own text), and a
check scored without the feedback a trainee reads (the same attempt recorded)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace

import pytest
from budget import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from trainees import _blind_answer, perfect, run

from helpers.core.errors import InvalidInputError
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.replay import _Clock, replay_drill
from helpers.trainee.drill.times import now_text, parse_time
from helpers.trainee.grading import Answer
from helpers.trainee.progress.files import TraineeProgress

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


# --- replay_drill: the engine serves and scores the file's attempts again -------------------------


def _worked(cases: int = 5):
    session, _ = run(perfect, 3, limit=cases)
    return TraineeProgress(session.record())


def test_a_drill_worked_by_the_engine_replays_clean_and_an_empty_one_too():
    assert replay_drill(_worked()) == []
    empty = _worked()
    empty.mastery.attempts.clear()
    assert replay_drill(empty) == []


def test_attempts_in_another_order_are_named_at_the_first_case_served_otherwise():
    progress = _worked()
    attempts = progress.mastery.attempts
    first, second = attempts[0], attempts[1]
    attempts[0] = replace(second, number=1, served=first.served, answered=first.answered)
    attempts[1] = replace(first, number=2, served=second.served, answered=second.answered)
    assert replay_drill(progress) == [
        f"case 1: replayed from the drill's seed, the engine serves {first.rule} (seed {first.seed}, no "
        f"look-alike kind) here after the cases before it; the file has {second.rule} (seed {second.seed}, "
        "no look-alike kind): re-ordered or edited attempts"
    ]


def test_an_attempt_the_engine_records_otherwise_is_named_with_its_fields():
    progress = _worked()
    third = progress.mastery.attempts[2]
    progress.mastery.attempts[2] = replace(third, outcome="helped", correct=False)
    assert replay_drill(progress) == [
        'case 3: replayed, the engine records another attempt than the file: outcome "helped" (the engine '
        'records "correct"); correct false (the engine records true)'
    ]


# --- the states the load worked out, taken by the engine as it records the same attempts ---------


def _drill(outcomes: list[bool], gaps: list[int]) -> DrillSession:
    """A drill answered right or wrong in turn, each case ``gaps`` hours after the one before."""
    moment = [dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)]
    session = DrillSession.start(seed=21, clock=lambda: moment[0])
    for right, gap in zip(outcomes, gaps, strict=False):
        moment[0] += dt.timedelta(hours=gap)
        view = session.next_case()
        session.check(_blind_answer(view, None) if right else Answer(view.check))
    return session


@settings(max_examples=examples(30), deadline=None)
@given(
    outcomes=st.lists(st.booleans(), min_size=1, max_size=40),
    gaps=st.lists(st.sampled_from([0, 1, 30, 400]), min_size=40, max_size=40),
    edited=st.integers(min_value=0, max_value=45),
)
@example(outcomes=[True] * 40, gaps=[30] * 40, edited=45)  # rules mastered, then due in days
def test_a_drill_following_the_loaded_states_stands_where_recording_afresh_does(outcomes, gaps, edited):
    """Case by case, and past an attempt other than the loaded one (then it works them out itself)."""
    m = _drill(outcomes, gaps).mastery
    loaded = Mastery.replay(m.rules, seed=m.seed, facets=m.facets, attempts=m.attempts, keep_steps=True)
    attempts = list(m.attempts)
    if edited < len(attempts):
        flipped = "missed" if attempts[edited].outcome == "correct" else "correct"
        attempts[edited] = replace(attempts[edited], outcome=flipped)
        # edited in place after the load too: the states it kept are still the load's
        loaded.attempts[edited] = attempts[edited]
    follower, afresh = (
        Mastery.start(m.rules, seed=m.seed, facets=m.facets),
        Mastery.start(m.rules, seed=m.seed, facets=m.facets),
    )
    follower.follow(loaded)
    for attempt in attempts:
        follower.record(attempt)
        afresh.record(attempt)
        assert follower.states == afresh.states and follower.facet_states == afresh.facet_states
        later = now_text(parse_time(attempt.served) + dt.timedelta(days=400))
        assert follower.due(later) == afresh.due(later)
        assert follower.next_rule(later) == afresh.next_rule(later)
    assert follower.attempts == afresh.attempts
    assert loaded.states == Mastery.replay(m.rules, seed=m.seed, facets=m.facets, attempts=m.attempts).states


def test_the_engine_takes_the_loaded_states_only_from_the_same_start():
    m = _drill([True, False, True], [1, 1, 1]).mastery
    loaded = Mastery.replay(m.rules, seed=m.seed, facets=m.facets, attempts=m.attempts, keep_steps=True)
    other_seed = Mastery.start(m.rules, seed=m.seed + 1, facets=m.facets)
    other_seed.follow(loaded)
    plain = Mastery.start(m.rules, seed=m.seed, facets=m.facets)
    plain.follow(Mastery.replay(m.rules, seed=m.seed, facets=m.facets, attempts=m.attempts))
    assert "_following" not in other_seed.__dict__ and "_following" not in plain.__dict__
    same = Mastery.start(m.rules, seed=m.seed, facets=m.facets)
    same.follow(loaded)
    assert "_following" in same.__dict__
