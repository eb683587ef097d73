"""The checks' commands: ``target-scope`` and ``sentinels`` over record files, standard input or two
answer keys (and ``--sentinels``), with the choice of engine (Python, DuckDB, Spark, or ``auto`` by
size); ``rebaseline`` of the worked answers; and ``export-csv`` and ``export-example``. Each command
imports the data, teach or publish code it needs only when it runs.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Sequence
from typing import IO, Any

from helpers.core import streams
from helpers.core.errors import CheckInputError, HelpersError
from helpers.core.jsonio import dumps_compact, dumps_compact_deep
from helpers.core.outcomes import EXIT_BAD_INPUT, EXIT_PASS, EXIT_USAGE
from helpers.core.streams import _hold_ctrl_c, _open_results, _release_ctrl_c, _Unclosed, _write_text
from helpers.team.command_parser import (
    _AUTO_DUCKDB_CSV_MIB,
    _AUTO_DUCKDB_JSONL_MIB,
    _AUTO_DUCKDB_MIB,
    _DataOptions,
)

#: ``--engine auto``'s thresholds in bytes, from :data:`~helpers.team.command_parser._AUTO_DUCKDB_MIB`,
#: :data:`~helpers.team.command_parser._AUTO_DUCKDB_JSONL_MIB` and ``_AUTO_DUCKDB_CSV_MIB`` (the figures the help names).
_AUTO_DUCKDB_BYTES = _AUTO_DUCKDB_MIB << 20
_AUTO_JSONL_BYTES = _AUTO_DUCKDB_JSONL_MIB << 20
_AUTO_CSV_BYTES = _AUTO_DUCKDB_CSV_MIB << 20

#: What a check's run tells its ``--verbose`` note: ``(prog, options, standard error)``.
_Note = tuple[str, _DataOptions, IO[str]]


def _note(note: _Note, text: str) -> None:
    """With ``--verbose``: one line on standard error saying which engine ran, and why."""
    prog, options, err = note
    if options.verbose:
        err.write(f"{prog}: engine: {text}\n")


def _engine_refusal(check: str, options: _DataOptions, keys: bool) -> str | None:
    """Why ``--engine duckdb`` cannot take this input (one line), or ``None``."""
    if options.engine != "duckdb":
        return None
    from helpers.team.duckdb_engine import duckdb_missing

    if (missing := duckdb_missing()) is not None:
        return missing
    if check == "target-scope":
        if options.carry:
            return "--engine duckdb writes no --carry; use --engine python (or auto) with --carry"
        return None
    if not keys:
        return (
            "--engine duckdb has no route for sentinel records (JSON Lines of two keys each); "
            "they take the Python route (--engine python or auto)"
        )
    if options.key_format != "parquet":
        fmt = options.key_format or "json and jsonl"
        return (
            f"--engine duckdb compares two Parquet answer keys (--format parquet); {fmt} keys have no "
            "engine route and take the Python route (--engine python or auto)"
        )
    return None


def _auto_picks_duckdb(paths: Sequence[str | None]) -> bool:
    """``--engine auto``: true when the files together reach the threshold and DuckDB is installed."""
    from helpers.team.duckdb_engine import duckdb_missing

    try:
        size = sum(os.stat(f).st_size for f in paths if f)
    except OSError:
        return False
    return size >= _AUTO_DUCKDB_BYTES and duckdb_missing() is None


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def _stdin_size(stream: Any) -> int | None:
    """How many bytes are left of standard input when it is a regular file, else ``None``."""
    try:
        if stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            return max(0, os.fstat(stream.fileno()).st_size - stream.tell())
    except (OSError, ValueError, AttributeError):
        return None
    return None


def _is_terminal(stream: Any) -> bool:
    try:
        return os.isatty(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False


def _jsonl_engine(
    file: str | None, stream: Any, options: _DataOptions, note: _Note, mib: int = _AUTO_DUCKDB_JSONL_MIB
) -> tuple[bool, Any]:
    """``(DuckDB runs, the stream to read)`` for JSON Lines (or CSV) rewrites, DuckDB's by
    ``--engine auto`` from ``mib`` MiB; standard input may be read a little ahead (``--engine auto``
    looks at its first bytes), so the stream to read comes back."""
    what_format = "CSV" if options.format == "csv" else "JSON Lines"
    if options.engine == "duckdb":
        _note(note, f"duckdb (--engine duckdb{': CSV' if options.format == 'csv' else ''})")
        return True, stream
    from helpers.team.duckdb_engine import duckdb_missing

    if duckdb_missing() is not None:
        _note(note, "python (--engine auto: DuckDB is not installed)")
        return False, stream
    size = getattr(stream, "size", None) if file not in (None, "-") else _stdin_size(stream)
    if size is None and _is_terminal(stream):
        _note(note, "python (--engine auto: standard input is a terminal, read as it is typed)")
        return False, stream
    if size is None:  # a pipe: its first bytes say whether it is large
        from helpers.team.spool import Prefixed, read_at_least

        prefix = read_at_least(stream, mib << 20)
        stream, large = Prefixed(prefix, stream), len(prefix) >= mib << 20
        what = f"at least {mib} MiB" if large else _mb(len(prefix))
    else:
        large, what = size >= mib << 20, _mb(size)
    limit = f"{'from' if large else 'below'} {mib} MiB"
    _note(note, f"{'duckdb' if large else 'python'} (--engine auto: {what} of {what_format}, {limit})")
    return large, stream


def _engine_scope_blocks(
    file: str | None, stream: Any, options: _DataOptions, note: _Note, tally: dict[str, int]
) -> tuple[Any, Any]:
    """``(the batch loop's blocks from DuckDB, or None for the Python route; the stream to read)``."""
    if options.engine in ("python", "spark") or options.carry:
        _note(
            note,
            f"{'python' if options.engine != 'spark' else 'spark'} (--engine {options.engine}"
            f"{', --carry' if options.carry and options.engine == 'auto' else ''})",
        )
        return None, stream
    if options.format == "csv":
        duck, stream = _jsonl_engine(file, stream, options, note, _AUTO_CSV_BYTES >> 20)
        if not duck:
            return None, stream
        from helpers.team.duckdb_csv import scope_csv_blocks

        source = "<stdin>" if file is None or file == "-" else file
        csv_blocks = scope_csv_blocks(
            stream,
            source=source,
            list_separator=options.list_separator,
            lines=options.summary is None,
            tally=tally,
        )
        return csv_blocks, stream
    if options.format == "jsonl":
        duck, stream = _jsonl_engine(file, stream, options, note, _AUTO_JSONL_BYTES >> 20)
        if not duck:
            return None, stream
        from helpers.team.duckdb_lines import scope_jsonl_blocks

        return scope_jsonl_blocks(stream, lines=options.summary is None, tally=tally), stream
    if file is None or file == "-":
        _note(note, "python (DuckDB reads a Parquet table by its path, not from standard input)")
        return None, stream  # DuckDB reads a file by its path
    if options.engine == "auto" and not _auto_picks_duckdb([file]):
        _note(note, f"python (--engine auto: Parquet below {_AUTO_DUCKDB_MIB} MiB, or DuckDB not installed)")
        return None, stream
    from helpers.team.duckdb_scope import scope_parquet_blocks

    blocks = scope_parquet_blocks(file, lines=options.summary is None)
    if blocks is None:
        _note(note, "python (DuckDB cannot vouch for this table; the Python route names what is wrong)")
    else:
        _note(note, f"duckdb (--engine {options.engine}: a Parquet table)")
    return blocks, stream


def _engine_key_check(options: _DataOptions, err: IO[str]) -> Any:
    """The key pair checked by DuckDB, or ``None`` for the Python route (see docs/sql.md)."""
    note: _Note = ("python -m helpers sentinels", options, err)
    if options.engine == "python" or options.key_format != "parquet" or options.sentinels is not None:
        _note(
            note,
            f"python (--engine {options.engine}{'' if options.engine == 'python' else ': no engine route for these keys'})",
        )
        return None
    assert options.baseline is not None and options.proposed is not None
    assert options.answer_column is not None
    if options.engine == "spark":
        from helpers.team import spark_engine

        _note(note, "spark (--engine spark)")
        return spark_engine.check_parquet_keys(
            options.baseline,
            options.proposed,
            id_columns=options.id_columns,
            answer_column=options.answer_column,
            master=options.spark_master,
        )
    from helpers.team.duckdb_engine import check_parquet_keys

    if options.engine == "auto" and not _auto_picks_duckdb([options.baseline, options.proposed]):
        _note(
            note,
            f"python (--engine auto: Parquet keys below {_AUTO_DUCKDB_MIB} MiB, or DuckDB not installed)",
        )
        return None
    found = check_parquet_keys(
        options.baseline, options.proposed, id_columns=options.id_columns, answer_column=options.answer_column
    )
    if found is None:
        _note(note, "python (DuckDB cannot vouch for these keys; the Python route names what is wrong)")
    else:
        _note(note, f"duckdb (--engine {options.engine}: two Parquet keys)")
    return found


def _missing_spark(options: _DataOptions) -> str | None:
    """With ``--engine spark``: why Spark cannot run here (pyspark or Java is missing), or ``None``."""
    if options.engine != "spark":
        return None
    from helpers.team.spark_engine import spark_missing

    return spark_missing()


def _missing_parquet() -> str | None:
    """Why Parquet cannot be read here (pyarrow is missing: name the extra), or ``None``."""
    from helpers.team.parquet_tables import pyarrow_missing

    missing = pyarrow_missing()
    return None if missing is None else missing.message


def _run_check_command(
    check: str,
    file: str | None,
    out: IO[bytes],
    err: IO[str],
    options: _DataOptions | None = None,
) -> int:
    from helpers.team.batch import BatchSummary, check_records, record_unit

    if streams._ENDS_PROCESS:
        from helpers.team.fastpath import end_with_process

        end_with_process()
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
        if streams._STDIN_CLOSED:
            err.write(f"{prog}: cannot read standard input: it is closed\n")
            return EXIT_USAGE
        stream: Any = _Unclosed(sys.stdin.buffer)
        source = "<stdin>"
    else:
        from helpers.team.inputs import open_snapshot

        try:
            stream = open_snapshot(file)  # a regular file is read as far as it went at the start
        except OSError as exc:
            err.write(f"{prog}: cannot open {file}: {exc.strerror}\n")
            return EXIT_USAGE
        source = file
    results: Any = None
    held = None
    if options.results is not None:
        from helpers.team.inputs import names_the_input

        if names_the_input(options.results, stream, None if file in (None, "-") else file):
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
    # A summary keeps and explains its first failures; a run that writes every line shows none.
    keep = options.max_failures if options.summary is not None else 0
    summary = BatchSummary(check=check, source=source, max_failures=keep, unit=record_unit(options.format))
    try:
        _release_ctrl_c(held)  # a Ctrl-C held back meanwhile is raised here
        if options.summary is None:
            out.flush()  # a worker process must not inherit unwritten output
        write = out.write if options.summary is None else None if results is None else results.write
        note: _Note = (prog, options, err)
        tally: dict[str, int] = {}  # what the DuckDB route of JSON Lines handed to the Python route
        if check == "target-scope":
            engine_blocks, stream = _engine_scope_blocks(file, stream, options, note, tally)
        else:
            engine_blocks = None
            _note(
                note,
                f"python (--engine {options.engine}{': no engine route for sentinel records' if options.engine == 'auto' else ''})",
            )
        if (
            engine_blocks is None
            and source == "<stdin>"
            and options.format == "jsonl"
            and options.summary is None
        ):
            from helpers.team.spool import spool_if_large

            stream = spool_if_large(stream)  # a large pipe is split over two cores, as a file is
        engine_summary = None
        if engine_blocks is not None:
            from helpers.team.batch import check_blocks

            check_blocks(
                engine_blocks,
                summary,
                write=write,
                bad_lines=None if options.summary is None else err,
            )
            if tally:
                handed, total = tally["python"], tally["lines"]
                _note(
                    note,
                    f"duckdb judged {total - handed:,} of {total:,} {'rows' if options.format == 'csv' else 'lines'}; "
                    f"the Python route checked {handed:,}",
                )
        elif options.engine == "spark":
            from helpers.team.spark_engine import check_scope_file

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
        from helpers.team.reports import summary_text

        out.write(summary_text(summary).encode("utf-8", "backslashreplace"))
    elif options.summary == "json":
        from helpers.team.reports import summary_json

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
    from helpers.team.batch import check_answer_keys
    from helpers.team.id_display import PAIR_FORMATS
    from helpers.team.key_formats import read_key
    from helpers.team.sources import SourceFormatError, key_format_for

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
    # Two .json keys are read as bytes and compared by helpers.team.key_lists (as lists when they allow).
    as_text = (
        options.sentinels is None
        and not options.id_columns
        and options.answer_column is None
        and all(_names_json(file, options) for file in (options.baseline, options.proposed))
    )
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
        from helpers.team.inputs import open_snapshot

        try:  # a FIFO, a device or /proc is refused unread; so is a file over --max-file-mb
            stream = open_snapshot(file, max_bytes=int(options.max_file_mb * 2**20))
        except OSError as exc:
            hint = " (raise the limit with --max-file-mb)" if exc.errno == errno.EFBIG else ""
            err.write(f"{prog}: cannot open {file}: {exc.strerror}{hint}\n")
            return EXIT_USAGE
        with stream:
            try:
                if len(keys) == 2:
                    from helpers.team.key_subset import read_sentinel_ids

                    pairs = len(options.id_columns) == 2 or keys[0].format in PAIR_FORMATS
                    sentinels = read_sentinel_ids(stream, source=file, pairs=pairs)
                    break
                if as_text:
                    keys.append(stream.read())
                    continue
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
    if as_text:
        from helpers.team.json_keys import check_json_key_texts

        result = check_json_key_texts(
            keys[0], keys[1], sources=(options.baseline or "", options.proposed or "")
        )
    else:
        result = check_answer_keys(keys[0], keys[1], pairs=True if len(options.id_columns) == 2 else None)
    return _write_key_check(result, options, out, err)


def _names_json(file: str | None, options: _DataOptions) -> bool:
    """True when ``file`` is read as a ``.json`` answer key (by ``--format`` or its name)."""
    from helpers.team.sources import SourceFormatError, key_format_for

    if file is None:
        return False
    try:
        return (options.key_format or key_format_for(file)) == "json"
    except SourceFormatError:
        return False


def _write_key_check(result: Any, options: _DataOptions, out: IO[bytes], err: IO[str]) -> int:
    """Write a :class:`~helpers.team.batch.KeyCheck` as result lines or a summary."""
    from helpers.team.reports import key_check_json, key_check_text, key_error_object, key_result_json

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
    from helpers.team.key_subset import check_sentinel_subset, subset_check_json, subset_check_text
    from helpers.team.reports import key_error_object, key_result_json

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
    from helpers.trainee.worked_answers import rebaseline_worked_answers

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


def _export_csv(check: str | None, output: str | None) -> int:
    from helpers.trainee.cases.filled import cases_to_csv, filled_cases

    return _write_text(cases_to_csv(filled_cases(check)), output, "export-csv")


def _export_example(check: str, output: str | None) -> int:
    from helpers.team.example import example_source

    return _write_text(example_source(check), output, "export-example")
