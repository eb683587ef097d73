"""The downloads offered in each check's notebook, kept in step with the fixtures.

For each check, ``notebooks/downloads/`` holds the filled cases as the editable
CSV (what ``python -m helpers export-csv --check NAME`` writes) and the
runnable example (what ``python -m helpers export-example --check NAME``
writes). The files are committed so they can be linked and downloaded; a test
fails when they are stale. Regenerate them all with::

    python -m tools.publish.downloads

and check them without writing with ``python -m tools.publish.downloads --check``.
Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("Downloads").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from helpers.core.checks import CHECK_TITLES, CHECKS
from helpers.core.paths import project_root
from helpers.team.example import CHECK_NOTEBOOKS, example_filename, example_source
from helpers.trainee.cases.filled import cases_to_csv, filled_cases

__all__ = [
    "Download",
    "REGENERATE_COMMAND",
    "CHECK_NOTEBOOKS",
    "downloads_dir",
    "downloads",
    "csv_filename",
    "write_downloads",
    "stale_downloads",
    "main",
]

#: The command that rewrites every download from the fixtures and helpers.
REGENERATE_COMMAND = "python -m tools.publish.downloads"


@dataclass(frozen=True)
class Download:
    """One downloadable file: its check, name, a short label, and its content."""

    check: str
    filename: str
    label: str
    text: str


def downloads_dir() -> Path:
    """``notebooks/downloads/``, next to the notebooks that link it."""
    return project_root() / "notebooks" / "downloads"


def csv_filename(check: str) -> str:
    """The editable CSV's file name, e.g. ``target_scope_cases.csv``."""
    return f"{check.replace('-', '_')}_cases.csv"


def downloads() -> list[Download]:
    """Every download, freshly generated: per check, the CSV then the runnable example."""
    files = []
    for check in CHECKS:
        title = CHECK_TITLES[check]
        files.append(
            Download(
                check,
                csv_filename(check),
                f"{title}: the filled cases as an editable CSV",
                cases_to_csv(filled_cases(check)),
            )
        )
        files.append(
            Download(
                check,
                example_filename(check),
                f"{title}: a runnable example (plain Python, standard library only)",
                example_source(check),
            )
        )
    return files


def write_downloads(folder: Path | None = None) -> list[Path]:
    """Write every download into ``folder`` (default :func:`downloads_dir`); returns the paths."""
    folder = folder or downloads_dir()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for item in downloads():
        path = folder / item.filename
        path.write_bytes(item.text.encode("utf-8"))
        written.append(path)
    return written


def stale_downloads(folder: Path | None = None) -> list[str]:
    """Names of downloads in ``folder`` that are missing, differ from fresh ones, or are unknown."""
    folder = folder or downloads_dir()
    fresh = {item.filename: item.text.encode("utf-8") for item in downloads()}
    stale = []
    for name, data in fresh.items():
        path = folder / name
        if not path.is_file() or path.read_bytes() != data:
            stale.append(name)
    if folder.is_dir():
        stale += sorted(p.name for p in folder.iterdir() if p.name not in fresh)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.publish.downloads [--check]``: regenerate, or only verify, the downloads."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.publish.downloads",
        description="Regenerate the notebooks' downloads from the fixtures and helpers.",
    )
    parser.add_argument("--check", action="store_true", help="only report stale downloads; exit 1 if any")
    args = parser.parse_args(argv)
    folder = downloads_dir()
    if args.check:
        stale = stale_downloads(folder)
        for name in stale:
            print(f"stale download (missing, outdated or not generated): {folder / name}", file=sys.stderr)
        if stale:
            print(f"regenerate with: {REGENERATE_COMMAND}", file=sys.stderr)
        return 1 if stale else 0
    for path in write_downloads(folder):
        print(f"wrote {path.relative_to(project_root())}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
