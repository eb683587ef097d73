"""Two proctored sittings served at once by the real ``checkout proctor``: each its own, and neither open to anyone else.

Issue 44: a second proctor printed the first one's address; any page could open a sitting (a
cross-site GET, ``Host: evil.example``, a WebSocket from another origin), and the ledger then
refused the trainee's own load. Here two proctors share one trainer's folder, each on the port
it chose and printed. A bounded load (200 requests at once, loopback only) without the token,
with another sitting's token, or with the token but another Host or Origin opens nothing:
no ledger line, no kernel. Then each trainee's own link opens their own paper, and killing a
proctor with SIGKILL ends its kernel too.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import psutil
import pytest
from proctor_server import Proctor, running_proctor

from helpers.trainer.secret import TrainerSecret

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="the app is served on POSIX")

#: The load: how many requests, how many at once, and how long each may take.
REQUESTS = 200
AT_ONCE = 50
EACH_SECONDS = 60
#: Starting the kernel and running the page's notebook, on a slow 2-core runner.
PAGE_SECONDS = 180
#: How long a kernel may take to notice its server is gone (it polls its parent about every second).
KERNEL_GONE_WITHIN = 30.0


@pytest.fixture(scope="module")
def proctors(tmp_path_factory) -> Iterator[tuple[Proctor, Proctor]]:
    home = tmp_path_factory.mktemp("proctors")
    trainer = home / "trainer"
    TrainerSecret.open(trainer, create=True)
    (home / "ana").mkdir()
    (home / "ben").mkdir()
    with (
        running_proctor(home / "ana", "Ana", trainer_dir=trainer) as ana,
        running_proctor(home / "ben", "Ben", trainer_dir=trainer) as ben,
    ):
        yield ana, ben


def ledger(proctor: Proctor) -> list[dict[str, object]]:
    path = proctor.trainer_dir / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def sittings(proctor: Proctor) -> set[str]:
    return {str(entry["paper_id"]) for entry in ledger(proctor) if entry["event"] == "sitting"}


def kernels(proctor: Proctor) -> list[psutil.Process]:
    assert proctor.process is not None
    return [
        p
        for p in psutil.Process(proctor.process.pid).children(recursive=True)
        if "ipykernel" in " ".join(p.cmdline())
    ]


def ended(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def request(port: int, method: str, path: str, headers: dict[str, str]) -> int:
    """The status of one request, its headers exactly as given (no Host added); 0 if the connection failed."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=EACH_SECONDS)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders(b"{}" if method == "POST" else None)
        response = connection.getresponse()
        response.read()  # the page is sent as its notebook runs: read it all, as a browser does
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


_UPGRADE = {
    "Connection": "Upgrade",
    "Upgrade": "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}


def attacks(target: Proctor, other: Proctor) -> list[tuple[str, str, str, dict[str, str]]]:
    """Every way in without this sitting's token, or with it from another Host or Origin: (name, method, path, headers)."""
    here = f"127.0.0.1:{target.port}"
    token = target.token
    channels = f"/api/kernels/{uuid.uuid4()}/channels"
    return [
        ("no token", "GET", "/", {"Host": here}),
        ("a wrong token", "GET", "/?token=" + "A" * len(token), {"Host": here}),
        ("another sitting's token", "GET", f"/?token={other.token}", {"Host": here}),
        ("a cross-site GET", "GET", "/", {"Host": here, "Referer": "http://evil.example/"}),
        ("DNS rebinding", "GET", f"/?token={token}", {"Host": f"evil.example:{target.port}"}),
        ("another port's Host", "GET", f"/?token={token}", {"Host": f"127.0.0.1:{other.port}"}),
        ("no Host", "GET", f"/?token={token}", {}),
        ("a cross-site origin", "GET", f"/?token={token}", {"Host": here, "Origin": "http://evil.example"}),
        ("the kernel API", "POST", "/api/kernels", {"Host": here, "Content-Type": "application/json"}),
        ("the kernel list", "GET", "/api/kernels", {"Host": here}),
        ("a WebSocket without the token", "GET", channels, {"Host": here, **_UPGRADE}),
        (
            "a WebSocket from another origin",
            "GET",
            f"{channels}?token={token}",
            {"Host": here, "Origin": "http://evil.example", **_UPGRADE},
        ),
        (
            "a rebinding WebSocket",
            "GET",
            f"{channels}?token={token}",
            {
                "Host": f"evil.example:{target.port}",
                "Origin": f"http://evil.example:{target.port}",
                **_UPGRADE,
            },
        ),
    ]


def test_200_requests_at_once_without_the_token_open_nothing(proctors):
    ana, ben = proctors
    before = (len(ledger(ana)), sittings(ana), len(kernels(ana)), len(kernels(ben)))
    load = []
    for number in range(REQUESTS):
        proctor, other = (ana, ben) if number % 2 == 0 else (ben, ana)
        ways = attacks(proctor, other)
        load.append((proctor, *ways[number // 2 % len(ways)]))
    assert len(load) == REQUESTS
    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        statuses = list(pool.map(lambda job: (job[1], request(job[0].port, *job[2:])), load))
    opened = [(name, code) for name, code in statuses if code in (200, 101)]
    assert opened == []
    # Refused: 302 to the login page (which asks for the token), 403, or 400 (no Host at all).
    assert all(code in (302, 400, 403) for _, code in statuses), sorted(set(statuses))
    assert (len(ledger(ana)), sittings(ana), len(kernels(ana)), len(kernels(ben))) == before
    refused_host = {
        c for n, c in statuses if n in ("DNS rebinding", "another port's Host", "a cross-site origin")
    }
    assert refused_host == {403}  # refused before any handler: no login page either


def test_two_proctors_at_once_each_serve_their_own_trainee_and_die_with_their_kernels(proctors):
    ana, ben = proctors
    assert ana.port != ben.port and ana.token != ben.token
    issued = {str(e["paper_id"]): e["trainee"] for e in ledger(ana) if e["event"] == "issued"}
    assert issued[ana.paper_id] == "Ana" and issued[ben.paper_id] == "Ben"
    for proctor in (ben, ana):  # Ana last: her kernel is killed below before the idle cull could end it
        already = sittings(proctor)
        status = request(
            proctor.port, "GET", f"/?token={proctor.token}", {"Host": f"127.0.0.1:{proctor.port}"}
        )
        assert status == 200, proctor.log_tail()
        assert sittings(proctor) - already == {proctor.paper_id}  # this trainee's paper, and no other
    (kernel,) = kernels(ana)
    assert ana.process is not None
    os.kill(ana.process.pid, signal.SIGKILL)
    ana.process.wait(timeout=30)
    deadline = time.monotonic() + KERNEL_GONE_WITHIN
    while not ended(kernel) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = not ended(kernel)
    if left:
        kernel.kill()  # a failed test leaves nothing running
    assert not left, "the kernel outlived its proctor"
    here = {"Host": f"127.0.0.1:{ben.port}"}
    assert request(ben.port, "GET", "/voila/files/probe", here) == 403  # the other app still serves
