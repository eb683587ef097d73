"""Command line for pipelines: ``python -m helpers {target-scope,sentinels} [FILE]``.

Reads JSON Lines of input objects from FILE or standard input and writes one
compact JSON line per input line to standard output. See ``--help`` for the
output objects and exit codes. Taught in ``01_start_here.ipynb`` ("From the
command line").
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from .core.checks import CHECKS
from .core.errors import CheckInputError, HelpersError
from .core.jsonio import dumps_compact, dumps_compact_deep
from .core.outcomes import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_HELD,
    EXIT_INTERRUPTED,
    EXIT_PASS,
    EXIT_USAGE,
)

if TYPE_CHECKING:
    import argparse

    from .core.files import PendingFile

__all__ = [
    "main",
    "EXIT_PASS",
    "EXIT_FAILED",
    "EXIT_USAGE",
    "EXIT_HELD",
    "EXIT_BAD_INPUT",
]


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
  target-scope --format parquet
                              a Parquet table whose columns are a record's
                              fields: original, rewritten (lists of strings),
                              optional id, query, rewritten_query, unresolved.
                              Rows are checked as JSON Lines records are, and
                              numbered from 1. Needs the parquet extra.
  sentinels --format FORMAT   the format of both keys (see docs/formats.md):
    trec-qrels                "query iteration document relevance", any run
                              of spaces or tabs between fields (as trec_eval)
    beir-tsv                  header query-id<TAB>corpus-id<TAB>score, one tab
                              between fields
    lm-eval-samples           lm-evaluation-harness samples: doc_id, target
    parquet                   --id-column COL (twice, query then document, for
                              qrels) and --answer-column COL; needs the parquet
                              extra (pip install 'eval-integrity-helpers[parquet]')
                              A judgement's ID is the JSON array
                              ["query","document"]; the answer is the label as
                              written (1 and 01 differ); no other character
                              is a separator or trimmed.
  --engine python|duckdb|auto  parquet only: duckdb checks the table (or the two
                              keys) in DuckDB, with the same output bytes; auto
                              picks it from 1 MiB of Parquet. Needs the duckdb
                              extra. Not with --carry; --sentinels and any input
                              DuckDB cannot vouch for take the Python route.
  sentinels ... --max-file-mb MB
                              refuse a key or sentinel list over MB (default
                              512) unread: a key is held in memory whole. A
                              FIFO, a device or a file under /proc is refused
                              unread on every command (exit status 2).
  sentinels ... --sentinels IDS
                              check only the IDs listed in IDS (one a line,
                              written as the key's IDs are) of a full baseline;
                              with a summary, the other judgements that changed,
                              were dropped or were added are counted apart.

  JSON Lines and CSV are read one record at a time: memory stays flat however
  long the file is. A file that grows while it is read is checked as far as
  it went when the run opened it. Every bad record is reported with its line number, and the
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
  --results FILE   with a summary, also write the per-record lines to FILE;
                   it appears only when the run ends normally

  The most-often-lost counts stay exact while at most 10000 distinct targets
  are lost; beyond that they come from a bounded (Misra-Gries) count, and
  "most_often_lost_undercount" says by how much any count may be low.
"""


#: ``--max-file-mb``'s default: helpers.data.inputs.MAX_KEY_BYTES, in MB.
_MAX_FILE_MB = 512.0


class _DataOptions(NamedTuple):
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
    id_columns: tuple[str, ...] = ()
    answer_column: str | None = None
    sentinels: str | None = None
    max_file_mb: float = _MAX_FILE_MB
    engine: str = "python"
    spark_master: str = "local[2]"


#: The engines of ``--engine`` (docs/sql.md, "The engines").
_ENGINES = ("python", "duckdb", "spark", "auto")

#: From this many MiB of Parquet (a rewrites table, or two answer keys together), ``--engine auto``
#: picks DuckDB: the size where DuckDB's route overtakes the Python one (measured: docs/performance.md).
_AUTO_DUCKDB_MIB = 1
_AUTO_DUCKDB_BYTES = _AUTO_DUCKDB_MIB << 20


def _engine_refusal(check: str, options: _DataOptions, keys: bool) -> str | None:
    """Why ``--engine duckdb`` cannot take this input (one line), or ``None``."""
    if options.engine != "duckdb":
        return None
    from .data.duckdb_engine import duckdb_missing

    if (missing := duckdb_missing()) is not None:
        return missing
    if check == "target-scope":
        if options.format != "parquet":
            return (
                "--engine duckdb reads Parquet rewrites (--format parquet); JSON Lines and CSV "
                "take the Python route (--engine python or auto)"
            )
        if options.carry:
            return "--engine duckdb writes no --carry; use --engine python (or auto) with --carry"
        return None
    if not keys or options.key_format != "parquet":
        return (
            "--engine duckdb compares two Parquet answer keys (--baseline, --proposed, --format parquet); "
            "other key formats and records take the Python route (--engine python or auto)"
        )
    return None


def _auto_picks_duckdb(paths: Sequence[str | None]) -> bool:
    """``--engine auto``: true when the files together reach the threshold and DuckDB is installed."""
    from .data.duckdb_engine import duckdb_missing

    try:
        size = sum(os.stat(f).st_size for f in paths if f)
    except OSError:
        return False
    return size >= _AUTO_DUCKDB_BYTES and duckdb_missing() is None


def _engine_scope_blocks(file: str | None, options: _DataOptions) -> Any:
    """The batch loop's blocks from DuckDB for a Parquet rewrites file, or ``None`` for the Python route."""
    if options.engine in ("python", "spark") or options.format != "parquet" or options.carry:
        return None
    if file is None or file == "-":
        return None  # DuckDB reads a file by its path
    if options.engine == "auto" and not _auto_picks_duckdb([file]):
        return None
    from .data.duckdb_scope import scope_parquet_blocks

    return scope_parquet_blocks(file)


def _engine_key_check(options: _DataOptions, err: IO[str]) -> Any:
    """The key pair checked by DuckDB, or ``None`` for the Python route (see docs/sql.md)."""
    if options.engine == "python" or options.key_format != "parquet" or options.sentinels is not None:
        return None
    assert options.baseline is not None and options.proposed is not None
    assert options.answer_column is not None
    if options.engine == "spark":
        from .data import spark_engine

        return spark_engine.check_parquet_keys(
            options.baseline,
            options.proposed,
            id_columns=options.id_columns,
            answer_column=options.answer_column,
            master=options.spark_master,
        )
    from .data.duckdb_engine import check_parquet_keys

    if options.engine == "auto" and not _auto_picks_duckdb([options.baseline, options.proposed]):
        return None
    return check_parquet_keys(
        options.baseline, options.proposed, id_columns=options.id_columns, answer_column=options.answer_column
    )


#: The answer-key formats of ``sentinels --format`` (``helpers.data.key_formats.KEY_FORMATS``).
_KEY_FORMATS = ("json", "jsonl", "trec-qrels", "beir-tsv", "lm-eval-samples", "parquet")


def _missing_spark(options: _DataOptions) -> str | None:
    """With ``--engine spark``: why Spark cannot run here (pyspark or Java is missing), or ``None``."""
    if options.engine != "spark":
        return None
    from .data.spark_engine import spark_missing

    return spark_missing()


def _missing_parquet() -> str | None:
    """Why Parquet cannot be read here (pyarrow is missing: name the extra), or ``None``."""
    from .data.parquet_tables import MissingExtraError, require_pyarrow

    try:
        require_pyarrow()
    except MissingExtraError as exc:
        return exc.message
    return None


class _Unclosed:
    """Standard input for reading, left open when the run closes its input."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.read = getattr(stream, "read1", stream.read)

    def fileno(self) -> int:
        return self.stream.fileno()

    def __iter__(self) -> Any:
        return iter(self.stream)

    def close(self) -> None:
        pass


def _identity(stream: Any) -> tuple[int, int] | None:
    """``(st_dev, st_ino)`` of an open stream's file, or ``None``."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return (info.st_dev, info.st_ino)


def _names_an_input(path: str, inputs: Iterable[tuple[int, int] | None]) -> bool:
    """True when ``path`` is one of the open inputs (compared by device and inode)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return (info.st_dev, info.st_ino) in set(inputs)


def _open_results(path: str) -> Any:
    """``--results FILE`` opened for writing, as a :class:`_Sink` (its errors exit 2).

    A regular file (or a new one) is written beside its place and takes it only when
    the run finishes (:class:`~helpers.core.files.PendingFile`), so an interrupted or
    failed run never leaves a partial file; a device or a pipe is written as it goes.
    """
    from .core.files import PendingFile

    target = os.path.realpath(path)
    try:
        regular = stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        regular = True
    if not regular:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        return _Sink(fd, path, owned=True)
    pending = PendingFile(target)
    return _Sink(pending.fd, path, pending=pending)


def _hold_ctrl_c() -> Any:
    """Hold back Ctrl-C (SIGINT) by noting it; returns what :func:`_release_ctrl_c` restores.

    A handler that only notes the signal works whichever thread the signal lands on;
    outside the main thread no handler can be set, and ``None`` holds nothing back.
    """
    import signal

    came: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda number, _frame: came.append(number))
    except ValueError:
        return None
    return previous, came


def _release_ctrl_c(held: Any) -> None:
    """Restore the SIGINT handler; a Ctrl-C that came meanwhile is handled now, as it would have been."""
    if held is None:
        return
    import signal

    previous, came = held
    signal.signal(signal.SIGINT, previous)
    if came:
        if callable(previous):
            previous(signal.SIGINT, None)  # the default handler raises KeyboardInterrupt
        elif previous == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)


def _run_check_command(
    check: str,
    file: str | None,
    out: IO[bytes],
    err: IO[str],
    options: _DataOptions | None = None,
) -> int:
    from .data.batch import BatchSummary, check_records

    options = options or _DataOptions()
    prog = f"python -m helpers {check}"
    if options.format == "parquet" and (missing := _missing_parquet()) is not None:
        err.write(f"{prog}: {missing}\n")
        return EXIT_USAGE
    if (refusal := _engine_refusal(check, options, keys=False)) is not None:
        err.write(f"{prog}: {refusal}\n")
        return EXIT_USAGE
    if options.engine == "spark" and (file is None or file == "-"):
        err.write(f"{prog}: --engine spark reads a FILE, not standard input\n")
        return EXIT_USAGE
    if (missing := _missing_spark(options)) is not None:
        err.write(f"{prog}: {missing}\n")
        return EXIT_USAGE
    if file is None or file == "-":
        if _STDIN_CLOSED:
            err.write(f"{prog}: cannot read standard input: it is closed\n")
            return EXIT_USAGE
        stream: Any = _Unclosed(sys.stdin.buffer)
        source = "<stdin>"
    else:
        from .data.inputs import open_snapshot

        try:
            stream = open_snapshot(file)  # a regular file is read as far as it went at the start
        except OSError as exc:
            err.write(f"{prog}: cannot open {file}: {exc.strerror}\n")
            return EXIT_USAGE
        source = file
    results: Any = None
    held = None
    if options.results is not None:
        if _names_an_input(options.results, [_identity(stream)]) or (
            file not in (None, "-") and _same_file(file, options.results)
        ):
            what = "the input file" if source != "<stdin>" else "the standard input"
            err.write(f"{prog}: --results {options.results} is {what}; choose another path\n")
            stream.close()
            return EXIT_USAGE
        held = _hold_ctrl_c()  # until the results file is in hand, to be discarded below
        try:
            results = _open_results(options.results)
        except OSError as exc:
            _release_ctrl_c(held)
            err.write(f"{prog}: cannot write {options.results}: {exc.strerror}\n")
            stream.close()
            return EXIT_USAGE
    summary = BatchSummary(check=check, source=source, max_failures=options.max_failures)
    try:
        _release_ctrl_c(held)  # a Ctrl-C held back meanwhile is raised here
        if options.summary is None:
            out.flush()  # a worker process must not inherit unwritten output
        write = out.write if options.summary is None else None if results is None else results.write
        engine_blocks = _engine_scope_blocks(file, options) if check == "target-scope" else None
        engine_summary = None
        if engine_blocks is not None:
            from .data.batch import check_blocks

            check_blocks(
                engine_blocks,
                summary,
                write=write,
                bad_lines=None if options.summary is None else err,
            )
        elif options.engine == "spark":
            from .data.spark_engine import check_scope_file

            try:
                engine_summary = check_scope_file(
                    source,
                    summary,
                    format=options.format,
                    write=write,
                    carry=options.carry,
                    bad_lines=None if options.summary is None else err,
                    master=options.spark_master,
                )
            except HelpersError as exc:  # Spark did not start, or failed part-way
                err.write(f"{prog}: {exc}\n")
                return EXIT_USAGE
        if engine_blocks is None and engine_summary is None:
            check_records(
                stream,
                summary,
                format=options.format,  # type: ignore[arg-type]
                list_separator=options.list_separator,
                write=write,
                carry=options.carry,
                bad_lines=None if options.summary is None else err,
                parallel=options.summary is None,
            )
        if results is not None:
            results.close()
    finally:
        stream.close()
        if results is not None:
            results.discard()
    if options.summary == "text":
        from .data.reports import summary_text

        out.write(summary_text(summary).encode("utf-8", "backslashreplace"))
    elif options.summary == "json":
        from .data.reports import summary_json

        out.write(dumps_compact_deep(summary_json(summary)).encode("utf-8") + b"\n")
    out.flush()
    if summary.records == 0:
        what = {"jsonl": "no input lines", "parquet": "no rows"}.get(
            options.format, "no rows after the header"
        )
        err.write(f"{prog}: {source} has {what}; nothing was checked\n")
    return summary.exit_code


def _run_key_command(options: _DataOptions, out: IO[bytes], err: IO[str]) -> int:
    """``sentinels --baseline FILE --proposed FILE``: compare two answer-key files."""
    from .data.batch import check_answer_keys
    from .data.id_display import PAIR_FORMATS
    from .data.key_formats import read_key
    from .data.sources import SourceFormatError, key_format_for

    prog = "python -m helpers sentinels"
    if options.key_format == "parquet" and (missing := _missing_parquet()) is not None:
        err.write(f"{prog}: {missing}\n")
        return EXIT_USAGE
    if (refusal := _engine_refusal("sentinels", options, keys=True)) is not None:
        err.write(f"{prog}: {refusal}\n")
        return EXIT_USAGE
    if (missing := _missing_spark(options)) is not None:
        err.write(f"{prog}: {missing}\n")
        return EXIT_USAGE
    try:
        engine_check = _engine_key_check(options, err)
    except HelpersError as exc:  # Spark did not start (a check's refusals go to the Python route)
        err.write(f"{prog}: {exc}\n")
        return EXIT_USAGE
    if engine_check is not None:
        return _write_key_check(engine_check, options, out, err)
    keys: list[Any] = []
    sentinels: Any = None
    for file in (options.baseline, options.proposed, options.sentinels):
        if file is None:
            continue
        try:
            fmt = options.key_format or ("" if len(keys) == 2 else key_format_for(file))
        except SourceFormatError:
            err.write(
                f"{prog}: cannot tell the format of {file} from its name; "
                "use --format (or --key-format) json or jsonl, or name another format\n"
            )
            return EXIT_USAGE
        from .data.inputs import open_snapshot

        try:  # a FIFO, a device or /proc is refused unread; so is a file over --max-file-mb
            stream = open_snapshot(file, max_bytes=int(options.max_file_mb * 2**20))
        except OSError as exc:
            hint = " (raise the limit with --max-file-mb)" if exc.errno == errno.EFBIG else ""
            err.write(f"{prog}: cannot open {file}: {exc.strerror}{hint}\n")
            return EXIT_USAGE
        with stream:
            try:
                if len(keys) == 2:
                    from .data.key_subset import read_sentinel_ids

                    pairs = len(options.id_columns) == 2 or keys[0].format in PAIR_FORMATS
                    sentinels = read_sentinel_ids(stream, source=file, pairs=pairs)
                    break
                keys.append(
                    read_key(
                        stream,
                        source=file,
                        format=fmt,  # type: ignore[arg-type]
                        id_columns=options.id_columns,
                        answer_column=options.answer_column,
                    )
                )
            except OSError as exc:
                err.write(f"{prog}: cannot read {file}: {exc.strerror or type(exc).__name__}\n")
                return EXIT_USAGE
    if options.sentinels is not None:
        return _write_subset_check(keys[0], keys[1], sentinels, options, out, err)
    result = check_answer_keys(keys[0], keys[1], pairs=True if len(options.id_columns) == 2 else None)
    return _write_key_check(result, options, out, err)


def _write_key_check(result: Any, options: _DataOptions, out: IO[bytes], err: IO[str]) -> int:
    """Write a :class:`~helpers.data.batch.KeyCheck` as result lines or a summary."""
    from .data.reports import key_check_json, key_check_text, key_error_object, key_result_json

    if options.summary is None:
        if result.result is not None:
            out.write(dumps_compact(key_result_json(result)).encode("utf-8") + b"\n")
        for problem in result.errors:
            out.write(dumps_compact(key_error_object(problem, pairs=result.pairs)).encode("utf-8") + b"\n")
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


def _write_subset_check(
    baseline: Any, proposed: Any, sentinels: Any, options: _DataOptions, out: IO[bytes], err: IO[str]
) -> int:
    """``--sentinels FILE``: check only the listed sentinels; a summary counts the other changes."""
    from .data.key_subset import check_sentinel_subset, subset_check_json, subset_check_text
    from .data.reports import key_error_object, key_result_json

    subset = check_sentinel_subset(
        baseline, proposed, sentinels, pairs=True if len(options.id_columns) == 2 else None
    )
    result = subset.check
    if options.summary is None:
        if result.result is not None:
            out.write(dumps_compact(key_result_json(result)).encode("utf-8") + b"\n")
        for problem in result.errors:
            out.write(dumps_compact(key_error_object(problem, pairs=result.pairs)).encode("utf-8") + b"\n")
    else:
        for problem in result.errors:
            err.write(f"{problem}\n")
        if options.summary == "text":
            text = subset_check_text(subset, limit=options.max_failures)
            out.write(text.encode("utf-8", "backslashreplace"))
        else:
            data = subset_check_json(subset, limit=options.max_failures)
            out.write(dumps_compact(data).encode("utf-8") + b"\n")
    out.flush()
    return subset.exit_code


def _rebaseline(reason: str, fixtures: str | None, err: IO[str]) -> int:
    from .teach.worked_answers import rebaseline_worked_answers

    try:
        from pathlib import Path

        new = rebaseline_worked_answers(reason, fixtures=Path(fixtures) if fixtures else None)
    except CheckInputError as exc:
        err.write(f"python -m helpers rebaseline: {exc}\n")
        return EXIT_BAD_INPUT
    except OSError as exc:  # a full disk, a read-only folder: nothing changed, so it can be retried
        where = f" {exc.filename}" if exc.filename else ""
        err.write(
            f"python -m helpers rebaseline: cannot write{where}: {exc.strerror or exc}; "
            "nothing was changed, so fix that and run it again\n"
        )
        return EXIT_USAGE
    kept = f"; version {new.version - 1} is kept in retained/" if new.version > 1 else ""
    err.write(f"wrote worked-answer baseline version {new.version} ({len(new.answers)} answers){kept}\n")
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
        _STDOUT.write(text.encode("utf-8"))
        return EXIT_PASS
    try:
        with open(output, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        _STDERR.write(f"python -m helpers {command}: cannot write {output}: {exc.strerror}\n")
        return EXIT_USAGE
    return EXIT_PASS


def _export_csv(check: str | None, output: str | None) -> int:
    from .teach.cases import cases_to_csv, filled_cases

    return _write_text(cases_to_csv(filled_cases(check)), output, "export-csv")


def _export_example(check: str, output: str | None) -> int:
    from .publish.example import example_source

    return _write_text(example_source(check), output, "export-example")


def _practice_generate(rule: str, seed: int, count: int) -> int:
    """``practice generate``: fresh practice cases as JSON Lines (taught in ``04_practice.ipynb``)."""
    from .teach.generators import GENERATORS, generate_many, generated_case_data

    if rule != "all" and rule not in GENERATORS:
        _STDERR.write(
            f"python -m helpers practice generate: no rule {rule!r}; choose all or one of: "
            f"{', '.join(GENERATORS)}\n"
        )
        return EXIT_USAGE
    if seed < 0 or count < 1:
        _STDERR.write("python -m helpers practice generate: --seed must be 0 or more and --count 1 or more\n")
        return EXIT_USAGE
    for case in generate_many(rule, seed, count):
        _STDOUT.write((dumps_compact(generated_case_data(case)) + "\n").encode("utf-8"))
    return EXIT_PASS


def _cohort(
    paths: Sequence[str],
    csv_path: str | None,
    as_json: bool = False,
    checkouts: Sequence[str] = (),
    *,
    trainer_dir: str | None = None,
    require_proctored: bool = False,
    use_cache: bool = True,
) -> int:
    """``cohort``: the trainer's table over progress files, re-graded (taught in ``06_trainer.ipynb``).

    The verdict cache in the trainer's folder (:mod:`helpers.teach.verdict_cache`) spares the files
    unchanged since the last run, unless ``use_cache`` is false (``--no-cache``). A run that takes
    more than a couple of seconds shows its progress on standard error when that is a terminal and
    the output is not ``--json``.
    """
    from .teach.cohort import cohort_csv, cohort_json_lines, cohort_text, load_cohort, progress_paths, shown

    files = progress_paths(paths)
    if csv_path is not None and any(_same_file(str(f), csv_path) for f in files if os.path.lexists(f)):
        _STDERR.write(f"python -m helpers cohort: --csv {csv_path} is one of the progress files\n")
        return EXIT_USAGE
    from .teach.generators import generators_fingerprint
    from .teach.trainer import TrainerSecret, TrainerSecretError
    from .teach.verdict_cache import VerdictCache

    line = _ProgressLine(_STDERR) if not as_json and _stderr_is_terminal() else None
    try:
        if checkouts:
            TrainerSecret.open(trainer_dir)  # refused before any file is read
        cache = VerdictCache.open(trainer_dir, course=generators_fingerprint()) if use_cache else None
        try:
            cohort = load_cohort(
                files,
                checkouts=checkouts,
                trainer_dir=trainer_dir,
                require_proctored=require_proctored,
                cache=cache,
                progress=line.update if line is not None else None,
            )
        finally:
            if line is not None:
                line.clear()
    except TrainerSecretError as exc:
        _STDERR.write(f"python -m helpers cohort: {exc}\n")
        return EXIT_USAGE
    for note in cohort.notes:
        _STDERR.write(f"python -m helpers cohort: {shown(note, 400)}\n")
    if not cohort.trainees and not cohort.unreadable:
        _STDERR.write("python -m helpers cohort: no progress files found\n")
        return EXIT_BAD_INPUT
    _STDOUT.write(
        (cohort_json_lines(cohort) if as_json else cohort_text(cohort)).encode("utf-8", "backslashreplace")
    )
    if csv_path is not None and _write_text(cohort_csv(cohort), csv_path, "cohort") != EXIT_PASS:
        return EXIT_USAGE
    return EXIT_BAD_INPUT if cohort.unreadable else EXIT_PASS


def _stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (a person watching), not a pipe or a file."""
    stream = sys.stderr
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


class _ProgressLine:
    """Files done of the total and the time left, on one line of a terminal, redrawn in place.

    Nothing is shown for the first :attr:`AFTER` seconds (a short run prints nothing extra),
    then at most every :attr:`EVERY` seconds; :meth:`clear` wipes the line before the output.
    """

    AFTER = 2.0
    EVERY = 0.25

    def __init__(self, stream: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self.first: tuple[float, int] | None = None  # when the first update came, and files done then
        self.drawn = 0.0
        self.width = 0

    def update(self, done: int, total: int) -> None:
        now = self.clock()
        if self.first is None:
            self.first = (now, done)
        if now - self.started < self.AFTER or (now - self.drawn < self.EVERY and done < total):
            return
        since, done_then = self.first
        rate = (done - done_then) / (now - since) if now > since else 0.0
        left = f"about {_duration((total - done) / rate)} left" if rate > 0 else "working out the time left"
        line = f"cohort: {done:,} of {total:,} files re-graded; {left}"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)
        self.drawn = now

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _duration(seconds: float) -> str:
    """``5 s``, ``2 min 10 s`` or ``1 h 3 min``."""
    whole = max(round(seconds), 1)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def _surrogates(text: str) -> bool:
    """True when ``text`` holds bytes that were not UTF-8 (lone surrogates from the command line)."""
    return any("\ud800" <= char <= "\udfff" for char in text)


def _trainer(args: Any, command: str, *, create: bool = False) -> Any:
    """The trainer's secret for ``args.trainer_dir``; None after one line on standard error."""
    from .teach.trainer import TrainerSecret, TrainerSecretError

    try:
        return TrainerSecret.open(args.trainer_dir, create=create)
    except TrainerSecretError as exc:
        _STDERR.write(f"python -m helpers {command}: {exc}\n")
        return None


def _checkout_issue(args: Any) -> int:
    """``checkout issue``: a check-out paper for one trainee, and its key (taught in ``07_checkout.ipynb``)."""
    from .core.errors import CheckoutFileError
    from .teach.checkout import issue_checkout, write_checkout
    from .teach.trainer import TrainerSecretError

    if _surrogates(args.trainee):
        _STDERR.write("python -m helpers checkout issue: --trainee is not UTF-8 text; nothing was written\n")
        return EXIT_USAGE
    try:
        issued = issue_checkout(args.trainee, count=args.count, seed=args.seed)
    except CheckInputError as exc:
        _STDERR.write(f"python -m helpers checkout issue: {exc.message}\n")
        return EXIT_USAGE
    from .teach.trainer import SECRET_NAME, trainer_dir

    new_secret = not os.path.lexists(trainer_dir(args.trainer_dir) / SECRET_NAME)
    trainer = _trainer(args, "checkout issue", create=True)
    if trainer is None:
        return EXIT_USAGE
    try:
        paper, key, baseline = write_checkout(
            issued,
            args.output,
            args.key,
            force=args.force,
            trainer=trainer,
            practice=args.seed is not None,
            cooldown_hours=args.cooldown,
        )
    except CheckInputError as exc:
        _STDERR.write(f"python -m helpers checkout issue: {exc.message}; nothing was written\n")
        return EXIT_USAGE
    except (CheckoutFileError, TrainerSecretError) as exc:
        _STDERR.write(f"python -m helpers checkout issue: {exc}\n")
        return EXIT_USAGE
    practice = (
        " (a practice paper: its seed was chosen, so it never counts towards readiness)"
        if args.seed is not None
        else ""
    )
    if new_secret:
        _STDERR.write(f"made the trainer's secret {trainer.path} (owner-only; keep it, and never share it)\n")
    _STDERR.write(
        f"wrote the paper {paper} ({len(issued.paper['cases'])} cases) for the trainee{practice}; "
        f"kept the key {key} and its baseline {baseline} for the trainer, signed with the secret in "
        f"{trainer.folder}\n"
    )
    return EXIT_PASS


def _checkout_proctor(args: Any) -> int:
    """``checkout proctor``: one proctored paper for one trainee, served through Voilà on 127.0.0.1."""
    from .core.errors import CheckoutFileError
    from .teach.trainer import TrainerSecretError

    if _surrogates(args.trainee):
        _STDERR.write("python -m helpers checkout proctor: --trainee is not UTF-8 text; nothing was issued\n")
        return EXIT_USAGE
    try:
        from .publish.proctor import proctor_command, proctor_environment, write_proctor_notebook
        from .teach.proctoring import prepare_sitting
    except ImportError as exc:
        _STDERR.write(f"python -m helpers checkout proctor: needs the app extra (voila): {exc}\n")
        return EXIT_USAGE
    trainer = _trainer(args, "checkout proctor", create=True)
    if trainer is None:
        return EXIT_USAGE
    try:
        sitting = prepare_sitting(args.trainee, trainer, count=args.count)
        notebook = write_proctor_notebook()
    except (CheckInputError, CheckoutFileError, TrainerSecretError, OSError) as exc:
        _STDERR.write(
            f"python -m helpers checkout proctor: {getattr(exc, 'message', exc)}; nothing was served\n"
        )
        return EXIT_USAGE
    command = proctor_command(notebook, port=args.port, open_browser=False)
    result = trainer.folder / "results" / f"{sitting.name}.json"
    port = args.port or 8866
    _STDERR.write(
        f"Proctored paper {sitting.name} for {_plain_name(args.trainee)}: the result will be {result}. "
        "Stop with Ctrl+C once it is handed in. The trainee opens:\n"
        f"http://127.0.0.1:{port}/\n"
    )
    _STDERR.flush()
    os.chdir(notebook.parent)
    os.execve(command[0], command, proctor_environment(sitting, trainer.folder))
    return EXIT_PASS  # not reached


def _plain_name(text: str) -> str:
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _write_new_text(text: str, output: str, command: str, *, force: bool) -> int:
    """Write ``text`` to a new file ``output`` atomically; an existing one is replaced only with ``force``."""
    from .core.files import write_atomically

    try:
        write_atomically(output, text, replace=force)
    except FileExistsError:
        _STDERR.write(
            f"python -m helpers {command}: {output} already exists; it was not replaced (--force replaces it)\n"
        )
        return EXIT_USAGE
    except OSError as exc:
        _STDERR.write(
            f"python -m helpers {command}: cannot write {output}: {exc.strerror}; it is as it was\n"
        )
        return EXIT_USAGE
    return EXIT_PASS


def _checkout_grade(args: Any) -> int:
    """``checkout grade``: verdicts per case, field and rule, and pass or fail (exit 0 or 1)."""
    import json

    from .core.errors import CheckoutFileError
    from .teach.bounded_file import MAX_CHECKOUT_BYTES
    from .teach.checkout import grade_files, key_baseline_path, result_csv, result_text
    from .teach.trainer import TrainerSecretError

    inputs = (args.answers, args.key, args.baseline or str(key_baseline_path(args.key)))
    if args.csv is not None and any(_same_file(f, args.csv) for f in inputs if os.path.exists(f)):
        _STDERR.write(f"python -m helpers checkout grade: --csv {args.csv} is one of the input files\n")
        return EXIT_USAGE
    if args.csv is not None and not args.force and os.path.lexists(args.csv):
        _STDERR.write(
            f"python -m helpers checkout grade: --csv {args.csv} already exists; nothing was graded "
            "(--force replaces it)\n"
        )
        return EXIT_USAGE
    trainer = _trainer(args, "checkout grade")
    if trainer is None:
        return EXIT_USAGE
    try:
        result = grade_files(
            args.answers,
            args.key,
            args.baseline,
            trainer=trainer,
            max_bytes=args.max_bytes or MAX_CHECKOUT_BYTES,
        )
    except CheckoutFileError as exc:
        _STDERR.write(f"python -m helpers checkout grade: {exc}; nothing was graded\n")
        return EXIT_BAD_INPUT
    except TrainerSecretError as exc:
        _STDERR.write(f"python -m helpers checkout grade: {exc}; nothing was graded\n")
        return EXIT_USAGE
    if args.json:
        _STDOUT.write((json.dumps(result.to_data(), ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    else:
        _STDOUT.write(result_text(result).encode("utf-8"))
    if (
        args.csv is not None
        and _write_new_text(result_csv(result), args.csv, "checkout grade", force=args.force) != EXIT_PASS
    ):
        return EXIT_USAGE
    return EXIT_PASS if result.passed else EXIT_FAILED


def _size(text: str) -> int:
    """``--max-bytes``: a size such as ``64MB``."""
    import argparse

    from .teach.bounded_file import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_data_options(command: argparse.ArgumentParser, check: str) -> None:
    data = command.add_argument_group("data files (see below)")
    if check == "target-scope":
        data.add_argument(
            "--format",
            choices=("jsonl", "csv", "parquet"),
            default="jsonl",
            help="input format (default: jsonl; parquet needs the parquet extra)",
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
            "--format",
            "--key-format",
            dest="key_format",
            choices=_KEY_FORMATS,
            help="format of both answer keys (default: json or jsonl, from each file's name)",
        )
        data.add_argument(
            "--id-column",
            action="append",
            metavar="COL",
            help="parquet: the ID column; give it twice (query, then document) for a qrels table",
        )
        data.add_argument("--answer-column", metavar="COL", help="parquet: the answer column")
        data.add_argument(
            "--sentinels",
            metavar="IDS",
            help="check only these IDs of a full baseline (one ID a line; for qrels, 'qid docid' lines)",
        )
        data.add_argument(
            "--max-file-mb",
            type=float,
            default=_MAX_FILE_MB,
            metavar="MB",
            help="refuse an answer key or sentinel list larger than this, unread (default: 512)",
        )
    data.add_argument(
        "--engine",
        choices=_ENGINES,
        default="python",
        help="python (default); duckdb for Parquet, or spark for JSON Lines rewrites and Parquet keys "
        f"(same output bytes); auto picks duckdb for Parquet of {_AUTO_DUCKDB_MIB} MiB or more",
    )
    data.add_argument(
        "--spark-master",
        default="local[2]",
        metavar="URL",
        help="with --engine spark: the Spark master (default: local[2]; e.g. spark://host:7077)",
    )
    output = command.add_argument_group("output (see below)")
    output.add_argument(
        "--carry", action="store_true", help='add "line", "id" and "query" to each output object'
    )
    which = output.add_mutually_exclusive_group()
    which.add_argument(
        "--summary",
        action="store_const",
        const="text",
        dest="summary",
        help="print a human-readable summary instead of per-record lines",
    )
    which.add_argument(
        "--summary-json",
        action="store_const",
        const="json",
        dest="summary",
        help="print one JSON summary line instead of per-record lines",
    )
    output.add_argument(
        "--max-failures",
        type=int,
        default=20,
        metavar="N",
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
        id_columns=tuple(getattr(args, "id_column", None) or ()),
        answer_column=getattr(args, "answer_column", None),
        sentinels=getattr(args, "sentinels", None),
        max_file_mb=getattr(args, "max_file_mb", _MAX_FILE_MB),
        engine=getattr(args, "engine", "python"),
        spark_master=args.spark_master,
    )
    if not 0 < options.max_file_mb < float("inf"):
        parser.error("--max-file-mb must be a number of MB more than 0")
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
    elif options.key_format is not None or options.sentinels is not None:
        parser.error("--format, --key-format and --sentinels go with --baseline and --proposed")
    if options.key_format == "parquet":
        if len(options.id_columns) not in (1, 2) or options.answer_column is None:
            parser.error(
                "--format parquet needs --answer-column and --id-column "
                "(once, or twice: query then document, for a qrels table)"
            )
    elif options.id_columns or options.answer_column is not None:
        parser.error("--id-column and --answer-column apply only with --format parquet")
    return options


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser; with ``only``, only that command's arguments are added.

    Building every command's arguments costs a noticeable part of a short run's
    start-up, and a run uses one command.
    """
    argparse, Parser = _argparse()

    def wanted(name: str) -> bool:
        return only is None or only == name

    parser = Parser(
        prog="python -m helpers",
        description="Evaluation-integrity checks for pipelines.",
        formatter_class=Parser.raw,
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
            formatter_class=Parser.raw,
            epilog=_EPILOG + "\n" + _DATA_EPILOG,
        )
        if wanted(name):
            command.add_argument(
                "file", nargs="?", metavar="FILE", help="JSON Lines input (default: standard input)"
            )
            _add_data_options(command, name)
    rebase = sub.add_parser(
        "rebaseline",
        formatter_class=Parser.plain,
        help="accept changed worked answers: write a new baseline, keep the old one",
        description=(
            "Write a new baseline of the project's worked answers (the expected "
            "outputs in fixtures/) and keep the previous baseline under "
            "fixtures/worked_answers/retained/. Use only for an intentional change."
        ),
    )
    if wanted("rebaseline"):
        rebase.add_argument("--reason", required=True, help="why the worked answers changed")
        rebase.add_argument("--fixtures", help=argparse.SUPPRESS)
    export = sub.add_parser(
        "export-csv",
        formatter_class=Parser.plain,
        help="write the filled cases as the editable CSV",
        description="Write the filled cases (fixtures/filled_cases.json) as editable CSV.",
    )
    if wanted("export-csv"):
        export.add_argument("--check", choices=sorted(CHECKS), help="only this check's cases")
        export.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    example = sub.add_parser(
        "export-example",
        formatter_class=Parser.plain,
        help="write a runnable, standard-library-only example of one check",
        description=(
            "Write one Python file holding the check (the helpers' own code) and its "
            "filled cases; run with plain python, it asserts every expected output."
        ),
    )
    if wanted("export-example"):
        example.add_argument("--check", required=True, choices=sorted(CHECKS), help="the check")
        example.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    practice = sub.add_parser(
        "practice",
        formatter_class=Parser.plain,
        help="fresh practice cases: one generator per rule",
        description="Fresh practice cases, computed by the exact checks, one generator per rule.",
    )
    if wanted("practice"):
        steps = practice.add_subparsers(dest="practice_command", required=True, metavar="STEP")
        gen = steps.add_parser(
            "generate",
            formatter_class=Parser.plain,
            help="print generated cases as JSON Lines",
            description=(
                "Print generated practice cases as JSON Lines, each with check, id, title, rule_ids, "
                "input, expected, decision and reason. The same seed gives the same cases."
            ),
        )
        gen.add_argument("--rule", required=True, help="a rule id from fixtures/rules.json, or all")
        gen.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
        gen.add_argument("--count", type=int, default=1, help="cases per rule (default 1)")
    cohort = sub.add_parser(
        "cohort",
        formatter_class=Parser.plain,
        help="a trainer's table of trainees × rules from progress files",
        description=(
            "Read practice progress files (files, or folders of *.json) and print a table of "
            "trainees × rules (mastered, streak, not started), each trainee's completion and "
            "content hash, and the rules the cohort finds hardest. Progress files are written by "
            "each trainee's own drill: self-reported, not tamper-proof. Exit status 4 when a "
            "file could not be read (it is listed; the others are still shown)."
        ),
    )
    if wanted("cohort"):
        cohort.add_argument("paths", nargs="+", metavar="PATH", help="a progress file or a folder of them")
        cohort.add_argument(
            "--csv", metavar="FILE", help="also write the table as CSV (one row per trainee and rule)"
        )
        cohort.add_argument(
            "--json",
            action="store_true",
            help="print one JSON object per trainee (and per file not read): trainee, file, ready, problems, ...",
        )
        cohort.add_argument(
            "--checkouts",
            metavar="PATH",
            action="append",
            default=[],
            help="graded check-outs (checkout grade --json output), a file or a folder; may be repeated. "
            "Only results signed with the trainer's secret, for papers in its ledger, count",
        )
        cohort.add_argument(
            "--require-proctored",
            action="store_true",
            help="count only check-outs sat proctored (checkout proctor), never one sat on the trainee's machine",
        )
        cohort.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder with the secret and ledger (default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        cohort.add_argument(
            "--no-cache",
            action="store_true",
            help="re-grade every file, not only those changed since the last run (the verdict cache, "
            "signed with the trainer's secret, is then neither read nor written)",
        )
    checkout = sub.add_parser(
        "checkout",
        formatter_class=Parser.plain,
        help="an unaided check-out: issue a paper and its key, grade the answers",
        description=(
            "Issue a trainee's check-out paper (generated cases from seeds disjoint from practice, "
            "neutral labels, no rule names or seeds) and keep its answer key, guarded by a baseline "
            "beside it; then grade the trainee's answers against the key."
        ),
    )
    if wanted("checkout"):
        steps = checkout.add_subparsers(dest="checkout_command", required=True, metavar="STEP")
        issue = steps.add_parser(
            "issue",
            formatter_class=Parser.plain,
            help="write a paper for one trainee and keep its key",
            description=(
                "Write the paper (-o EXAM.json) for the trainee, the key for the trainer (default "
                "EXAM.key.json beside it, or --key KEY) and the key's baseline (KEY.baseline.json). "
                "An existing file is never replaced without --force. Exit status 2 when nothing was written."
            ),
        )
        issue.add_argument("--trainee", required=True, help="the trainee's name, as the trainer records it")
        issue.add_argument(
            "--count",
            type=int,
            default=None,
            help="cases on the paper (default 56; at least 46, to show every rule and look-alike kind twice; "
            "at most 200)",
        )
        issue.add_argument(
            "--seed", type=int, default=None, help="make the paper reproducible (kept in the key only)"
        )
        issue.add_argument("-o", "--output", required=True, metavar="EXAM", help="where to write the paper")
        issue.add_argument("--key", metavar="KEY", help="where to keep the key (default: EXAM.key.json)")
        issue.add_argument("--force", action="store_true", help="replace existing files")
        issue.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder: the secret (made on the first issue, owner-only) and the ledger "
            "(default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        issue.add_argument(
            "--cooldown",
            type=float,
            default=None,
            metavar="HOURS",
            help="hours after a failed paper before the trainee's next one (default 12; 0 for none)",
        )
        proctor = steps.add_parser(
            "proctor",
            formatter_class=Parser.plain,
            help="serve one proctored paper to one trainee through the app (Voilà on 127.0.0.1)",
            description=(
                "Issue a proctored paper for the trainee into the trainer's folder and serve it through "
                "Voilà on 127.0.0.1, where the page can run no code. The answers are written, graded and "
                "signed on the trainer's side (DIR/results/PAPER_ID.json), never offered for download; "
                "the paper can be opened once. Runs until stopped (Ctrl+C)."
            ),
        )
        proctor.add_argument("--trainee", required=True, help="the trainee's name, as the trainer records it")
        proctor.add_argument(
            "--count",
            type=int,
            default=None,
            help="cases on the paper (default 56; at least 46, to show every rule and look-alike kind twice; "
            "at most 200)",
        )
        proctor.add_argument("--port", type=int, help="port to serve on (default: Voilà's, 8866)")
        proctor.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder (default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        grade = steps.add_parser(
            "grade",
            formatter_class=Parser.plain,
            help="grade an answers file against its key",
            description=(
                "Grade the trainee's answers: verdicts per case, per field and per rule, and a pass "
                "(accuracy at least 85% at 95% confidence, and no rule and no look-alike kind with all "
                "its cases wrong) or not, signed with the trainer's secret. The key is refused unless "
                "it and its baseline carry that secret's signature. Exit status 0 passed, 1 not passed, 4 nothing "
                "graded (a refused key or answers that do not fit the paper), 2 a usage error."
            ),
        )
        grade.add_argument("answers", metavar="ANSWERS", help="the answers file the check-out wrote")
        grade.add_argument("--key", required=True, metavar="KEY", help="the paper's key")
        grade.add_argument(
            "--baseline", metavar="FILE", help="the key's baseline (default: KEY.baseline.json)"
        )
        grade.add_argument("--csv", metavar="FILE", help="also write one row per case as CSV")
        grade.add_argument("--json", action="store_true", help="print the graded result as JSON")
        grade.add_argument("--force", action="store_true", help="let --csv replace an existing file")
        grade.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder (default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        grade.add_argument(
            "--max-bytes",
            type=_size,
            default=None,
            metavar="SIZE",
            help="the largest answers, key or baseline file read (default 8MB)",
        )
    return parser


class _OutputFailed(HelpersError):
    """Writing to an output failed; ``error`` is the ``OSError``, or ``None`` if it was closed."""

    def __init__(self, name: str, error: OSError | None) -> None:
        super().__init__(name)
        self.name = name
        self.error = error

    def line(self) -> str:
        """The one line that explains it, for standard error."""
        if self.name == "standard output" and isinstance(self.error, BrokenPipeError):
            return "python -m helpers: output closed early; not every line was written\n"
        why = "it is closed" if self.error is None else (self.error.strerror or str(self.error))
        return f"python -m helpers: cannot write {self.name}: {why}; not every line was written\n"


class _Sink:
    """Binary output to one file descriptor, gathered and written about 64 KiB at a time.

    The one place the command line writes: no system call per line, and any
    failure (a full disk, a closed pipe, a closed descriptor) is raised as
    :class:`_OutputFailed`, which :func:`main` turns into exit status 2.
    """

    LIMIT = 1 << 16

    def __init__(
        self,
        fd: int,
        name: str,
        *,
        usable: bool = True,
        owned: bool = False,
        file: Any = None,
        pending: PendingFile | None = None,
    ) -> None:
        self.fd = fd
        self.pending = pending  # owns ``fd``: the file takes its place on close, is removed on discard
        self.file = file  # a replaced sys.stdout's binary buffer, written instead of ``fd``
        self.name = name
        self.usable = usable
        self.owned = owned
        self.parts: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.LIMIT:
            self.flush()

    def flush(self) -> None:
        if not self.parts:
            return
        data = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
        self.parts = []
        self.size = 0
        if not self.usable:
            raise _OutputFailed(self.name, None)
        if self.file is not None:
            try:
                self.file.write(data)
                self.file.flush()
            except OSError as exc:
                self.usable = False
                raise _OutputFailed(self.name, exc) from None
            return
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except OSError as exc:
                self.usable = False
                raise _OutputFailed(self.name, exc) from None
            view = view[written:]

    def close(self) -> None:
        """Write what is left and close (an owned descriptor); errors raise :class:`_OutputFailed`."""
        self.flush()
        if self.pending is not None:
            try:
                self.pending.commit()
            except OSError as exc:
                raise _OutputFailed(self.name, exc) from None
            self.fd, self.pending = -1, None
            return
        if self.owned and self.fd >= 0:
            fd, self.fd = self.fd, -1
            try:
                os.close(fd)
            except OSError as exc:
                raise _OutputFailed(self.name, exc) from None

    def discard(self) -> None:
        """Drop what is left unwritten and close, quietly (after a failure)."""
        self.parts = []
        self.size = 0
        if self.pending is not None:
            self.pending.abort()
            self.fd, self.pending = -1, None
            return
        if self.owned and self.fd >= 0:
            fd, self.fd = self.fd, -1
            try:
                os.close(fd)
            except OSError:
                return


class _TextSink:
    """Standard error as text; a failure to write it is remembered, never raised."""

    def __init__(self, sink: _Sink) -> None:
        self.sink = sink
        self.failed = False

    def write(self, text: str) -> int:
        try:
            self.sink.write(text.encode("utf-8", "backslashreplace"))
        except _OutputFailed:
            self.failed = True
        return len(text)

    def flush(self) -> None:
        try:
            self.sink.flush()
        except _OutputFailed:
            self.failed = True


def _claim(fd: int) -> bool:
    """True if ``fd`` is open; otherwise hold it with ``/dev/null`` (so no file opened later gets it)."""
    try:
        os.fstat(fd)
        return True
    except OSError:
        pass
    try:
        got = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
    except OSError:
        return False
    if got != fd:
        os.dup2(got, fd)
        os.close(got)
    return False


def _silence(fd: int) -> None:
    """Point ``fd`` at ``/dev/null``, so Python's own flush at exit cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass


def _replaced(stream: Any, original: Any) -> Any:
    """The binary buffer of ``sys.stdout``/``sys.stderr`` when a caller replaced it, else ``None``."""
    if stream is None or stream is original:
        return None
    buffer = getattr(stream, "buffer", None)
    return buffer if buffer is not None else _TextWriter(stream)


class _TextWriter:
    """Bytes written to a text stream (such as a test's ``io.StringIO``)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data.decode("utf-8", "backslashreplace"))

    def flush(self) -> None:
        self.stream.flush()


_STDIN_CLOSED = False
_STDOUT = _Sink(1, "standard output")
_STDERR = _TextSink(_Sink(2, "standard error"))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status. Taught in ``01_start_here.ipynb``.

    Output that cannot be written (a full disk, a closed standard output, a
    reader that closes the pipe early with ``| head``) ends the run with
    :data:`EXIT_USAGE` and one line on standard error, never a traceback or a
    status that reads as a verdict. So does a standard error that cannot take
    the bad lines a summary reports there. Ctrl-C ends it with
    :data:`~helpers.core.outcomes.EXIT_INTERRUPTED` (130) and one line.
    """
    global _STDIN_CLOSED, _STDOUT, _STDERR
    _STDIN_CLOSED = not _claim(0) or sys.stdin is None
    _STDOUT = _Sink(1, "standard output", usable=_claim(1), file=_replaced(sys.stdout, sys.__stdout__))
    _STDERR = _TextSink(
        _Sink(2, "standard error", usable=_claim(2), file=_replaced(sys.stderr, sys.__stderr__))
    )
    code = EXIT_USAGE
    try:
        try:
            code = _main(argv)
            _STDOUT.flush()
        except _OutputFailed as exc:
            _STDOUT.discard()
            _STDERR.write(exc.line())
            code = EXIT_USAGE
        except KeyboardInterrupt:  # Ctrl-C: one line, no traceback; --results was not put in place
            _STDOUT.discard()
            _STDERR.write("python -m helpers: interrupted; not every line was written\n")
            code = EXIT_INTERRUPTED
        except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
            _STDOUT.flush()
            code = exc.code if isinstance(exc.code, int) else EXIT_USAGE
            if code not in (EXIT_PASS, EXIT_USAGE):
                code = EXIT_USAGE
    except _OutputFailed as exc:  # --help could not be written
        _STDOUT.discard()
        _STDERR.write(exc.line())
        code = EXIT_USAGE
    _STDERR.flush()
    if _STDERR.failed:
        code = EXIT_USAGE
    # Nothing goes through sys.stdout or sys.stderr, but make sure their flush at exit cannot fail.
    for stream, fd in ((sys.stdout, 1), (sys.stderr, 2)):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            _silence(fd)
    if not _STDOUT.usable and _STDOUT.file is None:
        _silence(1)
    if (_STDERR.failed or not _STDERR.sink.usable) and _STDERR.sink.file is None:
        _silence(2)
    return code


def _argparse() -> Any:
    import argparse

    class Parser(argparse.ArgumentParser):
        """Writes its help and usage messages through the guarded outputs."""

        def format_help(self) -> str:
            if self.epilog and _DIFFERENCES in self.epilog:
                from .core.differences import help_text

                self.epilog = self.epilog.replace(_DIFFERENCES, help_text())
            return super().format_help()

        def _print_message(self, message: str, file: Any = None) -> None:
            if not message:
                return
            if file is None or file is sys.stdout:
                _STDOUT.write(message.encode("utf-8", "backslashreplace"))
            else:
                _STDERR.write(message)

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


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((arg for arg in argv if not arg.startswith("-")), "")
    parser = _parser(only=command)
    args = parser.parse_args(argv)
    if args.command in CHECKS:
        options = _data_options(parser, args)
        if options.baseline is not None:
            return _run_key_command(options, _STDOUT, _STDERR)  # type: ignore[arg-type]
        return _run_check_command(args.command, args.file, _STDOUT, _STDERR, options)  # type: ignore[arg-type]
    if args.command == "export-csv":
        return _export_csv(args.check, args.output)
    if args.command == "export-example":
        return _export_example(args.check, args.output)
    if args.command == "practice":
        return _practice_generate(args.rule, args.seed, args.count)
    if args.command == "checkout":
        if args.checkout_command == "proctor":
            return _checkout_proctor(args)
        return _checkout_issue(args) if args.checkout_command == "issue" else _checkout_grade(args)
    if args.command == "cohort":
        return _cohort(
            args.paths,
            args.csv,
            args.json,
            args.checkouts,
            trainer_dir=args.trainer_dir,
            require_proctored=args.require_proctored,
            use_cache=not args.no_cache,
        )
    return _rebaseline(args.reason, args.fixtures, _STDERR)  # type: ignore[arg-type]
