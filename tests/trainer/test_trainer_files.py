"""The trainer's files: owner-only whatever the umask, read only when regular, and nothing left by a failed prepare.

Issue 44: under a loose umask ``proctored/`` was 0755 and the paper and the key's baseline 0644;
a FIFO at ``TRAINER/cohort-verdicts.json`` hung ``cohort``; a proctored paper prepared on a full
disk said "nothing was left behind" but left an empty folder.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from signed_checkouts import answer_all

from helpers.core.errors import CheckoutFileError
from helpers.core.paths import fixtures_dir
from helpers.trainer import proctoring
from helpers.trainer.answer_key import load_key
from helpers.trainer.answers import parse_answer
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.paper import Issued, issue_checkout
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.verdict_cache import CACHE_NAME

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")

ISSUE = (sys.executable, "-m", "helpers", "checkout", "issue", "--trainee", "Asha", "--count", "46")
COHORT = (sys.executable, "-m", "helpers", "cohort", str(fixtures_dir() / "sample_progress" / "asha.json"))


@pytest.fixture(params=[0o022, 0o000], ids=["umask-022", "umask-000"])
def umask(request) -> Iterator[int]:
    before = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(before)


def modes(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder`` (and itself) whose mode is not owner-only, with its mode."""
    wrong = {}
    for path in [folder, *folder.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        want = 0o700 if path.is_dir() else 0o600
        if mode != want:
            wrong[str(path.relative_to(folder.parent))] = oct(mode)
    return wrong


def test_every_file_in_the_trainers_folder_is_0600_and_every_folder_0700(tmp_path, umask):
    trainer = TrainerSecret.open(tmp_path / "made" / "here" / "trainer", create=True)
    # A proctored paper: prepared, opened, handed in (answers and the signed result written).
    sitting = proctoring.open_sitting(proctoring.prepare_sitting("Asha", trainer, count=46), trainer)
    issued = Issued(dict(sitting.paper), load_key(sitting.folder / "paper.key.json"))
    rows = {row["label"]: row for row in answer_all(issued)["answers"]}
    kept = sitting.sitting()  # each answer saved as it is given
    while (case := kept.current()) is not None:
        kept.submit(*parse_answer(rows[case["label"]], case["check"], "row", "test"))
    assert sitting.hand_in().passed
    # A notebook paper issued outside the folder: the key and its baseline owner-only wherever they are.
    outside = tmp_path / "papers"
    outside.mkdir()
    paper, key, baseline = write_checkout(
        issue_checkout("Ben", count=46, sequential=False), outside / "exam.json", trainer=trainer
    )
    # The verdict cache, written by a cohort run.
    done = subprocess.run(
        [*COHORT, "--trainer-dir", str(trainer.folder), "--json"],
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    names = {p.name for p in trainer.folder.rglob("*")}
    assert {"ledger.jsonl", CACHE_NAME, "answers.json", "paper.key.baseline.json", "results"} <= names
    assert modes(trainer.folder) == {}
    for folder in (tmp_path / "made", tmp_path / "made" / "here"):  # made for the trainer's folder
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(key.stat().st_mode) == stat.S_IMODE(baseline.stat().st_mode) == 0o600
    assert stat.S_IMODE(paper.stat().st_mode) == 0o666 & ~umask  # the trainee's: as any file


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_where_the_verdict_cache_goes_is_refused_in_one_line_not_waited_on(tmp_path):
    trainer = TrainerSecret.open(tmp_path / "trainer", create=True)
    os.mkfifo(trainer.folder / CACHE_NAME)
    done = subprocess.run(
        [*COHORT, "--trainer-dir", str(trainer.folder), "--json"],
        capture_output=True,
        timeout=300,  # hung for ever before
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "is not a regular file" in lines[0] and CACHE_NAME in lines[0]
    assert stat.S_ISFIFO((trainer.folder / CACHE_NAME).lstat().st_mode)  # left as it was
    assert json.loads(done.stdout.splitlines()[0])["trainee"]


def _full_disk(*args, **kwargs):
    raise CheckoutFileError(
        "cannot be written (No space left on device); nothing was left behind", path="paper.json"
    )


def test_a_failed_prepare_removes_the_folders_it_made(tmp_path, monkeypatch):
    trainer = TrainerSecret.open(tmp_path / "trainer", create=True)
    monkeypatch.setattr(proctoring, "write_checkout", _full_disk)
    with pytest.raises(CheckoutFileError, match="nothing was left behind"):
        proctoring.prepare_sitting("Asha", trainer, count=46)
    assert not (trainer.folder / "proctored").exists()
    (trainer.folder / "proctored").mkdir(mode=0o700)  # there already: kept, only the paper's folder goes
    with pytest.raises(CheckoutFileError, match="nothing was left behind"):
        proctoring.prepare_sitting("Asha", trainer, count=46)
    assert list((trainer.folder / "proctored").iterdir()) == []


def test_a_failed_prepare_that_cannot_remove_its_folder_names_it(tmp_path, monkeypatch):
    trainer = TrainerSecret.open(tmp_path / "trainer", create=True)

    def leaves_a_file(issued, paper, key, **kwargs):
        Path(paper).with_name("stray.tmp").write_text("x")
        _full_disk()

    monkeypatch.setattr(proctoring, "write_checkout", leaves_a_file)
    with pytest.raises(CheckoutFileError) as caught:
        proctoring.prepare_sitting("Asha", trainer, count=46)
    (left,) = (trainer.folder / "proctored").iterdir()
    assert "nothing was left behind" not in caught.value.message
    assert f"left behind: {left}" in caught.value.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("name", ["ledger.jsonl", "trainer-secret.json"])
def test_a_fifo_in_place_of_the_ledger_or_the_secret_is_refused_in_one_line(tmp_path, name):
    from helpers.trainer.secret import SECRET_NAME

    folder = tmp_path / "trainer"
    TrainerSecret.open(folder, create=True)
    target = folder / (SECRET_NAME if name == "trainer-secret.json" else name)
    target.unlink(missing_ok=True)
    os.mkfifo(target)
    done = subprocess.run(
        [*ISSUE, "-o", str(tmp_path / "exam.json"), "--trainer-dir", str(folder)],
        capture_output=True,
        timeout=120,  # a blocking read would wait for ever
        check=False,
    )
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "not a regular file" in lines[0], lines
    assert not (tmp_path / "exam.json").exists()
