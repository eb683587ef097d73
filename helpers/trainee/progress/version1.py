"""Version 1 progress files (the set course alone), read back strictly so an old file still loads.

Nothing writes this version any more: :mod:`helpers.trainee.progress.files`
saves version 3 and reads a version 1 course through :func:`progress_from_data`.
A corrupt or foreign file raises :class:`~helpers.core.errors.ProgressFileError`.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from helpers.core.errors import JSONLoadError, ProgressFileError, describe_value
from helpers.core.jsonio import loads_strict
from helpers.trainee.cases.practice_cases import PracticeCase, practice_cases
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.course import (
    ATTEMPT_FIELDS,
    ATTEMPT_OPTIONAL_FIELDS,
    PROGRESS_FORMAT,
    PROGRESS_VERSION,
    Attempt,
    Progress,
)
from helpers.trainee.drill.model import OUTCOMES
from helpers.trainee.progress.paths import DEFAULT_PROGRESS_FILE, path_problem, shown_path

__all__ = ["load_progress", "progress_from_data"]


_PROGRESS_FIELDS = ("format", "version", "seed", "order", "attempts")


def progress_from_data(
    data: Any,
    *,
    cases: Iterable[PracticeCase],
    rules: Sequence[Rule],
    source: str = "<data>",
) -> Progress:
    """Validate a parsed progress object against these cases and rules.

    Raises :class:`~helpers.core.errors.ProgressFileError` naming what is wrong.
    """

    def bad(message: str) -> ProgressFileError:
        return ProgressFileError(message, path=source)

    if not isinstance(data, Mapping) or data.get("format") != PROGRESS_FORMAT:
        raise bad(f'is not a practice progress file (it has no "format": "{PROGRESS_FORMAT}")')
    version = data.get("version")
    if isinstance(version, bool) or version != PROGRESS_VERSION:
        raise bad(f"has version {describe_value(version)}; this helper reads version {PROGRESS_VERSION}")
    if set(data) != set(_PROGRESS_FIELDS):
        raise bad(f"expected the fields {list(_PROGRESS_FIELDS)}, found {list(data)}")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise bad(f"seed is {describe_value(seed)}, expected a whole number")
    by_key = {case.key: case for case in cases}
    rule_checks = {rule.id: rule.check for rule in rules}
    order = data["order"]
    if not isinstance(order, list) or not order or not all(isinstance(key, str) for key in order):
        raise bad("order must be a non-empty list of case keys")
    if len(set(order)) != len(order):
        raise bad("order lists a case twice")
    for key in order:
        if key not in by_key:
            raise bad(f"order refers to the case {describe_value(key)}, which is not a practice case here")
    if not isinstance(data["attempts"], list):
        raise bad("attempts must be a list")
    attempts: dict[str, Attempt] = {}
    for index, raw in enumerate(data["attempts"]):
        where = f"attempts[{index}]"
        if (
            not isinstance(raw, Mapping)
            or not set(ATTEMPT_FIELDS) <= set(raw)
            or not set(raw) <= {*ATTEMPT_FIELDS, *ATTEMPT_OPTIONAL_FIELDS}
        ):
            raise bad(
                f"{where} must have the fields {list(ATTEMPT_FIELDS)} (and may have {list(ATTEMPT_OPTIONAL_FIELDS)})"
            )
        key, correct, missed = raw["case"], raw["correct"], raw["rules_missed"]
        if not isinstance(key, str) or key not in order:
            raise bad(f"{where}.case is {describe_value(key)}, which is not in the drill's order")
        if key in attempts:
            raise bad(f"{where}.case {describe_value(key)} is scored twice")
        if not isinstance(correct, bool):
            raise bad(f"{where}.correct is {describe_value(correct)}, expected true or false")
        outcome, hints = raw.get("outcome", ""), raw.get("hints", 0)
        if outcome not in ("", *OUTCOMES) or (outcome and (outcome == "correct") != correct):
            raise bad(f"{where}.outcome is {describe_value(outcome)}, which does not match its correct field")
        if isinstance(hints, bool) or not isinstance(hints, int) or hints < 0:
            raise bad(f"{where}.hints is {describe_value(hints)}, expected a whole number from 0")
        if (
            not isinstance(missed, list)
            or not all(isinstance(rule_id, str) for rule_id in missed)
            or len(set(missed)) != len(missed)
        ):
            raise bad(f"{where}.rules_missed must be a list of distinct rule ids")
        for rule_id in missed:
            if rule_checks.get(rule_id) != by_key[key].check:
                raise bad(
                    f"{where}.rules_missed has {describe_value(rule_id)}, which is not a rule of {describe_value(by_key[key].check)}"
                )
        if correct == bool(missed):
            raise bad(f"{where}: a correct check misses no rule, and a wrong one misses at least one")
        attempts[key] = Attempt(key, correct, tuple(missed), outcome, hints)
    return Progress(seed, tuple(order), attempts)


def _checked_path(path: str | Path) -> Path:
    """``path`` expanded, or ValueError when no file could have that name (a null, a lone surrogate)."""
    path = Path(path).expanduser()
    if b"\0" in os.fsencode(path):  # os.fsencode raises UnicodeEncodeError for a lone surrogate
        raise ValueError("embedded null character in path")
    return path


def _read_progress(path: Path) -> Any:
    if path.is_dir():
        raise ProgressFileError("is a folder, not a progress file", path=shown_path(path))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProgressFileError(f"cannot be read ({exc.strerror})", path=shown_path(path)) from None
    try:
        return loads_strict(data.decode("utf-8-sig"), source=shown_path(path))
    except UnicodeDecodeError as exc:
        raise ProgressFileError(
            f"is not UTF-8 text (byte {exc.start}), so not a progress file", path=shown_path(path)
        ) from None
    except JSONLoadError as exc:
        raise ProgressFileError(f"is not a progress file: {exc.detail}", path=shown_path(path)) from None


def load_progress(
    path: str | Path = DEFAULT_PROGRESS_FILE,
    *,
    cases: Iterable[PracticeCase] | None = None,
    rules: Sequence[Rule] | None = None,
) -> Progress:
    """Read a progress file (default in the working folder); the file is never changed.

    Raises :class:`~helpers.core.errors.ProgressFileError` when it is missing,
    corrupt, foreign, or refers to cases these practice cases lack, or when
    the path itself cannot be used (a null character, an over-long name).
    Taught in ``04_practice.ipynb`` ("Keeping your progress").
    """
    try:
        path = _checked_path(path)
        if not path.exists():
            raise ProgressFileError("does not exist; save your progress there first", path=shown_path(path))
        data = _read_progress(path)
    except ProgressFileError:
        raise
    except (OSError, ValueError) as exc:
        raise ProgressFileError(f"cannot be read ({path_problem(exc)})", path=shown_path(path)) from None
    return progress_from_data(
        data,
        cases=cases if cases is not None else practice_cases(),
        rules=rules if rules is not None else load_rules(),
        source=shown_path(path),
    )
