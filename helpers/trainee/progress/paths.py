"""Where progress is kept: the default file name, a path as it is safe to show, and why a path fails.

Used by every reader and writer of the trainee's and the trainer's files.
Taught in ``04_practice.ipynb`` ("Keeping your progress").
"""

from __future__ import annotations

import os
from pathlib import Path

from helpers.core.errors import printable

__all__ = ["DEFAULT_PROGRESS_FILE", "shown_path", "path_problem"]

#: Where progress is saved unless the trainee chooses: this name in the working folder.
DEFAULT_PROGRESS_FILE = "integrity-practice-progress.json"


def shown_path(path: str | Path) -> str:
    """``path`` as text safe to show and send: lone surrogates and control characters escaped."""
    text = os.fspath(path)
    if isinstance(text, bytes):  # pragma: no cover - str paths only in practice
        text = os.fsdecode(text)
    return printable(text)


def path_problem(exc: OSError | ValueError) -> str:
    """Why ``exc`` stops a path being used, in a few plain words."""
    if isinstance(exc, UnicodeError):
        return "it has characters a file name cannot hold"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    if "null" in str(exc):
        return "it contains a null character"
    return str(exc) or type(exc).__name__
