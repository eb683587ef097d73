"""The committed downloads in notebooks/downloads/ match freshly generated ones.

A stale download (the fixtures or the helpers changed, the files did not) fails
here; regenerate with ``python -m tools.publish.downloads``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.core.checks import CHECKS
from helpers.core.paths import project_root
from helpers.team.example import example_filename
from tools.publish.downloads import (
    CHECK_NOTEBOOKS,
    REGENERATE_COMMAND,
    csv_filename,
    downloads,
    downloads_dir,
    stale_downloads,
    write_downloads,
)

NOTEBOOKS = project_root() / "notebooks"


def test_every_committed_download_equals_a_fresh_one() -> None:
    fresh = downloads()
    assert len(fresh) == 2 * len(CHECKS)
    for item in fresh:
        path = downloads_dir() / item.filename
        assert path.is_file(), f"{path} is missing; regenerate with {REGENERATE_COMMAND}"
        assert path.read_bytes() == item.text.encode("utf-8"), (
            f"{path} is stale; regenerate with {REGENERATE_COMMAND}"
        )
    assert stale_downloads() == []


@pytest.mark.parametrize("check", list(CHECKS))
def test_committed_csv_is_what_export_csv_writes(run_cli, check: str) -> None:
    done = run_cli("export-csv", "--check", check)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (downloads_dir() / csv_filename(check)).read_bytes()


@pytest.mark.parametrize("check", list(CHECKS))
def test_committed_example_is_what_export_example_writes(run_cli, tmp_path: Path, check: str) -> None:
    done = run_cli("export-example", "--check", check)
    assert done.returncode == 0, done.stderr
    committed = (downloads_dir() / example_filename(check)).read_bytes()
    assert done.stdout == committed
    target = tmp_path / "written.py"
    done = run_cli("export-example", "--check", check, "-o", str(target))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert target.read_bytes() == committed


def test_stale_missing_and_unknown_downloads_are_reported(tmp_path: Path) -> None:
    folder = tmp_path / "downloads"
    written = write_downloads(folder)
    assert stale_downloads(folder) == []
    csv = folder / csv_filename("sentinels")
    csv.write_bytes(csv.read_bytes().replace(b'"intact"":false', b'"intact"":true', 1))
    (folder / example_filename("target-scope")).unlink()
    (folder / "notes.txt").write_text("not generated", encoding="utf-8")
    assert sorted(stale_downloads(folder)) == sorted(
        [csv.name, example_filename("target-scope"), "notes.txt"]
    )
    assert len(written) == 4


def test_regenerate_check_mode_passes_on_the_committed_files() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools.publish.downloads", "--check"],
        capture_output=True,
        text=True,
        cwd=project_root(),
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")


def _markdown(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("check", list(CHECKS))
def test_notebook_links_its_downloads_just_before_the_summary(check: str) -> None:
    notebook = NOTEBOOKS / CHECK_NOTEBOOKS[check]
    markdown = _markdown(notebook)
    starts = [text.split("\n", 1)[0] for text in markdown]
    at = starts.index("## Downloads")
    assert starts[at + 1] == "## Summary"
    links = re.findall(r"\]\(([^)\s]+)\)", markdown[at])
    assert links == [f"downloads/{csv_filename(check)}", f"downloads/{example_filename(check)}"]
    for link in links:
        assert (notebook.parent / link).is_file(), link
