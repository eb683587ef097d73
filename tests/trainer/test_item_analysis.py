"""Item analysis: facility, discrimination and wrong reasons over first attempts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.trainer.item_analysis import FirstAttempt, item_analysis, item_table_text

F = FirstAttempt
SMALL = [
    F("A", "r1", True), F("A", "r2", True), F("A", "r3", True),
    F("B", "r1", True), F("B", "r2", False, "x"), F("B", "r3", True),
    F("C", "r1", False, "y"), F("C", "r2", True), F("C", "r3", True),
    F("D", "r1", False, "y"), F("D", "r2", False, "z"), F("D", "r3", True),
]  # fmt: skip


def test_a_hand_computed_cohort():
    # Totals: A 3, B 2, C 2, D 1; groups of round(0.27 * 4) = 1: upper {A}, lower {D}.
    r1, r2, r3 = item_analysis(SMALL)
    assert (r1.rule, r1.trainees, r1.facility, r1.discrimination) == ("r1", 4, 0.5, 1.0)
    # r1 against the rest of the score: item 1,1,0,0; rest 2,1,2,1: no correlation.
    assert r1.point_biserial == pytest.approx(0.0)
    assert (r1.common_wrong_reason, r1.wrong_reason_count) == ("y", 2)
    # r2: item 1,0,1,0; rest 2,2,1,1: no correlation either.
    assert r2.point_biserial == pytest.approx(0.0)
    assert (r2.common_wrong_reason, r2.wrong_reason_count) == ("x", 1)  # a tie of x and z: the first by name
    assert not r1.flagged and not r2.flagged
    assert (r3.facility, r3.discrimination, r3.point_biserial, r3.flagged) == (1.0, 0.0, None, True)
    assert "r3: 100% of 4; 0.00, - (flag: under 0.2); -" in item_table_text([r1, r2, r3])


def test_a_hand_computed_point_biserial():
    rows = [F("P", "i", True), F("Q", "i", True), F("R", "i", False), F("P", "a", True), F("Q", "a", True)]
    rows += [F("R", "a", False), F("P", "b", True), F("Q", "b", False), F("R", "b", False)]
    # i: item 1,1,0; rest 2,1,0 -> covariance 1, variances 2/3 and 2: 1 / sqrt(4/3) = sqrt(3)/2.
    item = item_analysis(rows)[0]
    assert item.point_biserial == pytest.approx(3**0.5 / 2)
    assert item.discrimination == 1.0  # groups of round(0.81) = 1: P right, R wrong


def test_only_first_attempts_count_and_rules_order_the_table():
    later = [*SMALL, F("D", "r1", True), F("C", "r1", True)]
    assert item_analysis(later) == item_analysis(SMALL)
    assert [s.rule for s in item_analysis(SMALL, rules=["r3", "r1", "missing"])] == ["r3", "r1"]


def test_a_lone_trainee_has_no_discrimination():
    (only,) = item_analysis([F("A", "r1", False, "q")])
    assert (only.facility, only.discrimination, only.point_biserial, only.flagged) == (0.0, None, None, False)


records = st.lists(
    st.builds(
        FirstAttempt,
        st.sampled_from("ABCDEFGHIJ"),
        st.sampled_from(["r1", "r2", "r3", "r4"]),
        st.booleans(),
        st.none() | st.sampled_from(["x", "y"]),
    ),
    max_size=40,
)


@given(records)
def test_statistics_stay_in_range(rows):
    for s in item_analysis(rows):
        assert 0.0 <= s.facility <= 1.0
        assert s.discrimination is None or -1.0 <= s.discrimination <= 1.0
        assert s.point_biserial is None or -1.0 - 1e-9 <= s.point_biserial <= 1.0 + 1e-9
        assert s.wrong_reason_count <= s.trainees


@given(records, st.randoms())
def test_the_order_of_distinct_records_does_not_matter(rows, rng):
    distinct = list({(r.trainee, r.rule): r for r in rows}.values())
    shuffled = distinct[:]
    rng.shuffle(shuffled)
    key = sorted({r.rule for r in distinct})
    assert item_analysis(shuffled, rules=key) == item_analysis(distinct, rules=key)


def test_the_groups_hold_the_rounded_share_not_the_truncated_one():
    """Six trainees: 0.27 × 6 = 1.62 rounds to groups of 2 (truncated it would be 1, and the item
    below would discriminate 1.00 instead of 0.00)."""
    marks = {"A": "rrrrrr", "B": "wrrrrr", "C": "rrrrww", "D": "wrrrww", "E": "rrwwww", "F": "wwwwww"}
    rows = [F(name, f"r{n}", m == "r") for name, ms in marks.items() for n, m in enumerate(ms)]
    item = item_analysis(rows, rules=["r0"])[0]
    # Ranked A 6, B 5, C 4, D 3, E 2, F 0: upper {A, B} half right on r0, lower {E, F} half right.
    assert item.discrimination == 0.0
    # Eight trainees: 0.27 × 8 = 2.16 rounds down to 2, so rounding is not simply ceiling.
    eight = [*rows, *(F(name, "r0", name == "G") for name in ("G", "H"))]
    eight += [F("G", f"r{n}", True) for n in range(1, 6)] + [F("H", f"r{n}", False) for n in range(1, 6)]
    # Ranked A 6, G 6, B 5, C 4, D 3, E 2, F 0, H 0: upper {A, G} both right; lower {F, H} both wrong.
    assert item_analysis(eight, rules=["r0"])[0].discrimination == 1.0
