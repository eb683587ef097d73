"""Explicit sentinel baselines, revised only with the old one kept as evidence.

A baseline file is ``{"version": N, "revised_on": "YYYY-MM-DD", "reason": "...",
"answers": {id: answer}}``. An authorised rubric change never edits a baseline
in place: :func:`revise_baseline` copies the current file into a retained
folder, then writes version N+1 with the reason for the change.

The project guards its own worked answers this way: see :mod:`helpers.worked_answers`.
Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import BaselineError, CheckInputError, describe_value
from .files import write_atomically
from .jsonio import load_json_file
from .validation import require_answer_key

__all__ = [
    "Baseline",
    "load_baseline",
    "baseline_from_data",
    "revise_baseline",
]

_FIELDS = ("version", "revised_on", "reason", "answers")


@dataclass(frozen=True)
class Baseline:
    """One version of a sentinel baseline. Taught in ``03_sentinel_answer_key.ipynb``."""

    version: int
    revised_on: str
    reason: str
    answers: Mapping[str, str]

    def to_data(self) -> dict[str, Any]:
        """The JSON object stored on disk."""
        return {
            "version": self.version,
            "revised_on": self.revised_on,
            "reason": self.reason,
            "answers": dict(self.answers),
        }


def _dump(baseline: Baseline) -> str:
    return json.dumps(baseline.to_data(), ensure_ascii=False, indent=2) + "\n"


def load_baseline(path: str | Path) -> Baseline:
    """Read and validate a baseline file; errors name the file and field."""
    return baseline_from_data(load_json_file(path), where=str(path))


def baseline_from_data(data: Any, *, where: str = "baseline") -> Baseline:
    """Validate a baseline document already read from JSON; errors start with ``where`` and name the field.

    Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
    """
    if not isinstance(data, Mapping) or set(data) != set(_FIELDS):
        found = list(data) if isinstance(data, Mapping) else type(data).__name__
        raise BaselineError(f"{where}: expected the fields {list(_FIELDS)}, found {found}")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BaselineError(
            f"{where}: version is {describe_value(version)}, expected a whole number from 1", field="version"
        )
    for name in ("revised_on", "reason"):
        if not isinstance(data[name], str) or not data[name].strip():
            raise BaselineError(f"{where}: {name} must be a non-empty string", field=name)
    try:
        answers = require_answer_key(data["answers"], "answers")
    except CheckInputError as exc:
        raise BaselineError(f"{where}: {exc.message}", field=exc.field) from None
    return Baseline(version, data["revised_on"], data["reason"], answers)


def revise_baseline(
    path: str | Path,
    answers: Mapping[str, str],
    *,
    reason: str,
    retained_dir: str | Path,
    revised_on: str | None = None,
) -> Baseline:
    """Write a new explicit baseline, keeping the current one as retained evidence.

    The current file (if any) is copied to ``retained_dir/v{N}.json`` first; an
    existing retained file is never overwritten. The new file gets version N+1.
    Taught in ``03_sentinel_answer_key.ipynb``.
    """
    path, retained_dir = Path(path), Path(retained_dir)
    if not isinstance(reason, str) or not reason.strip():
        raise BaselineError("a baseline revision needs a non-empty reason", field="reason")
    answers = require_answer_key(answers, "answers")
    revised_on = revised_on or _dt.date.today().isoformat()
    version = 1
    if path.exists():
        current = load_baseline(path)
        keep = retained_dir / f"v{current.version}.json"
        if keep.exists():
            raise BaselineError(
                f"{keep} already exists; retained evidence is never overwritten", field="version"
            )
        keep.parent.mkdir(parents=True, exist_ok=True)
        try:
            write_atomically(keep, path.read_bytes(), replace=False)
        except FileExistsError:
            raise BaselineError(
                f"{keep} already exists; retained evidence is never overwritten", field="version"
            ) from None
        version = current.version + 1
    new = Baseline(version, revised_on, reason.strip(), answers)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, _dump(new))
    return new
