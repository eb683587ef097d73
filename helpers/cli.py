"""Command line for pipelines: ``python -m helpers {target-scope,sentinels} [FILE]``.

Reads JSON Lines of input objects from FILE or standard input and writes one
compact JSON line per input line to standard output. See ``--help`` for the
output objects and exit codes. Taught in ``01_start_here.ipynb`` ("From the
command line").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from .checks import CHECKS, run_check
from .errors import CheckInputError, JSONLoadError
from .jsonio import JsonLine, dumps_compact, iter_json_lines

__all__ = [
    "main",
    "EXIT_PASS",
    "EXIT_FAILED",
    "EXIT_USAGE",
    "EXIT_HELD",
    "EXIT_BAD_INPUT",
    "check_lines",
]

EXIT_PASS = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_HELD = 3
EXIT_BAD_INPUT = 4

#: Outcomes from least to most serious; the most serious seen sets the exit code.
_SEVERITY = (EXIT_PASS, EXIT_FAILED, EXIT_HELD, EXIT_BAD_INPUT)

_EPILOG = """\
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
  2  usage error, or FILE could not be opened
"""


def _rank(code: int) -> int:
    return _SEVERITY.index(code)


def _error_object(number: int, exc: CheckInputError) -> dict[str, Any]:
    message = exc.detail if isinstance(exc, JSONLoadError) else exc.message
    return {"line": number, "field": exc.field, "error": message}


def check_lines(check: str, lines: Iterable[JsonLine]) -> Iterable[tuple[dict[str, Any], int]]:
    """Yield ``(output object, exit code)`` for each parsed JSON line."""
    for line in lines:
        if line.error is not None:
            yield _error_object(line.number, line.error), EXIT_BAD_INPUT
            continue
        try:
            result = run_check(check, line.value)
        except CheckInputError as exc:
            yield _error_object(line.number, exc), EXIT_BAD_INPUT
            continue
        if result.passed:
            code = EXIT_PASS
        elif result.outcome == "needs staff labels":
            code = EXIT_HELD
        else:
            code = EXIT_FAILED
        yield result.as_dict(), code


def _run_check_command(check: str, file: str | None, out: IO[bytes], err: IO[str]) -> int:
    prog = f"python -m helpers {check}"
    if file is None or file == "-":
        stream: IO[bytes] = sys.stdin.buffer
        source = "<stdin>"
    else:
        try:
            stream = open(file, "rb")
        except OSError as exc:
            err.write(f"{prog}: cannot open {file}: {exc.strerror}\n")
            return EXIT_USAGE
        source = file
    worst = EXIT_PASS
    count = 0
    try:
        for obj, code in check_lines(check, iter_json_lines(stream, source=source)):
            count += 1
            out.write(dumps_compact(obj).encode("utf-8") + b"\n")
            if _rank(code) > _rank(worst):
                worst = code
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    out.flush()
    if count == 0:
        err.write(f"{prog}: {source} has no input lines; nothing was checked\n")
        return EXIT_BAD_INPUT
    return worst


def _rebaseline(reason: str, fixtures: str | None, err: IO[str]) -> int:
    from .worked_answers import rebaseline_worked_answers

    try:
        new = rebaseline_worked_answers(reason, fixtures=Path(fixtures) if fixtures else None)
    except CheckInputError as exc:
        err.write(f"python -m helpers rebaseline: {exc}\n")
        return EXIT_BAD_INPUT
    kept = f"; version {new.version - 1} is kept in retained/" if new.version > 1 else ""
    err.write(
        f"wrote worked-answer baseline version {new.version} ({len(new.answers)} answers){kept}\n"
    )
    return EXIT_PASS


def _export_csv(check: str | None, output: str | None) -> int:
    from .cases import cases_to_csv, filled_cases

    text = cases_to_csv(filled_cases(check))
    if output is None:
        sys.stdout.buffer.write(text.encode("utf-8"))
    else:
        Path(output).write_text(text, encoding="utf-8", newline="")
    return EXIT_PASS


def _export_example(check: str, output: str | None) -> int:
    from .example import example_source

    text = example_source(check)
    if output is None:
        sys.stdout.buffer.write(text.encode("utf-8"))
    else:
        Path(output).write_text(text, encoding="utf-8", newline="")
    return EXIT_PASS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m helpers",
        description="Evaluation-integrity checks for pipelines.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_EPILOG,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in (
        ("target-scope", "does each rewrite keep exactly the original target IDs?"),
        ("sentinels", "does each proposed answer key keep every baseline sentinel?"),
    ):
        command = sub.add_parser(
            name,
            help=summary,
            description=summary,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=_EPILOG,
        )
        command.add_argument(
            "file", nargs="?", metavar="FILE", help="JSON Lines input (default: standard input)"
        )
    rebase = sub.add_parser(
        "rebaseline",
        help="accept changed worked answers: write a new baseline, keep the old one",
        description=(
            "Write a new baseline of the project's worked answers (the expected "
            "outputs in fixtures/) and keep the previous baseline under "
            "fixtures/worked_answers/retained/. Use only for an intentional change."
        ),
    )
    rebase.add_argument("--reason", required=True, help="why the worked answers changed")
    rebase.add_argument("--fixtures", help=argparse.SUPPRESS)
    export = sub.add_parser(
        "export-csv",
        help="write the filled cases as the editable CSV",
        description="Write the filled cases (fixtures/filled_cases.json) as editable CSV.",
    )
    export.add_argument("--check", choices=sorted(CHECKS), help="only this check's cases")
    export.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    example = sub.add_parser(
        "export-example",
        help="write a runnable, standard-library-only example of one check",
        description=(
            "Write one Python file holding the check (the helpers' own code) and its "
            "filled cases; run with plain python, it asserts every expected output."
        ),
    )
    example.add_argument("--check", required=True, choices=sorted(CHECKS), help="the check")
    example.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status. Taught in ``01_start_here.ipynb``."""
    args = _parser().parse_args(argv)
    if args.command in CHECKS:
        return _run_check_command(args.command, args.file, sys.stdout.buffer, sys.stderr)
    if args.command == "export-csv":
        return _export_csv(args.check, args.output)
    if args.command == "export-example":
        return _export_example(args.check, args.output)
    return _rebaseline(args.reason, args.fixtures, sys.stderr)
