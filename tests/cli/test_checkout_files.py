"""The check-out's files on the command line: nothing clobbered, nothing half-written, nothing read that is not a file.

Issue 30, rows 5 to 8 and 10: ``checkout grade --csv`` never replaces a file unasked and
writes atomically; ``checkout issue`` writes its three files whole or not at all; FIFOs,
devices and ``/proc`` are refused before they are read; the answers and key readers
have a size limit with a flag to raise it; a trainee name that is not UTF-8 is one line.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from signed_checkouts import answer_all

from helpers.core.errors import CheckoutFileError
from helpers.trainer.answer_key import load_key
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.paper import Issued, issue_checkout
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.sequential import DESIGN


def _one_line(out: subprocess.CompletedProcess[bytes]) -> str:
    text = out.stderr.decode("utf-8", "replace")
    assert text.count("\n") == 1 and "Traceback" not in text, text
    return text


@pytest.fixture
def graded_once(tmp_path) -> Path:
    """A paper issued (with the default trainer's folder) and answered in ``tmp_path``."""
    trainer = TrainerSecret.open(create=True)
    issued = issue_checkout("Asha", count=46, sequential=False)
    _, key, _ = write_checkout(issued, tmp_path / "exam.json", trainer=trainer)
    issued = Issued(json.loads((tmp_path / "exam.json").read_text()), load_key(key))
    (tmp_path / "answers.json").write_text(json.dumps(answer_all(issued)))
    return tmp_path


# --- row 5: --csv ---------------------------------------------------------------------------------


def test_grade_csv_never_replaces_a_file_unasked(run_cli, graded_once):
    for name in ("notes.csv", "exam.key.baseline.json"):
        target = graded_once / name
        before = target.read_bytes() if target.exists() else b"keep me\n"
        target.write_bytes(before)
        out = run_cli("checkout", "grade", "answers.json", "--key", "exam.key.json", "--csv", name)
        assert out.returncode == 2, out.stderr
        assert b"already exists" in out.stderr or b"one of the input files" in out.stderr
        assert target.read_bytes() == before
    load_key(graded_once / "exam.key.json")  # the baseline is intact, so the key still stands
    out = run_cli(
        "checkout", "grade", "answers.json", "--key", "exam.key.json", "--csv", "notes.csv", "--force"
    )
    assert out.returncode == 0, out.stderr
    assert (graded_once / "notes.csv").read_text().startswith('"trainee"')


def test_grade_csv_is_atomic_past_the_file_size_limit(graded_once):
    (graded_once / "old.csv").write_text("the old table\n")

    def small_files() -> None:  # ``ulimit -f 1``: no file may grow past 1,024 bytes
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "helpers",
            "checkout",
            "grade",
            "answers.json",
            "--key",
            "exam.key.json",
            "--csv",
            "old.csv",
            "--force",
        ],
        cwd=graded_once,
        capture_output=True,
        preexec_fn=small_files,
        timeout=120,
        check=False,
    )
    assert out.returncode == 2 and b"cannot write old.csv" in _one_line(out).encode()
    assert (graded_once / "old.csv").read_text() == "the old table\n"
    assert not [p for p in graded_once.iterdir() if p.name.startswith(".old.csv")]


# --- row 6: issue writes whole or nothing ----------------------------------------------------------


def test_issue_that_fails_part_way_leaves_nothing_and_a_retry_works(tmp_path, monkeypatch):
    trainer = TrainerSecret.open(tmp_path / "trainer", create=True)
    real_link = os.link

    def disk_full_for_the_paper(src, dst, *args, **kwargs):
        if str(dst).endswith("exam.json"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))
        return real_link(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "link", disk_full_for_the_paper)
    with pytest.raises(CheckoutFileError, match="No space left on device"):
        write_checkout(
            issue_checkout("Asha", count=46, sequential=False), tmp_path / "exam.json", trainer=trainer
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["trainer"]
    monkeypatch.undo()
    paper, key, _baseline = write_checkout(
        issue_checkout("Asha", count=46, sequential=False), tmp_path / "exam.json", trainer=trainer
    )
    assert (
        paper.exists()
        and load_key(key, trainer=trainer)["paper_id"] == json.loads(paper.read_text())["paper_id"]
    )


# --- row 7: special files --------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["answers", "key"])
def test_a_fifo_is_refused_before_it_is_read(run_cli, graded_once, which):
    fifo = graded_once / "pipe.json"
    os.mkfifo(fifo)
    args = (
        ["pipe.json", "--key", "exam.key.json"]
        if which == "answers"
        else ["answers.json", "--key", "pipe.json"]
    )
    out = run_cli("checkout", "grade", *args)  # run_cli's timeout would fail a hang
    assert out.returncode == 4 and "not a regular file (a FIFO, device or socket)" in _one_line(out)


def test_proc_and_devices_are_refused_as_a_key_or_answers(run_cli, graded_once):
    for args in (
        ["answers.json", "--key", "/proc/self/mem"],
        ["/proc/self/status", "--key", "exam.key.json"],
        ["/dev/zero", "--key", "exam.key.json"],
    ):
        out = run_cli("checkout", "grade", *args)
        assert out.returncode == 4, out.stderr
        line = _one_line(out)
        assert ("system file" in line or "not a regular file" in line) and any(a in line for a in args[::2])


# --- row 8: size limits ------------------------------------------------------------------------------


def test_answers_over_the_size_limit_are_refused_and_the_flag_raises_it(run_cli, graded_once):
    big = graded_once / "big.json"
    with big.open("wb") as handle:  # sparse: 9 MB on paper, nothing on disk
        handle.truncate(9 * 2**20)
    out = run_cli("checkout", "grade", "big.json", "--key", "exam.key.json")
    assert out.returncode == 4 and "over the 8,388,608-byte limit for an answers file" in _one_line(out)
    assert "--max-bytes raises it" in out.stderr.decode()
    raised = run_cli("checkout", "grade", "big.json", "--key", "exam.key.json", "--max-bytes", "10MB")
    assert raised.returncode == 4 and "limit" not in _one_line(raised)  # read, then refused as not JSON
    small = run_cli("checkout", "grade", "answers.json", "--key", "exam.key.json", "--max-bytes", "1K")
    assert small.returncode == 4 and "over the 1,024-byte limit for a check-out file" in _one_line(small)


# --- row 10: a name that is not UTF-8 ---------------------------------------------------------------


def test_a_trainee_name_that_is_not_utf8_is_one_line(tmp_path):
    out = subprocess.run(
        [
            sys.executable.encode(),
            b"-m",
            b"helpers",
            b"checkout",
            b"issue",
            b"--trainee",
            b"Asha\xff",
            b"-o",
            b"e.json",
        ],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 2 and "--trainee is not UTF-8 text" in _one_line(out)
    assert not (tmp_path / "e.json").exists()


def test_checkout_proctor_issues_the_full_paper_by_default_and_serves_it(tmp_path, monkeypatch) -> None:
    """``checkout proctor`` with no ``--count`` prepares the default covering paper and hands it to Voilà."""
    from helpers import cli
    from helpers.trainer import commands as trainer_commands

    served: list[list[str]] = []

    def fake_execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        served.append(argv)
        os.close(int(env["EIC_SERVE_SOCKET_FD"]))  # the socket Voilà would have served on

    monkeypatch.setattr(trainer_commands.os, "execve", fake_execve)
    monkeypatch.setattr(trainer_commands.os, "chdir", lambda _path: None)
    trainer = tmp_path / "trainer"
    assert cli.main(["checkout", "proctor", "--trainee", "Asha", "--trainer-dir", str(trainer)]) == 0
    (folder,) = (trainer / "proctored").iterdir()
    paper = json.loads((folder / "paper.json").read_text(encoding="utf-8"))
    key = json.loads((folder / "paper.key.json").read_text(encoding="utf-8"))
    assert paper["sequential"] is key["sequential"] is True  # served case by case by the sequential rule
    assert (
        len(paper["cases"]) == len(key["cases"]) > DESIGN.max_cases
        and served
        and "voila" in " ".join(served[0])
    )
    code = cli.main(
        ["checkout", "proctor", "--trainee", "Ben", "--count", "12", "--trainer-dir", str(trainer)]
    )
    assert code == 2 and len(served) == 1
