"""Voilà as the app runs it: Voilà's own command line, plus the one setting it takes only from Python.

``python -m helpers.trainer.serve.voila_server [Voilà's arguments]`` is ``voila [arguments]`` with
:func:`set_xsrf_cookie` as Voilà's ``prelaunch_hook``, stopping cleanly (every kernel shut
down, exit status 0) on SIGTERM, SIGHUP or Ctrl-C. A page's kernel is shut down when its
tab closes by a POST that must carry the ``_xsrf`` cookie, and Voilà 0.5 never sets that
cookie, so without the hook every closed tab logs a 403 in the browser console and leaves
its kernel to the culler.

Started by ``checkout proctor`` (:mod:`helpers.trainer.serve.sitting_server` names the variables),
it serves on the socket the command bound, requires the sitting's token (Voilà's own token
setting, taken from the environment, not the command line any user can list, and removed
before any kernel starts), and refuses with 403 every request whose ``Host`` or ``Origin`` is not the
served address, before any of Voilà's handlers runs. Not check logic; started by
:mod:`helpers.trainer.serve.app` and :mod:`helpers.trainer.serve.proctor`.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from collections.abc import MutableMapping, Sequence
from typing import Any

from helpers.trainer.serve.sitting_server import HOSTS_ENV, SOCKET_FD_ENV, TOKEN_ENV, admitted

__all__ = ["set_xsrf_cookie", "guarded", "main"]


def set_xsrf_cookie(handler: Any, notebook: Any = None, cwd: str | None = None) -> None:
    """Voilà's prelaunch hook: give the page its ``_xsrf`` cookie; the notebook is left as it is."""
    handler.xsrf_token  # noqa: B018 - reading tornado's token sets the cookie as a side effect


def guarded(app: Any, hosts: frozenset[str]) -> Any:
    """A tornado router in front of ``app``: a request not :func:`admitted` for ``hosts`` gets 403 at once.

    The check runs before ``app`` picks a handler, so a refused request reaches no page,
    kernel or WebSocket handler of Voilà's.
    """
    from tornado import routing, web

    class Refused(web.RequestHandler):
        def prepare(self) -> None:
            raise web.HTTPError(403)

        def log_exception(self, *args: Any) -> None:
            pass  # one warning line is written below, not a traceback

    class HostGuard(routing.Router):
        def find_handler(self, request: Any, **kwargs: Any) -> Any:
            if admitted(request.headers, hosts):
                return app.find_handler(request, **kwargs)
            log = app.settings.get(_LOG_KEY)
            if log is not None:
                log(request)
            return app.get_handler_delegate(request, Refused)

    return HostGuard()


_LOG_KEY = "eic_refused_log"


def _serving(env: MutableMapping[str, str]) -> tuple[socket.socket | None, str | None, frozenset[str]]:
    """The bound socket, the token and the admitted hosts ``checkout proctor`` passed, taken out of ``env``."""
    fd, token, hosts = env.pop(SOCKET_FD_ENV, None), env.pop(TOKEN_ENV, None), env.pop(HOSTS_ENV, None)
    if fd is None:
        return None, token, frozenset()
    if not token or not hosts:
        raise SystemExit(f"voila_server: {SOCKET_FD_ENV} needs {TOKEN_ENV} and {HOSTS_ENV} too")
    return socket.socket(fileno=int(fd)), token, frozenset(hosts.split(","))


def _stopping_voila(bound: socket.socket | None = None, hosts: frozenset[str] = frozenset()) -> Any:
    """Voilà's application, stopping the same way on SIGTERM, SIGHUP and Ctrl-C.

    Voilà stops its loop and shuts its kernels down on SIGTERM (and on Ctrl-C); here SIGHUP
    (a closed terminal) does the same, and a signal that comes while Voilà is still starting,
    before its loop runs, ends it at once with status 0 (no kernel has started), not with an
    error from Voilà's own handler.
    """
    from voila import app

    class Voila(app.Voila):  # Voilà's own name, which its log lines carry
        def initialize(self, argv: Any = None) -> None:
            super().initialize(argv)
            for name in ("SIGTERM", "SIGHUP"):
                if hasattr(signal, name):
                    signal.signal(getattr(signal, name), self._handle_signal_stop)

        def _handle_signal_stop(self, sig: int, frame: Any) -> None:
            loop = getattr(self, "ioloop", None)
            if loop is None:
                raise SystemExit(0)
            if not getattr(self, "_stopping", False):
                self._stopping = True
                self.log.info("Stopping (signal %s): shutting down the kernels.", sig)
                # asyncio's thread-safe call wakes the loop; tornado's add_callback_from_signal is deprecated
                loop.asyncio_loop.call_soon_threadsafe(loop.stop)

        def listen(self) -> None:
            if bound is None:
                super().listen()
                return
            # The socket the trainer's command bound and printed the link for; behind the Host check.
            from tornado.httpserver import HTTPServer
            from tornado.ioloop import IOLoop

            self.app.settings[_LOG_KEY] = lambda request: self.log.warning(
                "Refused a request for %r with Host %r and Origin %r: not the served address.",
                request.path[:200],
                request.headers.get("Host", "")[:200],
                request.headers.get("Origin", request.headers.get("Sec-WebSocket-Origin", ""))[:200],
            )
            bound.setblocking(False)  # tornado accepts until the backlog is empty
            server = HTTPServer(guarded(self.app, hosts))
            server.add_sockets([bound])
            self.port = bound.getsockname()[1]
            self.log.info(
                "Voilà is serving the sitting on port %s (the link is the one printed above).", self.port
            )
            self.ioloop = IOLoop.current()
            try:
                self.ioloop.start()
            except KeyboardInterrupt:
                self.log.info("Stopping...")
            finally:
                server.stop()
                self.stop()

    return Voila


def main(argv: Sequence[str] | None = None) -> int:
    """Run Voilà with ``argv`` (default: this process's arguments) until it stops.

    SIGTERM, SIGHUP and Ctrl-C stop it cleanly: every kernel is shut down and it exits 0.
    """
    from traitlets.config import Config

    bound, token, hosts = _serving(os.environ)  # taken out, so no kernel inherits them
    config = Config()
    config.VoilaConfiguration.prelaunch_hook = set_xsrf_cookie
    if token is not None:
        config.Voila.token = token
    _stopping_voila(bound, hosts).launch_instance(
        argv=list(sys.argv[1:] if argv is None else argv), config=config
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
