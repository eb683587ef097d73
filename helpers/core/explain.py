"""Plain-language explanations of a check's result, one sentence per finding.

Used by the sandboxes and reports. Taught in ``02_target_scope.ipynb`` and
``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from helpers.core.chardiff import describe_change, diff_text
from helpers.core.ordering import sorted_ids
from helpers.core.sentinels import SentinelResult
from helpers.core.target_scope import NeedsStaffLabels, TargetScopeResult

__all__ = ["explain_target_scope", "explain_sentinels", "explain"]


def explain_target_scope(result: TargetScopeResult | NeedsStaffLabels) -> list[str]:
    """Explain a target-scope result: what is missing, what was added, or why it is held."""
    if isinstance(result, NeedsStaffLabels):
        return [
            f"Held for staff labels: {', '.join(result.unresolved)} could not be resolved to a "
            "canonical target ID, so the check cannot run yet. A held rewrite is never preserved."
        ]
    lines = [
        f"{target} is missing: the original asks about it and the rewrite does not."
        for target in result.missing
    ]
    lines += [
        f"{target} was added: the rewrite asks about it and the original did not." for target in result.added
    ]
    if result.preserved:
        lines.append(
            "Scope preserved: every original target is still there and nothing was added. "
            "The rest of the query's wording is not checked."
        )
    else:
        lines.append("Scope not preserved: repair the rewrite before it is used.")
    return lines


def explain_sentinels(
    result: SentinelResult, baseline: Mapping[str, str], proposed: Mapping[str, str]
) -> list[str]:
    """Explain a sentinel result, with a character-level diff for each changed answer."""
    lines = [
        f"{sentinel} is missing: the baseline has it and the proposed key does not."
        for sentinel in result.missing
    ]
    for sentinel in result.changed:
        old, new = baseline[sentinel], proposed[sentinel]
        notes = describe_change(old, new)
        extra = f" ({'; '.join(notes)})" if notes else ""
        lines.append(f"{sentinel} changed: {diff_text(old, new)}{extra}.")
    extras = sorted_ids(set(proposed) - set(baseline))
    if extras:
        lines.append(f"New non-sentinel cases, allowed and not checked: {', '.join(extras)}.")
    if result.intact:
        lines.append("Intact: every sentinel is present with its literal answer.")
    else:
        lines.append(
            "Hold the key before scoring: fix it, or revise the baseline if the change is authorised."
        )
    return lines


def explain(check: str, record: Mapping[str, Any], result: Any) -> list[str]:
    """Explain ``result``, the outcome of running ``check`` on the input object ``record``."""
    if check == "sentinels":
        return explain_sentinels(result, record["baseline"], record["proposed"])
    return explain_target_scope(result)
