"""Check-outs issued and graded as a trainer does: with a trainer's secret, entered in its ledger.

``sit(trainer, name, folder)`` issues a paper for ``name`` into ``folder``, answers it
(fully correct, or wrong in the next action for the labels in ``wrong``), grades it with
the trainer's secret and returns the signed result's JSON, as ``checkout grade --json``
prints it.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

from helpers.trainee.grading import Answer, correct_answer
from helpers.trainer.answer_key import load_key
from helpers.trainer.answers import answers_data
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.marking import key_case
from helpers.trainer.next_actions import ACTIONS
from helpers.trainer.paper import Issued, issue_checkout
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.signed_result import grade_files


def answer_all(issued: Issued, wrong: Collection[str] = ()) -> dict[str, Any]:
    """An answers file's object: every case right, except the next action of the labels in ``wrong``."""
    given = {}
    for record in issued.key["cases"]:
        a = correct_answer(key_case(record))
        action = record["action"]
        if record["label"] in wrong:
            action = next(x for x in ACTIONS if x != action)
        given[record["label"]] = (
            Answer(a.check, a.missing, a.second, a.flag, a.hold, record["rule"]),
            action,
        )
    return answers_data(issued.paper, given)


def issue(
    trainer: TrainerSecret, name: str, folder: Path, *, count: int = 46, seed: int | None = None, **kw: Any
) -> tuple[Issued, Path]:
    """Issue a paper for ``name`` into ``folder`` (``seed`` makes it a practice paper); the key's path."""
    folder.mkdir(parents=True, exist_ok=True)
    issued = issue_checkout(name, count=count, seed=seed, sequential=False)
    stem = f"{name}-{issued.paper['paper_id']}"
    _, key, _ = write_checkout(
        issued, folder / f"{stem}.json", trainer=trainer, practice=seed is not None, **kw
    )
    return Issued(json.loads((folder / f"{stem}.json").read_text()), load_key(key)), key


def sit(
    trainer: TrainerSecret,
    name: str,
    folder: Path,
    *,
    wrong: Collection[str] = (),
    count: int = 46,
    seed: int | None = None,
    **kw: Any,
) -> dict[str, Any]:
    """Issue, answer and grade one paper; the signed result's JSON."""
    issued, key = issue(trainer, name, folder, count=count, seed=seed, **kw)
    answers = key.with_name(key.name.replace(".key.json", ".answers.json"))
    answers.write_text(json.dumps(answer_all(issued, wrong)))
    return grade_files(answers, key, trainer=trainer).to_data()
