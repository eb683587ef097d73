"""``python -m helpers cohort``: the verdict cache, ``--no-cache``, and progress on a terminal only."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fake_terminal import FakeTerminal as _Terminal

from helpers import cli
from helpers.core.paths import fixtures_dir
from helpers.trainer import commands as trainer_commands
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.verdict_cache import CACHE_NAME

SAMPLES = fixtures_dir() / "sample_progress"


@pytest.fixture
def trainer(tmp_path: Path) -> Path:
    folder = tmp_path / "trainer"
    TrainerSecret.open(folder, create=True)
    return folder


@pytest.fixture
def cohort_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "cohort"
    folder.mkdir()
    for name in ("asha", "ben", "erin-forged"):
        shutil.copy(SAMPLES / f"{name}.json", folder / f"{name}.json")
    return folder


def test_the_output_is_the_same_with_the_cache_without_it_and_with_no_cache(run_cli, trainer, cohort_dir):
    mine = ("--trainer-dir", str(trainer))
    plain = run_cli("cohort", str(cohort_dir), "--json")
    filled = run_cli("cohort", str(cohort_dir), *mine, "--json")
    cached = run_cli("cohort", str(cohort_dir), *mine, "--csv", "cached.csv")
    forced = run_cli("cohort", str(cohort_dir), *mine, "--no-cache", "--csv", "forced.csv")
    assert plain.returncode == filled.returncode == cached.returncode == forced.returncode == 0
    assert plain.stdout == filled.stdout and cached.stdout == forced.stdout
    assert plain.stderr == filled.stderr == cached.stderr == forced.stderr == b""
    scratch = cohort_dir.parent
    assert (scratch / "cached.csv").read_bytes() == (scratch / "forced.csv").read_bytes()
    entries = json.loads((trainer / CACHE_NAME).read_text(encoding="ascii"))["entries"]
    assert len(entries) == 3


def test_no_cache_neither_reads_nor_writes_it(run_cli, trainer, cohort_dir):
    done = run_cli("cohort", str(cohort_dir), "--trainer-dir", str(trainer), "--no-cache", "--json")
    assert done.returncode == 0 and not (trainer / CACHE_NAME).exists()
    run_cli("cohort", str(cohort_dir), "--trainer-dir", str(trainer), "--json")
    whole = json.loads((trainer / CACHE_NAME).read_text(encoding="ascii"))
    for entry in whole["entries"].values():
        entry["summary"]["problems"] = []  # a forger clears Erin's problems
    (trainer / CACHE_NAME).write_text(json.dumps(whole), encoding="ascii")
    forced = run_cli("cohort", str(cohort_dir), "--trainer-dir", str(trainer), "--no-cache", "--json")
    assert forced.stderr == b"" and forced.stdout == done.stdout  # the edited cache was not read
    assert json.loads((trainer / CACHE_NAME).read_text(encoding="ascii")) == whole  # nor written


def test_an_edited_cache_entry_is_one_line_on_stderr_and_the_verdicts_stand(run_cli, trainer, cohort_dir):
    before = run_cli("cohort", str(cohort_dir), "--trainer-dir", str(trainer), "--json")
    whole = json.loads((trainer / CACHE_NAME).read_text(encoding="ascii"))
    for entry in whole["entries"].values():
        if entry["summary"]["name"] == "Erin":
            entry["summary"]["problems"] = []
    (trainer / CACHE_NAME).write_text(json.dumps(whole), encoding="ascii")
    after = run_cli("cohort", str(cohort_dir), "--trainer-dir", str(trainer), "--json")
    assert after.returncode == 0 and after.stdout == before.stdout
    (line,) = after.stderr.decode("utf-8").splitlines()
    assert line.startswith("python -m helpers cohort: the verdict cache entry for ")
    assert "erin-forged.json" in line and "not trusted" in line


def test_a_secret_open_to_others_is_refused_before_the_cache_is_used(run_cli, trainer, cohort_dir):
    (trainer / "trainer-secret.json").chmod(0o644)
    done = run_cli("cohort", str(cohort_dir), "--trainer-dir", str(trainer))
    assert done.returncode == 2 and b"open to others" in done.stderr and done.stdout == b""
    assert run_cli("cohort", str(cohort_dir), "--trainer-dir", str(trainer), "--no-cache").returncode == 0


# --- progress ------------------------------------------------------------------------------------


def _in_process(monkeypatch, args: list[str], stderr: io.StringIO) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(trainer_commands._ProgressLine, "AFTER", 0.0)  # show it at once, as a long run does
    return cli.main(args), out.getvalue()


def test_progress_shows_on_a_terminal_and_is_wiped_before_the_table(monkeypatch, cohort_dir):
    terminal = _Terminal()
    code, table = _in_process(monkeypatch, ["cohort", str(cohort_dir), "--no-cache"], terminal)
    shown = terminal.getvalue()
    assert code == 0 and "cohort: 3 of 3 files re-graded; about " in shown and " left" in shown
    assert shown.startswith("\r") and shown.endswith("\r") and "\n" not in shown
    last = shown.rstrip("\r").rsplit("\r", 1)[-1]
    assert last.strip() == ""  # the last thing drawn is the line wiped
    piped = io.StringIO()
    code, again = _in_process(monkeypatch, ["cohort", str(cohort_dir), "--no-cache"], piped)
    assert code == 0 and again == table and piped.getvalue() == ""


def test_with_json_on_a_terminal_the_bar_shows_on_stderr_and_the_lines_are_the_same(monkeypatch, cohort_dir):
    terminal = _Terminal()
    code, lines = _in_process(monkeypatch, ["cohort", str(cohort_dir), "--json", "--no-cache"], terminal)
    assert code == 0 and "cohort: 3 of 3 files re-graded" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r") and "\n" not in terminal.getvalue()
    piped = io.StringIO()
    code, again = _in_process(monkeypatch, ["cohort", str(cohort_dir), "--json", "--no-cache"], piped)
    assert code == 0 and again == lines and len(lines.splitlines()) == 3 and piped.getvalue() == ""


def test_ctrl_c_while_the_bar_shows_wipes_it_and_ends_with_one_line(monkeypatch, cohort_dir):
    drawn = trainer_commands._ProgressLine.update

    def interrupted(self, done: int, total: int) -> None:
        drawn(self, done, total)
        if done >= 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(trainer_commands._ProgressLine, "update", interrupted)
    terminal = _Terminal()
    code, table = _in_process(monkeypatch, ["cohort", str(cohort_dir), "--no-cache"], terminal)
    shown = terminal.getvalue()
    assert code == 130 and table == ""
    bar, _, last = shown.rpartition("\r")
    assert " of 3 files re-graded" in bar and bar.rsplit("\r", 1)[-1].strip() == ""
    assert last == "python -m helpers: interrupted; not every line was written\n"


def _on_a_pty(tmp_path: Path, script: str, args: list[str]) -> tuple[int, bytes, bytes]:
    """Run ``script`` (Python, given ``args`` as ``sys.argv[1:]``) with standard error on a pseudo-terminal:
    its exit status, standard output and what the terminal received."""
    return _python_on_a_pty(tmp_path, ["-c", script, *args])


def _python_on_a_pty(tmp_path: Path, arguments: list[str]) -> tuple[int, bytes, bytes]:
    """Run this Python with ``arguments``, standard error on a pseudo-terminal: its exit status,
    standard output and what the terminal received."""
    import pty

    main, side = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, *arguments],
            stdout=subprocess.PIPE,
            stderr=side,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(Path(cli.__file__).resolve().parents[2])},
            timeout=120,
            check=False,
            # A job started in the background by a shell without job control inherits Ctrl-C
            # ignored, and Python keeps it so; these runs stand for a terminal's foreground job.
            preexec_fn=_default_ctrl_c,
        )
        os.close(side)
        side = -1
        seen = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal's other end is closed: all was read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(main)
        if side != -1:
            os.close(side)
    return done.returncode, done.stdout, seen


#: ``cohort`` as a long run draws it: the bar from the first file on, as after the first two seconds.
def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


_DRAWN_AT_ONCE = """
import sys
from helpers.cli import main
from helpers.trainer import commands as trainer_commands
trainer_commands._ProgressLine.AFTER = 0.0
sys.exit(main(["cohort", *sys.argv[1:]]))
"""


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("output", [[], ["--json"]])
def test_on_a_pty_the_bar_is_drawn_and_wiped_and_standard_output_is_the_same(tmp_path, cohort_dir, output):
    args = [str(cohort_dir), "--no-cache", *output]
    code, out, seen = _on_a_pty(tmp_path, _DRAWN_AT_ONCE, args)
    assert code == 0 and b"cohort: 3 of 3 files re-graded" in seen and b"] cohort: " in seen
    assert b"\n" not in seen and seen.rstrip(b"\r").rsplit(b"\r", 1)[-1].strip() == b""
    piped = subprocess.run(
        [sys.executable, "-m", "helpers", "cohort", *args], capture_output=True, cwd=tmp_path, check=False
    )
    assert piped.returncode == 0 and piped.stderr == b"" and piped.stdout == out


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("copies", [1, 6], ids=["in-process", "worker-processes"])
def test_on_a_pty_ctrl_c_during_the_bar_ends_with_one_line_and_no_output(tmp_path, cohort_dir, copies):
    for copy in range(1, copies):  # over 16 files, two worker processes re-grade them
        for name in ("asha", "ben", "erin-forged"):
            shutil.copy(cohort_dir / f"{name}.json", cohort_dir / f"{name}-{copy}.json")
    files = 3 * copies
    script = _DRAWN_AT_ONCE.replace(
        "trainer_commands._ProgressLine.AFTER = 0.0",
        """trainer_commands._ProgressLine.AFTER = 0.0
import os, signal
drawn = trainer_commands._ProgressLine.update
def update(self, done, total):
    drawn(self, done, total)
    if done == 1:
        os.kill(os.getpid(), signal.SIGINT)
trainer_commands._ProgressLine.update = update""",
    )
    code, out, seen = _on_a_pty(tmp_path, script, [str(cohort_dir), "--no-cache"])
    assert code == 130 and out == b""
    bar, _, last = seen.rpartition(b"\r")
    assert last == b"\n"  # the terminal turns the line's end into "\r\n"
    assert bar.endswith(b"\rpython -m helpers: interrupted; not every line was written")
    drawn = bar.removesuffix(b"\rpython -m helpers: interrupted; not every line was written")
    assert f" of {files} files re-graded".encode() in drawn and drawn.rsplit(b"\r", 1)[-1].strip() == b""


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_on_a_real_terminal_the_progress_line_leaves_nothing_behind(tmp_path, cohort_dir):
    code, out, seen = _python_on_a_pty(tmp_path, ["-m", "helpers", "cohort", str(cohort_dir), "--no-cache"])
    assert code == 0 and out.startswith(b"Progress files re-graded")
    shown = seen.decode("utf-8")
    assert "\n" not in shown  # no line of its own: at most a progress line, redrawn in place
    assert shown.rstrip("\r").rsplit("\r", 1)[-1].strip() == ""  # and wiped before the table
