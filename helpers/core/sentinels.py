"""The sentinel answer-key check: are the baseline's sentinels intact?

Walk the baseline IDs in sorted order. An ID is ``missing`` when the proposed
key lacks it and ``changed`` when its answer is not the identical string (no
trimming, case folding or Unicode normalisation). IDs that only the proposed
key holds are new non-sentinel cases and are ignored. The key is ``intact``
only when nothing is missing or changed; otherwise hold it before scoring.

An empty baseline would check nothing, so it is refused with
:class:`~helpers.core.errors.EmptyBaselineError` rather than reported intact.

Taught in ``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from helpers.core.errors import EmptyBaselineError
from helpers.core.ordering import sorted_ids
from helpers.core.validation import require_answer_key, require_record

__all__ = [
    "SentinelResult",
    "check_sentinels",
    "check_sentinels_input",
    "SENTINEL_FIELDS",
]

#: Fields a sentinel input object may carry: (required, optional).
SENTINEL_FIELDS: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("baseline", "proposed"),
    ("id",),
)


@dataclass(frozen=True)
class SentinelResult:
    """Outcome of comparing a proposed key with the sentinel baseline.

    Taught in ``03_sentinel_answer_key.ipynb``.
    """

    missing: tuple[str, ...]
    changed: tuple[str, ...]

    @property
    def intact(self) -> bool:
        """True only when every sentinel is present with its literal answer."""
        return not self.missing and not self.changed

    @property
    def passed(self) -> bool:
        """Same as :attr:`intact`; shared with the other result types."""
        return self.intact

    @property
    def outcome(self) -> Literal["intact", "hold before scoring"]:
        """A short label for summaries."""
        return "intact" if self.intact else "hold before scoring"

    def as_dict(self) -> dict[str, Any]:
        """The seeds' output object: ``{"missing", "changed", "intact"}`` in that order."""
        return {
            "missing": list(self.missing),
            "changed": list(self.changed),
            "intact": self.intact,
        }


def check_sentinels(baseline: Mapping[str, str], proposed: Mapping[str, str]) -> SentinelResult:
    """Which baseline sentinels the proposed key lost or answers differently: each ID, each literal answer.

    Raises :class:`~helpers.core.errors.InvalidInputError` naming the field when a
    key is not an object of string IDs to string answers, and
    :class:`~helpers.core.errors.EmptyBaselineError` for an empty baseline.
    Taught in ``03_sentinel_answer_key.ipynb``.

    >>> check_sentinels({"S1": "R"}, {"S1": "S"}).as_dict()
    {'missing': [], 'changed': ['S1'], 'intact': False}
    """
    baseline = require_answer_key(baseline, "baseline")
    proposed = require_answer_key(proposed, "proposed")
    if not baseline:
        raise EmptyBaselineError(
            "baseline has no sentinel IDs, so the check would verify nothing; "
            "supply the fixed sentinel baseline",
            field="baseline",
        )
    missing: list[str] = []
    changed: list[str] = []
    for sentinel in sorted_ids(baseline):
        if sentinel not in proposed:
            missing.append(sentinel)
        elif proposed[sentinel] != baseline[sentinel]:
            changed.append(sentinel)
    return SentinelResult(missing=tuple(missing), changed=tuple(changed))


def check_sentinels_input(record: Mapping[str, Any]) -> SentinelResult:
    """Check one input object ``{"baseline": {...}, "proposed": {...}}``.

    Taught in ``03_sentinel_answer_key.ipynb``.
    """
    required, optional = SENTINEL_FIELDS
    record = require_record(record, required=required, optional=optional)
    return check_sentinels(record["baseline"], record["proposed"])
