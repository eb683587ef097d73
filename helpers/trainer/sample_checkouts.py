"""Sample graded check-outs for the sample trainees, issued and signed as a trainer does.

:func:`sample_checkouts` makes a trainer's secret and ledger in a folder of its own, issues a
counting sequential check-out (from a fresh seed, not a practice one) to each of
:data:`SAMPLE_CHECKOUTS`' trainees, sits it case by case with that many cases wrong in the
next action (the 6th, 12th, 18th, … served), grades it with the secret and writes the signed
result, as a proctored hand-in does. The cases differ on every run; the counts, and so the
bounds they certify, do not: the evidence alone decides them. Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.trainee.grading import Answer, correct_answer

__all__ = ["SAMPLE_CHECKOUTS", "SampleCheckouts", "sample_checkouts"]

#: Sample trainees and how many cases of their sequential sittings are answered wrong (cases 6, 12, 18, …):
#: Asha 3 (a pass after 64 cases, 61 fully correct), Ben 6 (not a pass: the fail boundary at case 36).
SAMPLE_CHECKOUTS: Mapping[str, int] = {"Asha": 3, "Ben": 6}


@dataclass(frozen=True)
class SampleCheckouts:
    """Where the sample check-outs are: the trainer's folder (secret and ledger) and the results."""

    trainer_dir: Path
    results: Path


def _answers(paper: Mapping[str, Any], key: Mapping[str, Any], misses: int) -> dict[str, Any]:
    """A sequential sitting answered case by case (40 s a case): every case keyed right, but the next
    action wrong on cases 6, 12, 18, … (``misses`` of them), whichever cases the rule serves there."""
    from helpers.trainer.marking import key_case
    from helpers.trainer.next_actions import ACTIONS
    from helpers.trainer.sitting import Sitting

    ticks = iter(range(0, 10**7, 20))
    sitting = Sitting(paper, key, clock=lambda: float(next(ticks)))
    records = {record["label"]: record for record in key["cases"]}
    wrong_at = {6 * (i + 1) for i in range(misses)}
    while (case := sitting.next_case()) is not None:
        record = records[case.label]
        right = correct_answer(key_case(record))
        action = record["action"]
        if case.number in wrong_at:
            action = next(a for a in ACTIONS if a != action)
        sitting.answer(
            Answer(right.check, right.missing, right.second, right.flag, right.hold, record["rule"]), action
        )
    return sitting.answers_data()


def sample_checkouts(folder: str | Path, trainees: Mapping[str, int] = SAMPLE_CHECKOUTS) -> SampleCheckouts:
    """Issue, answer, grade and sign one paper for each of ``trainees`` (name: cases wrong) in ``folder``.

    ``folder`` gets ``trainer/`` (a new secret and ledger, owner-only), ``papers/`` and
    ``results/`` (one signed result per trainee). An existing file is never replaced.
    Taught in ``06_trainer.ipynb``.
    """
    from helpers.trainer.answers import write_answers
    from helpers.trainer.issued_files import write_checkout
    from helpers.trainer.paper import issue_checkout, load_paper
    from helpers.trainer.secret import TrainerSecret
    from helpers.trainer.signed_result import grade_files

    folder = Path(folder)
    trainer = TrainerSecret.open(folder / "trainer", create=True)
    papers, results = folder / "papers", folder / "results"
    papers.mkdir(parents=True, exist_ok=True)
    results.mkdir(parents=True, exist_ok=True)
    for name, misses in trainees.items():
        issued = issue_checkout(name)
        stem = f"{name}-{issued.paper['paper_id']}"
        paper_file, key_file, _ = write_checkout(issued, papers / f"{stem}.json", trainer=trainer)
        paper = load_paper(paper_file)
        answers_file = papers / f"{stem}.answers.json"
        write_answers(_answers(paper, issued.key, misses), answers_file)
        result = grade_files(answers_file, key_file, trainer=trainer)
        target = results / f"{stem}.json"
        with target.open("x", encoding="utf-8") as handle:
            handle.write(json.dumps(result.to_data(), ensure_ascii=False, indent=1) + "\n")
    return SampleCheckouts(folder / "trainer", results)
