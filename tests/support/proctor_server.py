"""The proctored check-out app started for a test exactly as a trainer starts it.

``python -m helpers checkout proctor --trainee NAME --trainer-dir DIR``, on the free port it
chooses (or ``--port P``), in its own process group, stopped by its PID when the test is done,
pass or fail. Its address and token are read from the link it prints. Used by
``tests/surfaces/test_proctor_browser.py`` and ``tests/trainer/serve/test_proctor_guard.py``. The
readiness probe asks for a file without the token, which the app refuses, so it never opens
the paper's one sitting itself.
"""

from __future__ import annotations

import os
import re
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
from app_server import START_SECONDS
from lab_session import stop_process

#: The link ``checkout proctor`` prints last: the address served and the sitting's token.
LINK = re.compile(r"^(http://127\.0\.0\.1:(\d+))/\?token=([A-Za-z0-9_-]+)$", re.MULTILINE)


@dataclass
class Proctor:
    """A running proctored app: its address, the trainer's folder, its log, its token and its process."""

    base_url: str
    trainer_dir: Path
    log: Path
    token: str = ""
    process: subprocess.Popen[bytes] | None = None

    @property
    def page_url(self) -> str:
        """The link the trainee is given: the page, with the sitting's token."""
        return f"{self.base_url}/?token={self.token}"

    @property
    def port(self) -> int:
        return int(self.base_url.rsplit(":", 1)[1])

    @property
    def paper_id(self) -> str:
        """The paper the app serves, as its first line names it."""
        match = re.search(r"Proctored paper ([0-9a-f]{16}) ", self.log.read_text(errors="replace"))
        assert match, self.log_tail()
        return match.group(1)

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
def running_proctor(
    home: Path, trainee: str, *, count: int = 46, port: int | None = None, trainer_dir: Path | None = None
) -> Iterator[Proctor]:
    """The proctored app serving one new paper for ``trainee`` (``port``: its own choice); stopped by PID on exit."""
    trainer_dir = trainer_dir or home / "trainer"
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
    )
    log = home / "proctor.log"
    command = [sys.executable, "-m", "helpers", "checkout", "proctor", "--trainee", trainee]
    command += ["--count", str(count), "--trainer-dir", str(trainer_dir)]
    command += ["--port", str(port)] if port is not None else []
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
    proctor = Proctor("", trainer_dir, log, process=process)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not (link := LINK.search(log.read_text(errors="replace"))):
            if process.poll() is not None:
                pytest.fail(f"the proctored app exited with {process.returncode}:\n{proctor.log_tail()}")
            if time.monotonic() > deadline:
                pytest.fail(
                    f"the proctored app printed no link within {START_SECONDS} s:\n{proctor.log_tail()}"
                )
            time.sleep(0.1)
        proctor.base_url, proctor.token = link.group(1), link.group(3)
        assert port is None or proctor.port == port
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
