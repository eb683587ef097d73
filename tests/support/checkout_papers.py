"""Check-out papers for the tests: a fixed paper, the committed sample, and answers right but where told.

:func:`answers_for` answers every case of a key fully right, except the next action of the
labels it is given; the tests of the paper, the marking, the key and the report share them.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from helpers.trainee.grading import Answer, correct_answer
from helpers.trainer.answer_key import load_key
from helpers.trainer.answers import answers_data
from helpers.trainer.checkout import sample_paper_path
from helpers.trainer.marking import key_case
from helpers.trainer.next_actions import ACTIONS
from helpers.trainer.paper import Issued, issue_checkout, load_paper

ISSUED = "2026-12-01T09:00:00Z"


def fixed_paper() -> Issued:
    """A fixed paper (the trainee's own machine) for Asha, from one seed."""
    return issue_checkout("Asha", seed=982451653, issued=ISSUED, sequential=False)


def right_answer(record: dict[str, Any]) -> tuple[Answer, str]:
    """The fully correct answer to one key record: its output, keyed rule and next action."""
    a = correct_answer(key_case(record))
    return Answer(a.check, a.missing, a.second, a.flag, a.hold, record["rule"]), record["action"]


def _wrong(record: dict[str, Any]) -> tuple[Answer, str]:
    """The right output and reason, but the wrong next action."""
    answer, action = right_answer(record)
    return answer, next(a for a in ACTIONS if a != action)


def answers_for(issued: Issued, wrong_labels: Collection[str] = frozenset()) -> dict[str, Any]:
    """An answers file's object: every case right, but the next action of each of ``wrong_labels``."""
    given = {
        rec["label"]: (_wrong(rec) if rec["label"] in wrong_labels else right_answer(rec))
        for rec in issued.key["cases"]
    }
    return answers_data(issued.paper, given)


def sample_paper_and_key() -> tuple[dict[str, Any], dict[str, Any]]:
    """The committed sample paper and its key (``fixtures/checkout/``)."""
    paper = load_paper(sample_paper_path())
    key = load_key(sample_paper_path().with_name("sample-paper.key.json"))
    return paper, key
