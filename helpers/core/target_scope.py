"""The target-scope check: does a rewrite keep exactly the original targets?

Both lists are sets of canonical comparison-target IDs: order and duplicates
do not matter, IDs compare exactly as given. ``missing`` is original minus
rewritten, ``added`` is rewritten minus original, both sorted as JavaScript
sorts strings; the rewrite is ``preserved`` only when both are empty.

An input whose targets could not all be resolved to canonical IDs lists the
unresolved mentions under ``"unresolved"``; it is held with the outcome
"needs staff labels" and is never preserved.

Taught in ``02_target_scope.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from helpers.core.ordering import sorted_ids
from helpers.core.validation import require_id_list, require_record

__all__ = [
    "TargetScopeResult",
    "NeedsStaffLabels",
    "check_target_scope",
    "check_target_scope_input",
    "TARGET_SCOPE_FIELDS",
]

#: Fields a target-scope input object may carry: (required, optional).
TARGET_SCOPE_FIELDS: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("original", "rewritten"),
    ("unresolved", "id", "query", "rewritten_query"),
)


@dataclass(frozen=True)
class TargetScopeResult:
    """Outcome of comparing two target sets. Taught in ``02_target_scope.ipynb``."""

    missing: tuple[str, ...]
    added: tuple[str, ...]

    @property
    def preserved(self) -> bool:
        """True only when no target is missing and none was added."""
        return not self.missing and not self.added

    @property
    def passed(self) -> bool:
        """Same as :attr:`preserved`; shared with the other result types."""
        return self.preserved

    @property
    def outcome(self) -> Literal["preserved", "not preserved"]:
        """A short label for summaries."""
        return "preserved" if self.preserved else "not preserved"

    def as_dict(self) -> dict[str, Any]:
        """The seeds' output object: ``{"missing", "added", "preserved"}`` in that order."""
        return {
            "missing": list(self.missing),
            "added": list(self.added),
            "preserved": self.preserved,
        }


@dataclass(frozen=True)
class NeedsStaffLabels:
    """The check was not run: some targets still need staff labels.

    Never preserved. Taught in ``02_target_scope.ipynb`` ("Unresolved targets need staff labels").
    """

    unresolved: tuple[str, ...]

    @property
    def preserved(self) -> Literal[False]:
        """Always false: a held input is never preserved."""
        return False

    @property
    def passed(self) -> Literal[False]:
        """Always false."""
        return False

    @property
    def outcome(self) -> Literal["needs staff labels"]:
        """A short label for summaries."""
        return "needs staff labels"

    def as_dict(self) -> dict[str, Any]:
        """``{"held": "needs staff labels", "unresolved": [...], "preserved": false}``."""
        return {
            "held": self.outcome,
            "unresolved": list(self.unresolved),
            "preserved": False,
        }


def _compare(original: Sequence[str], rewritten: Sequence[str]) -> TargetScopeResult:
    before, after = set(original), set(rewritten)
    return TargetScopeResult(
        missing=tuple(sorted_ids(before - after)),
        added=tuple(sorted_ids(after - before)),
    )


def check_target_scope(
    original: Sequence[str],
    rewritten: Sequence[str],
    *,
    unresolved: Sequence[str] | None = None,
) -> TargetScopeResult | NeedsStaffLabels:
    """Compare the rewrite's target IDs with the original's, as sets.

    Raises :class:`~helpers.core.errors.InvalidInputError` (a ``ValueError``) naming
    the field and item when a list is not a list of non-empty strings. A
    non-empty ``unresolved`` list returns :class:`NeedsStaffLabels` instead.
    Taught in ``02_target_scope.ipynb``.

    >>> check_target_scope(["induction", "refresher"], ["induction"]).as_dict()
    {'missing': ['refresher'], 'added': [], 'preserved': False}
    """
    original = require_id_list(original, "original")
    rewritten = require_id_list(rewritten, "rewritten")
    if unresolved is not None:
        pending = require_id_list(unresolved, "unresolved")
        if pending:
            return NeedsStaffLabels(unresolved=tuple(sorted_ids(set(pending))))
    return _compare(original, rewritten)


def check_target_scope_input(record: Mapping[str, Any]) -> TargetScopeResult | NeedsStaffLabels:
    """Check one input object ``{"original": [...], "rewritten": [...]}``.

    Optional fields: ``"unresolved"`` (mentions awaiting staff labels),
    ``"id"``, ``"query"`` and ``"rewritten_query"`` (carried by callers, not checked here).
    Taught in ``02_target_scope.ipynb``.
    """
    required, optional = TARGET_SCOPE_FIELDS
    record = require_record(record, required=required, optional=optional)
    # A present "unresolved" field must be a list: null is refused, never read as "none".
    unresolved = require_id_list(record["unresolved"], "unresolved") if "unresolved" in record else ()
    return check_target_scope(record["original"], record["rewritten"], unresolved=unresolved)
