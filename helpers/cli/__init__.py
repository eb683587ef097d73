"""Command line for pipelines: ``python -m helpers {target-scope,sentinels} [FILE]``.

Reads JSON Lines of input objects from FILE or standard input and writes one
compact JSON line per input line to standard output. See ``--help`` for the
output objects and exit codes. Taught in ``01_start_here.ipynb`` ("From the
command line").

This facade holds only :func:`main`, the entry point, and the exit codes. Each
command group lives with its audience and owns its parser: the team's checks in
:mod:`~helpers.team.commands` (:mod:`~helpers.team.command_parser`), the trainer's
commands in :mod:`~helpers.trainer.commands` (:mod:`~helpers.trainer.command_parser`);
both stand on the guarded streams (:mod:`~helpers.core.streams`) and the shared
argparse parts (:mod:`~helpers.core.arguments`), and :mod:`~helpers.cli.run` joins them.
"""

from __future__ import annotations

from helpers.cli.run import main
from helpers.core.outcomes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_HELD, EXIT_PASS, EXIT_USAGE

__all__ = [
    "main",
    "EXIT_PASS",
    "EXIT_FAILED",
    "EXIT_USAGE",
    "EXIT_HELD",
    "EXIT_BAD_INPUT",
]
