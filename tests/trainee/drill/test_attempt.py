"""One served case as a progress file stores it (``helpers/trainee/drill/attempt.py``)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.drill.attempt import MasteryAttempt

BASE = MasteryAttempt(
    number=3,
    rule="ts-lost",
    seed=30002,
    facet=None,
    facets=(),
    options=("ts-lost", "ts-order", "ts-added", "ts-empty", "ts-several"),
    answer={
        "check": "target-scope",
        "missing": ["a"],
        "second": [],
        "flag": False,
        "hold": False,
        "reason": "ts-lost",
    },
    outcome="correct",
    correct=True,
    hints=0,
    revealed=False,
    served="2026-12-01T09:00:00Z",
    answered="2026-12-01T09:01:15Z",
)


def test_seconds_run_from_serving_to_the_scored_check() -> None:
    assert BASE.seconds() == 75
    assert MasteryAttempt(**{**BASE.__dict__, "answered": None}).seconds() is None


def test_only_an_unaided_correct_try_counts() -> None:
    assert BASE.unaided
    for outcome in ("helped", "missed", "revealed", "skipped"):
        assert not MasteryAttempt(**{**BASE.__dict__, "outcome": outcome}).unaided


def test_the_stored_form_is_json_in_a_fixed_field_order() -> None:
    data = BASE.to_data()
    assert list(data) == [
        "number", "rule", "seed", "facet", "facets", "options", "answer", "outcome", "correct",
        "hints", "revealed", "served", "answered", "fields_wrong", "rules_missed",
    ]  # fmt: skip
    assert data["options"] == list(BASE.options) and data["fields_wrong"] == []
    assert MasteryAttempt.from_data(json.loads(json.dumps(data))) == BASE


@given(
    st.sampled_from(["correct", "helped", "missed", "revealed", "skipped"]),
    st.integers(0, 5),
    st.one_of(st.none(), st.sampled_from(["case", "nfd", "homoglyph"])),
    st.lists(st.sampled_from(["missing", "added", "preserved", "reason"]), unique=True),
)
def test_any_attempt_round_trips(outcome: str, hints: int, facet: str | None, wrong: list[str]) -> None:
    attempt = MasteryAttempt(
        **{
            **BASE.__dict__,
            "outcome": outcome,
            "correct": outcome in ("correct", "helped"),
            "hints": hints,
            "facet": facet,
            "facets": () if facet is None else (facet,),
            "fields_wrong": tuple(wrong),
            "answer": None if outcome in ("revealed", "skipped") else BASE.answer,
        }
    )
    assert MasteryAttempt.from_data(json.loads(json.dumps(attempt.to_data()))) == attempt
