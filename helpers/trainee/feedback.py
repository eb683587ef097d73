"""The feedback on a graded answer: one finding per wrong field or ID, each naming the rule it teaches.

:func:`target_scope_feedback` and :func:`sentinel_feedback` compare an
:class:`~helpers.trainee.answers.Answer` with the case's expected output field by
field and ID by ID; :func:`helpers.trainee.grading.grade` gathers them into a
:class:`Grade`. The words never name an ID the trainee left unmarked, nor an
expected flag value. Taught in ``02_target_scope.ipynb`` and
``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from helpers.core.chardiff import visible_id
from helpers.core.ordering import sorted_ids
from helpers.trainee.answers import Answer, answer_key, id_list, keyed_rule_of
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.rules import GRADED_RULES

if TYPE_CHECKING:  # a case is only read here; its loader comes in when a case is loaded
    from helpers.trainee.cases.filled import Case

__all__ = ["Feedback", "Grade", "target_scope_feedback", "sentinel_feedback"]


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


def _v(case_id: str) -> str:
    """An ID as feedback shows it: look-alikes told apart (``pay⟨U+200B⟩roll``)."""
    return visible_id(case_id)


def _flag_rule(case: Case, fallback: str, keyed_id: str | None = None) -> str:
    """The rule a wrong flag counts against: the keyed rule when feedback can name it.

    ``keyed_id`` is :func:`keyed_rule_of` of the case when the caller has worked it out already."""
    rule = keyed_id if keyed_id is not None else keyed_rule_of(case)
    return rule if rule in GRADED_RULES else fallback


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


def target_scope_feedback(case: Case, expected: Mapping[str, Any], answer: Answer) -> list[Feedback]:
    """The findings on a target-scope answer (``02_target_scope.ipynb``)."""
    original = id_list(case.input.get("original"))
    rewritten = id_list(case.input.get("rewritten"))
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
            mistakes.append(
                _never_there(
                    "missing", target, before, "was never in the original", "an original target", "ts-added"
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
            mistakes.append(
                _never_there("added", target, after, "is not in the rewrite", "a rewrite target", "ts-lost")
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


def _never_there(field: str, target: str, side: set[str], where: str, like: str, rule: str) -> Feedback:
    """An ID put in ``field`` that ``side`` never held, so it cannot be there: a look-alike says so."""
    near = _near_match(target, side) is not None
    look = f"; it only looks like {like}, and IDs compare exactly" if near else ""
    message = f"`{field}` has {_q(target)}, which {where}, so it cannot be {field}{look}"
    return Feedback(field, target, message, "ts-exact-ids" if near else rule)


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


def sentinel_feedback(case: Case, expected: Mapping[str, Any], answer: Answer) -> list[Feedback]:
    """The findings on a sentinel answer (``03_sentinel_answer_key.ipynb``)."""
    baseline = answer_key(case.input.get("baseline"))
    proposed = answer_key(case.input.get("proposed"))
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
