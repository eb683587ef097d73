"""The reason question: which rule decides this case? The options offered, and the pick graded.

Taught in ``02_target_scope.ipynb`` ("Which rule decides") and ``04_practice.ipynb``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from helpers.trainee.answers import case_context, decisive_rules
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.feedback import Feedback

if TYPE_CHECKING:  # a case is only read here; its loader comes in when a case is loaded
    from helpers.trainee.cases.filled import Case

__all__ = ["reason_options", "grade_reason", "REASON_OPTIONS", "TRUE_DISTRACTORS"]

#: How many rules the reason question offers: the keyed rule and ``REASON_OPTIONS - 1`` others.
REASON_OPTIONS = 5
#: At most this many of the others are true of the case but less specific than the keyed rule.
TRUE_DISTRACTORS = 2


def _case_rng(case: Case, salt: str) -> random.Random:
    digest = hashlib.sha256(f"{case.check}/{case.id}:{salt}".encode("utf-8", "surrogatepass")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _shown(rule: Rule) -> str:
    return f"{rule.id}: {rule.statement}"


@dataclass(frozen=True)
class _Offer:
    """One check's rules as the reason question draws on them: in course order, by id, and each
    option's length as shown."""

    every: tuple[Rule, ...]
    ids: tuple[str, ...]
    known: Mapping[str, Rule]
    length: Mapping[str, int]

    @classmethod
    def of(cls, rules: Sequence[Rule], check: str) -> _Offer:
        every = tuple(rule for rule in rules if rule.check == check)
        return cls(
            every,
            tuple(rule.id for rule in every),
            {rule.id: rule for rule in every},
            {rule.id: len(_shown(rule)) for rule in every},
        )


#: :class:`_Offer` by (the identity of a tuple of rules, check), with the tuple kept so the identity stays its own.
_OFFERS: dict[tuple[int, str], tuple[tuple[Rule, ...], _Offer]] = {}


def _offer(rules: Sequence[Rule], check: str) -> _Offer:
    """:meth:`_Offer.of`, kept for a tuple of rules (immutable: the trainer's replay asks a million times)."""
    if type(rules) is not tuple:
        return _Offer.of(rules, check)
    kept = _OFFERS.get((id(rules), check))
    if kept is None or kept[0] is not rules:
        if len(_OFFERS) >= 16:
            _OFFERS.clear()
        kept = (rules, _Offer.of(rules, check))
        _OFFERS[(id(rules), check)] = kept
    return kept[1]


def reason_options(case: Case, *, rules: Sequence[Rule] | None = None, salt: str = "") -> list[Rule]:
    """The :data:`REASON_OPTIONS` rules offered as the reason for ``case``, shuffled for the case.

    The keyed rule, the rule that decides. Where other rules are true of the case
    too (:func:`helpers.trainee.cases.deciding_rule.applies`: a lost target beside an added one, a
    changed answer that differs only in case), up to :data:`TRUE_DISTRACTORS` of
    them are offered as well: true, but less specific than the keyed rule, so
    "pick any rule that is true" is not enough. The rest are rules that do not
    apply at all, so each one's "why not" sentence is true of it; they are picked
    so that the keyed option is the shortest or the longest shown about one time
    in five, as far as the eligible rules allow. The order is shuffled from the
    case's id and ``salt``: neither the position nor the length of an option
    gives the answer away. Raises ``ValueError`` when the case has no keyed rule
    or too few rules are eligible. Taught in ``02_target_scope.ipynb`` ("Which
    rule decides") and ``04_practice.ipynb``.
    """
    right = decisive_rules(case)
    if not right:
        raise ValueError(f"case {case.id!r} has no keyed rule to ask for")
    offer = _offer(rules if rules is not None else load_rules(), case.check)
    keyed_rule, lengths = offer.known[right[0]], offer.length
    true_of = keyed.rules_that_apply(offer.ids, case.check, case.input, case_context(case))
    rng = _case_rng(case, salt)
    also_true = [rule for rule in offer.every if rule.id != keyed_rule.id and rule.id in true_of]
    eligible = [rule for rule in offer.every if rule.id != keyed_rule.id and rule.id not in true_of]
    length = lengths[keyed_rule.id]
    shorter = [rule for rule in eligible if lengths[rule.id] < length]
    longer = [rule for rule in eligible if lengths[rule.id] >= length]
    # A rank drawn evenly from all five (how many options are shorter than the keyed one), then
    # the true distractors and the rest picked to meet it as far as the pools allow: the keyed
    # option is the shortest or the longest shown about one time in five unless the pool forces it.
    rank = rng.randint(0, REASON_OPTIONS - 1)
    count = min(TRUE_DISTRACTORS, len(also_true))
    wanted = REASON_OPTIONS - 1 - count
    if len(eligible) < wanted:
        raise ValueError(
            f"case {case.id!r} leaves only {len(eligible)} rules that do not apply; {wanted} are needed"
        )
    low, high = max(0, wanted - len(longer)), min(wanted, len(shorter))
    best: tuple[int, list[Rule], int] | None = None
    for _try in range(6):
        distractors = rng.sample(also_true, count) if count else []
        below_true = sum(1 for rule in distractors if lengths[rule.id] < length)
        below = min(max(rank - below_true, low), high)
        miss = abs(below + below_true - rank)
        if best is None or miss < best[0]:
            best = (miss, distractors, below)
        if miss == 0 or not count:  # a sample of none draws nothing: every other try would be this one
            break
    assert best is not None
    _miss, distractors, below = best
    others = wanted - below
    chosen = [
        keyed_rule,
        *distractors,
        *(rng.sample(shorter, below) if below else ()),
        *(rng.sample(longer, others) if others else ()),
    ]
    rng.shuffle(chosen)
    return chosen


def grade_reason(case: Case, picked: str | None, rules: Sequence[Rule] | None = None) -> list[Feedback]:
    """Grade the picked reason: nothing when it is a rule that decides ``case``.

    A wrong pick gets one sentence on why that rule doesn't apply here, or, for a
    rule that holds for the case but is less specific, that a more specific rule
    decides it; never the right rule's id. Taught in ``02_target_scope.ipynb``.
    """
    right = decisive_rules(case)
    if not right or picked in right:
        return []
    if picked is None:
        return [
            Feedback(
                "reason", None, "`reason` is not picked: choose the rule that decides this case", right[0]
            )
        ]
    known = {rule.id: rule for rule in (rules if rules is not None else load_rules())}
    rule = known.get(picked)
    if (
        rule is not None
        and rule.check == case.check
        and keyed.applies(picked, case.check, case.input, case_context(case))
    ):
        return [
            Feedback(
                "reason",
                picked,
                f"`reason` is wrong: {picked} holds for this case, but a more specific rule decides it. "
                "When several rules apply, the reason is the one that settles the output.",
                right[0],
            )
        ]
    why = rule.not_here if rule is not None and rule.not_here else "That rule does not decide this case."
    return [Feedback("reason", picked, f"`reason` is wrong: {picked} doesn't apply here. {why}", right[0])]
