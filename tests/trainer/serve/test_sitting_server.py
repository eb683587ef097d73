"""Where a proctored sitting is served and who may reach it, without starting Voilà.

The socket is bound before the link is printed, on a free port or ``--port`` (a taken one is
refused in one line, and nothing is issued); the link carries a fresh token of 256 bits; the
Host and Origin check admits only the served address. ``tests/trainer/serve/test_proctor_guard.py``
runs the real server.
"""

from __future__ import annotations

import base64
import socket

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import cli
from helpers.trainer import commands as trainer_commands
from helpers.trainer.serve.sitting_server import (
    HOSTS_ENV,
    SOCKET_FD_ENV,
    TOKEN_ENV,
    Listener,
    ServeAddressError,
    admitted,
    bind_listener,
    new_token,
    served_hosts,
)

HOSTS = frozenset({"127.0.0.1:8866", "localhost:8866"})


def test_a_token_is_fresh_and_at_least_128_bits():
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128 and token.isascii() and "&" not in token and "#" not in token


def test_a_free_port_is_bound_and_listening_before_anything_is_printed():
    listener = bind_listener()
    try:
        assert listener.port > 0 and listener.loopback
        with socket.create_connection(("127.0.0.1", listener.port), timeout=5):
            pass  # the kernel queues the connection: the port is the server's already
        assert listener.link("abc") == f"http://127.0.0.1:{listener.port}/?token=abc"
        assert served_hosts(listener) == {f"127.0.0.1:{listener.port}", f"localhost:{listener.port}"}
    finally:
        listener.close()


def test_a_taken_port_an_unspecified_address_and_a_bad_port_are_refused_in_one_line():
    first = bind_listener()
    try:
        with pytest.raises(ServeAddressError, match=f"port {first.port} on 127.0.0.1 is in use") as caught:
            bind_listener(port=first.port)
        assert "\n" not in str(caught.value)
    finally:
        first.close()
    for host in ("0.0.0.0", "::"):
        with pytest.raises(ServeAddressError, match="every network at once"):
            bind_listener(host)
    with pytest.raises(ServeAddressError, match="is not a port"):
        bind_listener(port=70000)
    with pytest.raises(ServeAddressError, match="not an address this machine can serve on"):
        bind_listener("no-such-host.invalid")


@pytest.mark.parametrize(
    "headers, allowed",
    [
        ({"Host": "127.0.0.1:8866"}, True),
        ({"Host": "LOCALHOST:8866"}, True),
        ({"Host": "127.0.0.1:8866", "Origin": "http://127.0.0.1:8866"}, True),
        ({"Host": "127.0.0.1:8866", "Sec-WebSocket-Origin": "http://localhost:8866"}, True),
        ({}, False),
        ({"Host": "evil.example:8866"}, False),  # DNS rebinding
        ({"Host": "127.0.0.1:8867"}, False),  # another sitting's port
        ({"Host": "127.0.0.1"}, False),
        ({"Host": "127.0.0.1:8866", "Origin": "http://evil.example"}, False),  # a cross-site WebSocket
        ({"Host": "127.0.0.1:8866", "Origin": "null"}, False),
        ({"Host": "127.0.0.1:8866", "Origin": "https://127.0.0.1:8866"}, False),
        ({"Host": "127.0.0.1:8866", "Origin": "http://127.0.0.1:8866.evil.example"}, False),
        ({"Host": "127.0.0.1:8866", "Origin": "http://user@127.0.0.1:8866"}, False),
        ({"Host": "127.0.0.1:8866", "Sec-WebSocket-Origin": "http://evil.example"}, False),
        ({"Host": "127.0.0.1:8866", "Origin": "http://127.0.0.1:8866?x"}, False),
        ({"Host": "127.0.0.1:8866", "Origin": "http://127.0.0.1:8866/path"}, False),
    ],
)
def test_only_the_served_address_is_admitted(headers, allowed):
    assert admitted(headers, HOSTS) is allowed


@settings(max_examples=examples(200), deadline=None)
@given(host=st.text(max_size=40), origin=st.none() | st.text(max_size=60))
def test_no_other_host_is_ever_admitted_and_no_other_origin(host, origin):
    headers = {"Host": host} if origin is None else {"Host": host, "Origin": origin}
    if host.strip().lower() not in HOSTS:
        assert not admitted(headers, HOSTS)
    if origin is not None and origin.strip().lower() not in {f"http://{h}" for h in HOSTS}:
        assert not admitted(headers, HOSTS)


def _proctor(monkeypatch, capsys, trainer, *extra: str) -> tuple[int, list[dict[str, str]], str]:
    """Run ``checkout proctor`` with Voilà's start replaced: (exit status, the environments, stderr)."""
    served: list[dict[str, str]] = []
    monkeypatch.setattr(trainer_commands.os, "execve", lambda _path, _argv, env: served.append(env))
    monkeypatch.setattr(trainer_commands.os, "chdir", lambda _path: None)
    args = [
        "checkout",
        "proctor",
        "--trainee",
        "Asha",
        "--count",
        "46",
        "--trainer-dir",
        str(trainer),
        *extra,
    ]
    code = cli.main(args)
    return code, served, capsys.readouterr().err


def _socket_of(env: dict[str, str]) -> socket.socket:
    """The socket handed to Voilà (closed by the caller)."""
    return socket.socket(fileno=int(env[SOCKET_FD_ENV]))


def test_two_proctors_print_their_own_link_each_the_port_bound_for_it(tmp_path, monkeypatch, capsys):
    """Issue 44: the second proctor printed the first one's address, and sent its trainee there."""
    ports, tokens = set(), set()
    for _ in range(2):
        code, (env,), said = _proctor(monkeypatch, capsys, tmp_path / "trainer")
        with _socket_of(env) as sock:
            port = sock.getsockname()[1]
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
        assert code == 0 and env[HOSTS_ENV] == f"127.0.0.1:{port},localhost:{port}"
        assert said.splitlines()[-1] == f"http://127.0.0.1:{port}/?token={env[TOKEN_ENV]}"  # printed last
        assert "Served to this machine only" in said
        ports.add(port)
        tokens.add(env[TOKEN_ENV])
    assert len(ports) == len(tokens) == 2


def test_a_taken_port_is_refused_in_one_line_and_nothing_is_issued(tmp_path, monkeypatch, capsys):
    taken = bind_listener()
    trainer = tmp_path / "trainer"
    try:
        code, served, said = _proctor(monkeypatch, capsys, trainer, "--port", str(taken.port))
    finally:
        taken.close()
    assert code == 2 and served == [] and len(said.splitlines()) == 1
    assert f"port {taken.port} on 127.0.0.1 is in use" in said and "nothing was issued" in said
    assert not (trainer / "proctored").exists() and not (trainer / "ledger.jsonl").exists()


def _address_on_a_network() -> str | None:
    """This machine's address on a network (not loopback), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def test_host_serves_another_machine_with_the_token_and_a_warning(tmp_path, monkeypatch, capsys):
    address = _address_on_a_network()
    if address is None:
        pytest.skip("this machine has no address on a network")
    code, (env,), said = _proctor(monkeypatch, capsys, tmp_path / "trainer", "--host", address)
    with _socket_of(env) as sock:
        port = sock.getsockname()[1]
        assert sock.getsockname()[0] == address
    assert code == 0 and env[HOSTS_ENV] == f"{address}:{port}"  # no localhost: only the address given
    assert f"Served to the network at {address}: anyone who has the link can sit the paper" in said
    assert said.splitlines()[-1] == f"http://{address}:{port}/?token={env[TOKEN_ENV]}"


def test_a_listener_names_an_ipv6_address_in_brackets():
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        listener = bind_listener("::1")
    except ServeAddressError:
        pytest.skip("no IPv6 loopback here")
    with listener.sock:
        assert isinstance(listener, Listener) and listener.loopback
        assert listener.link("t") == f"http://[::1]:{listener.port}/?token=t"
        assert f"[::1]:{listener.port}" in served_hosts(listener)
