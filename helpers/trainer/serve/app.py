"""The code-free app: the notebooks served by Voilà on 127.0.0.1, code hidden, widgets live.

``python3 tasks.py app`` (or ``python -m helpers.trainer.serve.app``) starts Voilà on this
machine only, opening on ``01_start_here.ipynb`` (the notebooks link to each other); each opens as an app page with its code
cells hidden and its widgets working. It uses the ``offline`` Voilà template in
``helpers/trainer/serve/app_templates/voila/templates/``: Voilà's own "lab" template minus the icon stylesheets
it would fetch from a CDN, so the app works with no network. The downloads
(``notebooks/downloads/*.csv`` and ``*.py``) are served too; other Python files
and the notebooks' JSON are not. Voilà runs through :mod:`helpers.trainer.serve.voila_server` (its
own command line, plus a hook setting the cookie a closed tab's kernel shutdown needs), and
its pages load no Notebook 7 lab extension. The banner on every page links each numbered notebook
(``notebooks/NN_*.ipynb``), listed when the app starts.

Each open page runs its own kernel (about 50 MB). The app runs at most ``--max-kernels``
kernels at once (or ``EIC_APP_MAX_KERNELS``; default :data:`DEFAULT_MAX_KERNELS`), counting
those still starting and those of closed pages not yet culled; a page asked for beyond that
gets "The app is busy" (HTTP 503) with what to do, and no kernel. See
:mod:`helpers.trainer.serve.kernel_cap`.

Not check logic; the app serves the notebooks, starting with ``01_start_here.ipynb``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from helpers.core.error_root import HelpersError
from helpers.core.paths import project_root

__all__ = [
    "TEMPLATE",
    "CULL_IDLE_SECONDS",
    "CULL_INTERVAL_SECONDS",
    "DEFAULT_MAX_KERNELS",
    "MAX_KERNELS_ENV",
    "AppConfigError",
    "app_pages",
    "max_kernels_from",
    "template_root",
    "voila_command",
    "voila_environment",
    "main",
]

#: The Voilà template the app uses (``helpers/trainer/serve/app_templates/voila/templates/offline``).
TEMPLATE = "offline"

#: Kernel culling: a kernel with no page connected (its tab closed) and idle for
#: ``CULL_IDLE_SECONDS`` ends at the next check, every ``CULL_INTERVAL_SECONDS``, so a
#: closed page's kernel is gone within ``CULL_IDLE_SECONDS + CULL_INTERVAL_SECONDS`` (15 s).
#: A page still open keeps its kernel, however long it idles.
CULL_IDLE_SECONDS = 10
CULL_INTERVAL_SECONDS = 5

#: Kernels the app runs at once unless told otherwise: about 500 MB at most.
DEFAULT_MAX_KERNELS = 10
#: The environment variable setting the cap when ``--max-kernels`` is not given.
MAX_KERNELS_ENV = "EIC_APP_MAX_KERNELS"
#: The kernel manager enforcing the cap (:mod:`helpers.trainer.serve.kernel_cap`).
_KERNEL_MANAGER = "helpers.trainer.serve.kernel_cap.CappedKernelManager"
#: A numbered notebook: ``NN_words.ipynb``.
_NUMBERED = re.compile(r"(\d\d)_([a-z0-9_]+)\.ipynb")

#: JupyterLab extensions the app's pages must not load. Notebook 7's lab extension (installed
#: with ``notebook``) needs ``@jupyterlab/docregistry``, which Voilà's page does not provide, so
#: loading it only logs a console error (RUNTIME-012); the app uses nothing from it.
_NOT_LOADED = ("@jupyter-notebook/lab-extension",)

#: Files Voilà may serve besides the rendered notebooks: images, and the downloads.
_ALLOW = (r".*\.(png|jpg|gif|svg)", r"downloads[/\\][^/\\]+\.(csv|py)")
#: Never served: notebook JSON, and any Python file outside downloads/.
_DENY = (r".*\.ipynb", r"(?!downloads[/\\][^/\\]+$).*\.py")


class AppConfigError(HelpersError, ValueError):
    """The app's settings are unusable (the message names the flag or variable)."""


def max_kernels_from(flag: int | None, env: Mapping[str, str]) -> int:
    """The kernel cap: ``--max-kernels`` if given, else ``EIC_APP_MAX_KERNELS``, else the default."""
    if flag is not None:
        source, value = "--max-kernels", str(flag)
    elif env.get(MAX_KERNELS_ENV, "").strip():
        source, value = MAX_KERNELS_ENV, env[MAX_KERNELS_ENV].strip()
    else:
        return DEFAULT_MAX_KERNELS
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise AppConfigError(f"{source} must be a whole number of kernels, 1 or more; got {value!r}")
    return int(value)


def app_pages(notebooks: Path) -> list[tuple[str, str]]:
    """Each numbered notebook in ``notebooks`` and its banner label, in order.

    The label is the name without number and suffix: ``03_sentinel_answer_key.ipynb`` is
    "Sentinel answer key". Only ``NN_`` names of lower-case letters, digits and ``_`` count, so
    neither part can hold the ``:`` and ``|`` that separate them on Voilà's command line.
    """
    pages = []
    for path in sorted(notebooks.glob("[0-9][0-9]_*.ipynb")):
        match = _NUMBERED.fullmatch(path.name)
        if match:
            pages.append((path.name, match.group(2).replace("_", " ").capitalize()))
    return pages


def template_root() -> Path:
    """The folder added to ``JUPYTER_PATH`` so Voilà finds the ``offline`` template."""
    return Path(__file__).resolve().parent / "app_templates"


def voila_command(
    notebooks: Path,
    *,
    port: int | None = None,
    open_browser: bool = True,
    max_kernels: int = DEFAULT_MAX_KERNELS,
) -> list[str]:
    """The Voilà command line serving ``notebooks`` on 127.0.0.1 with code hidden.

    At most ``max_kernels`` kernels run at once; the banner links :func:`app_pages`.
    """
    if max_kernels < 1:
        raise AppConfigError(f"max_kernels must be 1 or more; got {max_kernels}")
    # One string ("name:label|name:label"), since traitlets reads a dict's items as key=string.
    pages = "|".join(f"{name}:{label}" for name, label in app_pages(notebooks))
    command = [
        sys.executable,
        "-m",
        "helpers.trainer.serve.voila_server",  # Voilà, plus the hook that sets the _xsrf cookie
        "--Voila.ip=127.0.0.1",
        f"--Voila.open_browser={open_browser}",
        f"--VoilaConfiguration.template={TEMPLATE}",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL_SECONDS}",
        "--MappingKernelManager.cull_connected=False",
        f"--VoilaConfiguration.multi_kernel_manager_class={_KERNEL_MANAGER}",
        f"--CappedKernelManager.max_kernels={max_kernels}",
        f"--VoilaConfiguration.resources=eic_app_pages={pages}",
    ]
    command += [f"--VoilaConfiguration.extension_denylist={name}" for name in _NOT_LOADED]
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
    """``python -m helpers.trainer.serve.app [--port N] [--no-browser] [--max-kernels N]``: run the app until stopped."""
    parser = argparse.ArgumentParser(
        prog="python -m helpers.trainer.serve.app",
        description="Serve the notebooks as a code-free app on 127.0.0.1 (Voilà).",
    )
    parser.add_argument("--port", type=int, help="port to serve on (default: Voilà's, 8866)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument(
        "--max-kernels",
        type=int,
        metavar="N",
        help=f"the most pages (kernels) open at once; more get a busy page "
        f"(default: ${MAX_KERNELS_ENV}, else {DEFAULT_MAX_KERNELS})",
    )
    args = parser.parse_args(argv)
    notebooks = project_root() / "notebooks"
    try:
        max_kernels = max_kernels_from(args.max_kernels, os.environ)
    except AppConfigError as error:
        parser.error(str(error))
    command = voila_command(
        notebooks, port=args.port, open_browser=not args.no_browser, max_kernels=max_kernels
    )
    print(
        f"Starting the app on 127.0.0.1 (at most {max_kernels} pages open at once); stop it with Ctrl+C.",
        file=sys.stderr,
        flush=True,
    )
    os.chdir(notebooks)
    # Become Voilà, so Ctrl+C and its shutdown reach it directly.
    os.execve(command[0], command, voila_environment())
    return 0  # not reached: execve replaces this process or raises OSError


if __name__ == "__main__":
    sys.exit(main())
