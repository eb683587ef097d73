"""The app's cap on simultaneous kernels and its banner's links, served.

The whole app is tested by starting it with a cap of two and sending plain HTTP GETs on
127.0.0.1; the busy page is then read in Chromium by axe-core. Every wait is bounded. The
rule and the kernel manager with real kernels are in ``tests/trainer/serve/test_kernel_cap.py``,
the settings and the banner's list in ``tests/trainer/serve/test_app.py``.
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from app_server import running_app
from axe_check import axe_violations, describe
from offline_chromium import offline_page
from playwright.sync_api import expect

from helpers.core.paths import project_root
from helpers.trainer.serve.app import (
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
)
from helpers.trainer.serve.kernel_cap import busy_message

#: Every numbered notebook the app serves.
NUMBERED = sorted(p.name for p in (project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))

#: Starting a kernel and running every cell of the start page, on a slow 2-core runner.
RENDER_SECONDS = 180


# --- the whole app, over plain HTTP ---------------------------------------------------


class _Links(HTMLParser):
    """The ``href`` of every link inside the element with class ``eic-app-banner``."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.depth:
            self.depth += 1
            if tag == "a" and values.get("href"):
                self.hrefs.append(str(values["href"]))
        elif "eic-app-banner" in (values.get("class") or "").split():
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=RENDER_SECONDS) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


@pytest.mark.browser  # starts its own server and kernels: run with the browser tests, one at a time
def test_the_app_with_a_cap_of_two_shows_the_busy_page_to_the_third(tmp_path: Path) -> None:
    with running_app(tmp_path, max_kernels=2) as app:
        url = f"{app.base_url}/voila/render/01_start_here.ipynb"
        for _ in range(2):
            status, html = _get(url)
            assert status == 200, app.log_tail()
        banner = _Links()
        banner.feed(html)
        assert banner.hrefs == NUMBERED
        assert len(app.kernels()) == 2

        status, html = _get(url)
        assert status == 503
        assert "<h1>The app is busy</h1>" in html
        assert busy_message(2) in html
        assert '<html lang="en">' in html and re.search(r"<title>The app is busy: [^<]+</title>", html)
        assert len(app.kernels()) == 2, "the busy page started no kernel"
        with offline_page(lambda address: address.startswith(app.base_url + "/")) as (page, watch):
            response = page.goto(url, timeout=RENDER_SECONDS * 1000)
            assert response is not None and response.status == 503
            expect(page.get_by_role("heading", level=1)).to_have_text("The app is busy")
            expect(page.get_by_role("link", name="Try this page again")).to_be_visible()
            violations = axe_violations(page)
            assert not violations, "axe-core violations on the busy page:\n" + describe(violations)
        assert watch.refused == [], watch.refused
        assert len(app.kernels()) == 2, "the busy page started no kernel"

        # Nothing is connected to the two kernels (plain GETs): culling ends them, and a page opens again.
        limit = CULL_IDLE_SECONDS + CULL_INTERVAL_SECONDS + 20
        deadline = time.monotonic() + limit
        while app.kernels() and time.monotonic() < deadline:
            time.sleep(1)
        assert not app.kernels(), f"kernels still running {limit} s on:\n{app.log_tail()}"
        status, _ = _get(url)
        assert status == 200, app.log_tail()
