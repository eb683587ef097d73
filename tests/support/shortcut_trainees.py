"""Simulated trainees who know the lists but not which rule decides.

Each builds the right lists, flag and hold (as the perfect trainee of
``trainees.py`` does) and picks the reason by a shortcut over the options that
are true of the case (:func:`helpers.trainee.cases.deciding_rule.applies`): the first true one
shown, or the least specific true one (the last in the order
:func:`helpers.trainee.cases.deciding_rule.keyed_rule` tries the rules). Where several rules are
true, the reason item offers a less specific one beside the keyed rule, so these
trainees must never complete the drill, and must fail the check-out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trainees import _blind_answer, _split

from helpers.trainee.cases.deciding_rule import applies
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.grading import Answer

#: The order keyed_rule tries the rules in, most specific first (its docstring, written out).
SPECIFICITY: dict[str, tuple[str, ...]] = {
    "target-scope": (
        "ts-unresolved",
        "ts-exact-ids",
        "ts-empty",
        "ts-several",
        "ts-lost",
        "ts-added",
        "ts-query-unvalidated",
        "ts-duplicates",
        "ts-order",
    ),
    "sentinels": (
        "sk-empty-baseline",
        "sk-all-missing",
        "sk-rubric-change",
        "sk-several",
        "sk-missing",
        "sk-whitespace-case",
        "sk-invisible",
        "sk-changed",
        "sk-nonsentinel-changed",
        "sk-new-case",
    ),
}

Pick = Callable[[str, Sequence[str], Mapping[str, Any], Mapping[str, Any]], str]


def _true(
    check: str, options: Sequence[str], record: Mapping[str, Any], context: Mapping[str, Any]
) -> list[str]:
    return [rule for rule in options if applies(rule, check, record, context)] or list(options[:1])


def first_true(
    check: str, options: Sequence[str], record: Mapping[str, Any], context: Mapping[str, Any]
) -> str:
    """The first option shown that is true of the case."""
    return _true(check, options, record, context)[0]


def least_specific_true(
    check: str, options: Sequence[str], record: Mapping[str, Any], context: Mapping[str, Any]
) -> str:
    """The true option that keyed_rule would try last."""
    order = SPECIFICITY[check]
    return max(_true(check, options, record, context), key=order.index)


PICKS: dict[str, Pick] = {"first-true": first_true, "least-specific-true": least_specific_true}


def drill_strategy(pick: Pick) -> Callable[[Any, CaseView], Answer]:
    """A drill trainee: perfect lists and flag, the reason by ``pick``."""

    def answer(_session: Any, view: CaseView) -> Answer:
        right = _blind_answer(view, None)
        record, context = _split(view)
        options = [rule for _text, rule in view.reason_options]
        return Answer(
            view.check,
            right.missing,
            right.second,
            right.flag,
            right.hold,
            pick(view.check, options, record, context),
        )

    return answer


def checkout_answers(paper: Mapping[str, Any], key: Mapping[str, Any], pick: Pick) -> dict[str, Any]:
    """An answers file for a check-out paper: the right output and action, the reason by ``pick``."""
    from helpers.trainee.grading import correct_answer
    from helpers.trainer.answers import answers_data
    from helpers.trainer.marking import key_case

    given: dict[str, tuple[Answer, str | None]] = {}
    for shown, record in zip(paper["cases"], key["cases"], strict=True):
        options = [option["rule"] for option in shown["reason_options"]]
        reason = pick(shown["check"], options, shown["input"], shown.get("context", {}))
        right = correct_answer(key_case(record))
        given[shown["label"]] = (
            Answer(right.check, right.missing, right.second, right.flag, right.hold, reason),
            record["action"],
        )
    return answers_data(paper, given)


# --- a trainee who answers from which blocks a case shows ----------------------------------------


def from_blocks(check: str, record: Mapping[str, Any], context: Mapping[str, Any], right: Answer) -> Answer:
    """What a trainee who reads the case's shape answers: a block present decides, else ``right``.

    An ``unresolved`` field means held; query wording means preserved, for
    ts-query-unvalidated; an earlier key means intact, for sk-nonsentinel-changed;
    a rubric revision means its ID changed, for sk-rubric-change.
    """
    if check == "target-scope":
        if "unresolved" in record:
            return Answer(check, hold=True, flag=False, reason="ts-unresolved")
        if "query" in record or "rewritten_query" in record:
            return Answer(check, flag=True, reason="ts-query-unvalidated")
        return right
    if "rubric_revision" in context:
        revision = context["rubric_revision"]
        return Answer(check, second=frozenset([revision["id"]]), flag=False, reason="sk-rubric-change")
    if "earlier_key" in context:
        return Answer(check, flag=True, reason="sk-nonsentinel-changed")
    return right


def shape_drill_strategy(_session: Any, view: CaseView) -> Answer:
    record, context = _split(view)
    return from_blocks(view.check, record, context, _blind_answer(view, None))


def shape_checkout_answers(paper: Mapping[str, Any], key: Mapping[str, Any]) -> dict[str, Any]:
    """An answers file from the shape reader: the key's action, the rest from the blocks shown."""
    from helpers.trainee.grading import correct_answer
    from helpers.trainer.answers import answers_data
    from helpers.trainer.marking import key_case

    given: dict[str, tuple[Answer, str | None]] = {}
    for shown, record in zip(paper["cases"], key["cases"], strict=True):
        right = correct_answer(key_case(record))
        right = Answer(right.check, right.missing, right.second, right.flag, right.hold, record["rule"])
        answer = from_blocks(shown["check"], shown["input"], shown.get("context", {}), right)
        given[shown["label"]] = (answer, record["action"])
    return answers_data(paper, given)
