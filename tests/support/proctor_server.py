"""The proctored check-out app started for a test exactly as a trainer starts it.

``python -m helpers checkout proctor --trainee NAME --trainer-dir DIR --port P``, on a free
port, in its own process group, stopped by its PID when the test is done, pass or fail.
Used by ``tests/surfaces/test_proctor_browser.py``. The readiness probe asks for a file,
which the app refuses (403), so it never opens the paper's one sitting itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from app_server import START_SECONDS, free_port
from lab_session import stop_process


@dataclass
class Proctor:
    """A running proctored app: its address, the trainer's folder, its log."""

    base_url: str
    trainer_dir: Path
    log: Path

    def log_tail(self) -> str:
        """The end of the app's log, for failure messages."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # any answer at all: the server is up
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def running_proctor(home: Path, trainee: str, *, count: int = 46) -> Iterator[Proctor]:
    """The proctored app serving one new paper for ``trainee``; stopped by PID on exit."""
    port = free_port()
    trainer_dir = home / "trainer"
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
    )
    log = home / "proctor.log"
    command = [sys.executable, "-m", "helpers", "checkout", "proctor", "--trainee", trainee]
    command += ["--count", str(count), "--port", str(port), "--trainer-dir", str(trainer_dir)]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command,
            cwd=home,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    proctor = Proctor(f"http://127.0.0.1:{port}", trainer_dir, log)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _up(proctor.base_url + "/voila/files/probe"):
            if process.poll() is not None:
                pytest.fail(f"the proctored app exited with {process.returncode}:\n{proctor.log_tail()}")
            if time.monotonic() > deadline:
                pytest.fail(
                    f"the proctored app did not answer within {START_SECONDS} s:\n{proctor.log_tail()}"
                )
            time.sleep(0.2)
        yield proctor
    finally:
        stop_process(process, timeout=30)
