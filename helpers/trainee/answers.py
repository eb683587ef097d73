"""A trainee's answer to a case, and the right answer: what :mod:`helpers.trainee.grading` compares.

An :class:`Answer` is what the trainee built: the IDs they marked in each
list, the flag they set, and whether they held the input. :func:`correct_answer`
is the answer that grades fully right, and :func:`decisive_rules` the rule that
decides a case (the reason to pick). Taught in ``02_target_scope.ipynb`` and
``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from helpers.core.ordering import sorted_ids
from helpers.trainee.cases import deciding_rule as keyed

if TYPE_CHECKING:  # a case is only read here; its loader comes in when a case is loaded
    from helpers.trainee.cases.filled import Case

__all__ = [
    "Answer",
    "answer_fields",
    "answer_key",
    "candidate_ids",
    "case_context",
    "correct_answer",
    "decisive_rules",
    "id_list",
    "keyed_rule_of",
    "FILLED_CASE_RULES",
    "HOLD_LABELS",
]

#: The rule that decides each filled case of notebooks 02 and 03 (the reason to pick).
FILLED_CASE_RULES: dict[str, tuple[str, ...]] = {
    "lost-comparison": ("ts-lost",),
    "reordered-targets": ("ts-order",),
    "new-target": ("ts-added",),
    "sentinel-mutated": ("sk-changed",),
    "new-case-only": ("sk-new-case",),
    "sentinel-missing": ("sk-missing",),
}

#: The two list fields and the flag of each check's output, in output order.
_FIELDS: dict[str, tuple[str, str, str]] = {
    "target-scope": ("missing", "added", "preserved"),
    "sentinels": ("missing", "changed", "intact"),
}

#: What the hold box means for each check (held for staff labels; refused by the check).
HOLD_LABELS = {
    "target-scope": "Hold: needs staff labels",
    "sentinels": "Refuse: the check cannot run on this input",
}


def answer_fields(check: str) -> tuple[str, str, str]:
    """The output's two list fields and its flag, e.g. ``("missing", "added", "preserved")``."""
    return _FIELDS[check]


@dataclass(frozen=True)
class Answer:
    """A trainee's answer. ``flag`` is None until they choose true or false.

    ``hold`` means "held, needs staff labels" for target scope and "the check
    refuses this input" for sentinels. ``reason`` is the rule id picked as the
    reason for the output (None until one is picked).
    """

    check: str
    missing: frozenset[str] = frozenset()
    second: frozenset[str] = frozenset()
    flag: bool | None = None
    hold: bool = False
    reason: str | None = None

    def as_dict(self, case: Case) -> dict[str, Any]:
        """The output object this answer stands for, shaped like the seeds' output."""
        first, second, flag = answer_fields(self.check)
        if self.hold and self.check == "target-scope":
            unresolved = case.input.get("unresolved") or []
            return {
                "held": "needs staff labels",
                "unresolved": sorted_ids(set(unresolved)),
                "preserved": False,
            }
        if self.hold:
            return {"error": "the check refuses this input"}
        return {
            first: sorted_ids(self.missing),
            second: sorted_ids(self.second),
            flag: self.flag,
        }

    def to_data(self) -> dict[str, Any]:
        """The answer as a progress file stores it: the controls' fields, the ID lists sorted."""
        return {
            "check": self.check,
            "missing": sorted(self.missing),
            "second": sorted(self.second),
            "flag": self.flag,
            "hold": self.hold,
            "reason": self.reason,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Answer:
        """The answer :meth:`to_data` stored, from a file already checked against its schema."""
        return cls(
            data["check"],
            frozenset(data["missing"]),
            frozenset(data["second"]),
            data["flag"],
            data["hold"],
            data["reason"],
        )


def candidate_ids(case: Case) -> list[str]:
    """Every ID a trainee may mark for this case, sorted: both lists or both keys."""
    data = case.input
    if case.check == "target-scope":
        ids = set(id_list(data.get("original"))) | set(id_list(data.get("rewritten")))
    else:
        ids = set(answer_key(data.get("baseline"))) | set(answer_key(data.get("proposed")))
    return sorted_ids(ids)


def correct_answer(case: Case) -> Answer:
    """The answer that :func:`helpers.trainee.grading.grade` marks fully correct for ``case``, reason included."""
    expected = case.expected
    first, second, flag = answer_fields(case.check)
    right = decisive_rules(case)
    reason = right[0] if right else None
    if "held" in expected or "error" in expected:
        return Answer(case.check, hold=True, flag=False, reason=reason)
    return Answer(
        case.check,
        missing=frozenset(expected[first]),
        second=frozenset(expected[second]),
        flag=expected[flag],
        reason=reason,
    )


def case_context(case: Case) -> Mapping[str, Any]:
    """What is shown beside the case's input (an earlier key, a rubric revision), or nothing."""
    context = getattr(case, "context", None)
    return context if isinstance(context, Mapping) else {}


def keyed_rule_of(case: Case) -> str:
    """The keyed rule of ``case``, computed from what it shows (:func:`helpers.trainee.cases.deciding_rule.keyed_rule`)."""
    return keyed.keyed_rule(case.check, case.input, case_context(case))


def decisive_rules(case: Case) -> tuple[str, ...]:
    """The one rule that decides ``case``: the right reason, as a one-item tuple.

    A generated or practice case carries it first in its rules; a filled case
    of notebooks 02 and 03 has it in :data:`FILLED_CASE_RULES`. Empty when the
    case has none. Taught in ``02_target_scope.ipynb`` and ``04_practice.ipynb``.
    """
    tags = getattr(case, "rules", None)
    if tags:
        return (tags[0],)
    return FILLED_CASE_RULES.get(case.id, ())[:1]


def id_list(value: Any) -> list[str]:
    """The IDs of an input's list, anything else left out (an empty list for a non-list)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def answer_key(value: Any) -> dict[str, str]:
    """An input's answer key as a dict (an empty one for a non-mapping)."""
    return dict(value) if isinstance(value, Mapping) else {}
