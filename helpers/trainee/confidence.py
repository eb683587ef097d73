"""What a score proves: the one-sided exact (Clopper–Pearson) lower bound on an accuracy.

``k`` of ``n`` cases right proves, with confidence ``c``, that the accuracy is at
least :func:`accuracy_lower_bound` ``(k, n, c)``: the accuracy ``p`` at which ``k``
or more right has probability exactly ``1 - c``: the ``1 - c`` quantile of
Beta(k, n - k + 1). The bound is scipy's inverse regularised incomplete beta,
``scipy.special.betaincinv`` (what ``scipy.stats.beta.ppf`` and
``binomtest(...).proportion_ci(method="exact")`` compute it with; ``scipy.special``
imports in a third of the time of ``scipy.stats``), imported only when a bound
is asked for, so ``import helpers`` stays cheap. The browser edition
ships no scipy (it has no numpy), so there the same bound is found by bisection
on the exact binomial tail; the tests hold the two equal. Taught in
``07_checkout.ipynb``.
"""

from __future__ import annotations

import math

from helpers.core.errors import CheckInputError, describe_value

__all__ = ["accuracy_lower_bound", "largest_passing_misses"]


def _check(correct: int, total: int, confidence: float) -> None:
    for name, value in (("correct", correct), ("total", total)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise CheckInputError(
                f"{name} is {describe_value(value)}, expected a whole number from 0", field=name
            )
    if correct > total or total == 0:
        raise CheckInputError(
            f"correct is {correct} of {total}, expected 0 to total (at least 1)", field="correct"
        )
    if not 0 < confidence < 1:
        raise CheckInputError(
            f"confidence is {describe_value(confidence)}, expected between 0 and 1", field="confidence"
        )


def _tail(correct: int, total: int, p: float) -> float:
    """P(at least ``correct`` right of ``total``) when each is right with probability ``p``."""
    return math.fsum(math.comb(total, i) * p**i * (1 - p) ** (total - i) for i in range(correct, total + 1))


def _bisected(correct: int, total: int, alpha: float) -> float:
    """The ``p`` where the tail equals ``alpha`` (the tail rises with ``p``), to double precision."""
    low, high = 0.0, 1.0
    for _ in range(80):
        mid = (low + high) / 2
        if _tail(correct, total, mid) < alpha:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def accuracy_lower_bound(correct: int, total: int, confidence: float = 0.95) -> float:
    """The accuracy that ``correct`` right of ``total`` proves with ``confidence`` (one-sided, exact).

    0 when nothing is right. ``accuracy_lower_bound(24, 24)`` is 0.883;
    ``accuracy_lower_bound(47, 50)`` is 0.852. Taught in ``07_checkout.ipynb``.
    """
    _check(correct, total, confidence)
    if correct == 0:
        return 0.0
    try:
        from scipy.special import betaincinv  # type: ignore[import-untyped]  # scipy ships no stubs
    except ImportError:  # the browser edition: no scipy
        return _bisected(correct, total, 1 - confidence)
    return float(betaincinv(correct, total - correct + 1, 1 - confidence))


def largest_passing_misses(total: int, bound: float, confidence: float = 0.95) -> int | None:
    """The most cases that may be wrong of ``total`` with the lower bound still at least ``bound``.

    None when even all right falls short (``total`` too small to prove ``bound``).
    """
    allowed = None
    for misses in range(total + 1):
        if accuracy_lower_bound(total - misses, total, confidence) < bound:
            break
        allowed = misses
    return allowed
