"""Version 1 progress files written for the reader's tests: nothing in the package writes this version any more."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.trainee.drill.course import Progress


def write_version1(progress: Progress, path: Path) -> Path:
    """``progress`` as a version 1 file at ``path``, as the set course once saved it."""
    path.write_text(json.dumps(progress.to_data(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path
