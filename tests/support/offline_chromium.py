"""Chromium for the site and app browser tests, with the network cut off and watched.

Used by ``tests/tools/test_site.py`` and ``tests/surfaces/test_app_browser.py``. The browser
comes from :func:`lab_session.chromium_executable`: Debian's ``/usr/bin/chromium``
(browser downloads are impossible here); locally a missing browser skips the
test with the install command, and under ``CI=true`` it fails.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from lab_session import CHROMIUM_FLAGS, chromium_executable
from playwright.sync_api import ConsoleMessage, Page, Route, sync_playwright

#: The same browser and flags as the JupyterLab browser tests (``EIC_CHROMIUM`` overrides).
FLAGS = CHROMIUM_FLAGS


def require_chromium() -> Path:
    """The browser, or a skip (locally) / failure (``CI=true``) saying how to install it."""
    return chromium_executable()


@dataclass
class Watch:
    """Every request the page made, those refused because they left the allowed places, and console errors."""

    requested: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)


@contextmanager
def offline_page(allowed: Callable[[str], bool]) -> Iterator[tuple[Page, Watch]]:
    """A fresh Chromium page whose requests go through only when ``allowed(url)``.

    Every other request is aborted and recorded in ``Watch.refused``; every
    request at all is recorded in ``Watch.requested``, and every console error and
    uncaught page error in ``Watch.console_errors``. The browser is closed on exit.
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

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            watch.console_errors.append(f"console.error: {message.text} (at {message.location.get('url')})")

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
            page.on("console", console)
            page.on("pageerror", lambda error: watch.console_errors.append(f"pageerror: {error}"))
            yield page, watch
        finally:
            browser.close()
