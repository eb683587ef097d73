"""Progress saves under faults: a stalled or killed save, and paths the operating system refuses.

Every failure is a ProgressFileError (which the drills show), never an OSError or ValueError,
and a save that waits for another is refused rather than clearing a lock still held.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers.core.errors import ProgressFileError
from helpers.core.paths import project_root
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.progress import lock as progress_lock
from helpers.trainee.progress.files import (
    TraineeProgress,
    load_trainee_progress,
    new_attempt_path,
    save_trainee_progress,
)
from helpers.trainee.progress.lock import lock_path

RULES = load_rules()


def drill(trainee: str = "Test") -> TraineeProgress:
    return TraineeProgress(DrillSession.start(seed=1, trainee=trainee, rules=RULES).record())


# A save in another process whose write stalls (a laptop suspended, a slow network disk) until
# told to go on, or until it is killed. It prints "writing" once it holds the lock.
_STALLED_SAVER = """
import sys, time
import helpers.core.files as files
real = files.write_atomically
def stalled(*args, **kwargs):
    print("writing", flush=True)
    sys.stdin.readline()
    return real(*args, **kwargs)
files.write_atomically = stalled
from helpers.core.errors import ProgressFileError
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.progress.files import TraineeProgress, save_trainee_progress
from helpers.trainee.cases.rules import load_rules
progress = TraineeProgress(DrillSession.start(seed=2, trainee="first").record())
try:
    save_trainee_progress(progress, sys.argv[1])
    print("saved", flush=True)
except ProgressFileError as exc:
    print("refused", exc, flush=True)
"""


def _stalled_save(path: Path) -> subprocess.Popen[str]:
    saver = subprocess.Popen(
        [sys.executable, "-c", _STALLED_SAVER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=project_root(),
        env={**os.environ, "PYTHONPATH": str(project_root())},
    )
    assert saver.stdout is not None
    assert saver.stdout.readline() == "writing\n"
    return saver


def test_a_save_stalled_longer_than_any_age_limit_keeps_its_lock(tmp_path, monkeypatch):
    monkeypatch.setattr(progress_lock, "WAIT_SECONDS", 1.0)
    path = tmp_path / "progress.json"
    saver = _stalled_save(path)
    try:
        hour_ago = time.time() - 3600  # as if the first save had been stalled for an hour
        os.utime(lock_path(path), (hour_ago, hour_ago))
        with pytest.raises(ProgressFileError, match="being saved by another drill right now"):
            save_trainee_progress(drill("second"), path)
        assert not path.exists()
    finally:
        out, _ = saver.communicate("go\n", timeout=60)
    assert out == "saved\n"
    assert load_trainee_progress(path).trainee == "first"


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_lock_whose_owner_was_killed_mid_save_is_free_at_once(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    saver = _stalled_save(path)
    saver.kill()
    saver.communicate(timeout=60)
    # No waiting allowed: a lock still held would be refused at once, so this proves it is free,
    # with no clock to race against on a busy machine.
    monkeypatch.setattr(progress_lock, "WAIT_SECONDS", 0.0)
    save_trainee_progress(drill("after"), path)
    assert load_trainee_progress(path).trainee == "after"


def _refused_by_both(path: str | Path, why: str) -> None:
    with pytest.raises(ProgressFileError, match=why) as saving:
        save_trainee_progress(drill(), path)
    with pytest.raises(ProgressFileError, match=why) as loading:
        load_trainee_progress(path)
    for refused in (saving.value, loading.value):
        assert type(refused) is ProgressFileError
        assert refused.message.startswith("cannot be")


def test_a_null_character_in_the_path_is_refused(tmp_path):
    _refused_by_both(f"{tmp_path}/pro\0gress.json", "null character")
    with pytest.raises(ProgressFileError, match="null character"):
        new_attempt_path(f"{tmp_path}/pro\0gress.json")


def test_a_lone_surrogate_in_the_path_is_refused(tmp_path):
    _refused_by_both(f"{tmp_path}/pro\ud800gress.json", "characters a file name cannot hold")


def test_a_symlink_loop_is_refused(tmp_path):
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    _refused_by_both(tmp_path / "a.json", "symbolic links")


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc")
def test_a_link_to_proc_self_mem_is_refused(tmp_path):
    (tmp_path / "progress.json").symlink_to("/proc/self/mem")
    _refused_by_both(tmp_path / "progress.json", "cannot be")


def test_a_read_only_folder_is_refused_when_the_lock_cannot_be_made(tmp_path, monkeypatch):
    real_open = os.open

    def read_only(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(
        ProgressFileError, match=r"cannot be written: .*lock file .*\(Read-only file system\)"
    ):
        save_trainee_progress(drill(), tmp_path / "progress.json")
    assert list(tmp_path.iterdir()) == []


def test_a_name_of_250_characters_saves_and_loads(tmp_path):
    path = tmp_path / ("p" * 245 + ".json")
    save_trainee_progress(drill("long"), path)
    assert load_trainee_progress(path).trainee == "long"
    assert len(os.fsencode(lock_path(path).name)) <= 255


def test_a_name_too_long_for_the_file_system_is_refused(tmp_path):
    _refused_by_both(tmp_path / ("p" * 300 + ".json"), "File name too long")


def test_the_browser_edition_uses_a_lock_file_cleared_only_when_stale(tmp_path, monkeypatch):
    """Pyodide's flock grants every lock, and filelock is not shipped there: a marker file stands in."""
    monkeypatch.setattr(progress_lock.sys, "platform", "emscripten")
    monkeypatch.setitem(sys.modules, "filelock", None)  # importing it there would fail
    monkeypatch.setattr(progress_lock, "WAIT_SECONDS", 0.2)
    path = tmp_path / "progress.json"
    marker = lock_path(path)
    marker.touch()  # another tab is saving
    with pytest.raises(ProgressFileError, match="being saved by another drill"):
        save_trainee_progress(drill("second"), path)
    stale = time.time() - progress_lock.STALE_AFTER - 5
    os.utime(marker, (stale, stale))  # a tab closed mid-save
    save_trainee_progress(drill("second"), path)
    assert load_trainee_progress(path).trainee == "second" and not marker.exists()
