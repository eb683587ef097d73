"""Marking a check-out sitting: an answers file graded case by case against a verified key.

Grading replays the sitting's schedule from the key (:func:`key_schedule`), so the cases
counted are those a sitting serves; an unanswered case is wrong in every field.
Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from helpers.core.errors import CheckoutFileError, describe_value
from helpers.trainee import grading
from helpers.trainee.cases import generators
from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.cases.deciding_rule import facets as deciding_kinds
from helpers.trainee.cases.practice_cases import PracticeCase
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import Answer, answer_fields
from helpers.trainer.answers import parse_answer
from helpers.trainer.checkout_format import ANSWERS_FORMAT, digest
from helpers.trainer.checkout_result import CaseVerdict, CheckoutResult
from helpers.trainer.file_schemas import check_schema
from helpers.trainer.sequential import Schedule, Slot

__all__ = [
    "key_case",
    "grade_checkout",
    "too_fast",
    "verdict_of",
    "key_schedule",
]


def key_case(record: Mapping[str, Any]) -> PracticeCase:
    """A key's case as a case object, its expected output and accepted reasons in it."""
    return _case(record)


def _case(record: Mapping[str, Any]) -> PracticeCase:
    return PracticeCase(
        check=record["check"],
        id=record.get("case_id", record["label"]),
        title=record.get("title", ""),
        input=record["input"],
        expected=record["expected"],
        decision="",
        reason="",
        rules=tuple(record["reasons_accepted"]),
    )


def _field_names(check: str) -> tuple[str, ...]:
    first, second, flag = answer_fields(check)
    return (first, second, flag, "held" if check == "target-scope" else "refused", "reason", "action")


def grade_checkout(
    answers: Mapping[str, Any], key: Mapping[str, Any], *, source: str = "answers"
) -> CheckoutResult:
    """Grade an answers object against a verified key; an unanswered case is wrong in every field.

    Raises :class:`~helpers.core.errors.CheckoutFileError` when the answers are
    not for this paper or are malformed. Taught in ``07_checkout.ipynb``.
    """
    if not isinstance(answers, Mapping) or answers.get("format") != ANSWERS_FORMAT:
        raise CheckoutFileError(
            f'is not a check-out answers file (it has no "format": "{ANSWERS_FORMAT}")', path=source
        )
    check_schema("answers", answers, source=source)
    if answers.get("paper_id") != key.get("paper_id"):
        raise CheckoutFileError(
            f"answers paper {describe_value(answers.get('paper_id'))}, but the key is for paper "
            f"{describe_value(key.get('paper_id'))}",
            path=source,
        )
    records = {c["label"]: c for c in key["cases"]}
    given: dict[str, tuple[Answer, str | None]] = {}
    seconds: dict[str, float] = {}
    for index, raw in enumerate(answers["answers"]):
        label = raw["label"]
        where = f"answers[{index}]"
        if label not in records:
            raise CheckoutFileError(
                f"{where}.label is {describe_value(label)}, not a case of this paper", path=source
            )
        if label in given:
            raise CheckoutFileError(f"{where}: {label} is answered twice", path=source)
        given[label] = parse_answer(raw, records[label]["check"], where, source)
        if "seconds" in raw:
            seconds[label] = float(raw["seconds"])
    schedule = key_schedule(key)
    verdicts = []
    while (label := schedule.next_label()) is not None:
        record = records[label]
        if label not in given and schedule.adaptive:
            break  # the sitting stopped here: what it proved so far is the verdict
        verdict = verdict_of(record, given.get(label))
        verdicts.append(verdict)
        schedule.record(label, verdict.correct)
    extra = sorted(set(given) - set(schedule.served))
    if extra and schedule.adaptive:
        raise CheckoutFileError(
            f"answers {', '.join(extra[:3])}{' …' if len(extra) > 3 else ''}, which this sitting never "
            "served; nothing is graded",
            path=source,
        )
    rules, kinds_covered = _covered(key)
    test = schedule.test
    return CheckoutResult(
        str(key["trainee"]),
        str(key["paper_id"]),
        digest(key),
        tuple(verdicts),
        rules,
        kinds_covered,
        decision=schedule.decision(),
        why=test.why(),
        evidence=round(test.llr / test.design.upper, 4),
        sequential=schedule.adaptive,
        max_cases=test.design.max_cases,
        too_fast=too_fast([seconds[label] for label in schedule.served if label in seconds]),
    )


def too_fast(seconds: Sequence[float]) -> str:
    """Why a sitting was answered faster than a person reads, with the drill's floors; "" when it was not.

    A case under :data:`helpers.trainee.progress.timing.MIN_CASE_SECONDS` after it was served, or
    cases under :data:`~helpers.trainee.progress.timing.MIN_DRILL_SECONDS_PER_CASE` on average: the
    thresholds the drill's evidence is held to.
    """
    from helpers.trainee.progress.timing import MIN_CASE_SECONDS, MIN_DRILL_SECONDS_PER_CASE

    if not seconds:
        return ""
    quick = sum(1 for s in seconds if s < MIN_CASE_SECONDS)
    mean = sum(seconds) / len(seconds)
    parts = []
    if quick:
        parts.append(
            f"{quick} of {len(seconds)} cases answered under {MIN_CASE_SECONDS} s after they were served"
        )
    if mean < MIN_DRILL_SECONDS_PER_CASE:
        parts.append(f"{mean:.1f} s a case on average, under the {MIN_DRILL_SECONDS_PER_CASE} s floor")
    return "; ".join(parts)


def verdict_of(record: Mapping[str, Any], given: tuple[Answer, str | None] | None) -> CaseVerdict:
    """One key case graded: every field right or wrong (all wrong when ``given`` is None, unanswered)."""
    case = _case(record)
    names = _field_names(case.check)
    kinds = _record_kinds(record)
    if given is None:
        return CaseVerdict(
            record["label"],
            record["rule"],
            bool(record["lookalike"]),
            False,
            dict.fromkeys(names, False),
            (),
            kinds,
        )
    answer, action = given
    result = grading.grade(case, answer, ask_reason=False)
    wrong = {m.field for m in result.mistakes}
    fields = {name: name not in wrong for name in names[:4]}
    fields["reason"] = answer.reason in record["reasons_accepted"]
    fields["action"] = action == record["action"]
    missed = [m.rule for m in result.mistakes]
    if not fields["reason"]:
        missed.append(record["rule"])
    return CaseVerdict(
        record["label"],
        record["rule"],
        bool(record["lookalike"]),
        True,
        fields,
        tuple(dict.fromkeys(missed)),
        kinds,
    )


def key_schedule(key: Mapping[str, Any]) -> Schedule:
    """The schedule a key's sitting follows: adaptive for a sequential key, in order for a fixed paper."""
    rules, kinds = _covered(key)
    slots = [
        Slot(
            str(record["label"]),
            str(record.get("stream") or "more"),
            str(record["rule"]),
            _record_kinds(record),
        )
        for record in key["cases"]
    ]
    return Schedule(slots, rules, kinds, adaptive=bool(key.get("sequential")))


def _record_kinds(record: Mapping[str, Any]) -> tuple[str, ...]:
    """A key case's look-alike kinds: as the key lists them, or (a key from before) read from its input."""
    listed = record.get("lookalike_kinds")
    if isinstance(listed, list) and all(isinstance(k, str) for k in listed):
        return tuple(listed)
    return deciding_kinds(record["check"], record["input"], record.get("context") or None)


def _covered(key: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rules and look-alike kinds the key's paper was made to show (every one, for a key from before)."""
    rule = key.get("verdict_rule")
    if isinstance(rule, Mapping):
        rules, kinds = rule.get("rules"), rule.get("lookalike_kinds")
        if all(isinstance(v, list) and all(isinstance(i, str) for i in v) for v in (rules, kinds)):
            return tuple(rules), tuple(kinds)  # type: ignore[arg-type]
    return tuple(r.id for r in load_rules() if r.id in generators.GENERATORS), FACETS
