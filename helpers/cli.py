"""Command line for pipelines: ``python -m helpers {target-scope,sentinels} [FILE]``.

Reads JSON Lines of input objects from FILE or standard input and writes one
compact JSON line per input line to standard output. See ``--help`` for the
output objects and exit codes. Taught in ``01_start_here.ipynb`` ("From the
command line").
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .core.checks import CHECKS, run_check
from .core.errors import CheckInputError, JSONLoadError
from .core.jsonio import JsonLine, dumps_compact, iter_json_lines
from .core.outcomes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_HELD, EXIT_PASS, EXIT_USAGE, code_for

__all__ = [
    "main",
    "EXIT_PASS",
    "EXIT_FAILED",
    "EXIT_USAGE",
    "EXIT_HELD",
    "EXIT_BAD_INPUT",
    "check_lines",
]



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
  2  usage error, FILE could not be opened, or output could not be written
     (an unwritable path, --results naming the input, a reader that closed
     the pipe early)
"""


_DATA_EPILOG = """\
real data files (taught in notebooks/05_check_your_data.ipynb)
  target-scope --format csv   CSV with a header row: id, original, rewritten
                              (required) and query, unresolved (optional); any
                              other column is an error. A list cell is a JSON
                              array, e.g. ["induction","refresher"]; with
                              --list-separator ';' it is induction;refresher
                              instead (an empty cell is an empty list). id must
                              not be empty. Lines are numbered from the header (1).
  sentinels --baseline FILE --proposed FILE
                              compare two answer keys. Each is a JSON object
                              {"S1":"R",...} (.json) or JSON Lines of
                              {"id":"S1","answer":"R"} (.jsonl or .ndjson); the
                              name sets the format unless --key-format is given.
                              An ID given twice is an error naming the ID and
                              both lines. Output: one line, the seeds' object
                              {"missing":[...],"changed":[...],"intact":...};
                              or, when a key has problems, one line per problem
                              {"source":FILE,"line":N|null,"field":...,"error":...}
                              and exit status 4, without running the check.

  JSON Lines and CSV are read one record at a time: memory stays flat however
  long the file is. Every bad record is reported with its line number, and the
  run goes on. Exit statuses are the same with or without the options below.

output options
  --carry          start each record's output object with "line", then the
                   input's "id" and "query" (as given) when it has them:
                   {"line":3,"id":"r3","missing":["refresher"],"added":[],...}
                   {"line":4,"id":"r4","field":"rewritten[0]","error":"..."}
  --summary        write a human-readable summary to standard output instead
                   of the per-record lines: counts by outcome, the targets
                   lost most often, and the first N failures, each explained
                   (a changed sentinel answer as a character diff: [-old-]{+new+}).
  --summary-json   write one JSON summary line instead, for pipelines:
                   records   {"check","source","records","outcomes":{label:N},
                              "changes":{"lost","added","lost and added"},
                              "most_often_lost":[{"id","count"}],
                              "most_often_lost_undercount":0,
                              "failures_total","failures":[{"line","id"?,
                              "query"?,"outcome","explanation","output"}],
                              "exit_status"}  ("changes" and "most_often_lost*"
                              for target-scope only)
                   two keys  {"check","baseline":{"source","format","ids"},
                              "proposed":{"source","format","ids","new_ids"},
                              "outcome","missing":{"count","first"}|null,
                              "changed":{"count","first":[{"id","baseline",
                              "proposed","diff"}]}|null,"errors_total",
                              "errors":[...],"exit_status"}
                   With either summary, every bad record is also written to
                   standard error as "FILE, line N: message".
  --max-failures N how many failures (or problems) a summary lists (default 20)
  --results FILE   with a summary, also write the per-record lines to FILE

  The most-often-lost counts stay exact while at most 10000 distinct targets
  are lost; beyond that they come from a bounded (Misra-Gries) count, and
  "most_often_lost_undercount" says by how much any count may be low.
"""


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
        yield result.as_dict(), code_for(result)


@dataclass(frozen=True)
class _DataOptions:
    """The data-file options of the check commands (all off by default)."""

    format: str = "jsonl"
    list_separator: str | None = None
    carry: bool = False
    summary: str | None = None  # None, "text" or "json"
    max_failures: int = 20
    results: str | None = None
    baseline: str | None = None
    proposed: str | None = None
    key_format: str | None = None


def _report_bad(err: IO[str], source: str) -> Callable[[Any], None]:
    """A callback writing each bad record to ``err`` as ``SOURCE, line N: message``."""

    def report(outcome: Any) -> None:
        error = outcome[3]
        message = error.detail if isinstance(error, JSONLoadError) else error.message
        err.write(f"{source}, line {outcome[0]}: {message}\n")

    return report


def _line_writer(out: IO[bytes], carry: bool) -> Callable[[Any], None]:
    """A callback writing each outcome's output object as one compact JSON line."""
    from .data.batch import output_object
    from .data.fastpath import PRESERVED, dumps_line

    write = out.write
    preserved = dumps_compact(PRESERVED.as_dict()).encode("utf-8") + b"\n"

    def write_line(outcome: Any) -> None:
        if not carry:
            if outcome[2] is PRESERVED:
                write(preserved)
            else:
                write(dumps_line(output_object(outcome)) + b"\n")
            return
        obj = output_object(outcome, carry=True)
        plain = all(type(obj.get(name, "")) is str for name in ("id", "query"))
        write((dumps_line(obj) if plain else dumps_compact(obj).encode("utf-8")) + b"\n")

    return write_line


def _run_check_command(
    check: str,
    file: str | None,
    out: IO[bytes],
    err: IO[str],
    options: _DataOptions | None = None,
) -> int:
    from .data.batch import BatchSummary, run_records
    from .data.reports import summary_json, summary_text

    options = options or _DataOptions()
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
    results: IO[bytes] | None = None
    if options.results is not None:
        if file not in (None, "-") and _same_file(file, options.results):
            err.write(f"{prog}: --results {options.results} is the input file; choose another path\n")
            stream.close()
            return EXIT_USAGE
        try:
            results = open(options.results, "wb")
        except OSError as exc:
            err.write(f"{prog}: cannot write {options.results}: {exc.strerror}\n")
            if stream is not sys.stdin.buffer:
                stream.close()
            return EXIT_USAGE
    each = bad = None
    if options.summary is None:
        each = _line_writer(out, options.carry)
    else:
        bad = _report_bad(err, source)
        if results is not None:
            each = _line_writer(results, options.carry)
    summary = BatchSummary(check=check, source=source, max_failures=options.max_failures)
    try:
        run_records(
            stream,
            summary,
            format=options.format,  # type: ignore[arg-type]
            list_separator=options.list_separator,
            each=each,
            bad=bad,
        )
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
        if results is not None:
            results.close()
    if options.summary == "text":
        out.write(summary_text(summary).encode("utf-8", "backslashreplace"))
    elif options.summary == "json":
        out.write(dumps_compact(summary_json(summary)).encode("utf-8") + b"\n")
    out.flush()
    if summary.records == 0:
        what = "no input lines" if options.format == "jsonl" else "no rows after the header"
        err.write(f"{prog}: {source} has {what}; nothing was checked\n")
    return summary.exit_code


def _run_key_command(options: _DataOptions, out: IO[bytes], err: IO[str]) -> int:
    """``sentinels --baseline FILE --proposed FILE``: compare two answer-key files."""
    from .data.batch import check_answer_keys
    from .data.reports import key_check_json, key_check_text, key_error_object
    from .data.sources import SourceFormatError, key_format_for, load_answer_key

    prog = "python -m helpers sentinels"
    keys = []
    for file in (options.baseline, options.proposed):
        assert file is not None
        try:
            fmt = options.key_format or key_format_for(file)
        except SourceFormatError:
            err.write(
                f"{prog}: cannot tell the format of {file} from its name; "
                "use --key-format json or --key-format jsonl\n"
            )
            return EXIT_USAGE
        try:
            stream = open(file, "rb")
        except OSError as exc:
            err.write(f"{prog}: cannot open {file}: {exc.strerror}\n")
            return EXIT_USAGE
        with stream:
            keys.append(load_answer_key(stream, source=file, format=fmt))  # type: ignore[arg-type]
    result = check_answer_keys(keys[0], keys[1])
    if options.summary is None:
        if result.result is not None:
            out.write(dumps_compact(result.result.as_dict()).encode("utf-8") + b"\n")
        for problem in result.errors:
            out.write(dumps_compact(key_error_object(problem)).encode("utf-8") + b"\n")
    else:
        for problem in result.errors:
            err.write(f"{problem}\n")
        if options.summary == "text":
            out.write(key_check_text(result, limit=options.max_failures).encode("utf-8", "backslashreplace"))
        else:
            data = key_check_json(result, limit=options.max_failures)
            out.write(dumps_compact(data).encode("utf-8") + b"\n")
    out.flush()
    return result.exit_code


def _rebaseline(reason: str, fixtures: str | None, err: IO[str]) -> int:
    from .teach.worked_answers import rebaseline_worked_answers

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


def _same_file(first: str, second: str) -> bool:
    """True when both paths name one file (the second need not exist yet)."""
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.abspath(first) == os.path.abspath(second)


def _write_text(text: str, output: str | None, command: str) -> int:
    """Write ``text`` to ``output`` (or standard output); an unwritable path exits 2."""
    if output is None:
        sys.stdout.buffer.write(text.encode("utf-8"))
        return EXIT_PASS
    try:
        Path(output).write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        sys.stderr.write(f"python -m helpers {command}: cannot write {output}: {exc.strerror}\n")
        return EXIT_USAGE
    return EXIT_PASS


def _export_csv(check: str | None, output: str | None) -> int:
    from .teach.cases import cases_to_csv, filled_cases

    return _write_text(cases_to_csv(filled_cases(check)), output, "export-csv")


def _export_example(check: str, output: str | None) -> int:
    from .publish.example import example_source

    return _write_text(example_source(check), output, "export-example")


def _add_data_options(command: argparse.ArgumentParser, check: str) -> None:
    data = command.add_argument_group("data files (see below)")
    if check == "target-scope":
        data.add_argument(
            "--format",
            choices=("jsonl", "csv"),
            default="jsonl",
            help="input format (default: jsonl)",
        )
        data.add_argument(
            "--list-separator",
            metavar="SEP",
            help="CSV only: list cells hold IDs joined by SEP instead of a JSON array",
        )
    else:
        data.add_argument("--baseline", metavar="FILE", help="the baseline answer key (with --proposed)")
        data.add_argument("--proposed", metavar="FILE", help="the proposed answer key (with --baseline)")
        data.add_argument(
            "--key-format",
            choices=("json", "jsonl"),
            help="format of both answer keys (default: from each file's name)",
        )
    output = command.add_argument_group("output (see below)")
    output.add_argument(
        "--carry", action="store_true", help='add "line", "id" and "query" to each output object'
    )
    which = output.add_mutually_exclusive_group()
    which.add_argument(
        "--summary", action="store_const", const="text", dest="summary",
        help="print a human-readable summary instead of per-record lines",
    )
    which.add_argument(
        "--summary-json", action="store_const", const="json", dest="summary",
        help="print one JSON summary line instead of per-record lines",
    )
    output.add_argument(
        "--max-failures", type=int, default=20, metavar="N",
        help="how many failures a summary lists (default: 20)",
    )
    output.add_argument(
        "--results", metavar="FILE", help="with a summary, also write the per-record lines to FILE"
    )


def _data_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> _DataOptions:
    """Validate the data-file options of a check command (usage errors exit 2)."""
    options = _DataOptions(
        format=getattr(args, "format", "jsonl"),
        list_separator=getattr(args, "list_separator", None),
        carry=args.carry,
        summary=args.summary,
        max_failures=args.max_failures,
        results=args.results,
        baseline=getattr(args, "baseline", None),
        proposed=getattr(args, "proposed", None),
        key_format=getattr(args, "key_format", None),
    )
    if options.max_failures < 0:
        parser.error("--max-failures must be 0 or more")
    if options.list_separator is not None and options.format != "csv":
        parser.error("--list-separator applies only with --format csv")
    if options.list_separator == "":
        parser.error("--list-separator must not be empty")
    if options.results is not None and options.summary is None:
        parser.error("--results goes with --summary or --summary-json")
    keys = (options.baseline, options.proposed)
    if any(k is not None for k in keys):
        if None in keys:
            parser.error("--baseline and --proposed go together")
        if args.file is not None:
            parser.error("give either FILE or --baseline and --proposed, not both")
        if options.carry or options.results is not None:
            parser.error("--carry and --results apply to record files, not to two keys")
    elif options.key_format is not None:
        parser.error("--key-format goes with --baseline and --proposed")
    return options


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
            epilog=_EPILOG + "\n" + _DATA_EPILOG,
        )
        command.add_argument(
            "file", nargs="?", metavar="FILE", help="JSON Lines input (default: standard input)"
        )
        _add_data_options(command, name)
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
    """Entry point; returns the exit status. Taught in ``01_start_here.ipynb``.

    A reader that closes the pipe early (``| head``) ends the run with
    :data:`EXIT_USAGE`, never a traceback or a status that reads as a verdict.
    """
    try:
        return _main(argv)
    except BrokenPipeError:
        # Python would report the closed pipe again at exit; send the rest nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.stderr.write("python -m helpers: output closed early; not every line was written\n")
        return EXIT_USAGE


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command in CHECKS:
        options = _data_options(parser, args)
        if options.baseline is not None:
            return _run_key_command(options, sys.stdout.buffer, sys.stderr)
        return _run_check_command(args.command, args.file, sys.stdout.buffer, sys.stderr, options)
    if args.command == "export-csv":
        return _export_csv(args.check, args.output)
    if args.command == "export-example":
        return _export_example(args.check, args.output)
    return _rebaseline(args.reason, args.fixtures, sys.stderr)
