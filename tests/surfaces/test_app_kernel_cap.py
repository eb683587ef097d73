"""The app's cap on simultaneous kernels, its busy page, its settings and its banner's links.

The counting is tested on jupyter_server's own kernel manager with real kernels (three
started at once under a cap of two); the whole app is tested by starting it with a cap of
two and sending plain HTTP GETs on 127.0.0.1; the busy page is then read in Chromium by
axe-core. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import re
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from app_server import running_app
from axe_check import axe_violations, describe
from hypothesis import given
from hypothesis import strategies as st
from offline_chromium import offline_page
from playwright.sync_api import expect
from tornado import web

from helpers.core.paths import project_root
from helpers.trainer.serve.app import (
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    DEFAULT_MAX_KERNELS,
    MAX_KERNELS_ENV,
    AppConfigError,
    app_pages,
    max_kernels_from,
    voila_command,
)
from helpers.trainer.serve.kernel_cap import CappedKernelManager, admits, busy_message

#: Every numbered notebook the app serves.
NUMBERED = sorted(p.name for p in (project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))

#: Starting a kernel and running every cell of the start page, on a slow 2-core runner.
RENDER_SECONDS = 180


# --- the rule -----------------------------------------------------------------


@given(st.integers(min_value=0, max_value=500), st.integers(min_value=1, max_value=500))
def test_one_more_kernel_is_admitted_only_below_the_cap(open_kernels: int, cap: int) -> None:
    assert admits(open_kernels, cap) is (open_kernels + 1 <= cap)


def test_the_busy_message_counts_the_open_pages_and_says_what_to_do() -> None:
    assert busy_message(3) == (
        "The app is busy: 3 pages are open, the most it serves at once. "
        "Close a tab you no longer need, or try again in a minute."
    )
    assert busy_message(1).startswith("The app is busy: 1 page is open,")


# --- the setting ----------------------------------------------------------------


def test_the_cap_comes_from_the_flag_then_the_environment_then_the_default() -> None:
    assert max_kernels_from(None, {}) == DEFAULT_MAX_KERNELS
    assert max_kernels_from(None, {MAX_KERNELS_ENV: " "}) == DEFAULT_MAX_KERNELS
    assert max_kernels_from(None, {MAX_KERNELS_ENV: "4"}) == 4
    assert max_kernels_from(2, {MAX_KERNELS_ENV: "4"}) == 2


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", "٣", "10 kernels"])
def test_a_bad_cap_in_the_environment_is_refused_by_name(value: str) -> None:
    with pytest.raises(AppConfigError, match=rf"^{MAX_KERNELS_ENV} must be a whole number"):
        max_kernels_from(None, {MAX_KERNELS_ENV: value})


def test_a_bad_cap_on_the_command_line_exits_with_status_2_naming_the_flag(capsys) -> None:
    from helpers.trainer.serve.app import main

    with pytest.raises(SystemExit) as stopped:
        main(["--no-browser", "--max-kernels", "0"])
    assert stopped.value.code == 2
    assert "--max-kernels must be a whole number of kernels, 1 or more; got '0'" in capsys.readouterr().err


def test_the_command_line_runs_the_capped_kernel_manager_with_the_cap(tmp_path: Path) -> None:
    command = voila_command(tmp_path, max_kernels=3)
    assert (
        "--VoilaConfiguration.multi_kernel_manager_class=helpers.trainer.serve.kernel_cap.CappedKernelManager"
        in command
    )
    assert "--CappedKernelManager.max_kernels=3" in command
    with pytest.raises(AppConfigError):
        voila_command(tmp_path, max_kernels=0)


# --- the banner's list ------------------------------------------------------------


def test_the_banner_lists_every_numbered_notebook_in_order(tmp_path: Path) -> None:
    pages = app_pages(project_root() / "notebooks")
    assert [name for name, _ in pages] == NUMBERED
    assert ("03_sentinel_answer_key.ipynb", "Sentinel answer key") in pages
    for name in ("02_b.ipynb", "01_a_b.ipynb", "notes.ipynb", "1_x.ipynb", "03_c.py"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert app_pages(tmp_path) == [("01_a_b.ipynb", "A b"), ("02_b.ipynb", "B")]
    resources = next(
        arg for arg in voila_command(tmp_path) if arg.startswith("--VoilaConfiguration.resources=")
    )
    assert resources == "--VoilaConfiguration.resources=eic_app_pages=01_a_b.ipynb:A b|02_b.ipynb:B"


# --- the kernel manager, with real kernels -------------------------------------------


async def _three_at_once_under_a_cap_of_two() -> None:
    manager = CappedKernelManager(max_kernels=2)
    try:
        started = await asyncio.gather(*(manager.start_kernel() for _ in range(3)), return_exceptions=True)
        refused = [result for result in started if isinstance(result, BaseException)]
        ids = [result for result in started if isinstance(result, str)]
        assert len(ids) == 2 and len(refused) == 1, started
        assert isinstance(refused[0], web.HTTPError) and refused[0].status_code == 503
        assert refused[0].reason == "The app is busy"
        assert refused[0].log_message == busy_message(2)
        assert sorted(manager.list_kernel_ids()) == sorted(ids)
        assert manager.open_kernels() == 2

        # A refusal reserves nothing, and an ended kernel frees its place.
        await manager.shutdown_kernel(ids[0], now=True)
        third = await manager.start_kernel()
        assert manager.open_kernels() == 2 and third not in ids
        with pytest.raises(web.HTTPError):
            await manager.start_kernel()
        # A kernel already running is returned, not counted again.
        assert await manager.start_kernel(kernel_id=third) == third
    finally:
        await manager.shutdown_all(now=True)
    assert manager.open_kernels() == 0


def test_kernels_started_at_once_never_pass_the_cap() -> None:
    asyncio.run(asyncio.wait_for(_three_at_once_under_a_cap_of_two(), timeout=120))


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
