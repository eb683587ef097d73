"""The app (Voilà) started for a test exactly as ``python3 tasks.py app`` starts it.

Used by ``tests/surfaces/test_app_browser.py`` and ``tests/surfaces/test_app_kernel_cap.py``. Voilà serves a
scratch copy of ``notebooks/`` on 127.0.0.1 on a free port, with the launcher's own command
line (:func:`helpers.trainer.serve.app.voila_command`), and is stopped by its PID (then its
process group, its kernels) when the test is done, pass or fail.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from lab_session import stop_process

from helpers.core.paths import project_root
from helpers.trainer.serve.app import DEFAULT_MAX_KERNELS, voila_command, voila_environment

#: How long Voilà may take to answer its first request.
START_SECONDS = 90


def free_port() -> int:
    """A port nothing listens on at 127.0.0.1 just now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class App:
    """A running app: its address, the log it writes and its PID."""

    base_url: str
    log: Path
    pid: int
    #: The scratch copy of ``notebooks/`` it serves (where its pages' kernels run).
    notebooks: Path | None = None

    def log_tail(self) -> str:
        """The end of Voilà's log, for failure messages."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])

    def kernels(self) -> list[psutil.Process]:
        """The kernel processes this app's Voilà has started and not yet ended."""
        running = []
        for child in psutil.Process(self.pid).children(recursive=True):
            try:
                if child.status() != psutil.STATUS_ZOMBIE and "ipykernel_launcher" in " ".join(
                    child.cmdline()
                ):
                    running.append(child)
            except (psutil.NoSuchProcess, psutil.ZombieProcess):
                continue  # it ended while being looked at
        return running


@contextmanager
def running_app(home: Path, *, max_kernels: int = DEFAULT_MAX_KERNELS) -> Iterator[App]:
    """The app serving a copy of the notebooks made in ``home``; stopped by PID on exit."""
    notebooks = home / "notebooks"
    shutil.copytree(
        project_root() / "notebooks", notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    port = free_port()
    env = voila_environment()
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
    )
    log = home / "voila.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            voila_command(notebooks, port=port, open_browser=False, max_kernels=max_kernels),
            cwd=notebooks,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    app = App(f"http://127.0.0.1:{port}", log, process.pid, notebooks)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"Voilà exited with {process.returncode}:\n{app.log_tail()}")
            try:
                with urllib.request.urlopen(app.base_url + "/", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"Voilà did not answer within {START_SECONDS} s:\n{app.log_tail()}")
            time.sleep(0.2)
        yield app
    finally:
        stop_process(process, timeout=30)
