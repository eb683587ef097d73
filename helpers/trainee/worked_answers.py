"""The project's worked answers guard themselves with the sentinel check.

Every expected output in ``fixtures/`` (the filled cases and the practice
cases) is a sentinel answer keyed ``check/id``. The baseline of those answers lives in
``fixtures/worked_answers/baseline.json``; the test suite runs
:func:`~helpers.core.sentinels.check_sentinels` over it, so an accidental edit to a
worked answer fails the tests. An intentional change goes through
``python -m helpers rebaseline --reason "..."``, which keeps the old baseline.
Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from helpers.core.baselines import Baseline, load_baseline, revise_baseline
from helpers.core.paths import fixtures_dir
from helpers.core.sentinels import SentinelResult, check_sentinels
from helpers.trainee.cases.filled import Case, load_cases
from helpers.trainee.practice import load_practice_cases, load_rules

__all__ = [
    "worked_cases",
    "worked_answer_key",
    "check_worked_answers",
    "rebaseline_worked_answers",
]


def _files(fixtures: Path | None) -> tuple[Path, Path, Path]:
    root = fixtures or fixtures_dir()
    return (
        root / "filled_cases.json",
        root / "worked_answers" / "baseline.json",
        root / "worked_answers" / "retained",
    )


def worked_cases(fixtures: Path | None = None) -> list[Case]:
    """Every case whose expected output is a worked answer: filled, then practice cases.

    A fixtures folder without ``practice_cases.json`` has only filled cases;
    in the project's own folder a lost practice file still shows, because its
    answers are in the baseline and would be reported missing.
    """
    cases_file, _, _ = _files(fixtures)
    root = cases_file.parent
    cases = load_cases(cases_file)
    if (root / "practice_cases.json").exists():
        rules = load_rules(root / "rules.json")
        cases += load_practice_cases(root / "practice_cases.json", rules=rules)
    return cases


def worked_answer_key(cases: Iterable[Case]) -> dict[str, str]:
    """Each case's expected output as a literal answer, keyed ``check/id``."""
    return {f"{case.check}/{case.id}": case.expected_json for case in cases}


def check_worked_answers(fixtures: Path | None = None) -> SentinelResult:
    """Check the current worked answers against their baseline."""
    _, baseline_file, _ = _files(fixtures)
    baseline = load_baseline(baseline_file)
    return check_sentinels(baseline.answers, worked_answer_key(worked_cases(fixtures)))


def rebaseline_worked_answers(
    reason: str, *, fixtures: Path | None = None, revised_on: str | None = None
) -> Baseline:
    """Accept the current worked answers as a new baseline, retaining the old one."""
    _, baseline_file, retained = _files(fixtures)
    return revise_baseline(
        baseline_file,
        worked_answer_key(worked_cases(fixtures)),
        reason=reason,
        retained_dir=retained,
        revised_on=revised_on,
    )
