"""An attempt and a rule's state made with every field at once are the ones their ``__init__`` makes.

:meth:`MasteryAttempt.of` and :meth:`RuleState.of` skip the frozen classes' field-by-field
``__init__`` (the re-grade makes two of each a case); what they make is held here to it: equal,
hashed, shown and copied alike, still frozen; and a call that leaves a field out or names an
unknown one goes to ``__init__``, which fills a default or refuses it as it always did.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.state import RuleState

IDS = st.sampled_from(["ts-lost", "sk-missing", "ts-added"])
TIMES = st.sampled_from(["2026-12-01T10:00:00Z", "2026-12-01T10:00:07Z"])
ATTEMPTS = st.fixed_dictionaries(
    {
        "number": st.integers(1, 2000),
        "rule": IDS,
        "seed": st.integers(0, 10**9),
        "facet": st.one_of(st.none(), st.sampled_from(["case", "homoglyph"])),
        "facets": st.lists(st.sampled_from(["case", "homoglyph"]), max_size=2).map(tuple),
        "options": st.lists(IDS, max_size=5).map(tuple),
        "answer": st.one_of(st.none(), st.fixed_dictionaries({"check": st.just("sentinels")})),
        "outcome": st.sampled_from(["correct", "helped", "missed", "revealed", "skipped"]),
        "correct": st.booleans(),
        "hints": st.integers(0, 5),
        "revealed": st.booleans(),
        "served": TIMES,
        "answered": st.one_of(st.none(), TIMES),
        "fields_wrong": st.lists(st.sampled_from(["missing", "reason"]), max_size=2).map(tuple),
        "rules_missed": st.lists(IDS, max_size=2).map(tuple),
    }
)
STATES = st.fixed_dictionaries(
    {
        "rule": IDS,
        "streak": st.integers(0, 9),
        "mastered_on": st.one_of(st.none(), TIMES),
        "times_mastered": st.integers(0, 3),
        "times_lost": st.integers(0, 3),
        "attempts": st.integers(0, 50),
        "unaided": st.integers(0, 50),
        "last_case": st.integers(0, 50),
        "ready_at": st.integers(0, 60),
        "reviewed": st.integers(0, 6),
        "last_practised": st.one_of(st.none(), TIMES),
        "schedule": st.none(),
    }
)


def _alike(made: object, built: object) -> None:
    assert made == built
    assert type(made) is type(built) and vars(made) == vars(built)
    assert repr(made) == repr(built)
    assert dataclasses.astuple(made) == dataclasses.astuple(built)
    assert pickle.loads(pickle.dumps(made)) == built and copy.copy(made) == built
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.streak = 99  # type: ignore[attr-defined]


@settings(max_examples=examples(200), deadline=None)
@given(ATTEMPTS)
def test_an_attempt_made_at_once_is_the_one_init_makes(fields):
    made, built = MasteryAttempt.of(**fields), MasteryAttempt(**fields)
    _alike(made, built)
    assert hash(made.options) == hash(built.options)
    data = built.to_data()
    assert MasteryAttempt.from_data(data) == built and MasteryAttempt.from_data(data).to_data() == data


@settings(max_examples=examples(200), deadline=None)
@given(STATES)
def test_a_rule_state_made_at_once_is_the_one_init_makes(fields):
    made, built = RuleState.of(**fields), RuleState(**fields)
    _alike(made, built)
    assert made.to_data() == built.to_data() and made.mastered == built.mastered


def test_a_field_left_out_takes_its_default_and_an_unknown_one_is_refused():
    assert RuleState.of(rule="ts-lost", streak=2) == RuleState("ts-lost", streak=2)
    assert RuleState.of(rule="ts-lost").attempts == 0
    attempt = MasteryAttempt(1, "ts-lost", 7, None, (), (), None, "missed", False, 0, False, "t", None)
    fields = {f.name: getattr(attempt, f.name) for f in dataclasses.fields(attempt)}
    del fields["rules_missed"]
    assert MasteryAttempt.of(**fields) == attempt and MasteryAttempt.of(**fields).rules_missed == ()
    with pytest.raises(TypeError, match="colour"):
        RuleState.of(rule="ts-lost", colour="red")
    with pytest.raises(TypeError, match="colour"):
        MasteryAttempt.of(**fields, rules_missed=(), colour="red")
