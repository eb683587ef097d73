"""Serving a built browser edition: a loopback-only static server, quiet, inside its site.

Taught by no notebook; ``python3 tasks.py lite --serve`` (:mod:`tools.publish.lite`) and the
browser-edition tests serve the site with it. Only the standard library is imported here.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from helpers.core.error_root import HelpersError

__all__ = ["LiteServer", "serve", "stop_on_signals", "Stopped"]


#: The types a Lite site needs served right (``.wasm`` and ``.mjs`` above all).
_CONTENT_TYPES = {
    **http.server.SimpleHTTPRequestHandler.extensions_map,
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".ipynb": "application/json",
    ".whl": "application/octet-stream",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a Lite site needs, quietly, from inside the site only."""

    extensions_map = _CONTENT_TYPES

    def send_head(self) -> Any:
        """As the standard handler does, but a path that leads out of the site (a symlink) is 404."""
        root = os.path.realpath(self.directory)
        real = os.path.realpath(self.translate_path(self.path))
        if real != root and not real.startswith(root + os.sep):
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def copyfile(self, source: IO[bytes], outputfile: IO[bytes]) -> None:  # type: ignore[override]
        """Send a file, counting the bytes sent (the first-visit figure)."""
        before = source.tell()
        super().copyfile(source, outputfile)
        if isinstance(self.server, _CountingServer):
            self.server.count(source.tell() - before)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _CountingServer(http.server.ThreadingHTTPServer):
    """A threading HTTP server that counts the file bytes it sends."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Callable[..., _Handler]) -> None:
        super().__init__(address, handler)
        self._lock = threading.Lock()
        self.bytes_sent = 0
        self.files_sent = 0

    def count(self, size: int) -> None:
        with self._lock:
            self.bytes_sent += size
            self.files_sent += 1

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-reply is no error: nothing is printed; anything else is."""
        if isinstance(sys.exc_info()[1], ConnectionError):  # BrokenPipeError, ConnectionResetError
            return
        super().handle_error(request, client_address)


class LiteServer:
    """A loopback-only static server for a built site, in a background thread."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        handler = functools.partial(_Handler, directory=str(folder))
        self.httpd = _CountingServer(("127.0.0.1", port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="lite-server", daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``, no trailing slash."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def bytes_sent(self) -> int:
        """Bytes of file bodies sent so far."""
        return self.httpd.bytes_sent

    @property
    def files_sent(self) -> int:
        """Files sent so far."""
        return self.httpd.files_sent

    def start(self) -> LiteServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


@contextlib.contextmanager
def serve(folder: Path, port: int = 0) -> Iterator[LiteServer]:
    """Serve ``folder`` on 127.0.0.1 (a free port by default) for the ``with`` block."""
    server = LiteServer(folder, port).start()
    try:
        yield server
    finally:
        server.stop()


class Stopped(HelpersError):
    """SIGTERM or SIGHUP came: stop serving, as Ctrl-C does."""


@dataclass
class _SignalHandlers:
    """The handlers :func:`stop_on_signals` replaced, to put back."""

    previous: dict[int, Any]

    def restore(self) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def stop_on_signals() -> _SignalHandlers:
    """SIGTERM and SIGHUP end ``--serve`` as Ctrl-C does: the server is shut down and the command exits 0."""

    came: list[int] = []

    def stop(number: int, _frame: object) -> None:
        if not came:  # once: a second signal while the server shuts down changes nothing
            came.append(number)
            raise Stopped

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, stop)
    return _SignalHandlers(previous)
