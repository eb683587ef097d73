"""Voilà as the app runs it: Voilà's own command line, plus the one setting it takes only from Python.

``python -m helpers.publish.voila_server [Voilà's arguments]`` is ``voila [arguments]`` with
:func:`set_xsrf_cookie` as Voilà's ``prelaunch_hook``, stopping cleanly (every kernel shut
down, exit status 0) on SIGTERM, SIGHUP or Ctrl-C. A page's kernel is shut down when its
tab closes by a POST that must carry the ``_xsrf`` cookie, and Voilà 0.5 never sets that
cookie, so without the hook every closed tab logs a 403 in the browser console and leaves
its kernel to the culler. Not check logic; started by :mod:`helpers.publish.app`.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["set_xsrf_cookie", "main"]


def set_xsrf_cookie(handler: Any, notebook: Any = None, cwd: str | None = None) -> None:
    """Voilà's prelaunch hook: give the page its ``_xsrf`` cookie; the notebook is left as it is."""
    handler.xsrf_token  # noqa: B018 - reading tornado's token sets the cookie as a side effect


def _stopping_voila() -> Any:
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

    return Voila


def main(argv: Sequence[str] | None = None) -> int:
    """Run Voilà with ``argv`` (default: this process's arguments) until it stops.

    SIGTERM, SIGHUP and Ctrl-C stop it cleanly: every kernel is shut down and it exits 0.
    """
    from traitlets.config import Config

    config = Config()
    config.VoilaConfiguration.prelaunch_hook = set_xsrf_cookie
    _stopping_voila().launch_instance(argv=list(sys.argv[1:] if argv is None else argv), config=config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
