"""Voilà as the app and the proctor run it: the socket, token and hosts taken out of the kernels' environment,
and the Host guard in front of every handler."""

from __future__ import annotations

import pytest

from helpers.trainer.serve import voila_server
from helpers.trainer.serve.sitting_server import (
    HOSTS_ENV,
    SOCKET_FD_ENV,
    TOKEN_ENV,
    bind_listener,
    served_hosts,
)


def test_the_token_is_not_passed_to_the_kernels():
    from helpers.trainer.serve import voila_server

    listener = bind_listener()
    env = {
        SOCKET_FD_ENV: str(listener.sock.fileno()),
        TOKEN_ENV: "t",
        HOSTS_ENV: "127.0.0.1:1",
        "OTHER": "kept",
    }
    bound, token, hosts = voila_server._serving(env)
    assert bound is not None and bound.getsockname()[1] == listener.port
    bound.detach()  # the listener still owns the descriptor
    listener.close()
    assert token == "t" and hosts == {"127.0.0.1:1"} and env == {"OTHER": "kept"}


def test_the_guard_refuses_before_any_handler_runs():
    """:func:`helpers.trainer.serve.voila_server.guarded` in front of a tornado app whose handlers count their calls."""
    import asyncio
    import http.client
    import threading

    from tornado import httpserver, web

    from helpers.trainer.serve.voila_server import guarded

    reached: list[str] = []
    refused: list[str] = []

    class Page(web.RequestHandler):
        def prepare(self) -> None:
            reached.append(self.request.path)

        def get(self) -> None:
            self.write("opened")

    listener = bind_listener()
    hosts = served_hosts(listener)
    ready = threading.Event()
    state: dict[str, object] = {}

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = web.Application([(r"/.*", Page)])
        app.settings["eic_refused_log"] = lambda request: refused.append(request.headers.get("Host", ""))
        server = httpserver.HTTPServer(guarded(app, hosts))
        listener.sock.setblocking(False)
        server.add_sockets([listener.sock])
        state.update(loop=loop, server=server)
        ready.set()
        loop.run_forever()
        server.stop()
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(30)

    def status(headers: dict[str, str]) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", listener.port, timeout=30)
        try:
            connection.putrequest("GET", "/", skip_host=True)
            for name, value in headers.items():
                connection.putheader(name, value)
            connection.endheaders()
            reply = connection.getresponse()
            return reply.status, reply.read()
        finally:
            connection.close()

    try:
        here = f"127.0.0.1:{listener.port}"
        assert status({"Host": f"evil.example:{listener.port}"})[0] == 403
        assert status({"Host": here, "Origin": "http://evil.example"})[0] == 403
        assert reached == [] and refused == [f"evil.example:{listener.port}", here]
        assert status({"Host": here}) == (200, b"opened") and reached == ["/"]
    finally:
        loop = state["loop"]
        loop.call_soon_threadsafe(loop.stop)  # type: ignore[attr-defined]
        thread.join(timeout=30)
        listener.close()


def test_without_a_bound_socket_nothing_is_served_from_the_environment():
    env = {TOKEN_ENV: "t", "OTHER": "kept"}
    assert voila_server._serving(env) == (None, "t", frozenset()) and env == {"OTHER": "kept"}


@pytest.mark.parametrize("missing", [TOKEN_ENV, HOSTS_ENV])
def test_a_bound_socket_without_its_token_or_hosts_stops_voila(missing):
    env = {SOCKET_FD_ENV: "3", TOKEN_ENV: "t", HOSTS_ENV: "127.0.0.1:1"}
    env[missing] = ""
    with pytest.raises(SystemExit) as stopped:
        voila_server._serving(env)
    assert str(stopped.value) == f"voila_server: {SOCKET_FD_ENV} needs {TOKEN_ENV} and {HOSTS_ENV} too"


def test_the_prelaunch_hook_reads_the_xsrf_token_and_leaves_the_notebook():
    class Handler:
        read = 0

        @property
        def xsrf_token(self) -> bytes:
            Handler.read += 1
            return b"token"

    notebook = {"cells": []}
    assert voila_server.set_xsrf_cookie(Handler(), notebook, "/tmp") is None
    assert Handler.read == 1 and notebook == {"cells": []}
