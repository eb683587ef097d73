"""The cohort's files: progress files named, read within bounds, parsed strictly, and named safely.

Progress files are written by each trainee's own drill on their own machine, so
nothing in them is trusted: every file is read, or refused with its reason
(unreadable, not a regular file, over :data:`MAX_FILE_BYTES`, not UTF-8, not a
progress file); names are neutralised for the terminal. The re-grade is
:mod:`helpers.trainer.cohort`'s. Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from helpers.core.errors import JSONLoadError, ProgressFileError
from helpers.core.jsonio import loads_strict
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.rules import Rule
from helpers.trainee.progress.files import TraineeProgress, trainee_progress_from_data
from helpers.trainee.progress.paths import shown_path
from helpers.trainer.bounded_file import read_within

__all__ = [
    "MAX_FILE_BYTES",
    "NAME_SHOWN",
    "shown",
    "read_progress_data",
    "sample_progress_dir",
    "progress_paths",
    "read_progress_file",
]

#: A progress file larger than this is refused unread (a genuine drill of 10,000 cases is about 3 MB).
MAX_FILE_BYTES = 20 * 2**20
#: The longest name shown in a table; a longer one is cut with "…".
NAME_SHOWN = 40


def shown(text: str, limit: int | None = None) -> str:
    """``text`` safe for a terminal: control characters, escapes, newlines and lone surrogates escaped.

    With ``limit``, a longer result is cut with "…", so one name cannot push a table apart.
    """
    safe = shown_path(text)
    if limit is not None and len(safe) > limit:
        return safe[: limit - 1] + "…"
    return safe


def _shown_file(path: str | Path) -> str:
    """A file as the cohort names it: the project's own fixtures by their place in the project."""
    try:
        inside = Path(os.path.abspath(path)).relative_to(fixtures_dir().parent)
    except ValueError:
        return shown_path(path)
    return shown_path(inside.as_posix())


def sample_progress_dir() -> Path:
    """``fixtures/sample_progress/``: four sample trainees' progress files, one of them version 1."""
    return fixtures_dir() / "sample_progress"


def progress_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The progress files named: files as given, and every ``*.json`` in each folder (sorted)."""
    found: list[Path] = []
    for item in paths:
        path = Path(item).expanduser()
        try:
            folder = path.is_dir()
        except (OSError, ValueError):
            folder = False
        if folder:
            try:
                inside = sorted(path.glob("*.json"))
            except OSError:
                inside = []
            # a folder named like a progress file, with none in it, is listed and refused with its reason
            found += inside or ([path] if path.suffix.lower() == ".json" else [])
        else:
            found.append(path)
    return found


def _read_bounded(path: Path) -> bytes:
    """The file's bytes: a regular file of at most :data:`MAX_FILE_BYTES`, else ProgressFileError."""
    try:
        os.fsencode(path)
        if b"\0" in os.fsencode(path):
            raise ProgressFileError("cannot be read (it contains a null character)", path=_shown_file(path))
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except UnicodeError:
        raise ProgressFileError(
            "cannot be read (it has characters a file name cannot hold)", path=_shown_file(path)
        ) from None
    except OSError as exc:
        raise ProgressFileError(
            f"cannot be read ({exc.strerror or type(exc).__name__})", path=_shown_file(path)
        ) from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            kind = (
                "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, device or socket)"
            )
            if stat.S_ISDIR(info.st_mode) and not any(path.glob("*.json")):
                kind = "a folder with no progress files (*.json) in it"
            raise ProgressFileError(f"is {kind}, so it cannot hold progress", path=_shown_file(path))
        limit = f"over the {MAX_FILE_BYTES // 2**20} MB limit for a progress file, so it was not read"
        if info.st_size > MAX_FILE_BYTES:
            raise ProgressFileError(f"is {info.st_size / 2**20:.0f} MB, {limit}", path=_shown_file(path))
        data = read_within(handle, MAX_FILE_BYTES)
        if data is None:
            raise ProgressFileError(
                f"grows past {MAX_FILE_BYTES // 2**20} MB, {limit}", path=_shown_file(path)
            )
        return data
    except OSError as exc:
        raise ProgressFileError(
            f"cannot be read ({exc.strerror or type(exc).__name__})", path=_shown_file(path)
        ) from None
    finally:
        os.close(handle)


def read_progress_file(path: str | Path, *, rules: Sequence[Rule] | None = None) -> TraineeProgress:
    """Read one progress file safely (bounded, regular files only); raises ProgressFileError."""
    return read_progress_data(path, rules=rules)[0]


def read_progress_data(
    path: str | Path, *, rules: Sequence[Rule] | None = None
) -> tuple[TraineeProgress, Any]:
    """Read one progress file safely, with the JSON it holds (its claims, for the re-grader)."""
    path = Path(path)
    return _progress_from_bytes(_read_bounded(path), path, rules)


def _progress_from_bytes(raw: bytes, path: Path, rules: Sequence[Rule] | None) -> tuple[TraineeProgress, Any]:
    """The progress a file's bytes hold, with its JSON; ProgressFileError naming the file."""
    where = _shown_file(path)
    try:
        data = loads_strict(raw.decode("utf-8-sig"), source=where)
    except UnicodeDecodeError as exc:
        raise ProgressFileError(f"is not UTF-8 text (byte {exc.start})", path=where) from None
    except JSONLoadError as exc:
        raise ProgressFileError(f"is not a progress file: {exc.detail}", path=where) from None
    # the states each attempt left are kept for the engine's replay of the drill (replay_drill)
    return trainee_progress_from_data(data, rules=rules, source=where, keep_steps=True), data


def _file_sha256(path: Path) -> str | None:
    """The SHA-256 of a progress file's bytes, or ``None`` when it cannot be read (re-graded, to say why)."""
    try:
        return hashlib.sha256(_read_bounded(path)).hexdigest()
    except ProgressFileError:
        return None
