"""What tasks.py and ``cohort`` start ends when they are killed, even by ``kill -9``.

Each test starts the parent in a session of its own, learns the pid of the child it started
(a stand-in server, or a ``cohort`` worker), kills the parent with SIGKILL, and polls the
child's pid until it is gone (or a zombie no one has reaped yet), within a bounded deadline:
no wall time is asserted. The parent cannot clean up after a SIGKILL, so only the
parent-death signal (:mod:`helpers.core.parent_death`, ``tasks._dies_with_parent``) can end
the child. Without it, each child here would run on for ten minutes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from helpers.core import parent_death
from helpers.core.parent_death import die_with_parent
from helpers.core.paths import project_root

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")

#: How long a child may take to notice (it is signalled at once; this is only a bound for a busy machine).
GONE_WITHIN = 30.0

# A stand-in server: writes its pid, says where it serves (for serve_and_announce), then waits.
_SERVER = r"""
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
print("[I ServerApp] starting", flush=True)
time.sleep(600)
"""

_RUN_SERVER = (
    "import sys, tasks; tasks.run_server([sys.executable, '-c', sys.argv[1], sys.argv[2]], 'the app')"
)
_ANNOUNCE = (
    "import sys, tasks; "
    "tasks.serve_and_announce([sys.executable, '-c', sys.argv[1], sys.argv[2]], tasks.ROOT, tasks.LAB_START_PAGE)"
)


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def wait_for(path: Path, parent: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + GONE_WITHIN
    while not (path.exists() and path.read_text().strip()):
        assert parent.poll() is None, f"the parent exited with {parent.returncode}"
        assert time.monotonic() < deadline, "the child never started"
        time.sleep(0.05)
    return int(path.read_text())


def killed_parent_leaves(parent: subprocess.Popen[bytes], children: list[int]) -> list[int]:
    """SIGKILL the parent; the children still running once each had ``GONE_WITHIN`` to go."""
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=GONE_WITHIN)
    deadline = time.monotonic() + GONE_WITHIN
    while (left := [pid for pid in children if not gone(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:  # a failed test leaves nothing running
        os.kill(pid, signal.SIGKILL)
    return left


def start(code: str, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=project_root(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@pytest.mark.parametrize(
    "runner", [_RUN_SERVER, _ANNOUNCE], ids=["app-and-lite-run_server", "lab-serve_and_announce"]
)
def test_a_server_tasks_py_started_ends_when_tasks_py_is_killed(tmp_path, runner):
    pid_file = tmp_path / "server.pid"
    parent = start(runner, _SERVER, str(pid_file))
    server = wait_for(pid_file, parent)
    assert psutil.Process(server).ppid() == parent.pid
    assert killed_parent_leaves(parent, [server]) == []


# A cohort large enough for two workers (more than 16 files), each file slow to re-grade, so the
# workers are busy when the parent is killed; the worker pids are written once they run.
_COHORT = r"""
import json, os, sys, time
from pathlib import Path
import psutil
from helpers.trainer import cohort

def slow(job):
    time.sleep(600)

cohort._load_one = slow
jobs = [(str(n),) for n in range(20)]
import threading
def report():
    while True:
        workers = [p.pid for p in psutil.Process().children()]
        if len(workers) == 2:
            Path(sys.argv[1]).write_text(json.dumps(workers))
            return
        time.sleep(0.05)
threading.Thread(target=report, daemon=True).start()
cohort._pooled(jobs, 2)
"""


def test_the_cohort_workers_end_when_cohort_is_killed(tmp_path):
    pid_file = tmp_path / "workers.json"
    parent = start(_COHORT, str(pid_file))
    deadline = time.monotonic() + GONE_WITHIN
    while not pid_file.exists():
        assert parent.poll() is None, f"the parent exited with {parent.returncode}"
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    workers = json.loads(pid_file.read_text())
    assert len(workers) == 2
    assert killed_parent_leaves(parent, workers) == []


def test_a_child_whose_parent_died_before_it_asked_is_signalled_at_once():
    """The race: a parent gone before the call sends nothing, so the pid given is checked."""
    code = (
        "import os, signal, sys; from helpers.core.parent_death import die_with_parent; "
        "die_with_parent(signal.SIGTERM, parent=int(sys.argv[1])); print('still here')"
    )
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()
    done = subprocess.run(
        [sys.executable, "-c", code, str(finished.pid)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == -signal.SIGTERM and "still here" not in done.stdout
    assert die_with_parent(0) is True  # signal 0 clears it again for this test process


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_elsewhere_than_linux_nothing_is_set_and_it_says_so(monkeypatch, platform):
    monkeypatch.setattr(sys, "platform", platform)
    assert die_with_parent(signal.SIGTERM, parent=os.getpid()) is False


def test_a_refused_prctl_call_is_reported_as_not_set(monkeypatch):
    class Libc:
        def prctl(self, *args: int) -> int:
            assert args == (1, signal.SIGTERM, 0, 0, 0)
            return -1

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(parent_death.ctypes, "CDLL", lambda *args, **kwargs: Libc())
    assert die_with_parent(signal.SIGTERM) is False


def test_a_live_parent_is_not_signalled_and_the_setting_holds():
    assert die_with_parent(0, parent=os.getppid()) is True
    assert parent_death._alive(os.getpid()) is True


def test_a_pid_that_has_ended_is_not_alive():
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()
    assert parent_death._alive(finished.pid) is False
