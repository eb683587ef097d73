"""Sample graded check-outs for the sample trainees, issued and signed as a trainer does.

:func:`sample_checkouts` makes a trainer's secret and ledger in a folder of its own, issues a
counting paper (from a fresh seed, not a practice one) to each of
:data:`SAMPLE_CHECKOUTS`' trainees, answers it with that many cases wrong in the next action
(no two on one rule, none on a look-alike case, so no rule or kind is left with every case
wrong), grades it with the secret and writes the signed result, as
``python -m helpers checkout grade --json`` does. The papers' cases differ on every run; the
counts, and so the bounds they certify, do not. Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..grading import Answer, correct_answer

__all__ = ["SAMPLE_CHECKOUTS", "SampleCheckouts", "sample_checkouts"]

#: Sample trainees and how many of their 56 cases are answered wrong: Asha 53 of 56 (a pass),
#: Ben 50 of 56 (not a pass: 50 prove only 0.79).
SAMPLE_CHECKOUTS: Mapping[str, int] = {"Asha": 3, "Ben": 6}


@dataclass(frozen=True)
class SampleCheckouts:
    """Where the sample check-outs are: the trainer's folder (secret and ledger) and the results."""

    trainer_dir: Path
    results: Path


def _wrong_labels(key: Mapping[str, Any], misses: int) -> set[str]:
    """``misses`` labels, in paper order, each of another rule and none a look-alike case."""
    chosen: dict[str, str] = {}
    for record in key["cases"]:
        if len(chosen) < misses and not record["lookalike"] and record["rule"] not in chosen:
            chosen[record["rule"]] = record["label"]
    return set(chosen.values())


def _answers(paper: Mapping[str, Any], key: Mapping[str, Any], misses: int) -> dict[str, Any]:
    """An answers object: every case keyed right, but the next action wrong on ``misses`` cases."""
    from . import checkout as co

    wrong = _wrong_labels(key, misses)
    given: dict[str, tuple[Answer, str | None]] = {}
    for record in key["cases"]:
        right = correct_answer(co.key_case(record))
        action = record["action"]
        if record["label"] in wrong:
            action = next(a for a in co.ACTIONS if a != action)
        given[record["label"]] = (
            Answer(right.check, right.missing, right.second, right.flag, right.hold, record["rule"]),
            action,
        )
    return co.answers_data(paper, given)


def sample_checkouts(folder: str | Path, trainees: Mapping[str, int] = SAMPLE_CHECKOUTS) -> SampleCheckouts:
    """Issue, answer, grade and sign one paper for each of ``trainees`` (name: cases wrong) in ``folder``.

    ``folder`` gets ``trainer/`` (a new secret and ledger, owner-only), ``papers/`` and
    ``results/`` (one signed result per trainee). An existing file is never replaced.
    Taught in ``06_trainer.ipynb``.
    """
    from . import checkout as co
    from .secret import TrainerSecret

    folder = Path(folder)
    trainer = TrainerSecret.open(folder / "trainer", create=True)
    papers, results = folder / "papers", folder / "results"
    papers.mkdir(parents=True, exist_ok=True)
    results.mkdir(parents=True, exist_ok=True)
    for name, misses in trainees.items():
        issued = co.issue_checkout(name)
        stem = f"{name}-{issued.paper['paper_id']}"
        paper_file, key_file, _ = co.write_checkout(issued, papers / f"{stem}.json", trainer=trainer)
        paper = co.load_paper(paper_file)
        answers_file = papers / f"{stem}.answers.json"
        co.write_answers(_answers(paper, issued.key, misses), answers_file)
        result = co.grade_files(answers_file, key_file, trainer=trainer)
        target = results / f"{stem}.json"
        with target.open("x", encoding="utf-8") as handle:
            handle.write(json.dumps(result.to_data(), ensure_ascii=False, indent=1) + "\n")
    return SampleCheckouts(folder / "trainer", results)
