"""The mastery model's numbers: the streaks that master a rule and secure a look-alike kind, the gaps
between a rule's cases, and the outcomes a served case can have (:mod:`.mastery` applies them).
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "MASTERY_MODEL",
    "MODELS",
    "MASTERY_STREAK",
    "MISS_GAP",
    "SUCCESS_GAP",
    "REVIEW_GAP",
    "FACET_STREAK",
    "FACET_STREAK_MAX",
    "FACET_STREAKS",
    "OUTCOMES",
    "facet_streak",
]

#: The mastery model a progress file's claimed states follow (``"model"`` in its mastery block).
#: Model 1 (files without the field): a rule by 3 in a row, a look-alike kind by one right case.
#: Model 2: as 1 for rules; kinds by 3 in a row, more after misses; and the last 60 cases at 85% with
#: 95% confidence, re-checked after every case (which let a trainee right 85% of the time through).
#: Model 3: kinds by :func:`facet_streak` in a row, more after misses; and every case so far clearing
#: the sequential test of :mod:`.sequential`. Either way a file's states are rebuilt from its attempts by
#: this model.
MASTERY_MODEL = 3
#: The models :meth:`Mastery.start` can replay (what an older drill served and claimed).
MODELS = (1, 2, 3)
#: Unaided correct first tries in a row that master a rule.
MASTERY_STREAK = 3
#: A missed rule comes round again after this many other cases.
MISS_GAP = 2
#: A rule answered right comes round again after this many other cases (while not mastered).
SUCCESS_GAP = 5
#: A mastered rule is checked again in the same sitting after this many cases, then after twice as
#: many after each unaided review, so mastery reached by luck does not last.
REVIEW_GAP = 20
#: Unaided correct cases in a row, among the cases a look-alike kind decides, that secure the kind ...
FACET_STREAK = 1
#: ... except a kind made of many forms, where one right case shows little: a trainee blind to the
#: common Cyrillic letters still gets the rarer ones right (the letters are weighted as real data has them) ...
FACET_STREAKS: Mapping[str, int] = MappingProxyType({"homoglyph": 3})
#: ... plus one for each such case missed so far, up to this many in a row.
FACET_STREAK_MAX = 6
#: Model 2's run for every kind (kept to replay what a drill of that model served).
_MODEL2_FACET_STREAK = 3
#: Every outcome a served case can have; only ``correct`` is an unaided first try.
OUTCOMES = ("correct", "helped", "missed", "revealed", "skipped")


def facet_streak(facet: str, missed: int, model: int = MASTERY_MODEL) -> int:
    """Unaided cases of look-alike kind ``facet`` in a row that secure it after ``missed`` misses on it:
    :data:`FACET_STREAK` (:data:`FACET_STREAKS` for a kind of many forms), one more per miss, at most
    :data:`FACET_STREAK_MAX` (model 2: three, one more per miss; model 1: one)."""
    if model == 1:
        return 1
    base = _MODEL2_FACET_STREAK if model == 2 else FACET_STREAKS.get(facet, FACET_STREAK)
    return min(base + missed, FACET_STREAK_MAX)
