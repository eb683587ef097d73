"""The check-out's verdict is valid: simulated trainees sit real sequential check-outs (``tests/support/checkout_trainees.py``).

Weak trainees (uniform p = 0.85, always wrong on one rule, blind to one look-alike
kind or to the eight common Cyrillic letters, never holding or refusing) pass at most
5% of sittings; p = 0.95 at least 90%, p = 0.97 at least 97%, a perfect one every time.
Lengths: a perfect trainee is decided in at most 34 cases on average, p = 0.97 in at
most 48, and no sitting takes more than 90. The fast loop sits a few keys per profile;
``--all`` sits 400 per profile, the table in docs/checkout.md
(``benchmarks/checkout_validity.py`` prints it). The rule's edges are Hypothesis tests.
"""

from __future__ import annotations

import math
import random

import pytest
from budget import examples
from checkout_trainees import (
    PAPERS,
    RULES,
    blind_to,
    never_holds,
    paper,
    profiles,
    sit,
    sittings,
    uniform,
    wrong_on,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import CheckInputError, CheckoutFileError
from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainer.answers import answers_data
from helpers.trainer.marking import grade_checkout
from helpers.trainer.paper import PER_GROUP
from helpers.trainer.result_report import result_csv, result_text
from helpers.trainer.sequential import DESIGN, Design, SequentialTest

SEEDS = range(PAPERS)


@pytest.mark.parametrize("profile", profiles(), ids=lambda p: p.name)
def test_each_profile_meets_its_target(profile):
    results = sittings(profile.answerer, SEEDS)
    passed, sat = sum(r.passed for r in results), len(results)
    assert max(len(r.cases) for r in results) <= DESIGN.max_cases
    if sat >= 400:
        share = passed / sat
        assert share <= profile.target if profile.bound == "at most" else share >= profile.target
    elif profile.target in (0.05, 1.0):
        # A few sittings: the weak fail every time; the perfect pass every time.
        assert passed == (sat if profile.target == 1.0 else 0), (profile.name, passed, sat)


def test_the_lengths_meet_their_targets():
    perfect = [len(r.cases) for r in sittings(uniform(1.0), SEEDS)]
    assert sum(perfect) / len(perfect) <= 34
    if len(perfect) >= 400:
        good = [len(r.cases) for r in sittings(uniform(0.97), SEEDS)]
        assert sum(good) / len(good) <= 48


def test_a_rule_always_wrong_fails_and_is_named():
    for rule in RULES[:: max(1, len(RULES) // 4)]:
        result = sit(wrong_on(rule), 0)
        assert not result.passed
        assert rule in result.why or result.per_rule()[rule][0] == 0
        assert f"{rule}: 0 of " in result_text(result)


def test_a_blind_kind_fails_and_is_named():
    for kind in ("homoglyph", "no-break-space", "the 8 letters а е о р с у х і"):
        result = sit(blind_to(kind), 1)
        assert not result.passed
        if kind in FACETS:
            assert result.to_data()["per_kind"][kind][0] == 0


def test_never_holding_fails():
    result = sit(never_holds(p=1.0), 2)
    assert not result.passed
    assert {"ts-unresolved", "sk-empty-baseline"} & set(result.never_right()["rules_never_right"])


def test_a_pass_states_its_operating_characteristic_in_words_and_in_every_format():
    result = sit(uniform(1.0), 0)
    assert result.passed and result.fully_correct == len(result.cases) <= 34
    words = result.statement()
    assert words.startswith(f"Passed after {len(result.cases)} cases")
    assert "passes someone right 85% of the time or less at most 5 times in 100" in words
    assert "passes someone right 95% of the time at least 90 times in 100" in words
    data = result.to_data()
    assert data["statement"] == words and data["decision"] == "passed" and data["sequential"] is True
    assert set(data["per_rule"]) == set(RULES) and set(data["per_kind"]) == set(FACETS)
    assert all(n >= 1 for _ok, n in data["per_rule"].values())
    assert all(n >= PER_GROUP for _ok, n in data["per_kind"].values())
    assert words in result_text(result)
    assert result_csv(result).splitlines()[1].endswith('"passed"')


def test_the_sitting_serves_every_rule_and_kind_first_and_a_follow_up_after_a_miss():
    issued = paper(5)
    records = {r["label"]: r for r in issued.key["cases"]}
    from helpers.trainer.sitting import start_sitting

    sitting = start_sitting(issued)
    served = []
    missed_rule = None
    while (case := sitting.next_case()) is not None:
        record = records[case.label]
        served.append(record)
        miss = len(served) == 3
        if miss:
            missed_rule = record["rule"]
        answer = uniform(0.0 if miss else 1.0)(record, case.shown, __import__("random").Random(0))
        sitting.answer(*answer)
    streams = [r["stream"] for r in served]
    assert streams[3].startswith(("rule:", "kind:"))  # the miss at case 3 brings a follow-up next
    assert served[3]["rule"] == missed_rule or set(served[3]["lookalike_kinds"]) & set(
        served[2]["lookalike_kinds"]
    )
    first = [r for r in served if r["stream"] == "cover"]
    assert {r["rule"] for r in first} == set(RULES)
    result = sitting.result()
    assert result.passed and [c.label for c in result.cases] == [r["label"] for r in served]


def test_answers_for_cases_never_served_are_refused():
    issued = paper(6)
    from helpers.trainer.sitting import start_sitting

    sitting = start_sitting(issued)
    records = {r["label"]: r for r in issued.key["cases"]}
    while (case := sitting.next_case()) is not None:
        sitting.answer(*uniform(1.0)(records[case.label], case.shown, __import__("random").Random(0)))
    data = sitting.answers_data()
    unserved = next(r for r in issued.key["cases"] if r["label"] not in sitting.answers)
    extra = {**answers_data(issued.paper, {unserved["label"]: _any_answer(unserved)})["answers"][0]}
    forged = {**data, "answers": [*data["answers"], extra]}
    with pytest.raises(CheckoutFileError, match="never served; nothing is graded"):
        grade_checkout(forged, issued.key)


def _any_answer(record):
    from checkout_trainees import right

    return right(record)


def test_a_sitting_answered_faster_than_a_person_reads_is_flagged_in_the_result_and_the_cohort():
    from helpers.trainee.progress.timing import MIN_CASE_SECONDS, MIN_DRILL_SECONDS_PER_CASE
    from helpers.trainer.regrade import checkout_reasons
    from helpers.trainer.sitting import start_sitting

    issued = paper(7)
    records = {r["label"]: r for r in issued.key["cases"]}

    def sat(step):
        ticks = iter(range(0, 10**6, step))
        sitting = start_sitting(issued, clock=lambda: float(next(ticks)))
        while (case := sitting.next_case()) is not None:
            sitting.answer(*uniform(1.0)(records[case.label], case.shown, random.Random(0)))
        return sitting.result()

    fast, careful = sat(1), sat(30)
    assert fast.passed and careful.passed  # a flag, not a verdict: the trainer decides
    assert (
        f"under {MIN_CASE_SECONDS} s" in fast.too_fast
        and f"{MIN_DRILL_SECONDS_PER_CASE} s floor" in fast.too_fast
    )
    assert "Flagged: answered faster than a person reads" in fast.statement()
    assert fast.to_data()["too_fast"] == fast.too_fast and careful.too_fast == ""
    # (a headless sitting is not the proctored page: its results are judged here as if accepted)
    assert checkout_reasons({**fast.to_data(), "verified": True}, require_proctored=False) == [
        f"the check-out was answered faster than a person reads: {fast.too_fast}"
    ]
    assert checkout_reasons({**careful.to_data(), "verified": True}, require_proctored=False) == []


# --- the rule's edges -------------------------------------------------------------------------

_OUTCOMES = st.lists(st.booleans(), min_size=0, max_size=DESIGN.max_cases)


def _run(outcomes, rules=("r1", "r2"), kinds=("k1",)):
    test = SequentialTest(rules, kinds)
    for i, ok in enumerate(outcomes):
        if test.decision() is not None:
            break
        rule = rules[i % len(rules)]
        test.record(rule, (kinds[0],) if i % 3 == 0 else (), ok)
    return test


@settings(max_examples=examples(200))
@given(outcomes=_OUTCOMES)
def test_the_evidence_is_the_sum_of_its_steps_and_decides_only_at_a_boundary(outcomes):
    test = _run(outcomes)
    right = test.history.count(True)
    wrong = len(test.history) - right
    assert test.llr == pytest.approx(right * DESIGN.right_step + wrong * DESIGN.wrong_step)
    decided = test.decision()
    if decided == "passed":
        assert not test.open_groups()
        assert test.llr >= DESIGN.upper or (
            test.cases >= DESIGN.max_cases and test.llr >= DESIGN.undecided_fraction * DESIGN.upper
        )
    if decided is None:
        assert DESIGN.lower < test.llr and test.cases < DESIGN.max_cases and not test.failed_groups()
        assert test.finish() in ("passed", "failed")


@settings(max_examples=examples(200))
@given(outcomes=_OUTCOMES, flip=st.integers(min_value=0, max_value=DESIGN.max_cases - 1))
def test_a_right_answer_never_turns_a_pass_into_a_fail(outcomes, flip):
    """Monotone: a case wrong made right never turns a pass into a fail, and up to the flip and the
    step where either stops, it never lowers the evidence."""
    if flip >= len(outcomes) or outcomes[flip]:
        return
    worse, better = _run(outcomes), _run([*outcomes[:flip], True, *outcomes[flip + 1 :]])

    def verdict(test: SequentialTest) -> str:
        return test.decision() or test.finish()

    if verdict(worse) == "passed":
        assert verdict(better) == "passed"
    shared = min(len(worse.history), len(better.history))
    if shared > flip:
        steps = [DESIGN.right_step if ok else DESIGN.wrong_step for ok in better.history[:shared]]
        before = [DESIGN.right_step if ok else DESIGN.wrong_step for ok in worse.history[:shared]]
        assert sum(steps) >= sum(before) - 1e-9


def test_the_edges_of_the_boundaries():
    needed = math.ceil(DESIGN.upper / DESIGN.right_step - 1e-9)
    test = SequentialTest(["r"], [])
    for _ in range(needed - 1):
        test.record("r", (), True)
    assert test.decision() is None
    test.record("r", (), True)
    assert test.decision() == "passed"
    with pytest.raises(CheckInputError, match="decided already"):
        test.record("r", (), True)
    misses = math.ceil(DESIGN.lower / DESIGN.wrong_step - 1e-9)
    early = SequentialTest(["r", "s"], [])
    for i in range(misses):
        assert early.decision() is None
        early.record("rs"[i % 2], (), False)
    assert early.decision() == "failed" and "fail boundary" in early.why()
    # A group that is never right fails on its own, whatever the rest.
    blind = SequentialTest(["r"], ["k"])
    for _ in range(DESIGN.misses_to_fail):
        blind.record("r", ("k",), False)
    assert blind.failed_groups()


def test_a_kind_needs_two_right_and_a_miss_opens_it_again():
    test = SequentialTest(["r"], ["k"])
    test.record("r", ("k",), True)
    assert [g.name for g in test.open_groups()] == ["k"]
    test.record("r", ("k",), True)
    assert not test.open_groups()
    test.record("r", ("k",), False)  # k: 2 right, 1 wrong, short of 2; r: still 1 ahead
    assert [g.name for g in test.open_groups()] == ["k"]
    test.record("r", ("k",), False)
    assert {g.name for g in test.open_groups()} == {"r", "k"}


@pytest.mark.parametrize(
    "bad",
    [dict(p0=0.95, p1=0.85), dict(alpha=0.0), dict(beta=0.6), dict(max_cases=0), dict(undecided_fraction=2)],
)
def test_a_bad_design_is_refused_naming_the_field(bad):
    with pytest.raises(CheckInputError) as caught:
        Design(**bad)
    assert caught.value.field in bad
