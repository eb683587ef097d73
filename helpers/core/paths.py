"""Where the project's data lives, found through the package, never the working directory.

A wheel ships ``fixtures/`` inside the package as ``helpers/fixtures/``, read
through :mod:`importlib.resources`; a checkout (or an editable install) reads
the top-level ``fixtures/`` beside ``helpers/``. Notebooks, tests and the CLI
all read the same files wherever they are started from.

Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

__all__ = [
    "project_root",
    "fixtures_dir",
    "filled_cases_json",
    "filled_cases_csv",
    "worked_answers_baseline",
    "worked_answers_retained",
]


def project_root() -> Path:
    """The folder holding ``helpers/`` (in a checkout, also ``fixtures/`` and ``notebooks/``)."""
    return Path(__file__).resolve().parent.parent.parent


@functools.cache  # where the package lies does not change while it runs; the cohort asks per file
def fixtures_dir() -> Path:
    """The fixtures folder: the wheel's ``helpers/fixtures/``, else the checkout's ``fixtures/``."""
    shipped = resources.files("helpers") / "fixtures"
    if isinstance(shipped, Path) and shipped.is_dir():
        return shipped
    return project_root() / "fixtures"


def filled_cases_json() -> Path:
    """The filled cases as JSON (the source of truth)."""
    return fixtures_dir() / "filled_cases.json"


def filled_cases_csv() -> Path:
    """The filled cases as an editable CSV, kept in step with the JSON."""
    return fixtures_dir() / "filled_cases.csv"


def worked_answers_baseline() -> Path:
    """The baseline of every worked answer, guarded by the sentinel check."""
    return fixtures_dir() / "worked_answers" / "baseline.json"


def worked_answers_retained() -> Path:
    """Where earlier worked-answer baselines are kept as evidence."""
    return fixtures_dir() / "worked_answers" / "retained"
