"""The check-out's verdict is valid: simulated trainees sit real papers (``tests/support/checkout_trainees.py``).

Weak trainees (uniform p = 0.85, always wrong on one rule, blind to one
look-alike kind, never holding or refusing) pass at most 5% of papers; strong
ones (p = 0.97, p = 0.99) at least 85% and 97%; a perfect one every paper.
The fast loop sits a few papers per profile; ``--all`` sits 200 per profile, the
table in docs/checkout.md (``benchmarks/checkout_validity.py`` prints it).
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
    pass_rate,
    profiles,
    right,
    sit,
    slip,
    uniform,
    wrong_on,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.teach import confidence
from helpers.teach.cases.deciding_rule import FACETS
from helpers.teach.trainer import checkout as co

SEEDS = range(PAPERS)


@pytest.mark.parametrize("profile", profiles(), ids=lambda p: p.name)
def test_each_profile_meets_its_target(profile):
    passed, sat = pass_rate(profile.answerer, SEEDS)
    if sat >= 200:
        assert (
            (passed / sat <= profile.target)
            if profile.bound == "at most"
            else (passed / sat >= profile.target)
        )
    elif profile.target in (0.05, 1.0):
        # A few papers: the weak fail (and the deterministic ones every time); the perfect pass every time.
        assert passed == (sat if profile.target == 1.0 else 0), (profile.name, passed, sat)


def test_a_rule_always_wrong_fails_every_paper_and_is_named():
    for rule in RULES[:: max(1, len(RULES) // 4)]:
        result = sit(wrong_on(rule), 0)
        assert not result.passed
        assert result.never_right()["rules_never_right"] == [rule]
        assert f"{rule}: 0 of " in co.result_text(result)
        assert rule in result.statement()


def test_a_blind_kind_fails_and_is_named():
    for kind in ("homoglyph", "no-break-space"):
        result = sit(blind_to(kind), 1)
        assert not result.passed
        assert kind in result.never_right()["kinds_never_right"]
        assert result.to_data()["per_kind"][kind][0] == 0


def test_never_holding_fails_on_the_hold_and_refusal_rules():
    result = sit(never_holds(p=1.0), 2)
    assert not result.passed
    assert {"ts-unresolved", "sk-empty-baseline"} <= set(result.never_right()["rules_never_right"])


def test_a_pass_states_its_bound_in_words_and_in_every_format():
    result = sit(uniform(1.0), 0)
    assert result.passed and result.fully_correct == len(result.cases) == co.DEFAULT_COUNT
    bound = confidence.accuracy_lower_bound(co.DEFAULT_COUNT, co.DEFAULT_COUNT)
    words = result.statement()
    assert f"accuracy at least {math.floor(bound * 100) / 100:.2f} with 95% confidence" in words
    assert "every rule and every look-alike kind answered right at least once" in words
    data = result.to_data()
    assert data["statement"] == words and data["accuracy_lower_bound"] == pytest.approx(bound)
    assert set(data["per_rule"]) == set(RULES) and set(data["per_kind"]) == set(FACETS)
    assert all(n >= co.PER_GROUP for _ok, n in [*data["per_rule"].values(), *data["per_kind"].values()])
    assert words in co.result_text(result)
    assert co.result_csv(result).splitlines()[1].endswith(f'"{bound:.4f}","passed"')


@pytest.mark.parametrize("wrong, passes", [(3, True), (4, False)])
def test_three_wrong_of_56_pass_and_four_do_not(wrong, passes):
    issued = paper(3)
    records = issued.key["cases"]
    # Wrong on cases of distinct rules, so only the accuracy bound decides.
    picked, rules = set(), set()
    for record in records:
        if record["rule"] not in rules and not record["lookalike_kinds"] and len(picked) < wrong:
            picked.add(record["label"])
            rules.add(record["rule"])
    given_answers = {}
    for record, shown in zip(records, issued.paper["cases"], strict=True):
        given_answers[record["label"]] = (
            slip(record, shown, random.Random(1)) if record["label"] in picked else right(record)
        )
    result = co.grade_checkout(co.answers_data(issued.paper, given_answers), issued.key)
    assert result.fully_correct == co.DEFAULT_COUNT - wrong
    assert result.passed is passes
    assert result.accuracy_proved is passes


@settings(max_examples=examples(60))
@given(total=st.integers(min_value=1, max_value=200), data=st.data())
def test_the_bound_matches_the_exact_tail_without_scipy(total, data):
    correct = data.draw(st.integers(min_value=0, max_value=total))
    bound = confidence.accuracy_lower_bound(correct, total)
    if correct:
        assert confidence._bisected(correct, total, 0.05) == pytest.approx(bound, abs=1e-9)
        # At the bound, the chance of this many right or more is exactly 5%.
        assert confidence._tail(correct, total, bound) == pytest.approx(0.05, abs=1e-7)
    else:
        assert bound == 0.0


def test_without_scipy_the_bound_is_the_same(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_scipy(name, *args, **kwargs):
        if name.split(".")[0] == "scipy":
            raise ImportError("No module named 'scipy'")
        return real_import(name, *args, **kwargs)

    with_scipy = confidence.accuracy_lower_bound(53, 56)
    monkeypatch.setattr(builtins, "__import__", no_scipy)
    assert confidence.accuracy_lower_bound(53, 56) == pytest.approx(with_scipy, abs=1e-9)
    assert confidence.largest_passing_misses(56, 0.85) == 3
    assert confidence.largest_passing_misses(18, 0.85) is None


def test_known_bounds():
    assert confidence.accuracy_lower_bound(24, 24) == pytest.approx(0.8827, abs=1e-4)
    assert confidence.accuracy_lower_bound(22, 24) == pytest.approx(0.7602, abs=1e-4)
    assert [confidence.largest_passing_misses(n, 0.85) for n in (40, 46, 49, 50, 56, 59)] == [
        2,
        2,
        2,
        3,
        3,
        4,
    ]


def test_the_bound_is_scipys_clopper_pearson():
    from scipy.stats import binomtest

    for correct, total in [(1, 1), (19, 19), (45, 48), (53, 56), (120, 200)]:
        exact = binomtest(correct, total, alternative="greater").proportion_ci(0.95, method="exact").low
        assert confidence.accuracy_lower_bound(correct, total) == pytest.approx(exact, abs=1e-12)
