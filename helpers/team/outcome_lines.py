"""One-line explanations of a record's outcome: why it passed, failed, was held or could not be checked.

A changed sentinel answer is shown as a character-level diff
(:func:`helpers.core.chardiff.diff_text`), so a trailing space or a zero-width
character is visible. Long ID lists are cut to a few IDs and "and N more".
Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers.core.chardiff import diff_text
from helpers.core.errors import CheckInputError, JSONLoadError
from helpers.core.sentinels import SentinelResult
from helpers.core.target_scope import NeedsStaffLabels, TargetScopeResult
from helpers.team.id_display import id_text
from helpers.team.id_display import ids_text as _ids_text

__all__ = ["IDS_SHOWN", "Outcome", "count_text", "ids_text", "explain_outcome"]

#: ``(line, code, result, error, record)``; see :mod:`helpers.team.batch`.
Outcome = tuple[int, int, Any, Any, Any]

#: How many IDs an explanation names before "and N more".
IDS_SHOWN = 5


def count_text(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def ids_text(ids: Sequence[str], limit: int = IDS_SHOWN) -> str:
    """The first IDs in the notebooks' visible notation (:func:`helpers.team.id_display.id_text`)."""
    return _ids_text(ids, limit)


def _error_message(exc: CheckInputError) -> str:
    return exc.detail if isinstance(exc, JSONLoadError) else exc.message


def _changed_answer(sentinel: str, old: str, new: str) -> str:
    return f"{id_text(sentinel)} {diff_text(old, new)}"


def explain_outcome(check: str, outcome: Outcome) -> str:
    """One line saying why a record passed, failed, was held or could not be checked.

    >>> from helpers.core.target_scope import check_target_scope
    >>> explain_outcome("target-scope", (1, 1, check_target_scope(["a", "b"], ["a"]), None, None))
    'lost "b"'

    Taught in ``05_check_your_data.ipynb``.
    """
    _line, _code, result, error, record = outcome
    if error is not None:
        return _error_message(error)
    if isinstance(result, NeedsStaffLabels):
        return f"unresolved, not yet labelled by staff: {ids_text(result.unresolved)}"
    if isinstance(result, TargetScopeResult):
        parts = []
        if result.missing:
            parts.append(f"lost {ids_text(result.missing)}")
        if result.added:
            parts.append(f"added {ids_text(result.added)}")
        return "; ".join(parts) or "preserved"
    if isinstance(result, SentinelResult):
        parts = []
        if result.missing:
            parts.append(f"missing {ids_text(result.missing)}")
        if result.changed:
            baseline, proposed = record["baseline"], record["proposed"]
            shown = [_changed_answer(s, baseline[s], proposed[s]) for s in result.changed[:IDS_SHOWN]]
            more = len(result.changed) - IDS_SHOWN
            parts.append("changed " + ", ".join(shown) + (f" and {more} more" if more > 0 else ""))
        return "; ".join(parts) or "intact"
    raise TypeError(f"not a check result: {result!r}")
