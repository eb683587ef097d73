"""Where a proctored sitting is served, and who may reach it: a bound socket, a token, a Host check.

``checkout proctor`` binds its socket here before it prints anything, so the address printed
is the address served (a free port by default, or ``--port``, refused in one line if taken).
The link it prints carries a fresh token (:func:`new_token`, 256 bits from :mod:`secrets`):
the link is the key to the sitting. Voilà requires the token (or the login cookie the first
request with it sets) for the page, the kernel API and the kernel's WebSocket, so a request
without it opens nothing and records nothing. Before any of Voilà's handlers runs, every
request must name the served address as its ``Host`` and, when it has one, as its ``Origin``
(:func:`admitted`): a page elsewhere cannot reach the sitting through DNS rebinding or a
cross-site WebSocket. The Voilà side is :mod:`helpers.trainer.serve.voila_server`.
Not check logic; the proctored check-out is described in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass

from helpers.core.error_root import HelpersError

__all__ = [
    "LOOPBACK",
    "TOKEN_BYTES",
    "SOCKET_FD_ENV",
    "TOKEN_ENV",
    "HOSTS_ENV",
    "ServeAddressError",
    "Listener",
    "new_token",
    "bind_listener",
    "served_hosts",
    "admitted",
    "serve_environment",
]

#: The address a sitting is served on unless ``--host`` names another.
LOOPBACK = "127.0.0.1"
#: Random bytes in a sitting's token: 256 bits, well past the 128 an unguessable capability needs.
TOKEN_BYTES = 32
#: How the trainer's command hands the bound socket, the token and the admitted hosts to Voilà.
SOCKET_FD_ENV = "EIC_SERVE_SOCKET_FD"
TOKEN_ENV = "EIC_SERVE_TOKEN"
HOSTS_ENV = "EIC_SERVE_HOSTS"


class ServeAddressError(HelpersError, OSError):
    """The sitting cannot be served at the address asked for (the message says why, in one line)."""


@dataclass
class Listener:
    """A socket bound and listening, before anything is printed: its host, port and socket."""

    host: str
    port: int
    sock: socket.socket

    @property
    def authority(self) -> str:
        """``host:port`` as a URL and a ``Host`` header write it (an IPv6 address in brackets)."""
        return f"{_bracketed(self.host)}:{self.port}"

    def link(self, token: str, path: str = "/") -> str:
        """The sitting's address with its token: what the trainee opens."""
        return f"http://{self.authority}{path}?token={token}"

    @property
    def loopback(self) -> bool:
        """Whether only this machine can reach the socket."""
        return _is_loopback(self.host)

    def close(self) -> None:
        self.sock.close()


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def new_token() -> str:
    """A fresh token for one sitting's link: :data:`TOKEN_BYTES` random bytes, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def bind_listener(host: str = LOOPBACK, port: int | None = None) -> Listener:
    """A socket on ``host``, bound to ``port`` (a free one if None or 0) and listening.

    Refused in one line (:class:`ServeAddressError`): a port in use or out of range, an
    address this machine does not have, and the unspecified address (``0.0.0.0``, ``::``),
    which would serve every network at once and leave no single address to print.
    """
    if port is not None and not 0 <= port <= 65535:
        raise ServeAddressError(f"--port {port} is not a port (0 to 65535; leave it out for a free one)")
    try:
        if ipaddress.ip_address(host).is_unspecified:
            raise ServeAddressError(
                f"--host {host} would serve every network at once; name this machine's address on "
                "the network the trainee is on (or leave --host out for this machine only)"
            )
    except ValueError:
        pass  # a name: resolved below
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port or 0, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICSERV
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise ServeAddressError(
            f"--host {host!r} is not an address this machine can serve on ({exc})"
        ) from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeAddressError(
                f"port {port} on {host} is in use (another sitting or server?); choose another --port, "
                "or leave --port out for a free one"
            ) from None
        raise ServeAddressError(
            f"cannot serve on {host} port {port or 0}: {exc.strerror or type(exc).__name__}"
        ) from None
    return Listener(host, sock.getsockname()[1], sock)


def served_hosts(listener: Listener) -> frozenset[str]:
    """The ``Host`` values a request may carry: the served address, and ``localhost`` on loopback."""
    names = [_bracketed(listener.host).lower()] + (["localhost"] if listener.loopback else [])
    hosts = {f"{name}:{listener.port}" for name in names}
    if listener.port == 80:  # a browser leaves the default port out
        hosts.update(names)
    return frozenset(hosts)


def admitted(headers: Mapping[str, str], hosts: frozenset[str]) -> bool:
    """Whether a request with these headers is for the served address and from a page it served.

    ``Host`` must be one of ``hosts`` exactly (case aside); ``Origin`` and
    ``Sec-WebSocket-Origin``, when sent, must be exactly ``http://`` and one of them, as a
    browser sends it. A request with no ``Host`` is refused; one with no ``Origin`` (a link
    followed, a script) goes on to the token check.
    """
    host = headers.get("Host")
    if host is None or host.strip().lower() not in hosts:
        return False
    origins = {f"http://{name}" for name in hosts}
    for name in ("Origin", "Sec-WebSocket-Origin"):
        origin = headers.get(name)
        if origin is not None and origin.strip().lower() not in origins:
            return False
    return True


def serve_environment(listener: Listener, token: str, base: Mapping[str, str]) -> dict[str, str]:
    """``base`` naming the bound socket, the token and the admitted hosts for Voilà.

    The socket is handed over: its descriptor stays open, inheritable, for the process that
    replaces this one (``os.execve``), and ``listener`` no longer owns it.
    """
    fd = listener.sock.detach()
    os.set_inheritable(fd, True)
    env = dict(base)
    env[SOCKET_FD_ENV] = str(fd)
    env[TOKEN_ENV] = token
    env[HOSTS_ENV] = ",".join(sorted(served_hosts(listener)))
    return env
