"""The code-free app: the notebooks served by Voilà on 127.0.0.1, code hidden, widgets live.

``python3 tasks.py app`` (or ``python -m helpers.publish.app``) starts Voilà on this
machine only, opening on ``01_start_here.ipynb`` (the notebooks link to each other); each opens as an app page with its code
cells hidden and its widgets working. It uses the ``offline`` Voilà template in
``helpers/publish/app_templates/voila/templates/``: Voilà's own "lab" template minus the icon stylesheets
it would fetch from a CDN, so the app works with no network. The downloads
(``notebooks/downloads/*.csv`` and ``*.py``) are served too; other Python files
and the notebooks' JSON are not.

Not check logic; the app serves the notebooks, starting with ``01_start_here.ipynb``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..core.paths import project_root

__all__ = [
    "TEMPLATE",
    "CULL_IDLE_SECONDS",
    "CULL_INTERVAL_SECONDS",
    "template_root",
    "voila_command",
    "voila_environment",
    "main",
]

#: The Voilà template the app uses (``helpers/publish/app_templates/voila/templates/offline``).
TEMPLATE = "offline"

#: Kernel culling: a kernel with no page connected (its tab closed) and idle for
#: ``CULL_IDLE_SECONDS`` ends at the next check, every ``CULL_INTERVAL_SECONDS``, so a
#: closed page's kernel is gone within ``CULL_IDLE_SECONDS + CULL_INTERVAL_SECONDS`` (15 s).
#: A page still open keeps its kernel, however long it idles.
CULL_IDLE_SECONDS = 10
CULL_INTERVAL_SECONDS = 5

#: Files Voilà may serve besides the rendered notebooks: images, and the downloads.
_ALLOW = (r".*\.(png|jpg|gif|svg)", r"downloads[/\\][^/\\]+\.(csv|py)")
#: Never served: notebook JSON, and any Python file outside downloads/.
_DENY = (r".*\.ipynb", r"(?!downloads[/\\][^/\\]+$).*\.py")


def template_root() -> Path:
    """The folder added to ``JUPYTER_PATH`` so Voilà finds the ``offline`` template."""
    return Path(__file__).resolve().parent / "app_templates"


def voila_command(notebooks: Path, *, port: int | None = None, open_browser: bool = True) -> list[str]:
    """The Voilà command line serving ``notebooks`` on 127.0.0.1 with code hidden."""
    command = [
        str(Path(sys.executable).with_name("voila")),
        "--Voila.ip=127.0.0.1",
        f"--Voila.open_browser={open_browser}",
        f"--VoilaConfiguration.template={TEMPLATE}",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL_SECONDS}",
        "--MappingKernelManager.cull_connected=False",
    ]
    command += [f"--VoilaConfiguration.file_allowlist={pattern}" for pattern in _ALLOW]
    command += [f"--VoilaConfiguration.file_denylist={pattern}" for pattern in _DENY]
    if port is not None:
        command += [f"--Voila.port={port}", "--Voila.port_retries=0"]
    return [*command, str(notebooks)]


def voila_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) with the app's template on ``JUPYTER_PATH``."""
    env = dict(os.environ if base is None else base)
    paths = [str(template_root())]
    if env.get("JUPYTER_PATH"):
        paths.append(env["JUPYTER_PATH"])
    env["JUPYTER_PATH"] = os.pathsep.join(paths)
    return env


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m helpers.publish.app [--port N] [--no-browser]``: run the app until stopped."""
    parser = argparse.ArgumentParser(
        prog="python -m helpers.publish.app",
        description="Serve the notebooks as a code-free app on 127.0.0.1 (Voilà).",
    )
    parser.add_argument("--port", type=int, help="port to serve on (default: Voilà's, 8866)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    args = parser.parse_args(argv)
    notebooks = project_root() / "notebooks"
    command = voila_command(notebooks, port=args.port, open_browser=not args.no_browser)
    print("Starting the app on 127.0.0.1; stop it with Ctrl+C.", file=sys.stderr, flush=True)
    os.chdir(notebooks)
    # Become Voilà, so Ctrl+C and its shutdown reach it directly.
    os.execve(command[0], command, voila_environment())
    return 0  # not reached: execve replaces this process or raises OSError


if __name__ == "__main__":
    sys.exit(main())
