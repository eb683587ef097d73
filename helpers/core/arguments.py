"""The command line's shared argparse pieces: the parser class that writes its help and usage
through the guarded streams of :mod:`helpers.core.streams`, its formatters, the root parser and
the input/output epilog the check commands share. Each command group defines its own commands
beside them (:mod:`helpers.team.command_parser`, :mod:`helpers.trainer.command_parser`), and
:func:`helpers.cli.run._parser` joins them into one tree. Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from helpers.core import streams

if TYPE_CHECKING:
    import argparse


#: Stands in the epilog for the differences from the reference, read from their data file
#: (:mod:`helpers.core.differences`) only when a help text is shown.
_DIFFERENCES = "<differences from the reference>\n"


_EPILOG = (
    """\
input
  JSON Lines: one input object per line, as in the filled cases.
    target-scope  {"original":[ids],"rewritten":[ids]}
                  optional: "unresolved":[mentions] (targets that could not be
                  resolved to canonical IDs), "id", "query"
    sentinels     {"baseline":{id:answer},"proposed":{id:answer}}
                  optional: "id"
  A final newline is fine; a blank line is an error.

output (one compact JSON line per input line, UTF-8, in input order)
  target-scope  {"missing":[...],"added":[...],"preserved":true|false}
  sentinels     {"missing":[...],"changed":[...],"intact":true|false}
  held          {"held":"needs staff labels","unresolved":[...],"preserved":false}
  bad line      {"line":N,"field":"rewritten[2]"|null,"error":"..."}
  Lists are sorted as JavaScript sorts strings (UTF-16 code units).

exit status (the most serious outcome over all lines wins)
  0  every line passed (preserved / intact)
  1  a check failed: a rewrite lost or added targets, or a sentinel is
     missing or changed (hold the key before scoring)
  3  held: a rewrite needs staff labels for unresolved targets
  4  bad input: a line could not be checked (malformed JSON, wrong field,
     duplicate key, empty baseline), or the input had no lines
  2  usage error, FILE could not be opened, or output could not be written
     (an unwritable path, a full disk, a closed standard output, --results
     naming an input, a reader that closed the pipe early; with a summary,
     a standard error that cannot take the bad lines)
  130  interrupted (Ctrl-C); --results FILE is not written
"""
    + "\n"
    + _DIFFERENCES
)


def _root(Parser: Any) -> tuple[argparse.ArgumentParser, Any]:
    """The root parser ``python -m helpers`` and its subparsers' action, with no command yet."""
    parser = Parser(
        prog="python -m helpers",
        description="Evaluation-integrity checks for pipelines.",
        formatter_class=Parser.raw,
        epilog=_EPILOG,
    )
    return parser, parser.add_subparsers(dest="command", required=True, metavar="COMMAND")


def _argparse() -> Any:
    import argparse

    class Parser(argparse.ArgumentParser):
        """Writes its help and usage messages through the guarded outputs."""

        def format_help(self) -> str:
            if self.epilog and _DIFFERENCES in self.epilog:
                from helpers.core.differences import help_text

                self.epilog = self.epilog.replace(_DIFFERENCES, help_text())
            return super().format_help()

        def _print_message(self, message: str, file: Any = None) -> None:
            if not message:
                return
            if file is None or file is sys.stdout:
                streams._STDOUT.write(message.encode("utf-8", "backslashreplace"))
            else:
                streams._STDERR.write(message)

    def columns() -> int:  # what HelpFormatter asks shutil for, without importing shutil
        try:
            columns = int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            columns = 0
        if columns <= 0:
            try:
                columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
            except (AttributeError, ValueError, OSError):
                columns = 0
        return (columns or 80) - 2

    class Plain(argparse.HelpFormatter):
        def __init__(
            self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
        ) -> None:
            super().__init__(prog, indent_increment, max_help_position, width or columns())

    class Raw(argparse.RawDescriptionHelpFormatter, Plain):
        pass

    Parser.plain, Parser.raw = Plain, Raw  # type: ignore[attr-defined]
    return argparse, Parser
