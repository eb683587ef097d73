"""``tasks.py app`` and ``tasks.py lite --serve`` stop with their servers: nothing is left answering.

Each test runs the real command in its own session, waits until it answers HTTP on its port
(the app with a page open, so a kernel runs), sends tasks.py one signal, and asserts that within
a few seconds the port no longer answers, tasks.py has said so in one line with 128 + the signal's
number, and no process it started remains: not of its process group, not of the server's, and
not one of its descendants (the app's kernels run in sessions of their own).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

from helpers.core.paths import project_root

#: How long the servers may take to stop once signalled (Voilà shuts its kernels down first).
STOPPED_WITHIN = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int, path: str = "/") -> bool:
    """True when something answers HTTP on the port (any status), False when nothing listens."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@pytest.fixture
def tasks_py(tmp_path):
    """Start ``python3 tasks.py ARGS`` in a session of its own; whatever is left of it is killed afterwards."""
    started: list[subprocess.Popen[bytes]] = []
    log = tmp_path / "tasks.log"

    def start(*args: str) -> tuple[subprocess.Popen[bytes], Path]:
        with log.open("wb") as out:
            task = subprocess.Popen(
                [sys.executable, "tasks.py", *args],
                cwd=project_root(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group, so the test can ask which processes are its
            )
        started.append(task)
        return task, log

    yield start
    for task in started:
        if task.poll() is None:  # a failed test: leave nothing running
            for process in [*psutil.Process(task.pid).children(recursive=True), psutil.Process(task.pid)]:
                with contextlib.suppress(psutil.NoSuchProcess):
                    process.kill()
            task.wait(timeout=30)


def wait_until_it_answers(task: subprocess.Popen[bytes], port: int, log: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not answers(port):
        if task.poll() is not None:
            pytest.fail(f"tasks.py exited with {task.returncode} before serving:\n{log.read_text()}")
        if time.monotonic() > deadline:
            pytest.fail(f"nothing answered on port {port} within {seconds:.0f} s:\n{log.read_text()}")
        time.sleep(0.5)


def alive(processes: list[psutil.Process]) -> list[str]:
    left = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                left.append(f"{process.pid} {' '.join(process.cmdline())[:120]}")
        except psutil.NoSuchProcess:
            pass
    return left


def in_groups(groups: set[int]) -> list[psutil.Process]:
    members = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) in groups:
                members.append(process)
        except (ProcessLookupError, psutil.NoSuchProcess):
            pass
    return members


def stop_and_check(
    task: subprocess.Popen[bytes], number: signal.Signals, port: int, log: Path, what: str
) -> None:
    """Send ``number`` to tasks.py alone; assert everything it started is gone within STOPPED_WITHIN."""
    descendants = psutil.Process(task.pid).children(recursive=True)
    (server,) = psutil.Process(task.pid).children()
    assert os.getpgid(server.pid) == server.pid != os.getpgid(task.pid)  # the server leads its own group
    groups = {task.pid, server.pid}
    os.kill(task.pid, number)
    try:
        code = task.wait(timeout=STOPPED_WITHIN)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tasks.py still running {STOPPED_WITHIN:.0f} s after {number.name}:\n{log.read_text()}")
    text = log.read_text(errors="replace")
    assert code == 128 + number, text
    assert "Traceback" not in text, text
    assert text.splitlines()[-1] == f"[tasks] stopped {what} ({number.name})", text  # the server exited 0
    assert not answers(port)
    deadline = time.monotonic() + 5  # a kernel's last breath after its server is gone
    while (left := alive(descendants) + alive(in_groups(groups))) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == [], "\n".join(left)


@pytest.mark.slow  # each starts the app and a kernel
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
@pytest.mark.parametrize(
    "number",
    [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
    ids=lambda n: n.name,
)
def test_the_app_stops_with_its_kernels_when_tasks_py_is_signalled(tasks_py, number):
    port = free_port()
    task, log = tasks_py("app", "--port", str(port), "--no-browser")
    wait_until_it_answers(task, port, log, 180)
    # Open a page, so a kernel runs: it must go too.
    with urllib.request.urlopen(
        f"http://127.0.0.1:{port}/voila/render/01_start_here.ipynb", timeout=120
    ) as page:
        assert page.status == 200 and b"Start here" in page.read()
    kernels = [
        p for p in psutil.Process(task.pid).children(recursive=True) if "ipykernel" in " ".join(p.cmdline())
    ]
    assert len(kernels) == 1
    stop_and_check(task, number, port, log, "the app")
    assert "Kernel shutdown" in log.read_text()  # shut down by Voilà, not left to die


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_the_browser_edition_stops_serving_when_tasks_py_is_signalled(tasks_py, tmp_path):
    """Builds the site first (about a minute with the download cache warm), so only with ``--all``."""
    port = free_port()
    task, log = tasks_py("lite", "--serve", "--port", str(port), "-o", str(tmp_path / "lite"))
    wait_until_it_answers(task, port, log, 900)
    assert answers(port, "/lab/index.html")
    stop_and_check(task, signal.SIGTERM, port, log, "the browser edition")
