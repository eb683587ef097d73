"""Baselines under faults: a full disk or a read-only folder changes nothing and can be retried,
runs at the same moment never silently replace each other, and retained evidence is never overwritten."""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import helpers
from helpers import load_baseline
from helpers.cli import main
from helpers.core.baselines import revise_baseline
from helpers.core.errors import BaselineError
from helpers.core.paths import project_root


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    """A first baseline, version 1, at tmp_path/baseline.json (evidence goes to tmp_path/retained)."""
    path = tmp_path / "baseline.json"
    revise_baseline(path, {"S1": "R"}, reason="First", retained_dir=tmp_path / "retained")
    return path


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden temporary files included) and its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _fail_once(monkeypatch, name: str, at: int, error: int = errno.ENOSPC) -> list[int]:
    """Make call number ``at`` of ``os.<name>`` raise ``OSError(error)``; returns the call counter."""
    real = getattr(os, name)
    calls = [0]

    def failing(*args, **kwargs):
        calls[0] += 1
        if calls[0] == at:
            raise OSError(error, os.strerror(error))
        return real(*args, **kwargs)

    monkeypatch.setattr(os, name, failing)
    return calls


@pytest.mark.parametrize(
    ("name", "at"), [("fsync", 1), ("fsync", 2), ("link", 1), ("replace", 1)], ids=lambda v: str(v)
)
def test_a_full_disk_at_any_step_changes_nothing_and_a_retry_works(v1, monkeypatch, name, at):
    before = _files(v1.parent)
    retained = v1.parent / "retained"
    _fail_once(monkeypatch, name, at)
    with pytest.raises(OSError, match="No space left"):
        revise_baseline(v1, {"S1": "A"}, reason="Second", retained_dir=retained)
    assert _files(v1.parent) == before
    monkeypatch.undo()  # space is freed
    new = revise_baseline(v1, {"S1": "A"}, reason="Second", retained_dir=retained)
    assert new.version == 2 and load_baseline(v1).reason == "Second"
    assert (retained / "v1.json").read_bytes() == before["baseline.json"]


@pytest.mark.parametrize("fault", ["full disk", "read-only folder"])
def test_rebaseline_command_exits_2_with_one_line_on_an_os_error(fixtures_copy, monkeypatch, capfd, fault):
    before = _files(fixtures_copy / "worked_answers")
    if fault == "full disk":
        _fail_once(monkeypatch, "fsync", 1)
    else:
        real_open = os.open

        def read_only(path, flags, *args, **kwargs):
            if flags & os.O_CREAT:
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", read_only)
    code = main(["rebaseline", "--reason", "A change", "--fixtures", str(fixtures_copy)])
    err = capfd.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("python -m helpers rebaseline: cannot write"), err
    assert "nothing was changed" in err and "Traceback" not in err
    assert _files(fixtures_copy / "worked_answers") == before


_WRITER = """
import sys, time
from helpers.core.baselines import revise_baseline
from helpers.core.errors import BaselineError
path, retained, n, go = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
while time.time() < go:
    pass
try:
    new = revise_baseline(path, {"S1": "answer " + n}, reason="writer " + n, retained_dir=retained)
    print("wrote", new.version)
except BaselineError as exc:
    print("refused")
"""


def _race(path: Path, writers: int = 8) -> list[str]:
    go = str(time.time() + 1.5)
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), str(path.parent / "retained"), str(n), go],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(project_root())},
        )
        for n in range(writers)
    ]
    return [run.communicate(timeout=60)[0].strip() for run in runs]


@pytest.mark.parametrize("start", ["first creation", "revision of version 1"])
def test_eight_writers_at_once_exactly_one_wins(tmp_path, start):
    path = tmp_path / "baseline.json"
    if start != "first creation":
        revise_baseline(path, {"S1": "R"}, reason="First", retained_dir=tmp_path / "retained")
    said = _race(path)
    first = 1 if start == "first creation" else 2
    # Exactly one writer makes version `first`; one starting after it finished revises it in turn.
    assert said.count(f"wrote {first}") == 1, said
    assert all(word == "refused" or word.startswith("wrote ") for word in said), said
    wrote = {f"writer {n}" for n, word in enumerate(said) if word.startswith("wrote")}
    kept = [load_baseline(p) for p in sorted((tmp_path / "retained").glob("v*.json"))]
    found = {b.reason for b in [*kept, load_baseline(path)]} - {"First"}
    assert found == wrote, "a writer that reported success was silently replaced"


def test_a_baseline_inside_its_own_retained_folder_is_refused(tmp_path):
    kept = tmp_path / "kept"
    kept.mkdir()
    evidence = kept / "v1.json"
    evidence.write_text(
        json.dumps({"version": 2, "revised_on": "2027-01-01", "reason": "r", "answers": {"S1": "R"}}),
        encoding="utf-8",
    )
    before = evidence.read_bytes()
    with pytest.raises(BaselineError, match="inside its retained folder"):
        revise_baseline(evidence, {"S1": "A"}, reason="Again", retained_dir=kept)
    assert evidence.read_bytes() == before and sorted(p.name for p in kept.iterdir()) == ["v1.json"]


def test_a_retained_folder_that_is_a_file_is_a_clear_error(v1):
    (v1.parent / "retained").write_text("not a folder\n", encoding="utf-8")
    before = v1.read_bytes()
    with pytest.raises(BaselineError, match="is a file, not a folder"):
        revise_baseline(v1, {"S1": "A"}, reason="Second", retained_dir=v1.parent / "retained")
    assert v1.read_bytes() == before


def test_a_baseline_cannot_be_changed(tmp_path):
    baseline = helpers.revise_baseline(
        tmp_path / "b.json",
        {"S1": "café"},
        reason="First",
        retained_dir=tmp_path / "r",
        revised_on="2026-01-01",
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        baseline.version = 2  # type: ignore[misc]
    assert baseline == helpers.load_baseline(tmp_path / "b.json")
    # The file is reviewed by people: two-space indents, characters as themselves, a final newline.
    assert (tmp_path / "b.json").read_text(encoding="utf-8") == (
        '{\n  "version": 1,\n  "revised_on": "2026-01-01",\n  "reason": "First",\n'
        '  "answers": {\n    "S1": "café"\n  }\n}\n'
    )


def test_a_revision_makes_the_folders_it_needs(tmp_path):
    path, retained = tmp_path / "a" / "b" / "baseline.json", tmp_path / "c" / "d"
    helpers.revise_baseline(path, {"S1": "R"}, reason="First", retained_dir=retained, revised_on="2026-01-01")
    helpers.revise_baseline(
        path, {"S1": "S"}, reason="Second", retained_dir=retained, revised_on="2026-01-02"
    )
    assert helpers.load_baseline(path).version == 2
    assert sorted(p.name for p in retained.iterdir()) == ["v1.json"]


def test_retained_evidence_written_by_a_racing_writer_is_never_overwritten(tmp_path, monkeypatch):
    """Another writer may retain v1 between the check for it and the write: the write itself refuses."""
    from pathlib import Path

    from helpers.core.errors import BaselineError

    path, retained = tmp_path / "b.json", tmp_path / "r"
    helpers.revise_baseline(path, {"S1": "R"}, reason="First", retained_dir=retained, revised_on="2026-01-01")
    keep = retained / "v1.json"
    keep.parent.mkdir()
    keep.write_text("the other writer's copy", encoding="utf-8")
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda self: False if self == keep else real_exists(self))
    with pytest.raises(BaselineError, match="already exists; retained evidence is never overwritten"):
        helpers.revise_baseline(path, {"S1": "S"}, reason="Second", retained_dir=retained)
    assert keep.read_text(encoding="utf-8") == "the other writer's copy"
    assert helpers.load_baseline(path).version == 1
