"""``tasks.py test`` prints its wall time last, whether the tests passed or failed (issue 47)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st


@given(seconds=st.floats(min_value=0, max_value=10 * 3600, allow_nan=False))
def test_a_duration_reads_back_as_the_rounded_seconds(tasks, seconds):
    text = tasks.duration(seconds)
    match = re.fullmatch(r"(?:(\d+) min )?(\d+) s", text)
    assert match is not None, text
    minutes, rest = int(match.group(1) or 0), int(match.group(2))
    assert rest < 60 and (minutes == 0) == (round(seconds) < 60)
    assert minutes * 60 + rest == round(seconds)


def test_the_wall_time_is_printed_last_when_the_tests_pass(tasks, monkeypatch, capsys):
    clock = iter([100.0, 342.4])
    monkeypatch.setattr(tasks.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(tasks, "run_tests", lambda extra: print("tests ran", extra))
    tasks.test(["-k", "x"])
    captured = capsys.readouterr()
    assert captured.out == "tests ran ['-k', 'x']\n"
    assert captured.err.splitlines()[-1] == "[tasks] tasks.py test passed in 4 min 2 s (wall time)"


def test_the_wall_time_is_printed_last_when_the_tests_fail(tasks, monkeypatch, capsys):
    clock = iter([0.0, 38.2])
    monkeypatch.setattr(tasks.time, "monotonic", lambda: next(clock))

    def failing(extra):
        raise SystemExit(3)

    monkeypatch.setattr(tasks, "run_tests", failing)
    with pytest.raises(SystemExit) as stopped:
        tasks.test([])
    assert stopped.value.code == 3
    assert capsys.readouterr().err.splitlines()[-1] == "[tasks] tasks.py test failed after 38 s (wall time)"


def test_the_tests_scratch_files_go_to_memory_and_are_removed_after(tasks, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", "/before")
    with tasks.scratch_in_memory((tmp_path / "missing", tmp_path)) as folder:
        assert folder is not None and folder.parent == tmp_path and folder.is_dir()
        assert os.environ["TMPDIR"] == str(folder)
        (folder / "left-behind").write_text("x")
    assert not folder.exists() and os.environ["TMPDIR"] == "/before"


def test_without_room_in_memory_the_scratch_files_stay_where_they_were(tasks, tmp_path, monkeypatch):
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setattr(tasks, "MEMORY_SCRATCH_BYTES", 1 << 62)  # more than any folder has free
    with tasks.scratch_in_memory((tmp_path,)) as folder:
        assert folder is None and "TMPDIR" not in os.environ
    assert list(tmp_path.iterdir()) == []
    assert tasks.memory_scratch_root((tmp_path / "missing",)) is None


def test_the_fast_loop_runs_with_its_scratch_files_in_memory(tasks, tmp_path, monkeypatch):
    monkeypatch.setattr(tasks, "MEMORY_SCRATCH", (tmp_path,))
    seen: list[str] = []
    monkeypatch.setattr(tasks, "run_tests", lambda extra: seen.append(os.environ["TMPDIR"]))
    tasks.test([])
    assert Path(seen[0]).parent == tmp_path and not Path(seen[0]).exists()
