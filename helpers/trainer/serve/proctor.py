"""The proctored check-out app: one paper for one trainee, served by the trainer through Voilà on 127.0.0.1.

``python -m helpers checkout proctor --trainee NAME`` issues a proctored paper into the
trainer's folder (:func:`helpers.trainer.proctoring.prepare_sitting`), writes a one-cell
notebook showing :func:`helpers.trainer.widgets.proctored.proctored_page` into a scratch folder,
and runs Voilà on that notebook alone, as the app does (:func:`helpers.trainer.serve.app.voila_command`):
code hidden, the ``offline`` template, at most one kernel, and here no file served at all.
Voilà lets a page send only widget messages to its kernel, never code, so the trainee has
no kernel to compute with; the answers are written, graded and signed in the trainer's
folder, which the app never serves. The socket is bound before anything is printed, and the
trainee opens the link printed last, which carries the sitting's token
(:mod:`helpers.trainer.serve.sitting_server`): the page, its kernel and its WebSocket refuse a
request without it, and every request must name the served address as its Host. Not check logic; the check-out is taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from helpers.trainer.proctoring import SITTING_ENV, TRAINER_ENV
from helpers.trainer.serve.app import voila_command, voila_environment
from helpers.trainer.serve.sitting_server import Listener, serve_environment

__all__ = [
    "NOTEBOOK_NAME",
    "proctor_notebook",
    "write_proctor_notebook",
    "proctor_command",
    "proctor_environment",
]

NOTEBOOK_NAME = "checkout.ipynb"
#: Every file the app could serve is refused: the page is the notebook's rendering only.
_DENY_ALL = "--VoilaConfiguration.file_denylist=.*"


def proctor_notebook() -> dict[str, object]:
    """The notebook the proctored app renders: a heading and the sitting's widget."""

    def cell(kind: str, source: str) -> dict[str, object]:
        made: dict[str, object] = {"cell_type": kind, "metadata": {}, "source": source}
        if kind == "code":
            made.update(execution_count=None, outputs=[])
        return made

    return {
        "cells": [
            cell(
                "markdown",
                "# Check-out\n\nYour trainer serves this paper. Answer each case once; there is no code to run.",
            ),
            cell("code", "from helpers.trainer.widgets.proctored import proctored_page\n\nproctored_page()"),
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write_proctor_notebook() -> Path:
    """The notebook, written into a new scratch folder that holds nothing else."""
    folder = Path(tempfile.mkdtemp(prefix="eic-proctor-"))
    path = folder / NOTEBOOK_NAME
    path.write_text(json.dumps(proctor_notebook(), indent=1) + "\n", encoding="utf-8")
    return path


def proctor_command(notebook: Path, *, port: int | None = None, open_browser: bool = True) -> list[str]:
    """Voilà's command line for the proctored app: the app's own, on ``notebook`` alone, one kernel, no files."""
    return [
        *voila_command(notebook, port=port, open_browser=open_browser, max_kernels=1)[:-1],
        _DENY_ALL,
        str(notebook),
    ]


def proctor_environment(
    sitting: Path, trainer_dir: Path, listener: Listener | None = None, token: str | None = None
) -> dict[str, str]:
    """The app's environment, naming the sitting and the trainer's folder for its kernel.

    With ``listener`` and ``token``, Voilà serves on that bound socket and requires that token.
    """
    env = voila_environment()
    env[SITTING_ENV] = str(sitting)
    env[TRAINER_ENV] = str(trainer_dir)
    if listener is not None:
        if not token:
            raise ValueError("a bound listener needs the sitting's token")
        env = serve_environment(listener, token, env)
    return env
