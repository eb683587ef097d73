"""The drill's overall evidence: a sequential probability ratio test that stays valid when looked at after every case.

The drill is complete only while, besides every rule mastered and every look-alike kind secured,
its unaided first tries (every scored case, from the first) show accuracy above :data:`P0`:

* each unaided right first try adds ``log(P1 / P0)`` to the evidence, and every other outcome
  (a miss, a hint, a reveal, a skip) adds ``log((1 - P1) / (1 - P0))``, as in Wald's test of
  ``P0 = 0.85`` against ``P1 = 0.95``;
* the bar is ``log(1 / ALPHA)``: by Ville's inequality, a trainee right :data:`P0` of the time or
  less reaches it, at any case, ever, with probability at most :data:`ALPHA` (5%). The bar holds
  however often it is looked at, which a window re-checked after every case did not.

A trainee who answers every case right clears it after :func:`right_answers_needed` ``(0, 0)`` = 27
cases; each miss costs about ten more right answers. The arithmetic is exact (fractions, see
:func:`overall_met`), so a boundary case never turns on rounding. Standard library only: the drill runs in the browser edition, and a
dozen lines of exact integer arithmetic need no library (scipy's floats would blur the boundary).
Taught in ``04_practice.ipynb``; ``docs/practice.md`` gives the simulated table.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from helpers.core.errors import InvalidInputError

__all__ = [
    "P0",
    "P1",
    "ALPHA",
    "evidence",
    "overall_met",
    "right_answers_needed",
    "expected_cases_needed",
]

#: Accuracy the drill must rule out (a trainee right this often, or less, should not complete) ...
P0 = Fraction(85, 100)
#: ... against the accuracy it is built to recognise quickly.
P1 = Fraction(95, 100)
#: The most often a trainee right :data:`P0` of the time or less ever completes (Ville's inequality).
ALPHA = Fraction(5, 100)

#: The likelihood ratio of one right answer (19/17) and of one other outcome (1/3), as fractions.
_RIGHT = P1 / P0
_WRONG = (1 - P1) / (1 - P0)


def _counts(right: int, wrong: int) -> None:
    for name, value in (("right", right), ("wrong", wrong)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInputError(
                f"{name} is {value!r}, expected a whole number of cases, 0 or more", field=name
            )


def evidence(right: int, wrong: int) -> float:
    """The log likelihood ratio of ``right`` unaided right first tries and ``wrong`` other outcomes
    (``P1`` against ``P0``); the drill's bar is ``log(1 / ALPHA)``, about 3.0."""
    _counts(right, wrong)
    return right * math.log(_RIGHT) + wrong * math.log(_WRONG)


@functools.lru_cache(maxsize=4096, typed=True)  # typed: True is refused, never taken for 1
def overall_met(right: int, wrong: int) -> bool:
    """True when ``right`` unaided right first tries and ``wrong`` other outcomes clear the bar:
    ``(19/17)**right * (1/3)**wrong >= 1 / ALPHA``, worked in whole numbers (exact at the boundary).

    >>> overall_met(27, 0), overall_met(26, 0), overall_met(37, 1)
    (True, False, True)
    """
    _counts(right, wrong)
    ratio = _RIGHT**right * _WRONG**wrong
    return ratio * ALPHA >= 1


def right_answers_needed(right: int, wrong: int) -> int:
    """How many more unaided right first tries, with no other outcome, clear the bar (0 when met).

    >>> right_answers_needed(0, 0), right_answers_needed(20, 1)
    (27, 17)
    """
    _counts(right, wrong)
    gap = math.log(1 / ALPHA) - evidence(right, wrong)
    more = max(0, math.floor(gap / math.log(_RIGHT)) - 1)  # a case below the float estimate ...
    while not overall_met(right + more, wrong):  # ... then up, exactly
        more += 1
    return more


def expected_cases_needed(right: int, wrong: int, accuracy: float) -> float | None:
    """Wald's approximation of the cases a trainee right ``accuracy`` of the time still needs to clear
    the bar (0.0 when met; ``None`` when such a trainee is not expected to clear it at all).

    >>> round(expected_cases_needed(0, 0, 0.95))
    59
    """
    _counts(right, wrong)
    if not 0.0 <= accuracy <= 1.0:
        raise InvalidInputError(f"accuracy is {accuracy!r}, expected a share from 0 to 1", field="accuracy")
    if overall_met(right, wrong):
        return 0.0
    drift = accuracy * math.log(_RIGHT) + (1 - accuracy) * math.log(_WRONG)
    if drift <= 0:
        return None
    return (math.log(1 / ALPHA) - evidence(right, wrong)) / drift
