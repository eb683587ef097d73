"""Voilà as the app runs it: Voilà's own command line, plus the one setting it takes only from Python.

``python -m helpers.publish.voila_server [Voilà's arguments]`` is ``voila [arguments]`` with
:func:`set_xsrf_cookie` as Voilà's ``prelaunch_hook``. A page's kernel is shut down when its
tab closes by a POST that must carry the ``_xsrf`` cookie, and Voilà 0.5 never sets that
cookie, so without the hook every closed tab logs a 403 in the browser console and leaves
its kernel to the culler. Not check logic; started by :mod:`helpers.publish.app`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["set_xsrf_cookie", "main"]


def set_xsrf_cookie(handler: Any, notebook: Any = None, cwd: str | None = None) -> None:
    """Voilà's prelaunch hook: give the page its ``_xsrf`` cookie; the notebook is left as it is."""
    handler.xsrf_token  # noqa: B018 - reading tornado's token sets the cookie as a side effect


def main(argv: Sequence[str] | None = None) -> int:
    """Run Voilà with ``argv`` (default: this process's arguments) until it stops."""
    from traitlets.config import Config
    from voila.app import Voila

    config = Config()
    config.VoilaConfiguration.prelaunch_hook = set_xsrf_cookie
    Voila.launch_instance(argv=list(sys.argv[1:] if argv is None else argv), config=config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
