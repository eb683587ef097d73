"""Explicit sentinel baselines, revised only with the old one kept as evidence.

A baseline file is ``{"version": N, "revised_on": "YYYY-MM-DD", "reason": "...",
"answers": {id: answer}}``. An authorised rubric change never edits a baseline
in place: :func:`revise_baseline` copies the current file into a retained
folder, then writes version N+1 with the reason for the change.

The project guards its own worked answers this way: see :mod:`helpers.trainee.worked_answers`.
Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.errors import BaselineError, CheckInputError, describe_value
from helpers.core.files import PendingFile, write_atomically
from helpers.core.jsonio import load_json_file, loads_document
from helpers.core.validation import require_answer_key

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


def _refuse_overlap(path: Path, retained_dir: Path) -> None:
    """Refuse a retained folder that is a file, or that holds the baseline itself."""
    if retained_dir.exists() and not retained_dir.is_dir():
        raise BaselineError(
            f"the retained folder {retained_dir} is a file, not a folder; choose a folder for the evidence",
            field="retained_dir",
        )
    try:
        inside = path.resolve().is_relative_to(retained_dir.resolve())
    except (OSError, RuntimeError):  # a symbolic-link loop: nothing there can be written anyway
        inside = False
    if inside:
        raise BaselineError(
            f"the baseline {path} is inside its retained folder {retained_dir}, so revising it would "
            "overwrite retained evidence; keep the baseline outside that folder",
            field="retained_dir",
        )


def revise_baseline(
    path: str | Path,
    answers: Mapping[str, str],
    *,
    reason: str,
    retained_dir: str | Path,
    revised_on: str | None = None,
    mode: int | None = None,
) -> Baseline:
    """Write a new explicit baseline, keeping the current one as retained evidence.

    The current file (if any) is copied to ``retained_dir/v{N}.json``; an existing
    retained file is never overwritten. The new file gets version N+1. A first baseline
    is created only where none exists, so of several runs at once exactly one wins and
    the others are refused; the same holds for each revision, through its retained copy.

    The writes are ordered so that a failed run (a full disk, a read-only folder: an
    :class:`OSError`) changes nothing and can be retried: the new baseline is written in
    full beside its place first, then the retained copy is made, and only then does the
    new baseline take its place. ``mode`` sets the new file's and the retained copy's
    permissions whatever the umask (a check-out key's baseline is owner-only). Taught in
    ``03_sentinel_answer_key.ipynb``.
    """
    path, retained_dir = Path(path), Path(retained_dir)
    if not isinstance(reason, str) or not reason.strip():
        raise BaselineError("a baseline revision needs a non-empty reason", field="reason")
    answers = require_answer_key(answers, "answers")
    _refuse_overlap(path, retained_dir)
    revised_on = revised_on or _dt.date.today().isoformat()
    current_bytes: bytes | None = None
    version = 1
    if path.exists():
        current_bytes = path.read_bytes()
        current = baseline_from_data(loads_document(current_bytes, source=str(path)), where=str(path))
        version = current.version + 1
    new = Baseline(version, revised_on, reason.strip(), answers)
    path.parent.mkdir(parents=True, exist_ok=True)
    pending = PendingFile(path, mode=mode)
    try:
        pending.write(_dump(new).encode("utf-8"), sync=True)
        if current_bytes is not None:
            keep = retained_dir / f"v{version - 1}.json"
            if keep.exists():
                raise _evidence_exists(keep)
            keep.parent.mkdir(parents=True, exist_ok=True)
            try:
                write_atomically(keep, current_bytes, replace=False, mode=mode)
            except FileExistsError:
                raise _evidence_exists(keep) from None
            try:
                pending.commit()
            except OSError:
                keep.unlink(missing_ok=True)  # this run made it: undo, so a retry starts clean
                raise
        else:
            try:
                pending.commit(replace=False)
            except FileExistsError:
                raise BaselineError(
                    f"{path} was created by another run while this one ran; nothing was written, "
                    "so check it and revise it if needed",
                    field="version",
                ) from None
    finally:
        pending.abort()
    return new


def _evidence_exists(keep: Path) -> BaselineError:
    return BaselineError(f"{keep} already exists; retained evidence is never overwritten", field="version")
