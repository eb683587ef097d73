"""The code-free app in a real browser: Voilà on 127.0.0.1, one case clicked through.

Voilà serves a temporary copy of ``notebooks/`` exactly as ``python3 tasks.py app``
does (same command line, same offline template), on a free port, and is stopped
by its PID when the tests finish, pass or fail. Nothing may be requested from
anywhere but that server.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from axe_check import axe_violations, describe
from lab_session import stop_process
from offline_chromium import offline_page, require_chromium
from playwright.sync_api import expect

import helpers
from helpers.core.paths import project_root
from helpers.publish.app import CULL_IDLE_SECONDS, CULL_INTERVAL_SECONDS, voila_command, voila_environment
from helpers.publish.downloads import downloads_dir

pytestmark = pytest.mark.browser

#: Starting a kernel and running every cell of a notebook, on a slow 2-core runner.
RENDER_TIMEOUT_MS = 180_000


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class App:
    """A running app: its address and the log it writes."""

    base_url: str
    log: Path
    pid: int

    def log_tail(self) -> str:
        """The end of Voilà's log, for failure messages."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop Voilà by its PID; then anything left in its own process group (its kernels)."""
    stop_process(process, timeout=30)


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[App]:
    """The app serving a scratch copy of the notebooks; stopped by PID afterwards."""
    require_chromium()
    home = tmp_path_factory.mktemp("app")
    notebooks = home / "notebooks"
    shutil.copytree(
        project_root() / "notebooks", notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    port = _free_port()
    env = voila_environment()
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        IPYTHONDIR=str(home / "ipython"),
    )
    log = home / "voila.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            voila_command(notebooks, port=port, open_browser=False),
            cwd=notebooks,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    running = App(f"http://127.0.0.1:{port}", log, process.pid)
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                pytest.fail(f"Voilà exited with {process.returncode}:\n{running.log_tail()}")
            try:
                with urllib.request.urlopen(running.base_url + "/", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"Voilà did not answer within 90 s:\n{running.log_tail()}")
            time.sleep(0.2)
        yield running
    finally:
        _stop(process)


def _on_the_app(app: App):
    prefixes = (app.base_url + "/", app.base_url.replace("http://", "ws://", 1) + "/")
    return lambda url: url.startswith(prefixes)


def test_a_case_is_worked_through_in_the_app(app: App) -> None:
    case = helpers.get_case("lost-comparison")
    allowed = _on_the_app(app)
    with offline_page(allowed) as (page, watch):
        page.goto(f"{app.base_url}/voila/render/02_target_scope.ipynb", timeout=RENDER_TIMEOUT_MS)
        exercise = page.locator(".eic-exercise").filter(has_text=f"for {case.id}")
        exercise.wait_for(timeout=RENDER_TIMEOUT_MS)

        # Code is hidden: no editor, and no cell source anywhere on the page.
        assert page.locator(".jp-InputArea-editor").count() == 0
        assert page.get_by_text("CaseExercise(case)").count() == 0

        # Tick the right box, set the flag.
        exercise.get_by_role("checkbox", name="missing: refresher", exact=True).check()
        exercise.get_by_role("radio", name="preserved: false", exact=True).check()
        exercise.get_by_role("radio", name=re.compile(r"^ts-lost: ")).check()
        expect(exercise.locator("pre.eic-json").first).to_have_text(case.expected_json)

        # Check it.
        exercise.get_by_role("button", name="Check my answer").click()
        expect(exercise).to_contain_text("Fully correct")
        expect(exercise).not_to_contain_text("Not yet")

        # Reveal the worked answer.
        reveal = exercise.locator(".eic-reveal")
        assert reveal.count() == 0
        exercise.get_by_role("button", name="Show the worked answer").click()
        expect(reveal.locator("pre.eic-json")).to_be_visible()
        expect(reveal.locator("pre.eic-json")).to_have_text(case.expected_json)
        expect(reveal).to_contain_text(case.reason)
    assert watch.refused == [], f"requests that would have left the app: {watch.refused}"
    assert watch.requested and all(allowed(url) for url in watch.requested), watch.requested


def test_a_wrong_answer_is_not_marked_correct(app: App) -> None:
    """The feedback comes from the kernel: a wrong answer gets the rule, not a pass."""
    with offline_page(_on_the_app(app)) as (page, _watch):
        page.goto(f"{app.base_url}/voila/render/02_target_scope.ipynb", timeout=RENDER_TIMEOUT_MS)
        exercise = page.locator(".eic-exercise").filter(has_text="for new-target")
        exercise.wait_for(timeout=RENDER_TIMEOUT_MS)
        exercise.get_by_role("radio", name="preserved: true", exact=True).check()
        exercise.get_by_role("button", name="Check my answer").click()
        expect(exercise).to_contain_text("Not yet")
        expect(exercise).to_contain_text("added is incomplete: one rewrite target is not in the original.")
        expect(exercise.locator(".eic-feedback")).not_to_contain_text("payroll")
        expect(exercise).not_to_contain_text("Fully correct")


def test_the_app_serves_the_downloads_but_not_the_notebooks(app: App) -> None:
    with offline_page(_on_the_app(app)) as (page, _watch):
        for name in ("target_scope_cases.csv", "target_scope_example.py"):
            # The notebook's relative link, followed from its page in the app.
            response = page.request.get(f"{app.base_url}/voila/render/downloads/{name}")
            assert response.status == 200, name
            assert response.body() == (downloads_dir() / name).read_bytes()
        assert page.request.get(f"{app.base_url}/voila/files/02_target_scope.ipynb").status == 403


NOTEBOOK_NAMES = sorted(
    p.name
    for p in (project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb")
    if p.name[:2] in {"01", "02", "03", "04", "05"}
)

#: Text written for JupyterLab that the app must not show.
NOTEBOOK_ONLY = ("Run ▸ Run All Cells", "No kernel?", "PracticeDrill(seed=7)")


def test_the_app_opens_on_the_start_page_reads_as_an_app_and_passes_axe(app: App) -> None:
    """/ opens 01_start_here; every page has the app's banner, no notebook-only guidance, no axe violation."""
    found = {}
    with offline_page(_on_the_app(app)) as (page, _watch):
        page.goto(app.base_url + "/", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_url("**/voila/render/01_start_here.ipynb", timeout=RENDER_TIMEOUT_MS)
        for index, name in enumerate(NOTEBOOK_NAMES):
            if index:
                # The notebooks link to each other: follow the banner's link.
                page.locator(".eic-app-banner a").filter(has_text=re.compile(name[3:7], re.I)).first.click()
                page.wait_for_url(f"**/voila/render/{name}", timeout=RENDER_TIMEOUT_MS)
            page.locator(".eic-app-banner").wait_for(timeout=RENDER_TIMEOUT_MS)
            page.locator("#rendered_cells").wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
            if name != "01_start_here.ipynb":
                page.locator(".jupyter-widgets").first.wait_for(timeout=RENDER_TIMEOUT_MS)
            shown = page.locator("body").inner_text()
            for text in NOTEBOOK_ONLY:
                assert text not in shown, f"{name} shows notebook-only text {text!r}"
            assert not re.search(r"\b(True|False)\b", shown), f"{name} shows a Python repr"
            violations = axe_violations(page)
            if violations:
                found[name] = describe(violations)
        # Outputs whose code is hidden show their input beside them.
        page.goto(f"{app.base_url}/voila/render/02_target_scope.ipynb", timeout=RENDER_TIMEOUT_MS)
        order = page.locator(".eic-block").filter(has_text='"original":["refresher","induction","induction"]')
        expect(order).to_contain_text("Input")
        expect(order).to_contain_text('{"missing":[],"added":[],"preserved":true}')
    assert not found, "axe-core violations in the app:\n" + "\n".join(f"{n}:\n{t}" for n, t in found.items())


def _kernels(app: App) -> list[psutil.Process]:
    """The kernel processes the app's Voilà has started and not yet ended."""
    running = []
    for child in psutil.Process(app.pid).children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "ipykernel_launcher" in " ".join(child.cmdline()):
                running.append(child)
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue  # it ended while being looked at
    return running


def test_a_closed_pages_kernel_ends_within_a_minute(app: App) -> None:
    """Open two pages, close them: their kernels are culled (idle, nothing connected) in under a minute."""
    with offline_page(_on_the_app(app)) as (page, _watch):
        for name in ("02_target_scope.ipynb", "03_sentinel_answer_key.ipynb"):
            page.goto(f"{app.base_url}/voila/render/{name}", timeout=RENDER_TIMEOUT_MS)
            page.locator(".eic-exercise").first.wait_for(timeout=RENDER_TIMEOUT_MS)
            assert _kernels(app), "an open page has a kernel"
    limit = CULL_IDLE_SECONDS + CULL_INTERVAL_SECONDS + 20
    deadline = time.monotonic() + limit
    while _kernels(app) and time.monotonic() < deadline:
        time.sleep(1)
    left = _kernels(app)
    assert not left, (
        f"{len(left)} kernels still running {limit} s after their pages closed:\n{app.log_tail()}"
    )
