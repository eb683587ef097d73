"""Chromium for the site and app browser tests, with the network cut off and watched.

Used by ``tests/test_site.py`` and ``tests/test_app_browser.py``. Debian's
``/usr/bin/chromium`` only (browser downloads are impossible here). Locally a
missing browser skips the test with the install command; under ``CI=true`` it
fails, because CI must run the browser tests.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium() -> Path:
    """The browser, or a skip (locally) / failure (``CI=true``) saying how to install it."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    message = f"no Chromium at {CHROMIUM}; install it with `apt-get install -y chromium`"
    if os.environ.get("CI", "").strip().lower() == "true":
        pytest.fail(f"CI=true: {message} (.ci/run does this)", pytrace=False)
    pytest.skip(message)


@dataclass
class Watch:
    """Every request the page made, and those refused because they left the allowed places."""

    requested: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


@contextmanager
def offline_page(allowed: Callable[[str], bool]) -> Iterator[tuple[Page, Watch]]:
    """A fresh Chromium page whose requests go through only when ``allowed(url)``.

    Every other request is aborted and recorded in ``Watch.refused``; every
    request at all is recorded in ``Watch.requested``. The browser is closed on exit.
    """
    executable = require_chromium()
    watch = Watch()

    def route(handle: Route) -> None:
        url = handle.request.url
        if allowed(url):
            handle.continue_()
        else:
            watch.refused.append(url)
            handle.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(executable), args=FLAGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(60_000)
            context.route("**/*", route)
            # WebSockets bypass context.route; record them too.
            page = context.new_page()
            page.on("request", lambda request: watch.requested.append(request.url))
            page.on("websocket", lambda socket: watch.requested.append(socket.url))
            yield page, watch
        finally:
            browser.close()
