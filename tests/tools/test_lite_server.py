"""The browser edition's static server stays inside its site and is quiet when a client hangs up.

Issue 44: it followed a symlink out of the site, and printed a BrokenPipe traceback for every
client that hung up. No build is needed: the server is given a folder of its own.
"""

from __future__ import annotations

import os
import socket
import struct
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tools.publish import lite_server as lite


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    (root / "index.html").write_text("<p>inside</p>")
    (root / "big.bin").write_bytes(os.urandom(1 << 20) * 16)  # more than any socket buffer holds
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "secret.txt").write_text("the trainer's")
    (root / "linked-file.txt").symlink_to(outside / "secret.txt")
    (root / "linked-folder").symlink_to(outside, target_is_directory=True)
    (root / "inner.html").symlink_to(root / "index.html")  # a link that stays inside is served
    return root


def status(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_nothing_outside_the_site_is_served_through_a_symlink(site):
    with lite.serve(site) as server:
        assert status(server.base_url + "/index.html") == (200, b"<p>inside</p>")
        assert status(server.base_url + "/inner.html") == (200, b"<p>inside</p>")
        for path in (
            "/linked-file.txt",
            "/linked-folder/secret.txt",
            "/linked-folder/",
            "/../private/secret.txt",
        ):
            code, body = status(server.base_url + path)
            assert code == 404 and b"the trainer's" not in body, path


def test_a_client_that_hangs_up_mid_reply_prints_nothing(site, capfd, monkeypatch):
    seen: list[BaseException | None] = []
    original = lite._CountingServer.handle_error

    def spy(self, request, client_address):
        import sys

        seen.append(sys.exc_info()[1])
        original(self, request, client_address)

    monkeypatch.setattr(lite._CountingServer, "handle_error", spy)
    with lite.serve(site) as server:
        port = int(server.base_url.rsplit(":", 1)[1])
        for _ in range(3):
            client = socket.create_connection(("127.0.0.1", port), timeout=10)
            client.sendall(b"GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            client.recv(1024)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # hang up: RST
            client.close()
        deadline = time.monotonic() + 30
        while len(seen) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert len(seen) == 3 and all(isinstance(error, ConnectionError) for error in seen), seen
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "BrokenPipe" not in captured.err, captured.err
