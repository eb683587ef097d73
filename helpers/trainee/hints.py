"""The hint ladder for a case: the method, where to look, then the rule that decides it.

Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from helpers.trainee.answers import decisive_rules, keyed_rule_of
from helpers.trainee.cases.rules import Rule, load_rules

if TYPE_CHECKING:  # a case is only read here; its loader comes in when a case is loaded
    from helpers.trainee.cases.filled import Case

__all__ = ["hints"]


#: The first rung of the hint ladder: how to work a case of each check.
_METHOD = {
    "target-scope": "first read the input for mentions nobody has resolved to an ID; then compare the two "
    "lists as sets, exactly as written: an ID only the original has is missing, an ID only the rewrite "
    "has is added, and the scope is preserved only when both of your lists are empty",
    "sentinels": "first count the baseline's sentinels; then take them one at a time: a sentinel absent "
    "from the proposed key is missing, one present with a different answer string is changed, IDs only the "
    "proposed key has are not checked, and the key is intact only when both of your lists are empty",
}


#: The second rung: where to look in a case that this rule decides (never an ID or a value).
_WHERE = {
    "ts-lost": "go through the original one ID at a time and look for each in the rewrite",
    "ts-added": "go through the rewrite one ID at a time and look for each in the original",
    "ts-order": "compare the two lists as sets, ignoring where each ID stands",
    "ts-duplicates": "count each ID once in each list before you compare the lists",
    "ts-exact-ids": "compare the IDs of the two lists character by character, with the ⟨U+XXXX⟩ "
    "notation: IDs that read the same may not be the same",
    "ts-empty": "count the IDs in each list before anything else",
    "ts-several": "go through both lists: each may hold IDs the other lacks",
    "ts-unresolved": "read the input for anything besides the two lists of IDs",
    "ts-query-unvalidated": "compare the two lists as sets, then read the two queries' wording side by side",
    "sk-changed": "compare each sentinel's answer in the baseline with its answer in the proposed key",
    "sk-whitespace-case": "compare each sentinel's answers character by character, letter case and "
    "spaces included (a space shows as ·, a no-break space as ⟨U+00A0⟩)",
    "sk-invisible": "compare each sentinel's answers character by character, with the ⟨U+XXXX⟩ notation: "
    "answers that read the same may not be the same",
    "sk-missing": "go through the baseline one sentinel at a time and look for it in the proposed key",
    "sk-all-missing": "look for each baseline sentinel among the proposed key's IDs, exactly as written",
    "sk-new-case": "look for IDs only the proposed key has, and ask whether the check reads them",
    "sk-nonsentinel-changed": "compare the earlier key shown with the proposed key, then ask which of "
    "those IDs the check reads",
    "sk-empty-baseline": "count the sentinels in the baseline",
    "sk-rubric-change": "read the rubric revision shown with the key: which sentinel, from which answer to "
    "which, whether the proposed key makes exactly that change, and whether a new baseline has been written",
    "sk-several": "go through the baseline one sentinel at a time: is it in the proposed key, and with "
    "the same answer?",
}


def hints(case: Case, *, rules: Sequence[Rule] | None = None) -> list[str]:
    """The hint ladder for ``case``: the method, where to look, then the rule that decides it.

    Computed from the case alone, never from an answer, so no rung can tell a
    trainee whether what they built is right. No rung names an expected ID or
    value. After the three rungs comes the worked answer. Taught in
    ``01_start_here.ipynb``.
    """
    known = {rule.id: rule for rule in (rules if rules is not None else load_rules())}
    decided_by = decisive_rules(case)
    rule_id = decided_by[0] if decided_by else keyed_rule_of(case)
    rule = known.get(rule_id)
    statement = f" {rule.statement}" if rule is not None else ""
    where = _WHERE.get(rule_id, "compare the two lists of the input, one ID at a time")
    return [
        f"Hint 1 of 3, the method: {_METHOD[case.check]}.",
        f"Hint 2 of 3, where to look: {where}.",
        f"Hint 3 of 3, the rule that decides this case: {rule_id}.{statement}",
    ]
