"""Checking whole files: one streaming loop and a summary whose size stays bounded.

:func:`check_blocks` is the loop: it checks records a block at a time into a
:class:`BatchSummary`, each first by its check's fast path, and can write each
record's output line and report each bad one. :func:`check_records` feeds it a
JSON Lines, CSV or Parquet stream (a large file on two cores), and
:func:`check_file` does it all for a path or an upload. :func:`outcomes_jsonl`
and :func:`outcomes` yield one outcome per record, in input order, for callers
that look at each: every good record is checked, and every bad one comes back as
an error naming its line, without stopping the run.
:class:`BatchSummary` keeps only counts, the first N failures and a bounded
count of the most often lost targets, so memory stays flat however long the
file is. :func:`check_answer_keys` compares two whole answer keys.
This module is the driver and names them all; each lives in a module of its own below it
(:mod:`~helpers.team.two_cores`, :mod:`~helpers.team.record_blocks`,
:mod:`~helpers.team.line_blocks`, :mod:`~helpers.team.summary`, :mod:`~helpers.team.key_checks`).

An outcome is a plain tuple ``(line, code, result, error, record)``, cheap to
make a million times:

* ``line``: the record's line number in its source;
* ``code``: the exit status this record alone would give (0, 1, 3 or 4; see ``--help``);
* ``result``: the check's result, or ``None`` for bad input;
* ``error``: the :class:`~helpers.core.errors.CheckInputError` for bad input, else ``None``;
* ``record``: the parsed input object when one could be read, else ``None``.

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from helpers.core.checks import CHECKS
from helpers.core.errors import CheckInputError, error_object
from helpers.core.jsonio import JsonLine
from helpers.core.outcomes import EXIT_BAD_INPUT, SEVERITY, code_for, json_safe, output_object, worst_code
from helpers.team.fastpath import FAST_CHECKS, exact_outcome, loads_fast, output_line
from helpers.team.fastpath import PRESERVED_LINE as PRESERVED_LINE
from helpers.team.key_checks import KeyCheck, check_answer_keys, check_key_files
from helpers.team.line_blocks import (
    BLOCK_RECORDS as BLOCK_RECORDS,  # where a run's sizes are set, cited from here
)
from helpers.team.line_blocks import BLOCK_SIZE as BLOCK_SIZE
from helpers.team.line_blocks import _blocks, _record_blocks
from helpers.team.record_blocks import EngineBlock, check_blocks
from helpers.team.summary import (
    BAD_INPUT,
    BatchSummary,
    Failure,
    Outcome,
    TopCounter,
    Written,
    merge_summaries,
    record_unit,
)
from helpers.team.two_cores import PARALLEL_MIN_BYTES as PARALLEL_MIN_BYTES
from helpers.team.two_cores import _check_on_two_cores, _parallel_split
from helpers.team.two_cores import _min_bytes as _min_bytes

if TYPE_CHECKING:  # read lazily, so a command-line run of JSON Lines never loads them
    from helpers.team.sources import InputFile, ScopeFormat

__all__ = [
    "Outcome",
    "BAD_INPUT",
    "SEVERITY",
    "outcomes_jsonl",
    "outcomes",
    "output_object",
    "output_line",
    "json_safe",
    "error_object",
    "worst_code",
    "TopCounter",
    "Failure",
    "record_unit",
    "Written",
    "EngineBlock",
    "BatchSummary",
    "check_blocks",
    "check_records",
    "merge_summaries",
    "check_file",
    "KeyCheck",
    "check_answer_keys",
    "check_key_files",
]


def outcomes_jsonl(stream: Iterable[bytes], check: str, *, source: str) -> Iterator[Outcome]:
    """Check each line of a JSON Lines byte stream; yields one outcome per line, in order.

    Results and errors are exactly those of :func:`helpers.core.checks.check_lines` over
    :func:`helpers.core.jsonio.iter_json_lines`: well-formed lines take the fast path
    (:mod:`helpers.team.fastpath`), everything else is re-read and checked the exact way.
    Taught in ``05_check_your_data.ipynb``.
    """
    fast = FAST_CHECKS[check]
    exact = CHECKS[check]
    for number, raw in enumerate(stream, 1):
        value = loads_fast(raw)
        result = None if value is None else fast(value)
        if result is None:
            yield exact_outcome(number, raw, source, exact)
        else:
            yield (number, code_for(result), result, None, value)


def outcomes(records: Iterable[JsonLine], check: str) -> Iterator[Outcome]:
    """Check records that are already parsed (e.g. CSV rows); one outcome per record.

    Taught in ``05_check_your_data.ipynb``.
    """
    fast = FAST_CHECKS[check]
    exact = CHECKS[check]
    for line in records:
        if line.error is not None:
            # A reader may keep what it could read of a bad record (e.g. a CSV row's id).
            yield (line.number, EXIT_BAD_INPUT, None, line.error, line.value)
            continue
        result = fast(line.value)
        if result is None:
            try:
                result = exact(line.value)
            except CheckInputError as exc:
                yield (line.number, EXIT_BAD_INPUT, None, exc, line.value)
                continue
        yield (line.number, code_for(result), result, None, line.value)


def check_records(
    stream: Any,
    summary: BatchSummary,
    *,
    format: ScopeFormat = "jsonl",
    list_separator: str | None = None,
    write: Callable[[bytes], Any] | None = None,
    carry: bool = False,
    bad_lines: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    parallel: bool = False,
    min_bytes: int | None = None,
) -> BatchSummary:
    """Check a record file (JSON Lines, CSV or Parquet) into ``summary`` with :func:`check_blocks`.

    ``stream`` is a binary stream (or, for JSON Lines, any iterable of raw lines). With
    ``parallel``, a large regular JSON Lines file (``min_bytes``, default
    :data:`PARALLEL_MIN_BYTES` or ``$EIC_PARALLEL_MIN_BYTES``) is checked on two cores
    when no bad lines or progress are reported: it is split at the newline after its
    middle, a forked worker checks the second part (knowing its first line's number) into
    an unnamed temporary file, and its output follows this process's, so the bytes written
    are exactly the serial ones; summaries are merged by :func:`merge_summaries`. Anything
    else (standard input, a pipe, a small file, no ``fork``, one CPU, a worker that fails)
    runs serially. A CSV file's bad header is one bad record; sentinel records come only
    as JSON Lines. Taught in ``05_check_your_data.ipynb``.
    """
    options = {"write": write, "carry": carry, "bad_lines": bad_lines, "progress": progress}
    if format == "jsonl":
        if list_separator is not None:
            raise ValueError("a list separator applies only to CSV input")
        if parallel and bad_lines is None and progress is None:
            split = _parallel_split(stream, min_bytes)
            if split is not None:
                return _check_on_two_cores(*split, summary, write, carry)
        lines = _blocks(stream)  # read by the reader, then checked by the loop
        return check_blocks(lines, summary, **options)  # type: ignore[arg-type]
    if format not in ("csv", "parquet") or summary.check != "target-scope":
        raise ValueError(f"{summary.check} records cannot be read as {format!r}; use JSON Lines")

    def rows() -> Iterator[JsonLine]:
        if format == "parquet":
            from helpers.team.scope_tables import iter_scope_parquet

            yield from iter_scope_parquet(stream, source=summary.source)
        else:
            from helpers.team.scope_csv import iter_scope_csv

            yield from iter_scope_csv(stream, source=summary.source, list_separator=list_separator)

    blocks = _record_blocks(rows())
    return check_blocks(blocks, summary, **options)  # type: ignore[arg-type]


def check_file(
    item: InputFile,
    check: str = "target-scope",
    *,
    format: ScopeFormat | None = None,
    list_separator: str | None = None,
    max_failures: int = 20,
    progress: Callable[[float], None] | None = None,
) -> BatchSummary:
    """Check every record of a file or upload and summarise; ``progress`` gets the fraction read.

    The format defaults to the one the name gives (``.jsonl``/``.ndjson`` or ``.csv``).
    Taught in ``05_check_your_data.ipynb``.
    """
    from helpers.team.sources import open_input, scope_format_for

    stream, name, size = open_input(item)
    with stream:
        fmt = format or ("jsonl" if check == "sentinels" else scope_format_for(name))
        summary = BatchSummary(check=check, source=name, max_failures=max_failures, unit=record_unit(fmt))
        report = None
        if progress is not None:

            def report(_count: int) -> None:
                progress(min(1.0, stream.tell() / size) if size else 1.0)

        return check_records(stream, summary, format=fmt, list_separator=list_separator, progress=report)
