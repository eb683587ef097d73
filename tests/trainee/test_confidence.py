"""The exact lower bound on an accuracy (``helpers/trainee/confidence.py``): scipy's, the browser edition's bisection, the misses allowed."""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import CheckInputError
from helpers.trainee import confidence


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


@pytest.mark.parametrize(
    ("correct", "total", "level", "field", "message"),
    [
        (True, 5, 0.95, "correct", "correct is "),
        (3, -1, 0.95, "total", "total is "),
        (2.0, 5, 0.95, "correct", "expected a whole number from 0"),
        (6, 5, 0.95, "correct", "correct is 6 of 5, expected 0 to total (at least 1)"),
        (0, 0, 0.95, "correct", "correct is 0 of 0, expected 0 to total (at least 1)"),
        (3, 5, 1.0, "confidence", "expected between 0 and 1"),
        (3, 5, 0.0, "confidence", "expected between 0 and 1"),
    ],
)
def test_a_count_or_confidence_out_of_range_is_refused_naming_it(correct, total, level, field, message):
    with pytest.raises(CheckInputError) as caught:
        confidence.accuracy_lower_bound(correct, total, level)
    assert caught.value.field == field and message in str(caught.value)


@settings(max_examples=examples(80))
@given(total=st.integers(min_value=1, max_value=120), data=st.data())
def test_one_more_right_or_less_confidence_never_lowers_the_bound(total, data):
    correct = data.draw(st.integers(min_value=0, max_value=total - 1))
    bound = confidence.accuracy_lower_bound(correct, total)
    assert 0.0 <= bound < confidence.accuracy_lower_bound(correct + 1, total) < 1.0
    assert confidence.accuracy_lower_bound(correct + 1, total, 0.9) > confidence.accuracy_lower_bound(
        correct + 1, total, 0.99
    )
