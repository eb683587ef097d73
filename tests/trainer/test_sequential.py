"""The check-out's sequential rule: the SPRT's steps and boundaries, groups seen and cleared, and the schedule."""

from __future__ import annotations

import math

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import CheckInputError
from helpers.trainer.sequential import (
    DESIGN,
    Design,
    Schedule,
    SequentialTest,
    Slot,
    next_request,
    operating_characteristic_words,
)


def test_the_steps_and_boundaries_are_walds() -> None:
    assert DESIGN.right_step == pytest.approx(math.log(0.95 / 0.85))
    assert DESIGN.wrong_step == pytest.approx(math.log(0.05 / 0.15)) and DESIGN.wrong_step < 0
    assert DESIGN.upper == pytest.approx(math.log(0.95 / 0.03))
    assert DESIGN.lower == pytest.approx(math.log(0.05 / 0.97))
    assert Design().to_data() == {**DESIGN.to_data()} and DESIGN.to_data()["max_cases"] == 90


@pytest.mark.parametrize(
    ("settings_", "message"),
    [
        ({"p0": 0.95, "p1": 0.85}, "p0 and p1 are 0.95 and 0.85, expected 0 < p0 < p1 < 1"),
        ({"alpha": 0.5}, "alpha is 0.5, expected between 0 and 0.5"),
        ({"max_cases": True}, "max_cases is true, expected a whole number from 1"),
        ({"kind_need": 0}, "kind_need is 0, expected a whole number from 1"),
        ({"undecided_fraction": 1.5}, "undecided_fraction is 1.5, expected 0 to 1"),
    ],
)
def test_a_design_out_of_range_is_refused_naming_the_setting(settings_, message) -> None:
    with pytest.raises(CheckInputError, match=message.replace("(", r"\(")):
        Design(**settings_)


def test_someone_always_right_passes_after_32_cases_with_every_group_cleared() -> None:
    test = SequentialTest(["r1", "r2"], ["k"])
    for n in range(32):
        assert test.decision() is None
        test.record("r1" if n % 2 else "r2", ["k"], True)
    assert (test.decision(), test.cases, test.right) == ("passed", 32, 32)
    assert test.why().startswith("the evidence reached the pass boundary: 32 of 32 right")


def test_a_rule_never_seen_holds_the_pass_back() -> None:
    test = SequentialTest(["r1", "unseen"], [])
    for _ in range(40):
        test.record("r1", [], True)
    assert test.decision() is None and [g.name for g in test.open_groups()] == ["unseen"]
    assert test.finish() == "failed"
    assert test.why() == "undecided after 40 cases, with unseen not cleared"


def test_three_misses_on_one_rule_fail_the_sitting_and_nothing_is_counted_after() -> None:
    test = SequentialTest(["r1", "r2"], [])
    test.record("r2", [], True)
    for _ in range(3):
        assert test.decision() is None
        test.record("r1", [], True)
        test.record("r2", [], False)
    # r2's score is 1 - 3 = -2: three misses, but not yet three below zero
    assert test.decision() is None
    test.record("r2", [], False)
    assert test.decision() == "failed" and test.why() == "missed too often on r2 (4 of 5 wrong)"
    with pytest.raises(CheckInputError, match="the sitting is decided already"):
        test.record("r1", [], True)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.booleans(), max_size=90))
def test_the_evidence_is_the_sum_of_the_steps_until_decided(answers) -> None:
    test = SequentialTest(["r"], [])
    for correct in answers:
        if test.decision() is not None:
            break
        test.record("r", [], correct)
    right = sum(test.history)
    wrong = len(test.history) - right
    assert test.llr == pytest.approx(right * DESIGN.right_step + wrong * DESIGN.wrong_step)
    assert test.cases == len(test.history) <= DESIGN.max_cases
    if test.decision() == "passed":
        assert test.llr >= DESIGN.undecided_fraction * DESIGN.upper


def test_a_missed_group_is_followed_up_one_case_apart_its_kind_first() -> None:
    test = SequentialTest(["r1", "r2"], ["k"])
    assert next_request(test, cover_left=3, last_was_follow_up=False) == ("cover", None)
    test.record("r2", ["k"], False)
    assert next_request(test, cover_left=3, last_was_follow_up=False) == ("kind", "k")
    assert next_request(test, cover_left=3, last_was_follow_up=True) == ("cover", None)
    test.record("r1", ["k"], True)  # k is open still (1 - 1 = 0 of 2), r2 too
    assert next_request(test, cover_left=0, last_was_follow_up=True) == ("kind", "k")
    test.record("r1", ["k"], True)
    test.record("r1", ["k"], True)
    assert next_request(test, cover_left=0, last_was_follow_up=True) == ("rule", "r2")
    clear = SequentialTest(["r1"], [])
    assert next_request(clear, 0, False) == ("rule", "r1")
    clear.record("r1", [], True)
    assert next_request(clear, 0, False) == ("more", None)


def test_a_fixed_paper_is_served_in_order_and_only_the_case_served_is_counted() -> None:
    slots = [Slot(f"c{i}", "cover", f"r{i % 2}", ()) for i in range(4)]
    schedule = Schedule(slots, ["r0", "r1"], [], adaptive=False)
    assert schedule.next_label() == "c0" and schedule.next_label() == "c0"
    with pytest.raises(CheckInputError, match="c1 is not the case this sitting serves now"):
        schedule.record("c1", True)
    for label in ("c0", "c1", "c2", "c3"):
        assert schedule.next_label() == label
        schedule.record(label, True)
    assert schedule.next_label() is None and schedule.served == ["c0", "c1", "c2", "c3"]
    assert schedule.decision() == "failed"  # four right cases are not evidence enough


def test_two_cases_with_one_label_are_refused() -> None:
    with pytest.raises(CheckInputError, match="two cases share one label"):
        Schedule([Slot("a", "cover", "r", ()), Slot("a", "more", "r", ())], ["r"], [])


def test_the_operating_characteristic_is_stated_with_the_designs_figures() -> None:
    words = operating_characteristic_words()
    assert words.startswith(
        "This check-out passes someone right 85% of the time or less at most 5 times in 100"
    )
    assert "4.2% and 93.0%" in words and words.endswith("never more than 90.")
