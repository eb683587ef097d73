"""One run of the command line: :func:`main` sets up the guarded standard streams, parses the
arguments and runs the chosen command, and turns output that could not be written, Ctrl-C and
argparse's exits into an exit status and at most one line on standard error. The trainer's
commands are imported only when one of them is chosen, so a check's run loads none of them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from helpers.core import streams
from helpers.core.arguments import _argparse, _root
from helpers.core.checks import CHECKS
from helpers.core.outcomes import EXIT_INTERRUPTED, EXIT_PASS, EXIT_USAGE
from helpers.core.streams import _claim_standard_streams, _OutputFailed, _silence
from helpers.team.command_parser import _add_check_commands, _data_options
from helpers.team.commands import (
    _export_csv,
    _export_example,
    _rebaseline,
    _run_check_command,
    _run_key_command,
)
from helpers.trainer.command_parser import _add_trainer_commands

if TYPE_CHECKING:
    import argparse


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status. Taught in ``01_start_here.ipynb``.

    Output that cannot be written (a full disk, a closed standard output, a
    reader that closes the pipe early with ``| head``) ends the run with
    :data:`EXIT_USAGE` and one line on standard error, never a traceback or a
    status that reads as a verdict. So does a standard error that cannot take
    the bad lines a summary reports there. Ctrl-C ends it with
    :data:`~helpers.core.outcomes.EXIT_INTERRUPTED` (130) and one line.
    """
    _claim_standard_streams()
    code = EXIT_USAGE
    try:
        try:
            code = _main(argv)
            streams._STDOUT.flush()
        except _OutputFailed as exc:
            streams._STDOUT.discard()
            streams._STDERR.write(exc.line())
            code = EXIT_USAGE
        except KeyboardInterrupt:  # Ctrl-C: one line, no traceback; --results was not put in place
            streams._STDOUT.discard()
            streams._STDERR.write("python -m helpers: interrupted; not every line was written\n")
            code = EXIT_INTERRUPTED
        except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
            streams._STDOUT.flush()
            code = exc.code if isinstance(exc.code, int) else EXIT_USAGE
            if code not in (EXIT_PASS, EXIT_USAGE):
                code = EXIT_USAGE
    except _OutputFailed as exc:  # --help could not be written
        streams._STDOUT.discard()
        streams._STDERR.write(exc.line())
        code = EXIT_USAGE
    streams._STDERR.flush()
    if streams._STDERR.failed:
        code = EXIT_USAGE
    # Nothing goes through sys.stdout or sys.stderr, but make sure their flush at exit cannot fail.
    for stream, fd in ((sys.stdout, 1), (sys.stderr, 2)):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            _silence(fd)
    if not streams._STDOUT.usable and streams._STDOUT.file is None:
        _silence(1)
    if (streams._STDERR.failed or not streams._STDERR.sink.usable) and streams._STDERR.sink.file is None:
        _silence(2)
    return code


def end_process(argv: Sequence[str] | None = None) -> NoReturn:
    """``python -m helpers``: :func:`main`, then the end of the process with its exit status.

    Once the run is done and its output written, Python's own exit would take apart every
    object still alive (for a pair of million-ID keys, about 0.1 s) and tear its modules down.
    When nothing else is left for that exit to do (no exit handler registered, no other
    thread running, no tracer or profiler, such as a coverage tool, watching), the process ends
    at once instead, and the check commands leave their largest objects to that end; otherwise
    it exits as usual. Taught in ``01_start_here.ipynb``.
    """
    streams._ENDS_PROCESS = True
    code = main(argv)
    if _nothing_left_for_exit():
        os._exit(code)
    sys.exit(code)


def _nothing_left_for_exit() -> bool:
    """True when Python's exit would only take objects apart: no exit handler, thread or tracer."""
    import atexit

    if getattr(atexit, "_ncallbacks", lambda: 1)() != 0:
        return False
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return False
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False
    for stream in (sys.stdout, sys.stderr):  # flushed by main; once more, in case a caller wrote since
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            return False
    return not streams._STDOUT.parts and not streams._STDERR.sink.parts


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser; with ``only``, only that command's arguments are added.

    Building every command's arguments costs a noticeable part of a short run's
    start-up, and a run uses one command. Taught in ``01_start_here.ipynb``.
    """
    _, Parser = _argparse()
    parser, sub = _root(Parser)
    _add_check_commands(sub, Parser, only)
    _add_trainer_commands(sub, Parser, only)
    return parser


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((arg for arg in argv if not arg.startswith("-")), "")
    parser = _parser(only=command)
    args = parser.parse_args(argv)
    if args.command in CHECKS:
        options = _data_options(parser, args)
        if options.baseline is not None:
            return _run_key_command(options, streams._STDOUT, streams._STDERR)  # type: ignore[arg-type]
        return _run_check_command(args.command, args.file, streams._STDOUT, streams._STDERR, options)  # type: ignore[arg-type]
    if args.command == "export-csv":
        return _export_csv(args.check, args.output)
    if args.command == "export-example":
        return _export_example(args.check, args.output)
    if args.command == "practice":
        from helpers.trainer.commands import _practice_generate

        return _practice_generate(args.rule, args.seed, args.count)
    if args.command == "checkout":
        from helpers.trainer.commands import _checkout_grade, _checkout_issue, _checkout_proctor

        if args.checkout_command == "proctor":
            return _checkout_proctor(args)
        return _checkout_issue(args) if args.checkout_command == "issue" else _checkout_grade(args)
    if args.command == "cohort":
        from helpers.trainer.commands import _cohort

        return _cohort(
            args.paths,
            args.csv,
            args.json,
            args.checkouts,
            trainer_dir=args.trainer_dir,
            require_proctored=not args.accept_unproctored,
            use_cache=not args.no_cache,
        )
    return _rebaseline(args.reason, args.fixtures, streams._STDERR)  # type: ignore[arg-type]
