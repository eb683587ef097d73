"""The next actions a check-out case offers, and the one its expected output calls for.

Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from helpers.trainee.cases.deciding_rule import approved_change, unapproved_faults

__all__ = [
    "ACTIONS",
    "keyed_action",
]

#: The next actions a check-out case offers; the key holds one of them.
ACTIONS: tuple[str, ...] = (
    "repair the target list",
    "hold for staff labels",
    "hold the key before scoring",
    "accept",
    "issue a new baseline with the old one kept",
    "hold the key, and issue a new baseline with the old one kept for the approved change only",
)


def keyed_action(case: Any, keyed_rule: str) -> str:
    """The next action a case calls for, from its expected output and keyed rule.

    A change a rubric revision approves exactly calls for a new baseline (old
    one kept) when it is the key's only fault, and for holding the key and a new
    baseline for that change alone when another sentinel is missing or changed
    with no such revision (:func:`~helpers.trainee.cases.deciding_rule.approved_change`);
    an unresolved target for staff labels; a refused empty baseline for holding
    the key (nothing can be scored until the sentinel baseline is supplied); a
    preserved scope or an intact key for accepting; else repairing the target
    list or holding the key before scoring. ``keyed_rule`` is the case's keyed
    rule, which agrees with the revision's part. Taught in ``07_checkout.ipynb``.
    """
    expected = case.expected
    record = getattr(case, "input", None)
    context = getattr(case, "context", None) or {}
    if (
        case.check == "sentinels"
        and isinstance(record, Mapping)
        and approved_change(record, context) is not None
    ):
        missing, changed = unapproved_faults(record, context)
        return ACTIONS[5] if missing or changed else ACTIONS[4]
    if keyed_rule == "sk-rubric-change":
        return ACTIONS[4]
    if "held" in expected:
        return ACTIONS[1]
    if "error" in expected:
        return ACTIONS[2]
    if case.check == "target-scope":
        return ACTIONS[3] if expected.get("preserved") else ACTIONS[0]
    return ACTIONS[3] if expected.get("intact") else ACTIONS[2]
