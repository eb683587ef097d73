"""The drill's sequential test (helpers.trainee.drill.sequential): its boundary, its monotonicity, its
operating characteristic worked exactly, and the drill's decision resting on it."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import HelpersError, InvalidInputError
from helpers.trainee.drill import sequential
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.model import OUTCOMES

counts = st.integers(0, 400)


def _met_by_hand(right: int, wrong: int) -> bool:
    """The bar worked independently, in whole numbers: 19**right * 20... >= 17**right * 3**wrong * 20."""
    return 19**right >= 20 * 17**right * 3**wrong


@settings(max_examples=examples(200))
@given(counts, counts)
def test_the_bar_is_exact_in_whole_numbers(right: int, wrong: int) -> None:
    assert sequential.overall_met(right, wrong) is _met_by_hand(right, wrong)


@settings(max_examples=examples(200))
@given(counts, counts)
def test_one_more_right_never_undoes_it_and_one_more_miss_never_earns_it(right: int, wrong: int) -> None:
    met = sequential.overall_met(right, wrong)
    if met:
        assert sequential.overall_met(right + 1, wrong)
    else:
        assert not sequential.overall_met(right, wrong + 1)


@settings(max_examples=examples(200))
@given(counts, counts)
def test_right_answers_needed_is_the_fewest_that_clear_the_bar(right: int, wrong: int) -> None:
    more = sequential.right_answers_needed(right, wrong)
    assert sequential.overall_met(right + more, wrong)
    assert more == 0 or not sequential.overall_met(right + more - 1, wrong)
    assert (more == 0) is sequential.overall_met(right, wrong)


@settings(max_examples=examples(100))
@given(counts, counts)
def test_the_float_evidence_agrees_with_the_exact_bar_away_from_it(right: int, wrong: int) -> None:
    gap = sequential.evidence(right, wrong) - math.log(20)
    if abs(gap) > 1e-9:
        assert sequential.overall_met(right, wrong) is (gap > 0)


def test_the_boundary_cases() -> None:
    # a perfect record clears the bar at 27 cases; each miss costs about ten right answers
    assert [sequential.overall_met(r, 0) for r in (26, 27)] == [False, True]
    assert sequential.right_answers_needed(0, 0) == 27
    assert [sequential.right_answers_needed(0, w) for w in (1, 2, 3)] == [37, 47, 57]
    # (19/17)**27 / 20 is just above 1: the boundary is not a rounding accident
    assert Fraction(19, 17) ** 27 > 20 > Fraction(19, 17) ** 26


def test_expected_cases_follow_wald_and_say_so_when_the_bar_is_out_of_reach() -> None:
    assert sequential.expected_cases_needed(27, 0, 0.5) == 0.0  # met: nothing to go
    perfect = sequential.expected_cases_needed(0, 0, 1.0)
    assert perfect is not None and 26 < perfect < 27
    good = sequential.expected_cases_needed(0, 0, 0.95)
    assert good is not None and 55 < good < 65
    assert sequential.expected_cases_needed(0, 0, 0.90) is None  # the evidence drifts down at 0.908 and less
    assert sequential.expected_cases_needed(0, 0, 0.85) is None


@pytest.mark.parametrize(
    "call",
    [
        lambda: sequential.overall_met(-1, 0),
        lambda: sequential.overall_met(True, 0),
        lambda: sequential.right_answers_needed(0, 1.5),
        lambda: sequential.evidence(0, -2),
        lambda: sequential.expected_cases_needed(0, 0, 1.2),
        lambda: sequential.expected_cases_needed(0, 0, float("nan")),
    ],
)
def test_bad_counts_are_refused_naming_the_field(call) -> None:
    with pytest.raises(InvalidInputError) as raised:
        call()
    assert isinstance(raised.value, HelpersError) and raised.value.field in ("right", "wrong", "accuracy")


def _ever_clears(p: float, cases: int) -> float:
    """P(the record clears the bar at some case up to ``cases``) for uniform slips at ``p``, exactly (dynamic
    programming over the number of misses; a record that clears the bar stops there)."""
    alive = {0: 1.0}  # misses so far -> probability, among records not yet past the bar
    cleared = 0.0
    most = -1  # the most misses among n cases that still clear the bar (it only grows with n)
    for n in range(1, cases + 1):
        while most + 1 <= n and sequential.overall_met(n - most - 1, most + 1):
            most += 1
        nxt: dict[int, float] = {}
        for wrong, prob in alive.items():
            for w, q in ((wrong, p), (wrong + 1, 1 - p)):
                if w <= most:
                    cleared += prob * q
                elif prob * q > 1e-18:  # a record this unlikely cannot move the figures
                    nxt[w] = nxt.get(w, 0.0) + prob * q
        alive = nxt
    return cleared


def test_the_operating_characteristic_holds_under_a_look_after_every_case() -> None:
    # Ville's inequality: right 85% of the time or less, the bar is ever cleared at most 5% of the time
    assert _ever_clears(0.85, 1000) <= 0.05
    assert _ever_clears(0.80, 1000) <= 0.01
    assert _ever_clears(0.95, 150) >= 0.95
    assert _ever_clears(0.99, 60) >= 0.99


def _attempt(number: int, rule: str, outcome: str, facets: tuple[str, ...]) -> MasteryAttempt:
    return MasteryAttempt(
        number=number,
        rule=rule,
        seed=number,
        facet=facets[0] if facets else None,
        facets=facets,
        options=(),
        answer=None,
        outcome=outcome,
        correct=outcome in ("correct", "helped"),
        hints=int(outcome == "helped"),
        revealed=outcome == "revealed",
        served="2026-12-01T09:00:00Z",
        answered="2026-12-01T09:00:30Z",
    )


_CASES = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),
        st.sampled_from(OUTCOMES),
        st.sampled_from([(), ("nfd",), ("homoglyph",)]),
    ),
    max_size=80,
)


@settings(max_examples=examples(60), deadline=None)
@given(_CASES, st.sampled_from(["a", "b"]), st.sampled_from([(), ("nfd",), ("homoglyph",)]))
def test_one_more_unaided_right_case_never_takes_completion_away(cases, rule, facets) -> None:
    m = Mastery.start(["a", "b"], seed=1, facets=["nfd", "homoglyph"])
    for rule_of, outcome, kinds in cases:
        m.record(_attempt(m.step + 1, rule_of, outcome, kinds))
    before, left = m.complete, m.fewest_cases_left()
    assert (left == 0) is before
    m.record(_attempt(m.step + 1, rule, "correct", facets))
    assert m.complete or not before
    assert m.fewest_cases_left() >= left - 1  # one right case brings completion at most one case nearer


@settings(max_examples=examples(60), deadline=None)
@given(_CASES)
def test_complete_is_exactly_every_rule_every_kind_and_the_bar(cases) -> None:
    m = Mastery.start(["a", "b"], seed=1, facets=["nfd", "homoglyph"])
    for rule_of, outcome, kinds in cases:
        m.record(_attempt(m.step + 1, rule_of, outcome, kinds))
    right = sum(outcome == "correct" for _r, outcome, _k in cases)
    expected = (
        m.mastered == ["a", "b"]
        and m.secured == ["nfd", "homoglyph"]
        and _met_by_hand(right, len(cases) - right)
    )
    assert m.complete is expected


def test_the_expected_cases_left_are_at_least_the_fewest_and_none_out_of_reach() -> None:
    m = Mastery.start(["a", "b"], seed=1, facets=["nfd"])
    assert m.fewest_cases_left() == 27
    expected = m.expected_cases_left(0.95)
    assert expected is not None and 55 < expected < 65
    assert m.expected_cases_left(1.0) == 27.0  # the fewest, when Wald's estimate is below it
    assert m.expected_cases_left(0.85) is None
    for number in range(1, 28):
        m.record(_attempt(number, "ab"[number % 2], "correct", ("nfd",)))
    assert m.complete and m.expected_cases_left(0.5) == 0.0
