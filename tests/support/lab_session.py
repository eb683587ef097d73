"""Support for the browser tests: a private JupyterLab server, Chromium, and notebook pages.

Used only by ``tests/surfaces/test_browser.py``. Everything runs on this machine:

* :class:`LabServer` serves a temporary copy of ``notebooks/`` on 127.0.0.1, on a
  free port, with no token, and with its own config, settings, workspace and
  runtime folders, so nothing from the user's own Jupyter setup leaks in.
  It is stopped by PID.
* :func:`launch_chromium` starts Debian's ``chromium`` (never a downloaded browser)
  with a fresh profile folder.
* :class:`NotebookPage` is one browser tab on one notebook: it opens the notebook,
  clears the stored outputs, runs every cell from the Run menu, and collects the
  browser console errors and the error outputs.
* :class:`BrowserReport` is a small pytest plugin: it screenshots the page of any
  failing browser test and prints the timing summary at the end of the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, Playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
TIMINGS_FILE = ARTIFACTS / "browser-timings.json"
DOC_SCREENSHOTS = ROOT / "docs" / "screenshots"

DEFAULT_CHROMIUM = "/usr/bin/chromium"
#: Flags tried on these machines (see the Jupyter testing notes).
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 900}
#: Opening a notebook, starting its kernel and running every cell; generous for 2-core CI.
RUN_TIMEOUT_MS = 180_000
#: One widget round trip through the kernel.
WIDGET_TIMEOUT_MS = 30_000

#: The visible notebook: Lab keeps other tabs' panels in the DOM, hidden.
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
STDERR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
ENABLE_HINT = (
    "install it with `apt-get install -y chromium` (as root) to enable them, "
    "or point EIC_CHROMIUM at a Chromium binary"
)


def notebook_paths() -> list[Path]:
    """Every teaching notebook, in order: ``notebooks/NN_*.ipynb``."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def on_ci() -> bool:
    """True under a CI runner (``CI=true``), where a missing browser is a failure."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def chromium_executable() -> Path:
    """The Chromium to drive; skips locally and fails under CI when it is missing.

    ``EIC_CHROMIUM`` overrides the default ``/usr/bin/chromium``.
    """
    path = Path(os.environ.get("EIC_CHROMIUM") or DEFAULT_CHROMIUM)
    if path.is_file() and os.access(path, os.X_OK):
        return path
    if on_ci():
        pytest.fail(
            f"CI=true and no Chromium at {path}: the browser tests must run in CI. "
            "`.ci/run` installs it with `apt-get install -y chromium`.",
            pytrace=False,
        )
    pytest.skip(f"browser tests need Chromium at {path}; {ENABLE_HINT}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing is listening on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LabServer:
    """JupyterLab serving ``root`` on 127.0.0.1 with no token; stop it with :meth:`stop`."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.home = home
        self.port = free_port()
        self.log_path = home / "jupyterlab.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The server's address, ending without a slash."""
        return f"http://127.0.0.1:{self.port}"

    def _environment(self) -> dict[str, str]:
        config = self.home / "config"
        (config / "labconfig").mkdir(parents=True, exist_ok=True)
        # The announcements pop-up would cover the notebook; tasks.py also disables it.
        (config / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
        )
        env = dict(os.environ)
        env.update(
            JUPYTER_CONFIG_DIR=str(config),
            JUPYTER_RUNTIME_DIR=str(self.home / "runtime"),
            IPYTHONDIR=str(self.home / "ipython"),
        )
        return env

    def start(self, timeout: float = 90.0) -> None:
        """Start the server and wait until it answers; raise with its log if it does not."""
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={self.port}",
            "--port-retries=0",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.token=",
            "--ServerApp.password=",
            "--allow-root",
            f"--ServerApp.root_dir={self.root}",
            f"--LabApp.user_settings_dir={self.home / 'settings'}",
            f"--LabApp.workspaces_dir={self.home / 'workspaces'}",
            # window.jupyterapp, to tell when the kernel is really ready (as Galata does).
            "--LabApp.expose_app_in_browser=True",
        ]
        with self.log_path.open("wb") as log:
            # Own process group: kernels the server leaves behind can be stopped with it.
            self.process = subprocess.Popen(
                command,
                cwd=self.root,
                env=self._environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/api/status", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"JupyterLab did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        """The end of the server's log, for error messages."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """Stop the server by its PID (it shuts its kernels down), then anything left in its group."""
        process = self.process
        if process is None:
            return
        self.process = None
        stop_process(process, timeout=20)


def stop_process(process: subprocess.Popen[bytes], *, timeout: float) -> None:
    """Stop a server by its PID (SIGTERM, then SIGKILL), then anything left in its process group."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    # the group may have gone already: then nothing is left to stop
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def launch_chromium(playwright: Playwright, executable: Path, profile: Path) -> BrowserContext:
    """Chromium with the tried flags and a fresh ``--user-data-dir`` (``profile``)."""
    context = playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=str(executable),
        headless=True,
        args=CHROMIUM_FLAGS,
        viewport=VIEWPORT,
    )
    context.set_default_timeout(WIDGET_TIMEOUT_MS)
    return context


def copy_notebooks(target: Path) -> Path:
    """Copy ``notebooks/`` to ``target`` (Lab autosaves; the repository stays untouched)."""
    shutil.copytree(NOTEBOOKS, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return target


def write_scratch_notebook(path: Path, cells: list[str]) -> Path:
    """Write a notebook of code ``cells`` for the python3 kernel."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nbformat.write(notebook, str(path))
    return path


# JavaScript run in the page. Prompts are read with textContent: with Lab's default
# content-visibility windowing, innerText of cells outside the viewport is empty.
_RUN_STATE_JS = """(panelSelector) => {
  const panel = document.querySelector(panelSelector);
  if (!panel) return null;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const cells = [...panel.querySelectorAll('.jp-CodeCell')].map(cell => ({
    prompt: (cell.querySelector('.jp-InputPrompt')?.textContent || '').trim(),
    empty: (cell.querySelector('.jp-InputArea-editor .cm-content')?.textContent || '').trim() === '',
  }));
  return {status: indicator ? indicator.getAttribute('data-status') : null, cells};
}"""

_KERNEL_READY_JS = """(path) => {
  const app = window.jupyterapp;
  if (!app) return false;
  const panel = [...app.shell.widgets('main')].find(w => w.context && w.context.path === path);
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    ? panel.sessionContext.session.kernel : null;
  return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}"""

_SETTLED_JS = """(panelSelector) => {
  const panel = document.querySelector(panelSelector);
  if (!panel) return false;
  const indicator = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  if (!indicator || indicator.getAttribute('data-status') !== 'idle') return false;
  const cells = [...panel.querySelectorAll('.jp-CodeCell')];
  const prompts = cells.map(c => (c.querySelector('.jp-InputPrompt')?.textContent || '').trim());
  if (prompts.some(p => p === '[*]:')) return false;
  const numbered = cells.every((c, i) =>
    /^\\[\\d+\\]:$/.test(prompts[i]) ||
    (c.querySelector('.jp-InputArea-editor .cm-content')?.textContent || '').trim() === '');
  const failed = panel.querySelector('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
  return numbered || failed !== null;
}"""


#: Poll on a timer, not on animation frames, which a busy or background tab gets few of.
_POLL_MS = 100
#: Let layout settle: two animation frames, or half a second if frames are scarce.
_TWO_FRAMES_JS = """() => new Promise(r => {
  requestAnimationFrame(() => requestAnimationFrame(r));
  setTimeout(r, 500);
})"""
#: The notebook's height down to its last cell (Lab pads below it to allow scrolling past
#: the end, and that padding grows with the viewport), and the visible height.
_CONTENT_HEIGHT_JS = """(outer) => {
  outer.scrollTop = 0;
  const cells = outer.querySelectorAll('.jp-Cell');
  const last = cells.length ? cells[cells.length - 1] : outer;
  const bottom = last.getBoundingClientRect().bottom - outer.getBoundingClientRect().top;
  return [Math.ceil(bottom) + 24, outer.clientHeight];
}"""
#: Chromium cannot capture much taller pages in one shot.
_MAX_SHOT_HEIGHT = 16_000


@dataclass
class NotebookPage:
    """One browser tab on one notebook, with the console errors and requests it saw."""

    name: str
    page: Page
    console_errors: list[str] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)
    run_seconds: float | None = None

    @classmethod
    def new(cls, context: BrowserContext, name: str) -> NotebookPage:
        """A new tab for ``name`` that records console errors, page errors and requests."""
        page = context.new_page()
        page.bring_to_front()
        opened = cls(name, page)
        page.on("console", opened._console)
        page.on("pageerror", lambda error: opened.console_errors.append(f"pageerror: {error}"))
        page.on("request", lambda request: opened.requested.append(request.url))
        return opened

    def load(self, base_url: str) -> None:
        """Open the notebook with ``?reset`` (no restored tabs) and wait for its kernel.

        The toolbar shows "idle" before any kernel exists, so readiness is read from
        Lab itself (exposed by the server flag ``expose_app_in_browser``): a connected,
        idle kernel. Running cells any earlier would silently run nothing.
        """
        self.page.goto(f"{base_url}/lab/tree/{self.name}?reset")
        self.page.wait_for_function(_KERNEL_READY_JS, arg=self.name, timeout=RUN_TIMEOUT_MS, polling=_POLL_MS)
        self.panel.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(
            timeout=RUN_TIMEOUT_MS
        )

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.console_errors.append(f"console.error: {message.text}")

    @property
    def panel(self) -> Locator:
        """The visible notebook panel."""
        return self.page.locator(PANEL)

    def menu(self, menu: str, command: str) -> None:
        """Click the menu bar item ``menu``, then its entry with ``data-command=command``."""
        self.page.locator(".lm-MenuBar-itemLabel").filter(
            has_text=re.compile(rf"^{re.escape(menu)}$")
        ).click()
        self.page.locator(f'li.lm-Menu-item[data-command="{command}"]').click()

    def run_all(self) -> None:
        """Clear the stored outputs (Edit menu), then Run > Run All Cells, and wait until done.

        Clearing first means every prompt and output seen afterwards comes from this run:
        the stored notebooks already show numbered prompts. Done means the kernel is idle,
        no cell is queued, and every non-empty code cell is numbered (or an error showed).
        """
        started = time.perf_counter()
        self.menu("Edit", "editmenu:clear-all")
        self.page.wait_for_function(
            """(sel) => [...document.querySelectorAll(sel + ' .jp-CodeCell .jp-InputPrompt')]
                 .every(p => !/^\\[\\d+\\]:$/.test(p.textContent.trim()))""",
            arg=PANEL,
            timeout=WIDGET_TIMEOUT_MS,
            polling=_POLL_MS,
        )
        self.menu("Run", "runmenu:run-all")
        try:
            self.page.wait_for_function(_SETTLED_JS, arg=PANEL, timeout=RUN_TIMEOUT_MS, polling=_POLL_MS)
        except PlaywrightTimeoutError:
            state = self.page.evaluate(_RUN_STATE_JS, PANEL)
            raise AssertionError(
                f"{self.name} did not finish running within {RUN_TIMEOUT_MS // 1000} s; "
                f"kernel status {state and state['status']!r}, prompts "
                f"{[cell['prompt'] for cell in state['cells']] if state else None}"
            ) from None
        self.run_seconds = time.perf_counter() - started

    def unnumbered_prompts(self) -> list[tuple[int, str]]:
        """``(cell index, prompt)`` for each non-empty code cell that did not run."""
        state = self.page.evaluate(_RUN_STATE_JS, PANEL)
        return [
            (index, cell["prompt"])
            for index, cell in enumerate(state["cells"])
            if not cell["empty"] and not re.fullmatch(r"\[\d+\]:", cell["prompt"])
        ]

    def error_outputs(self) -> list[str]:
        """Text of every traceback the notebook shows: stderr outputs or rendered text."""
        texts = self.panel.locator(f"{STDERR_OUTPUT}, .jp-RenderedText").evaluate_all(
            "nodes => nodes.map(n => n.textContent)"
        )
        return [text for text in dict.fromkeys(texts) if "Traceback" in text]

    def screenshot(self, path: Path) -> Path:
        """A full-page screenshot of the whole notebook, not just the part in view.

        Lab scrolls inside the notebook panel, so the viewport is made as tall as the
        notebook for the shot (capped to what Chromium can render), then restored.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        viewport = self.page.viewport_size or VIEWPORT
        outer = self.panel.locator(".jp-WindowedPanel-outer")
        height = viewport["height"]
        try:
            # Cells come into view as the viewport grows and may be taller than estimated,
            # so grow until the whole notebook fits (a few rounds at most).
            for _ in range(4):
                content, client = outer.evaluate(_CONTENT_HEIGHT_JS, timeout=5_000)
                if content <= client or height >= _MAX_SHOT_HEIGHT:
                    break
                height = min(height + content - client, _MAX_SHOT_HEIGHT)
                self.page.set_viewport_size({"width": viewport["width"], "height": height})
                self.page.evaluate(_TWO_FRAMES_JS)
            outer.evaluate("e => { e.scrollTop = 0; }")
            self.page.evaluate(_TWO_FRAMES_JS)
            self.page.screenshot(path=str(path), full_page=True, timeout=30_000)
        finally:
            self.page.set_viewport_size(viewport)
        return path


def safe_name(text: str) -> str:
    """``text`` reduced to a file-name-safe form: ``test_x[a b]`` -> ``test_x-a-b``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


@dataclass(eq=False)  # hashable by identity, as a registered plugin must be
class BrowserReport:
    """A pytest plugin object: failure screenshots, click latencies and the timing summary."""

    current: NotebookPage | None = None
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    latencies_ms: list[float] = field(default_factory=list)
    run_seconds: dict[str, float] = field(default_factory=dict)
    screenshots: list[Path] = field(default_factory=list)

    def record_latency(self, seconds: float) -> None:
        """Note one click-to-feedback time."""
        self.latencies_ms.append(seconds * 1000)

    def test_finished(self) -> None:
        """Note the end of a browser test; the last one ends the measured wall time."""
        self.finished = time.perf_counter()

    def summary(self) -> dict[str, Any]:
        """What was measured, as JSON-ready data."""
        wall = (self.finished or time.perf_counter()) - self.started
        return {
            "browser_wall_seconds": round(wall, 2),
            "notebook_run_seconds": {k: round(v, 2) for k, v in self.run_seconds.items()},
            "check_clicks": len(self.latencies_ms),
            "click_to_feedback_ms": [round(v, 1) for v in self.latencies_ms],
            "median_click_to_feedback_ms": (
                round(statistics.median(self.latencies_ms), 1) if self.latencies_ms else None
            ),
        }

    def summary_line(self) -> str:
        """One line for the terminal: wall time and median latency."""
        data = self.summary()
        median = data["median_click_to_feedback_ms"]
        latency = (
            f"median click-to-feedback {median:.0f} ms over {data['check_clicks']} Check clicks"
            if median is not None
            else "no Check clicks measured"
        )
        return (
            f"browser tests: {data['browser_wall_seconds']:.1f} s wall (server start to last "
            f"browser test), {latency}; details in {TIMINGS_FILE.relative_to(ROOT)}"
        )

    def write(self) -> None:
        """Write the measurements to ``artifacts/browser-timings.json``."""
        TIMINGS_FILE.parent.mkdir(parents=True, exist_ok=True)
        TIMINGS_FILE.write_text(json.dumps(self.summary(), indent=2) + "\n")

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
        """Screenshot the page a failing browser test was using: ``failure-<test>.png``."""
        report = yield
        if report.failed and report.when == "call" and "lab" in getattr(item, "fixturenames", ()):
            page = self.current
            if page is not None and not page.page.is_closed():
                path = SCREENSHOTS / f"failure-{safe_name(item.name)}.png"
                try:
                    self.screenshots.append(page.screenshot(path))
                    report.sections.append(("browser", f"screenshot: {path.relative_to(ROOT)}"))
                except Exception as exc:  # a broken page must not hide the real failure
                    report.sections.append(("browser", f"no screenshot: {exc}"))
        return report

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Print the timing summary and where the screenshots are."""
        if self.finished is None:
            return
        self.write()
        terminalreporter.write_line(self.summary_line())
        failures = [p for p in self.screenshots if p.name.startswith("failure-")]
        for path in failures:
            terminalreporter.write_line(f"failure screenshot: {path.relative_to(ROOT)}")


class Lab:
    """The running server and browser, with one tab per notebook, each opened and run once."""

    def __init__(self, server: LabServer, context: BrowserContext, report: BrowserReport) -> None:
        self.server = server
        self.context = context
        self.report = report
        self._pages: dict[str, NotebookPage] = {}
        self._failed: dict[str, str] = {}

    @property
    def root(self) -> Path:
        """The temporary folder the server serves (a copy of ``notebooks/``)."""
        return self.server.root

    def notebook(self, name: str) -> NotebookPage:
        """The tab for ``name``: opened and run on first use, reused afterwards."""
        if name in self._failed:
            pytest.fail(f"{name} did not open and run earlier in this session: {self._failed[name]}")
        if name not in self._pages:
            opened = NotebookPage.new(self.context, name)
            self.report.current = opened
            try:
                opened.load(self.server.base_url)
                opened.run_all()
            except Exception as exc:
                self._failed[name] = f"{type(exc).__name__}: {exc}".splitlines()[0]
                raise
            self._pages[name] = opened
            if opened.run_seconds is not None:
                self.report.run_seconds[name] = opened.run_seconds
        opened = self._pages[name]
        # A background tab gets about one animation frame a second, which slows every click.
        opened.page.bring_to_front()
        self.report.current = opened
        return opened
