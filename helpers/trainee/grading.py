"""Grading a trainee's answer to a case, with feedback that names the rule missed.

An :class:`Answer` is what the trainee built: the IDs they marked in each
list, the flag they set, and whether they held the input. :func:`grade`
compares it with the case's expected output field by field and ID by ID.
Every piece of feedback carries the id of the rule it teaches (the rule ids
are listed in ``fixtures/rules.json``).

The parts live beside this module, one noun each: :mod:`~helpers.trainee.answers` (the
answer and the right answer), :mod:`~helpers.trainee.feedback` (the findings and their words),
:mod:`~helpers.trainee.reason_question` and :mod:`~helpers.trainee.hints`; this module grades
and keeps every name where it always was.

No widgets here: the work-it-yourself widget in :mod:`helpers.trainee.widgets` calls
these functions. Taught in ``02_target_scope.ipynb`` and
``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from helpers.trainee.answers import (
    FILLED_CASE_RULES,
    Answer,
    answer_fields,
    candidate_ids,
    correct_answer,
    decisive_rules,
    keyed_rule_of,
)
from helpers.trainee.cases.rules import Rule
from helpers.trainee.feedback import Feedback, Grade, sentinel_feedback, target_scope_feedback
from helpers.trainee.hints import hints
from helpers.trainee.reason_question import REASON_OPTIONS, TRUE_DISTRACTORS, grade_reason, reason_options

if TYPE_CHECKING:  # a case is only read here; its loader comes in when a case is loaded
    from helpers.trainee.cases.filled import Case

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
        mistakes = target_scope_feedback(case, expected, answer)
    else:
        mistakes = sentinel_feedback(case, expected, answer)
    if ask_reason:
        mistakes.extend(grade_reason(case, answer.reason, rules))
    return Grade(correct=not mistakes, mistakes=tuple(mistakes))
