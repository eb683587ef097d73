"""Where a drill stands on a rule and on a look-alike kind (``helpers/trainee/drill/state.py``)."""

from __future__ import annotations

import dataclasses

import pytest

from helpers.trainee.drill.model import MASTERY_STREAK
from helpers.trainee.drill.state import FacetState, RuleState


def test_a_new_rule_has_no_card_no_review_and_an_empty_bar() -> None:
    state = RuleState("ts-lost")
    assert state.card is None and state.review_due() is None
    assert not state.mastered and state.bar() == 0.0 and state.correct == 0


def test_the_bar_fills_with_the_streak_and_is_full_once_mastered() -> None:
    assert [RuleState("ts-lost", streak=n).bar() for n in range(MASTERY_STREAK + 2)] == [
        0.0,
        1 / 3,
        2 / 3,
        1.0,
        1.0,
    ]
    mastered = RuleState("ts-lost", streak=0, mastered_on="2026-12-01T09:00:00Z")
    assert mastered.mastered and mastered.bar() == 1.0


def test_a_state_is_stored_as_a_claim_with_its_review_date() -> None:
    state = RuleState("sk-missing", streak=2, times_mastered=1, times_lost=1, attempts=5, unaided=3)
    assert state.correct == 3
    assert state.to_data() == {
        "rule": "sk-missing",
        "streak": 2,
        "mastered_on": None,
        "times_mastered": 1,
        "times_lost": 1,
        "attempts": 5,
        "unaided": 3,
        "last_practised": None,
        "review_due": None,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.streak = 3  # type: ignore[misc]


def test_a_kind_needs_more_right_cases_after_each_miss() -> None:
    assert FacetState("case").needed == 1
    assert FacetState("case", missed=2).needed == 3
    assert FacetState("homoglyph").needed == 3
    assert FacetState("nfd", secured=True, seen=4, streak=2).to_data() == {
        "facet": "nfd",
        "secured": True,
        "seen": 4,
    }
