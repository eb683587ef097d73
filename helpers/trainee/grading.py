"""Grading a trainee's answer to a case, with feedback that names the rule missed.

An :class:`Answer` is what the trainee built: the IDs they marked in each
list, the flag they set, and whether they held the input. :func:`grade`
compares it with the case's expected output field by field and ID by ID.
Every piece of feedback carries the id of the rule it teaches (the rule ids
are listed in ``fixtures/rules.json``).

No widgets here: the work-it-yourself widget in :mod:`helpers.trainee.widgets` calls
these functions. Taught in ``02_target_scope.ipynb`` and
``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from helpers.core.chardiff import visible_id
from helpers.core.ordering import sorted_ids
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.filled import Case
from helpers.trainee.cases.rules import GRADED_RULES, Rule, load_rules

__all__ = [
    "Answer",
    "Feedback",
    "Grade",
    "grade",
    "outcome_of",
    "answer_fields",
    "candidate_ids",
    "correct_answer",
    "decisive_rules",
    "keyed_rule_of",
    "reason_options",
    "grade_reason",
    "hints",
    "FILLED_CASE_RULES",
    "REASON_OPTIONS",
    "TRUE_DISTRACTORS",
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
#: How many rules the reason question offers: the keyed rule and ``REASON_OPTIONS - 1`` others.
REASON_OPTIONS = 5
#: At most this many of the others are true of the case but less specific than the keyed rule.
TRUE_DISTRACTORS = 2

#: The two list fields and the flag of each check's output, in output order.
_FIELDS: dict[str, tuple[str, str, str]] = {
    "target-scope": ("missing", "added", "preserved"),
    "sentinels": ("missing", "changed", "intact"),
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


def outcome_of(
    correct: bool | None, *, hints: int = 0, revealed: bool = False, unanswered: str = "skipped"
) -> str:
    """What a case's first check scores, the one rule the drill and the trainer's re-grade share.

    Wrong is ``missed``; right after a hint or the worked answer is ``helped``; only right and
    unaided is ``correct``. With no check (``correct`` is None) it is ``unanswered``: ``skipped``, or
    ``revealed`` when the worked answer came first. Every outcome but ``correct`` is a miss for
    mastery. Taught in ``04_practice.ipynb``.
    """
    if correct is None:
        return unanswered
    if not correct:
        return "missed"
    return "helped" if hints or revealed else "correct"


@dataclass(frozen=True)
class Feedback:
    """One finding about an answer: the field, the ID if any, and the rule it teaches."""

    field: str
    item: str | None
    message: str
    rule: str


@dataclass(frozen=True)
class Grade:
    """The result of grading: correct only when every field and every ID is right."""

    correct: bool
    mistakes: tuple[Feedback, ...] = field(default=())

    @property
    def rules_missed(self) -> list[str]:
        """Rule ids of the mistakes, each once, in the order first met."""
        return list(dict.fromkeys(m.rule for m in self.mistakes))


def candidate_ids(case: Case) -> list[str]:
    """Every ID a trainee may mark for this case, sorted: both lists or both keys."""
    data = case.input
    if case.check == "target-scope":
        ids = set(_id_list(data.get("original"))) | set(_id_list(data.get("rewritten")))
    else:
        ids = set(_key(data.get("baseline"))) | set(_key(data.get("proposed")))
    return sorted_ids(ids)


def correct_answer(case: Case) -> Answer:
    """The answer that :func:`grade` marks fully correct for ``case``, reason included."""
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


def _context(case: Case) -> Mapping[str, Any]:
    context = getattr(case, "context", None)
    return context if isinstance(context, Mapping) else {}


def keyed_rule_of(case: Case) -> str:
    """The keyed rule of ``case``, computed from what it shows (:func:`helpers.trainee.cases.deciding_rule.keyed_rule`)."""
    return keyed.keyed_rule(case.check, case.input, _context(case))


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
    true_of = keyed.rules_that_apply(offer.ids, case.check, case.input, _context(case))
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
        and keyed.applies(picked, case.check, case.input, _context(case))
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


def _id_list(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _key(value: Any) -> dict[str, str]:
    return dict(value) if isinstance(value, Mapping) else {}


def _v(case_id: str) -> str:
    """An ID as feedback shows it: look-alikes told apart (``pay⟨U+200B⟩roll``)."""
    return visible_id(case_id)


def _flag_rule(case: Case, fallback: str, keyed_id: str | None = None) -> str:
    """The rule a wrong flag counts against: the keyed rule when feedback can name it.

    ``keyed_id`` is :func:`keyed_rule_of` of the case when the caller has worked it out already."""
    rule = keyed_id if keyed_id is not None else keyed_rule_of(case)
    return rule if rule in GRADED_RULES else fallback


def grade(
    case: Case, answer: Answer, *, ask_reason: bool = False, rules: Sequence[Rule] | None = None
) -> Grade:
    """Grade ``answer`` against ``case.expected``; every mistake names its field and rule.

    With ``ask_reason`` the picked reason is graded too (:func:`grade_reason`).
    The feedback never names an ID the trainee left unmarked, nor an expected
    flag value: it says which field is wrong and which rule to apply.
    """
    if answer.check != case.check:
        raise ValueError(f"answer is for {answer.check!r}, case is {case.check!r}")
    expected = case.expected
    if case.check == "target-scope":
        mistakes = _grade_target_scope(case, expected, answer)
    else:
        mistakes = _grade_sentinels(case, expected, answer)
    if ask_reason:
        mistakes.extend(grade_reason(case, answer.reason, rules))
    return Grade(correct=not mistakes, mistakes=tuple(mistakes))


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


# --- target scope -----------------------------------------------------------


def _n(count: int, one: str, many: str) -> str:
    """``one original target`` / ``2 original targets``: a count, never an ID."""
    return f"one {one}" if count == 1 else f"{count} {many}"


def _q(case_id: str) -> str:
    """An ID the trainee marked, as feedback quotes it: look-alikes told apart, in backticks."""
    return f"`{_v(case_id)}`"


def _grouped(
    field_name: str, found: list[tuple[str, str]], nouns: tuple[str, str], text: Mapping[str, str]
) -> list[Feedback]:
    """One finding per rule for IDs the trainee left unmarked: a count and the rule, never an ID."""
    counts: dict[str, int] = {}
    for _item, rule in found:
        counts[rule] = counts.get(rule, 0) + 1
    return [
        Feedback(
            field_name,
            None,
            f"`{field_name}` is incomplete: " + text[rule].replace("{n}", _n(count, *nouns)) + ".",
            rule,
        )
        for rule, count in counts.items()
    ]


def _ts_shape_rule(original: list[str], rewritten: list[str]) -> tuple[str, str]:
    """Why two equal sets might look different to a trainee: rule id and phrase."""
    if len(set(original)) != len(original) or len(set(rewritten)) != len(rewritten):
        return "ts-duplicates", "duplicates don't matter"
    if not original and not rewritten:
        return "ts-empty", "two empty lists are the same set"
    return "ts-order", "order doesn't matter"


def _grade_target_scope(case: Case, expected: Mapping[str, Any], answer: Answer) -> list[Feedback]:
    original = _id_list(case.input.get("original"))
    rewritten = _id_list(case.input.get("rewritten"))
    before, after = set(original), set(rewritten)
    mistakes: list[Feedback] = []
    if "held" in expected:
        if not answer.hold:
            count = len(expected["unresolved"])
            mistakes.append(
                Feedback(
                    "held",
                    None,
                    f"`held` is wrong: {_n(count, 'target mention', 'target mentions')} in the input could "
                    "not be resolved to a canonical ID, and the check can't run on a mention",
                    "ts-unresolved",
                )
            )
        return mistakes
    if answer.hold:
        mistakes.append(
            Feedback(
                "held",
                None,
                "`held` is wrong: every target here is a canonical ID and nothing is unresolved, so the "
                "check can run",
                "ts-unresolved",
            )
        )
        return mistakes

    rule, phrase = _ts_shape_rule(original, rewritten)
    both = bool(expected["missing"]) and bool(expected["added"])
    lost: list[tuple[str, str]] = []
    for target in sorted_ids(set(expected["missing"]) - answer.missing):
        if _near_match(target, after) is not None:
            lost.append((target, "ts-exact-ids"))
        elif not rewritten:
            lost.append((target, "ts-empty"))
        else:
            lost.append((target, "ts-several" if both else "ts-lost"))
    n_lost = {
        "ts-exact-ids": "{n} not in the rewrite as written; the rewrite has only a look-alike, and IDs "
        "compare exactly",
        "ts-lost": "{n} not in the rewrite",
        "ts-several": "{n} not in the rewrite; targets can be missing while others are added",
        "ts-empty": "{n} not in the rewrite, which is empty",
    }
    mistakes.extend(_grouped("missing", lost, ("original target is", "original targets are"), n_lost))
    for target in sorted_ids(answer.missing - set(expected["missing"])):
        if target in before and target in after:
            message = f"`missing` has {_q(target)}, which is in both lists: {phrase}"
            mistakes.append(Feedback("missing", target, message, rule))
        else:
            near = _near_match(target, before) is not None
            look = "; it only looks like an original target, and IDs compare exactly" if near else ""
            mistakes.append(
                Feedback(
                    "missing",
                    target,
                    f"`missing` has {_q(target)}, which was never in the original, so it cannot be "
                    f"missing{look}",
                    "ts-exact-ids" if near else "ts-added",
                )
            )
    gained: list[tuple[str, str]] = []
    for target in sorted_ids(set(expected["added"]) - answer.second):
        if _near_match(target, before) is not None:
            gained.append((target, "ts-exact-ids"))
        elif not original:
            gained.append((target, "ts-empty"))
        else:
            gained.append((target, "ts-several" if both else "ts-added"))
    n_gained = {
        "ts-exact-ids": "{n} a look-alike of an original target, and IDs compare exactly",
        "ts-added": "{n} not in the original",
        "ts-several": "{n} not in the original; targets can be added while others are missing",
        "ts-empty": "{n} not in the original, which is empty",
    }
    mistakes.extend(_grouped("added", gained, ("rewrite target is", "rewrite targets are"), n_gained))
    for target in sorted_ids(answer.second - set(expected["added"])):
        if target in before and target in after:
            message = f"`added` has {_q(target)}, which is in both lists: {phrase}"
            mistakes.append(Feedback("added", target, message, rule))
        else:
            near = _near_match(target, after) is not None
            look = "; it only looks like a rewrite target, and IDs compare exactly" if near else ""
            mistakes.append(
                Feedback(
                    "added",
                    target,
                    f"`added` has {_q(target)}, which is not in the rewrite, so it cannot be added{look}",
                    "ts-exact-ids" if near else "ts-lost",
                )
            )
    mistakes.extend(
        _grade_flag(
            answer.flag,
            expected["preserved"],
            "preserved",
            when_true=f"`preserved` is wrong: the scope is preserved exactly when nothing is missing and "
            f"nothing was added, and {phrase}",
            when_false="`preserved` is wrong: the scope is preserved exactly when nothing is missing and "
            "nothing was added",
            true_rule=_flag_rule(case, rule, shown_rule := keyed_rule_of(case)),
            false_rule=_flag_rule(
                case, "ts-several" if both else ("ts-lost" if expected["missing"] else "ts-added"), shown_rule
            ),
        )
    )
    return mistakes


def _near_match(target: str, others: set[str]) -> str | None:
    """An ID in ``others`` that a reader may take for ``target`` (:func:`helpers.trainee.cases.deciding_rule.lookalike_kind`)."""
    for other in sorted_ids(others):
        if keyed.lookalike_kind(target, other) is not None:
            return other
    return None


def _grade_flag(
    given: bool | None,
    wanted: bool,
    name: str,
    *,
    when_true: str,
    when_false: str,
    true_rule: str,
    false_rule: str,
) -> list[Feedback]:
    if given is wanted:
        return []
    if given is None:
        return [
            Feedback(
                name,
                None,
                f"`{name}` is not set: choose it once the two lists are built",
                true_rule if wanted else false_rule,
            )
        ]
    if wanted:
        return [Feedback(name, None, when_true, true_rule)]
    return [Feedback(name, None, when_false, false_rule)]


# --- sentinels --------------------------------------------------------------


def _changed_rule(old: str, new: str) -> tuple[str, str]:
    if keyed.differs_only_in_case_or_space(old, new):
        return "sk-whitespace-case", "a change of case or spacing is still a change"
    if keyed.differs_only_invisibly(old, new):
        return "sk-invisible", "even a change a reader cannot see is a change"
    return "sk-changed", "any edit to a sentinel answer is a change"


def _grade_sentinels(case: Case, expected: Mapping[str, Any], answer: Answer) -> list[Feedback]:
    baseline = _key(case.input.get("baseline"))
    proposed = _key(case.input.get("proposed"))
    mistakes: list[Feedback] = []
    if "error" in expected:
        if not answer.hold:
            mistakes.append(
                Feedback(
                    "refused",
                    None,
                    "`refused` is wrong: look at how many sentinels the baseline holds; a check over no "
                    "sentinels would verify nothing",
                    "sk-empty-baseline",
                )
            )
        return mistakes
    if answer.hold:
        mistakes.append(
            Feedback(
                "refused",
                None,
                "`refused` is wrong: the baseline holds sentinels, so the check can run",
                "sk-empty-baseline",
            )
        )
        return mistakes

    all_gone = bool(baseline) and not (set(baseline) & set(proposed))
    both = bool(expected["missing"]) and bool(expected["changed"])
    gone = [
        (s, "sk-all-missing" if all_gone else "sk-several" if both else "sk-missing")
        for s in sorted_ids(set(expected["missing"]) - answer.missing)
    ]
    mistakes.extend(
        _grouped(
            "missing",
            gone,
            ("baseline sentinel is", "baseline sentinels are"),
            {
                "sk-missing": "{n} absent from the proposed key",
                "sk-several": "{n} absent from the proposed key; sentinels can be missing while others "
                "are changed",
                "sk-all-missing": "{n} absent from the proposed key, which keeps none of them",
            },
        )
    )
    for case_id in sorted_ids(answer.missing - set(expected["missing"])):
        mistakes.append(_wrongly_marked(case_id, "missing", baseline, proposed))
    edits = []
    for sentinel in sorted_ids(set(expected["changed"]) - answer.second):
        kind = _changed_rule(baseline[sentinel], proposed[sentinel])[0]
        edits.append((sentinel, "sk-several" if both and kind == "sk-changed" else kind))
    mistakes.extend(
        _grouped(
            "changed",
            edits,
            ("sentinel answer is", "sentinel answers are"),
            {
                "sk-changed": "{n} a different string in the proposed key",
                "sk-several": "{n} a different string in the proposed key; sentinels can be changed while "
                "others are missing",
                "sk-whitespace-case": "{n} different only in case or whitespace, which is still a change",
                "sk-invisible": "{n} different only by a character a reader cannot see, which is still "
                "a change",
            },
        )
    )
    for case_id in sorted_ids(answer.second - set(expected["changed"])):
        mistakes.append(_wrongly_marked(case_id, "changed", baseline, proposed))
    problems = len(expected["missing"]) + len(expected["changed"])
    mistakes.extend(
        _grade_flag(
            answer.flag,
            expected["intact"],
            "intact",
            when_true="`intact` is wrong: the key is intact exactly when no sentinel is missing or changed, "
            "and an extra non-sentinel case is allowed",
            when_false="`intact` is wrong: the key is intact exactly when no sentinel is missing or "
            "changed, and a key that is not intact is held before scoring",
            true_rule=_flag_rule(
                case,
                "sk-new-case" if set(proposed) - set(baseline) else "sk-changed",
                shown_rule := keyed_rule_of(case),
            ),
            false_rule=_flag_rule(
                case,
                "sk-missing"
                if expected["missing"] and problems == len(expected["missing"])
                else "sk-changed",
                shown_rule,
            ),
        )
    )
    return mistakes


def _wrongly_marked(
    case_id: str, field_name: str, baseline: Mapping[str, str], proposed: Mapping[str, str]
) -> Feedback:
    """A finding about an ID the trainee marked: naming it gives nothing away."""
    marked = f"`{field_name}` has {_q(case_id)}"
    if case_id not in baseline:
        near = _near_match(case_id, set(baseline)) is not None
        look = "; it only looks like a sentinel, and IDs compare exactly" if near else ""
        return Feedback(
            field_name,
            case_id,
            f"{marked}, which is not in the baseline: a non-sentinel case is allowed and is never "
            f"{field_name}{look}",
            "sk-new-case",
        )
    if case_id not in proposed:
        return Feedback(
            field_name,
            case_id,
            f"{marked}, which is absent from the proposed key: an absent sentinel has no answer to change",
            "sk-missing",
        )
    if baseline[case_id] != proposed[case_id]:
        return Feedback(
            field_name,
            case_id,
            f"{marked}, which is still in the proposed key: a sentinel that is still there is not missing",
            "sk-changed",
        )
    return Feedback(
        field_name,
        case_id,
        f"{marked}, which is present with the same answer as in the baseline",
        "sk-changed",
    )
