"""Grading a trainee's answer to a case, with feedback that names the rule missed.

An :class:`Answer` is what the trainee built: the IDs they marked in each
list, the flag they set, and whether they held the input. :func:`grade`
compares it with the case's expected output field by field and ID by ID.
Every piece of feedback carries the id of the rule it teaches (the rule ids
are listed in ``fixtures/rules.json``).

No widgets here: the work-it-yourself widget in :mod:`helpers.widgets` calls
these functions. Taught in ``02_target_scope.ipynb`` and
``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.chardiff import visible_id, visible_text
from ..core.ordering import sorted_ids
from .cases import Case
from .rules import Rule, load_rules

__all__ = [
    "Answer",
    "Feedback",
    "Grade",
    "grade",
    "answer_fields",
    "candidate_ids",
    "correct_answer",
    "decisive_rules",
    "reason_choices",
    "grade_reason",
    "hints",
    "FILLED_CASE_RULES",
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
#: How many wrong rules the reason picker offers beside the right ones.
DISTRACTORS = 3

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


def decisive_rules(case: Case) -> tuple[str, ...]:
    """The rule ids that decide ``case``: any of them is a right reason.

    A generated or practice case carries its rules (a generated case's first
    tag is the rule it was made for); a filled case of notebooks 02 and 03 has
    its rule in :data:`FILLED_CASE_RULES`. Empty when the case has none.
    Taught in ``02_target_scope.ipynb`` and ``04_practice.ipynb``.
    """
    tags = getattr(case, "rules", None)
    if tags:
        return tuple(tags)
    return FILLED_CASE_RULES.get(case.id, ())


def reason_choices(case: Case, rules: Sequence[Rule] | None = None) -> list[Rule]:
    """The rules offered as the reason: the right ones plus :data:`DISTRACTORS` from the same check.

    The distractors are chosen from the case's id, so the same case always
    offers the same choices; they are listed in the order of
    ``fixtures/rules.json``, so the position gives nothing away.
    """
    every = [rule for rule in (rules if rules is not None else load_rules()) if rule.check == case.check]
    right = set(decisive_rules(case))
    others = sorted(
        (rule for rule in every if rule.id not in right),
        key=lambda rule: hashlib.sha256(f"{case.id}:{rule.id}".encode()).hexdigest(),
    )
    chosen = right | {rule.id for rule in others[:DISTRACTORS]}
    return [rule for rule in every if rule.id in chosen]


def grade_reason(case: Case, picked: str | None, rules: Sequence[Rule] | None = None) -> list[Feedback]:
    """Grade the picked reason: nothing when it is a rule that decides ``case``.

    A wrong pick gets one sentence on why that rule doesn't apply here, never
    the right rule's id. Taught in ``02_target_scope.ipynb``.
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
    why = rule.not_here if rule is not None and rule.not_here else "That rule does not decide this case."
    return [Feedback("reason", picked, f"`reason` is wrong: {picked} doesn't apply here. {why}", right[0])]


def _id_list(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _key(value: Any) -> dict[str, str]:
    return dict(value) if isinstance(value, Mapping) else {}


def _v(case_id: str) -> str:
    """An ID as feedback shows it: look-alikes told apart (``pay⟨U+200B⟩roll``)."""
    return visible_id(case_id)


def _fold(text: str) -> str:
    return "".join(text.split()).casefold()


def _lookalike(text: str) -> str:
    """``text`` as a reader sees it: also blind to Unicode form and format characters.

    Two strings with the same look-alike form differ only in case, spacing,
    NFC/NFD form or invisible characters such as a zero-width space.
    """
    visible = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return _fold(unicodedata.normalize("NFC", visible))


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


#: Where to look for each field's finding (the second rung of the hint ladder).
_WHERE = {
    "missing": {
        "target-scope": "go through the original list one ID at a time and look for each in the rewrite",
        "sentinels": "go through the baseline one sentinel at a time and look for it in the proposed key",
    },
    "added": {"target-scope": "go through the rewrite one ID at a time and look for each in the original"},
    "changed": {
        "sentinels": "compare each sentinel's answer in the baseline with its answer in the proposed key, "
        "character by character"
    },
    "preserved": {"target-scope": "decide it from your two lists, which must both be empty for it to hold"},
    "intact": {"sentinels": "decide it from your two lists, which must both be empty for it to hold"},
    "held": {"target-scope": "read the input for anything besides the two lists of IDs"},
    "refused": {"sentinels": "count the sentinels in the baseline"},
    "reason": {
        "target-scope": "ask which rule turns this input into this output",
        "sentinels": "ask which rule turns this input into this output",
    },
}


def _specific(case: Case, answer: Answer, finding: Feedback) -> str:
    """The last rung: the specific ID, value or rule (this one may name the answer)."""
    expected = case.expected
    if finding.field == "reason":
        return f"The rule that decides this case is {decisive_rules(case)[0]}."
    if finding.field in ("held", "refused"):
        if "held" in expected:
            shown = ", ".join(visible_text(u) for u in expected["unresolved"])
            return f"Hold the rewrite for staff labels: {shown} is not a canonical ID."
        if "error" in expected:
            return "Refuse the input: the baseline is empty."
        box = "Hold" if finding.field == "held" else "Refuse"
        return f"Leave `{box}` unticked: the check can run on this input."
    if finding.item is not None:
        return f"Untick {_q(finding.item)} in `{finding.field}`."
    first, _second, flag = answer_fields(case.check)
    if finding.field == flag:
        return f"Set `{flag}` to {str(expected[flag]).lower()}."
    chosen = answer.missing if finding.field == first else answer.second
    left = [i for i in sorted_ids(set(expected[finding.field]) - chosen)]
    return f"Tick {_q(left[0])} in `{finding.field}`." if left else f"Look again at `{finding.field}`."


def hints(case: Case, answer: Answer, *, ask_reason: bool, rules: Sequence[Rule] | None = None) -> list[str]:
    """The hint ladder for the first thing wrong in ``answer``: the rule, where to look, the specific ID.

    ``ask_reason`` has no default: the ladder must follow the same grading as the feedback it helps with.

    Three rungs, in that order; after them comes the worked answer. When the
    answer is already right the ladder says so. Taught in ``01_start_here.ipynb``.
    """
    known = {rule.id: rule for rule in (rules if rules is not None else load_rules())}
    result = grade(case, answer, ask_reason=ask_reason, rules=rules)
    if result.correct:
        done = "Your answer is already right: press Check my answer."
        return [done, done, done]
    finding = result.mistakes[0]
    rule = known.get(finding.rule)
    statement = rule.statement if rule is not None else ""
    where = _WHERE.get(finding.field, {}).get(case.check, "compare the two lists of the input")
    return [
        f"Hint 1 of 3, the rule: {finding.rule}. {statement}",
        f"Hint 2 of 3, where to look: in `{finding.field}`, {where}.",
        f"Hint 3 of 3, the specific fix: {_specific(case, answer, finding)}",
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
    lost: list[tuple[str, str]] = []
    for target in sorted_ids(set(expected["missing"]) - answer.missing):
        if _near_match(target, after) is not None:
            lost.append((target, "ts-exact-ids"))
        else:
            lost.append((target, "ts-empty" if not rewritten else "ts-lost"))
    n_lost = {
        "ts-exact-ids": "{n} not in the rewrite as written; the rewrite has only a look-alike, and IDs "
        "compare exactly",
        "ts-lost": "{n} not in the rewrite",
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
        else:
            gained.append((target, "ts-empty" if not original else "ts-added"))
    n_gained = {
        "ts-exact-ids": "{n} a look-alike of an original target, and IDs compare exactly",
        "ts-added": "{n} not in the original",
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
            true_rule=rule,
            false_rule="ts-several"
            if len(expected["missing"]) + len(expected["added"]) > 1
            else ("ts-lost" if expected["missing"] else "ts-added"),
        )
    )
    return mistakes


def _near_match(target: str, others: set[str]) -> str | None:
    folded = _lookalike(target)
    for other in sorted_ids(others):
        if other != target and _lookalike(other) == folded:
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
    if _fold(old) == _fold(new):
        return "sk-whitespace-case", "a change of case or whitespace is still a change"
    if _lookalike(old) == _lookalike(new):
        return "sk-invisible", "even an invisible character is a change"
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
    gone = [
        (s, "sk-all-missing" if all_gone else "sk-missing")
        for s in sorted_ids(set(expected["missing"]) - answer.missing)
    ]
    mistakes.extend(
        _grouped(
            "missing",
            gone,
            ("baseline sentinel is", "baseline sentinels are"),
            {
                "sk-missing": "{n} absent from the proposed key",
                "sk-all-missing": "{n} absent from the proposed key, which keeps none of them",
            },
        )
    )
    for case_id in sorted_ids(answer.missing - set(expected["missing"])):
        mistakes.append(_wrongly_marked(case_id, "missing", baseline, proposed))
    edits = []
    for sentinel in sorted_ids(set(expected["changed"]) - answer.second):
        edits.append((sentinel, _changed_rule(baseline[sentinel], proposed[sentinel])[0]))
    mistakes.extend(
        _grouped(
            "changed",
            edits,
            ("sentinel answer is", "sentinel answers are"),
            {
                "sk-changed": "{n} a different string in the proposed key",
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
            true_rule="sk-new-case" if set(proposed) - set(baseline) else "sk-changed",
            false_rule="sk-missing"
            if expected["missing"] and problems == len(expected["missing"])
            else "sk-changed",
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
