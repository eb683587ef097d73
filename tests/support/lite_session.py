"""Support for the JupyterLite browser test: the built site, a loopback server, an offline Chromium.

Used by ``tests/surfaces/test_lite.py``, and runnable by hand to measure the site
(``.venv/bin/python tests/support/lite_session.py [--site DIR]``: size, first-visit bytes, kernel
ready, Run All per notebook; JSON on stdout).

* :func:`built_site` builds the site once per session into a temporary folder with the
  shared download cache (``.lite-cache/``), or uses ``$EIC_LITE_SITE`` if it points at a
  site built earlier in the same run (``python3 tasks.py lite -o DIR``).
* :class:`LiteBrowser` is Debian's Chromium (:func:`lab_session.launch_chromium`) with
  every request that does not go to the loopback server aborted and recorded, including
  those of the kernel's web worker (``context.route`` sees them).
* :class:`LitePage` is :class:`lab_session.NotebookPage` for a Lite address; it also
  measures page load to kernel ready and the bytes the server sent meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [p for p in (str(ROOT), str(ROOT / "tests" / "support")) if p not in sys.path]

from lab_session import (  # noqa: E402  (tests/support/ on the path first, for running by hand)
    _KERNEL_READY_JS,
    _POLL_MS,
    _RUN_STATE_JS,
    PANEL,
    RUN_TIMEOUT_MS,
    WIDGET_TIMEOUT_MS,
    NotebookPage,
    launch_chromium,
)
from playwright.sync_api import BrowserContext, Playwright, Route, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from tools.publish.lite import LITE_MARKER, LiteServer, build_lite, default_cache_dir  # noqa: E402

#: Done: the kernel is idle, nothing is queued, and every code cell ran or an error showed;
#: the same for half a second (the kernel goes idle between cells).
_LITE_SETTLED_JS = """([panelSelector, path]) => {
  const app = window.jupyterapp;
  const widget = [...app.shell.widgets('main')].find(w => w.context && w.context.path === path);
  const kernel = widget && widget.sessionContext.session ? widget.sessionContext.session.kernel : null;
  const panel = document.querySelector(panelSelector);
  let done = false;
  if (kernel && kernel.status === 'idle' && panel) {
    const cells = [...panel.querySelectorAll('.jp-CodeCell')];
    const prompts = cells.map(c => (c.querySelector('.jp-InputPrompt')?.textContent || '').trim());
    const numbered = cells.every((c, i) => /^\\[\\d+\\]:$/.test(prompts[i]) ||
      (c.querySelector('.jp-InputArea-editor .cm-content')?.textContent || '').trim() === '');
    const failed = panel.querySelector('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
    done = !prompts.includes('[*]:') && (numbered || failed !== null);
  }
  if (!done) { window.__eicSettledSince = null; return false; }
  window.__eicSettledSince = window.__eicSettledSince || Date.now();
  return Date.now() - window.__eicSettledSince >= 500;
}"""

#: How often Run All looks for a dead kernel while it waits.
_CRASH_POLL_MS = 5_000

#: What Pyodide prints on the console when it can no longer run (the kernel is gone).
_PYODIDE_FATAL = "Pyodide has suffered a fatal error"

#: Pyodide's start alone takes 20-30 s on 2 cores; the whole notebook then runs.
KERNEL_TIMEOUT_MS = 180_000


@dataclass(frozen=True)
class Built:
    """A built site and how it came to be."""

    folder: Path
    build_seconds: float | None  # None: built earlier in this run ($EIC_LITE_SITE)


def built_site(scratch: Path) -> Built:
    """``$EIC_LITE_SITE`` if it is a built site, else a fresh build into ``scratch/lite``.

    Raises :class:`helpers.core.errors.BuildError` when the build fails.
    """
    given = _env_site()
    if given is not None:
        return Built(given, None)
    site = build_lite(scratch / "lite", cache=default_cache_dir())
    return Built(site.output, site.seconds)


def _env_site() -> Path | None:
    value = os.environ.get("EIC_LITE_SITE")
    if not value:
        return None
    folder = Path(value).resolve()
    if not (folder / LITE_MARKER).is_file():
        raise RuntimeError(f"EIC_LITE_SITE={value} is not a site built by `python3 tasks.py lite`")
    return folder


def disk_size(folder: Path) -> tuple[int, int]:
    """``(bytes, files)`` of every file under ``folder``."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


@dataclass
class Watch:
    """Every request the browser made, and those aborted because they left the loopback server."""

    requested: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


class LiteBrowser:
    """One Chromium with a fresh profile whose every request outside ``allowed_prefix`` is aborted."""

    def __init__(
        self,
        playwright: Playwright,
        executable: Path,
        profile: Path,
        allowed_prefix: str,
        watch: Watch | None = None,
    ) -> None:
        self.allowed_prefix = allowed_prefix
        self.watch = watch if watch is not None else Watch()
        self.context: BrowserContext = launch_chromium(playwright, executable, profile)
        # The context's route sees the page's, its workers' and the service worker's requests.
        self.context.route("**/*", self._route)
        self.context.on("request", lambda request: self.watch.requested.append(request.url))

    def _route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(self.allowed_prefix):
            route.continue_()
        else:
            self.watch.refused.append(url)
            route.abort()

    def close(self) -> None:
        self.context.close()


@dataclass
class LitePage(NotebookPage):
    """A tab on one notebook of the Lite site."""

    ready_seconds: float | None = None
    ready_bytes: int | None = None

    def open(self, server: LiteServer) -> None:
        """Open the notebook and wait for a connected, idle Pyodide kernel; time it."""
        sent = server.bytes_sent
        started = time.perf_counter()
        self.page.goto(f"{server.base_url}/lab/index.html?path={self.name}")
        self.page.wait_for_function(
            _KERNEL_READY_JS, arg=self.name, timeout=KERNEL_TIMEOUT_MS, polling=_POLL_MS
        )
        self.panel.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(
            timeout=RUN_TIMEOUT_MS
        )
        self.ready_seconds = time.perf_counter() - started
        self.ready_bytes = server.bytes_sent - sent

    def run_all(self) -> None:
        """Clear the outputs, Run > Run All Cells, and wait until the kernel is really done.

        As :meth:`NotebookPage.run_all`, but "done" reads the kernel's own status: in Lite
        the toolbar's indicator can stay "busy" after a cell fails and the rest are skipped.
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
        deadline = time.perf_counter() + RUN_TIMEOUT_MS / 1000
        while True:
            try:
                self.page.wait_for_function(
                    _LITE_SETTLED_JS, arg=[PANEL, self.name], timeout=_CRASH_POLL_MS, polling=_POLL_MS
                )
                break
            except PlaywrightTimeoutError:
                crashed = self.kernel_crash()
                if crashed is None and time.perf_counter() < deadline:
                    continue
                state = self.page.evaluate(_RUN_STATE_JS, PANEL)
                prompts = [cell["prompt"] for cell in state["cells"]] if state else None
                if crashed is not None:
                    raise AssertionError(
                        f"{self.name}: the Pyodide kernel died ({crashed}); prompts {prompts}"
                    ) from None
                raise AssertionError(
                    f"{self.name} did not finish running within {RUN_TIMEOUT_MS // 1000} s; prompts {prompts}"
                ) from None
        self.run_seconds = time.perf_counter() - started

    def kernel_crash(self) -> str | None:
        """The cause Pyodide printed when it stopped for good (e.g. the stack ran out), or ``None``."""
        for index, message in enumerate(self.console_errors):
            if _PYODIDE_FATAL in message:
                causes = self.console_errors[index + 1 : index + 3]
                return " ".join(c.removeprefix("console.error: ").splitlines()[0] for c in causes) or message
        return None

    def execute(self, code: str, timeout_ms: int = 60_000) -> str:
        """Run ``code`` in this notebook's kernel (not in a cell); return its stdout and errors."""
        return str(
            self.page.evaluate(
                """async ([path, code, timeout]) => {
                  const app = window.jupyterapp;
                  const panel = [...app.shell.widgets('main')].find(w => w.context && w.context.path === path);
                  const kernel = panel.sessionContext.session.kernel;
                  const future = kernel.requestExecute({code, store_history: false});
                  let out = '';
                  future.onIOPub = (msg) => {
                    const c = msg.content;
                    if (msg.header.msg_type === 'stream') out += c.text;
                    if (msg.header.msg_type === 'error') out += `${c.ename}: ${c.evalue}\\n`;
                  };
                  await Promise.race([future.done, new Promise((_, no) => setTimeout(
                    () => no(new Error('no reply from the kernel')), timeout))]);
                  return out;
                }""",
                [self.name, code, timeout_ms],
            )
        )


def new_page(browser: LiteBrowser, name: str) -> LitePage:
    """A new tab for ``name`` that records console errors, page errors and requests."""
    page = browser.context.new_page()
    page.bring_to_front()
    opened = LitePage(name, page)
    page.on("console", opened._console)
    page.on("pageerror", lambda error: opened.console_errors.append(f"pageerror: {error}"))
    page.on("request", lambda request: opened.requested.append(request.url))
    return opened


@contextmanager
def serving(folder: Path) -> Iterator[LiteServer]:
    """The site on a free loopback port, stopped on exit."""
    server = LiteServer(folder).start()
    try:
        yield server
    finally:
        server.stop()


# --- measuring by hand --------------------------------------------------------------


def measure(site: Path, executable: Path, names: list[str]) -> dict[str, Any]:
    """Size, first-visit bytes and kernel-ready time (on the first notebook), Run All per notebook.

    Each notebook gets its own fresh browser profile, so every figure is a first visit.
    """
    size, files = disk_size(site)
    result: dict[str, Any] = {"site_bytes": size, "site_files": files, "notebooks": {}}
    with serving(site) as server, sync_playwright() as playwright:
        for name in names:
            with tempfile.TemporaryDirectory(prefix="eic-lite-profile-") as profile:
                browser = LiteBrowser(playwright, executable, Path(profile), server.base_url + "/")
                try:
                    page = new_page(browser, name)
                    page.open(server)
                    try:
                        page.run_all()
                    except AssertionError as exc:
                        result["notebooks"][name] = {"failed": str(exc)}
                        continue
                    errors = page.error_outputs()
                    result["notebooks"][name] = {
                        "kernel_ready_s": round(page.ready_seconds or 0, 1),
                        "first_visit_bytes": page.ready_bytes,
                        "run_all_s": round(page.run_seconds or 0, 1),
                        "errors": [e.strip().splitlines()[-1] for e in errors],
                        "unrun_cells": len(page.unnumbered_prompts()),
                        "python": page.execute("import sys; print(sys.version)").strip(),
                    }
                    result["refused"] = [*result.get("refused", []), *browser.watch.refused]
                finally:
                    browser.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description="Measure the JupyterLite site in Chromium.")
    parser.add_argument("--site", type=Path, default=ROOT / "lite")
    parser.add_argument("--chromium", type=Path, default=Path("/usr/bin/chromium"))
    parser.add_argument("notebooks", nargs="*")
    args = parser.parse_args()
    names = args.notebooks or sorted(p.name for p in (args.site / "files").glob("[0-9][0-9]_*.ipynb"))
    du = subprocess.run(["du", "-sh", str(args.site)], capture_output=True, text=True, check=False).stdout
    result = measure(args.site, args.chromium, names)
    result["du"] = du.split()[0] if du else None
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "Built",
    "LiteBrowser",
    "LitePage",
    "Watch",
    "built_site",
    "disk_size",
    "measure",
    "new_page",
    "serving",
]
