"""The times in a progress file (``helpers/trainee/progress/timing.py``): real, in order, not too fast."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.progress.timing import (
    EARLIEST,
    MIN_CASE_SECONDS,
    MIN_DRILL_SECONDS_PER_CASE,
    time_problems,
)

NOW = dt.datetime(2026, 6, 1, 12, 0, 0, tzinfo=dt.UTC)
START = dt.datetime(2026, 5, 1, 9, 0, 0, tzinfo=dt.UTC)


def _at(seconds: float) -> str:
    return (START + dt.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _drill(*spans: tuple[float, float | None], **extra) -> dict:
    """A progress object whose attempts were served and answered at these seconds after START."""
    attempts = [
        {"number": n, "served": _at(s), "answered": None if a is None else _at(a)}
        for n, (s, a) in enumerate(spans, start=1)
    ]
    return {"saved": _at(10_000), "mastery": {"started": _at(0), "attempts": attempts, **extra}}


def test_an_honest_drill_has_no_problem() -> None:
    assert time_problems(_drill((0, 40), (45, 100), (101, None)), now=NOW) == []


def test_a_time_that_is_no_date_too_early_or_in_the_future_is_named_where_it_is() -> None:
    data = _drill((0, 40))
    data["saved"] = "2026-02-30T10:00:00Z"
    data["mastery"]["started"] = "1970-01-01T00:00:00Z"
    data["mastery"]["attempts"][0]["answered"] = "2100-01-01T00:00:00Z"
    assert time_problems(data, now=NOW) == [
        "saved '2026-02-30T10:00:00Z' is not a real date and time",
        f"mastery.started 1970-01-01T00:00:00Z is before {EARLIEST:%Y-%m-%d}, when no drill of this course ran",
        "case 1 answered 2100-01-01T00:00:00Z is in the future (the re-grade ran at 2026-06-01T12:00:00Z)",
    ]


def test_a_review_may_fall_due_in_the_future_but_a_mastery_date_may_not() -> None:
    state = {"rule": "ts-lost", "review_due": "2030-01-01T00:00:00Z", "mastered_on": "2030-01-01T00:00:00Z"}
    assert time_problems(_drill((0, 40), states=[state]), now=NOW) == [
        "ts-lost mastered_on 2030-01-01T00:00:00Z is in the future (the re-grade ran at 2026-06-01T12:00:00Z)"
    ]


def test_more_than_five_bad_times_are_summed_up() -> None:
    data = _drill(*[(i * 100, None) for i in range(8)])
    for attempt in data["mastery"]["attempts"]:
        attempt["served"] = 7
    problems = time_problems(data, now=NOW)
    assert problems[:5] == [f"case {n} served 7 is not a time" for n in range(1, 6)]
    assert problems[5:] == ["and 3 more times like these"]


def test_a_case_served_before_the_last_was_done_is_out_of_order() -> None:
    assert time_problems(_drill((0, 50), (40, 90)), now=NOW) == [
        "case 2 was served before the case before it was done: times out of order"
    ]


def test_cases_under_the_floors_are_too_fast_with_their_numbers() -> None:
    assert time_problems(_drill((0, 30), (31, 32), (40, 41)), now=NOW) == [
        f"too fast: 2 cases answered under the floor of {MIN_CASE_SECONDS} s a case (first: case 2, in 1 s)"
    ]
    assert time_problems(_drill((0, 5), (5, 10)), now=NOW) == [
        "too fast: the drill's 2 answered cases took 10 s in all, under the floor of "
        f"{MIN_DRILL_SECONDS_PER_CASE} s a case (16 s)"
    ]


@given(st.lists(st.integers(min_value=MIN_DRILL_SECONDS_PER_CASE, max_value=600), min_size=1, max_size=12))
def test_cases_each_at_or_above_both_floors_are_never_too_fast(durations: list[int]) -> None:
    spans, clock = [], 0
    for seconds in durations:
        spans.append((clock, clock + seconds))
        clock += seconds + 1
    assert time_problems(_drill(*spans), now=NOW) == []
