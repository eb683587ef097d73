"""A rule's spaced review: FSRS over its scored cases, made only when asked for, never sooner than a day."""

from __future__ import annotations

import dataclasses
import datetime as dt
import pickle

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.times import now_text

T0 = "2026-12-01T09:00:00Z"


def attempt(number: int, rule: str, outcome: str, *, when: str = T0) -> MasteryAttempt:
    return MasteryAttempt(
        number=number,
        rule=rule,
        seed=number,
        facet=None,
        facets=(),
        options=(),
        answer=None,
        outcome=outcome,
        correct=outcome in ("correct", "helped"),
        hints=1 if outcome == "helped" else 0,
        revealed=outcome == "revealed",
        served=when,
        answered=when,
    )


def feed(mastery: Mastery, *items: tuple[str, str]) -> None:
    for rule, outcome in items:
        mastery.record(attempt(mastery.step + 1, rule, outcome))


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=40 * 86_400), st.booleans()), min_size=1, max_size=12
    )
)
def test_fsrs_never_schedules_a_review_sooner_than_a_day_so_due_may_skip_recent_cards(reviews) -> None:
    """``Mastery.due`` works out no card for a rule reviewed less than a day ago: FSRS with no
    learning steps never schedules a review sooner. This holds that fact to the scheduler itself."""
    from helpers.trainee.drill import schedule

    moment = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)
    card = None
    for gap, good in reviews:
        moment += dt.timedelta(seconds=gap)
        card = schedule._review(card, 0, good, moment)
        assert card.due >= moment + dt.timedelta(seconds=schedule.LEAST_INTERVAL)


def test_a_rules_card_is_fsrs_over_its_scored_cases_however_late_it_is_asked_for() -> None:
    from fsrs import Card, Rating, Scheduler

    scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    outcomes = ["correct", "missed", "correct", "correct", "helped", "correct"] * 400
    days = [
        dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC) + dt.timedelta(hours=7 * n) for n in range(len(outcomes))
    ]
    asked, late = Mastery.start(["a", "b"], seed=1), Mastery.start(["a", "b"], seed=1)
    for n, (outcome, day) in enumerate(zip(outcomes, days, strict=True), start=1):
        for m in (asked, late):
            m.record(attempt(n, "b", outcome, when=now_text(day)))
        if n % 7 == 0:
            assert asked.states["b"].card is not None  # asked for now and then
    card = Card(card_id=2, due=days[0])
    for outcome, day in zip(outcomes, days, strict=True):
        card, _log = scheduler.review_card(card, Rating.Good if outcome == "correct" else Rating.Again, day)
    shipped = pickle.loads(pickle.dumps(late))  # a drill of 2,400 cases pickles before its card is made
    partly = pickle.loads(pickle.dumps(asked))  # and after a card part of the way
    assert late.states["b"].card == card == shipped.states["b"].card == partly.states["b"].card
    assert asked.states["b"].card == card
    assert shipped.states == late.states and shipped.states["a"].card is None
    assert late.states["b"].review_due() == now_text(card.due)


def test_a_scored_case_too_late_for_any_review_date_is_refused() -> None:
    m = Mastery.start(["a"], seed=1)
    with pytest.raises(InvalidInputError, match="too late"):
        m.record(attempt(1, "a", "correct", when="9999-12-31T23:59:59Z"))
    assert m.step == 0


def test_two_drills_going_on_from_one_state_keep_their_own_cards() -> None:
    m = Mastery.start(["a"], seed=1)
    feed(m, ("a", "correct"), ("a", "missed"))
    other = dataclasses.replace(m, states=dict(m.states), attempts=list(m.attempts))
    feed(m, ("a", "correct"), ("a", "correct"))
    feed(other, ("a", "missed"))
    for drill in (m, other):
        fresh = Mastery.replay(["a"], seed=1, facets=[], attempts=drill.attempts)
        assert drill.states["a"].card == fresh.states["a"].card
    assert m.states["a"].card != other.states["a"].card
