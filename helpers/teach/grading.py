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

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.chardiff import diff_text, visible_id, visible_text
from ..core.ordering import sorted_ids
from .cases import Case

__all__ = [
    "Answer",
    "Feedback",
    "Grade",
    "grade",
    "answer_fields",
    "candidate_ids",
    "correct_answer",
]

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
    refuses this input" for sentinels.
    """

    check: str
    missing: frozenset[str] = frozenset()
    second: frozenset[str] = frozenset()
    flag: bool | None = None
    hold: bool = False

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
    """The answer that :func:`grade` marks fully correct for ``case``."""
    expected = case.expected
    first, second, flag = answer_fields(case.check)
    if "held" in expected or "error" in expected:
        return Answer(case.check, hold=True, flag=False)
    return Answer(
        case.check,
        missing=frozenset(expected[first]),
        second=frozenset(expected[second]),
        flag=expected[flag],
    )


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


def grade(case: Case, answer: Answer) -> Grade:
    """Grade ``answer`` against ``case.expected``; every mistake names its rule."""
    if answer.check != case.check:
        raise ValueError(f"answer is for {answer.check!r}, case is {case.check!r}")
    expected = case.expected
    if case.check == "target-scope":
        mistakes = _grade_target_scope(case, expected, answer)
    else:
        mistakes = _grade_sentinels(case, expected, answer)
    return Grade(correct=not mistakes, mistakes=tuple(mistakes))


# --- target scope -----------------------------------------------------------


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
            pending = ", ".join(visible_text(u) for u in expected["unresolved"])
            mistakes.append(
                Feedback(
                    "held",
                    None,
                    f"{pending} could not be resolved to a canonical ID: the check can't run until "
                    "staff label it, so hold the rewrite for staff labels; a held rewrite is never "
                    "preserved",
                    "ts-unresolved",
                )
            )
        return mistakes
    if answer.hold:
        mistakes.append(
            Feedback(
                "held",
                None,
                "every target here is a canonical ID and nothing is unresolved, so the check can "
                "run: don't hold it for staff labels",
                "ts-unresolved",
            )
        )
        return mistakes

    rule, phrase = _ts_shape_rule(original, rewritten)
    for target in sorted_ids(set(expected["missing"]) - answer.missing):
        near = _near_match(target, after)
        if near is not None:
            mistakes.append(
                Feedback(
                    "missing",
                    target,
                    f"{_v(target)} is in the original, and the rewrite has {_v(near)} instead: IDs compare "
                    f"exactly, so a change of case or spacing makes a different ID and {_v(target)} is missing",
                    "ts-exact-ids",
                )
            )
        else:
            mistakes.append(
                Feedback(
                    "missing",
                    target,
                    f"{_v(target)} is in the original but not in the rewrite, so it is missing: a lost "
                    "target narrows what the search compares",
                    "ts-empty" if not rewritten else "ts-lost",
                )
            )
    for target in sorted_ids(answer.missing - set(expected["missing"])):
        if target in before and target in after:
            message = f"{phrase}: {_v(target)} is in both lists, so it is not missing"
            mistakes.append(Feedback("missing", target, message, rule))
        else:
            near = _near_match(target, before)
            hint = f"; it only looks like {_v(near)}, a different ID" if near is not None else ""
            mistakes.append(
                Feedback(
                    "missing",
                    target,
                    f"{_v(target)} was never in the original: a target only the rewrite has is added, "
                    f"not missing{hint}",
                    "ts-exact-ids" if near is not None else "ts-added",
                )
            )
    for target in sorted_ids(set(expected["added"]) - answer.second):
        near = _near_match(target, before)
        if near is not None:
            mistakes.append(
                Feedback(
                    "added",
                    target,
                    f"{_v(target)} looks like {_v(near)} from the original, but IDs compare exactly: a change "
                    f"of case or spacing makes a different ID, so {_v(target)} was added",
                    "ts-exact-ids",
                )
            )
        else:
            mistakes.append(
                Feedback(
                    "added",
                    target,
                    f"{_v(target)} was added: an added target changes retrieval scope even when every "
                    "original survives",
                    "ts-empty" if not original else "ts-added",
                )
            )
    for target in sorted_ids(answer.second - set(expected["added"])):
        if target in before and target in after:
            message = f"{phrase}: {_v(target)} is in both lists, so it was not added"
            mistakes.append(Feedback("added", target, message, rule))
        else:
            near = _near_match(target, after)
            hint = f"; it only looks like {_v(near)}, a different ID" if near is not None else ""
            mistakes.append(
                Feedback(
                    "added",
                    target,
                    f"{_v(target)} is in the original and not the rewrite: that makes it missing, "
                    f"not added{hint}",
                    "ts-exact-ids" if near is not None else "ts-lost",
                )
            )
    mistakes.extend(
        _grade_flag(
            answer.flag,
            expected["preserved"],
            "preserved",
            when_true=f"{phrase}: every original target is still there and nothing was added, "
            "so the scope is preserved",
            when_false="preserved is true only when nothing is missing and nothing was added",
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
        return [Feedback(name, None, f"set {name} to true or false", true_rule if wanted else false_rule)]
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
                    "the baseline has no sentinels, so the check would verify nothing: it refuses "
                    "the input rather than call the key intact",
                    "sk-empty-baseline",
                )
            )
        return mistakes
    if answer.hold:
        mistakes.append(
            Feedback(
                "refused",
                None,
                "the baseline holds sentinels, so the check can run: don't refuse it",
                "sk-empty-baseline",
            )
        )
        return mistakes

    all_gone = bool(baseline) and not (set(baseline) & set(proposed))
    for sentinel in sorted_ids(set(expected["missing"]) - answer.missing):
        mistakes.append(
            Feedback(
                "missing",
                sentinel,
                f"{_v(sentinel)} is a sentinel in the baseline but absent from the proposed key, so it is "
                "missing: an integrity gap, not a model's wrong answer",
                "sk-all-missing" if all_gone else "sk-missing",
            )
        )
    for case_id in sorted_ids(answer.missing - set(expected["missing"])):
        mistakes.append(_wrongly_marked(case_id, "missing", baseline, proposed))
    for sentinel in sorted_ids(set(expected["changed"]) - answer.second):
        old, new = baseline[sentinel], proposed[sentinel]
        rule, phrase = _changed_rule(old, new)
        mistakes.append(
            Feedback(
                "changed",
                sentinel,
                f"{_v(sentinel)}'s answer changed ({diff_text(old, new)}): {phrase}",
                rule,
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
            when_true="every sentinel is present with its literal answer, so the key is intact: an "
            "extra non-sentinel case is allowed",
            when_false="intact is true only when no sentinel is missing or changed; hold the key "
            "before scoring",
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
    if case_id not in baseline:
        near = _near_match(case_id, set(baseline))
        hint = f"; it only looks like the sentinel {_v(near)}, a different ID" if near is not None else ""
        return Feedback(
            field_name,
            case_id,
            f"an extra non-sentinel case is allowed: {_v(case_id)} is not in the baseline, so it is "
            f"never {field_name}{hint}",
            "sk-new-case",
        )
    if case_id not in proposed:
        return Feedback(
            field_name,
            case_id,
            f"{_v(case_id)} is absent from the proposed key, so it is missing, not changed",
            "sk-missing",
        )
    if baseline[case_id] != proposed[case_id]:
        return Feedback(
            field_name,
            case_id,
            f"{_v(case_id)} is still in the proposed key with a different answer: that is changed, not missing",
            "sk-changed",
        )
    return Feedback(
        field_name,
        case_id,
        f"{_v(case_id)} is present with its answer unchanged, so it is neither missing nor changed",
        "sk-changed",
    )
