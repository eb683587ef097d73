"""Command line for pipelines: ``python -m helpers {target-scope,sentinels} [FILE]``.

Reads JSON Lines of input objects from FILE or standard input and writes one
compact JSON line per input line to standard output. See ``--help`` for the
output objects and exit codes. Taught in ``01_start_here.ipynb`` ("From the
command line").

This facade holds only :func:`main`, the entry point, and the exit codes. The
command groups live beside it, imported one way (streams ← parser ← each group's
parser ← the checks' and the trainer's commands ← run): :mod:`~helpers.cli.streams`,
:mod:`~helpers.cli.parser`, :mod:`~helpers.cli.check_parser`,
:mod:`~helpers.cli.trainer_parser`, :mod:`~helpers.cli.check_commands`,
:mod:`~helpers.cli.trainer_commands` and :mod:`~helpers.cli.run`.
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
