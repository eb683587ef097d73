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

import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from helpers.core.checks import CHECKS
from helpers.core.errors import CheckInputError, JSONLoadError, error_object
from helpers.core.jsonio import JsonLine
from helpers.core.ordering import utf16_key
from helpers.core.outcomes import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_HELD,
    EXIT_PASS,
    SEVERITY,
    code_for,
    json_safe,
    output_object,
    worst_code,
)
from helpers.core.sentinels import SentinelResult, check_sentinels
from helpers.core.target_scope import TargetScopeResult
from helpers.team.fastpath import (
    FAST_CHECKS,
    PRESERVED_LINE,
    Records,
    exact_outcome,
    fast_sentinels,
    loads_fast,
    output_line,
)

#: ``(line, code, result, error, record)``; see the module notes.
Outcome = tuple[int, int, Any, Any, Any]

if TYPE_CHECKING:  # read lazily, so a command-line run of JSON Lines never loads them
    from helpers.team.sources import AnswerKey, InputFile, KeyFormat, ScopeFormat

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


#: The outcome label of a record that could not be checked.
BAD_INPUT = "bad input"


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


def _explain(check: str, outcome: Outcome) -> str:
    from helpers.team.outcome_lines import explain_outcome

    return explain_outcome(check, outcome)


class TopCounter:
    """How often each item occurs, for the most frequent items, in bounded memory.

    Counts are exact while at most ``capacity`` distinct items have been seen.
    After that it is the Misra–Gries summary: it never holds more than
    ``capacity`` items, any item occurring more than ``n / (capacity + 1)`` times
    is kept, and each kept count is at most :attr:`undercount` below the true one.
    Taught in ``05_check_your_data.ipynb`` ("A chart of the outcomes").
    """

    def __init__(self, capacity: int = 10_000) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.counts: dict[str, int] = {}
        self.total = 0
        self.undercount = 0

    @property
    def exact(self) -> bool:
        """True while every count is exact."""
        return self.undercount == 0

    def add(self, item: str) -> None:
        """Count one occurrence of ``item``."""
        self.total += 1
        counts = self.counts
        if item in counts:
            counts[item] += 1
        elif len(counts) < self.capacity:
            counts[item] = 1
        else:
            self.undercount += 1
            for key in list(counts):
                if counts[key] == 1:
                    del counts[key]
                else:
                    counts[key] -= 1

    def most_common(self, n: int) -> list[tuple[str, int]]:
        """The ``n`` highest counts, ties in JavaScript's string order."""
        ranked = sorted(self.counts.items(), key=lambda pair: (-pair[1], utf16_key(pair[0])))
        return ranked[:n]


@dataclass(frozen=True)
class Failure:
    """A record that did not pass, as a summary lists it. Taught in ``05_check_your_data.ipynb``."""

    line: int
    outcome: str
    output: dict[str, Any]
    explanation: str
    id: Any = None
    query: Any = None


_OUTCOME_LABELS: dict[str, tuple[str, ...]] = {
    "target-scope": ("preserved", "not preserved", "needs staff labels", BAD_INPUT),
    "sentinels": ("intact", "hold before scoring", BAD_INPUT),
}


def record_unit(format: str) -> str:
    """What a file's record numbers count: ``"row"`` in a Parquet table, ``"line"`` in the text formats."""
    return "row" if format == "parquet" else "line"


@dataclass
class BatchSummary:
    """Counts by outcome and the first failures of one run; bounded in size.

    ``lost``/``added``/``lost_and_added`` count target-scope records by what
    changed; ``lost_targets`` counts the lost IDs themselves. ``failures`` keeps
    the first ``max_failures`` records that did not pass, each explained.
    Taught in ``05_check_your_data.ipynb``.
    """

    check: str
    source: str
    max_failures: int = 20
    #: What the records' numbers count: ``"line"`` (JSON Lines, CSV) or ``"row"`` (Parquet).
    unit: str = "line"
    records: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    added: int = 0
    lost_and_added: int = 0
    lost_targets: TopCounter = field(default_factory=TopCounter)
    failures: list[Failure] = field(default_factory=list)
    failures_total: int = 0
    worst: int = EXIT_PASS

    def __post_init__(self) -> None:
        for label in _OUTCOME_LABELS[self.check]:
            self.counts.setdefault(label, 0)

    @property
    def exit_code(self) -> int:
        """The exit status of the run: the most serious outcome; 4 when there were no records."""
        return EXIT_BAD_INPUT if self.records == 0 else self.worst

    @property
    def passed(self) -> int:
        """How many records passed."""
        return self.counts[_OUTCOME_LABELS[self.check][0]]

    def add_passes(self, count: int) -> None:
        """Count ``count`` records that passed (the runner batches these)."""
        self.records += count
        self.counts[_OUTCOME_LABELS[self.check][0]] += count

    def failures_full(self) -> bool:
        """True once ``max_failures`` failures are kept (later ones are only counted)."""
        return len(self.failures) >= self.max_failures

    def add_not_preserved(self, missing: tuple[str, ...], added: tuple[str, ...]) -> None:
        """What :meth:`add` does for a rewrite that is not preserved once the failures are full.

        ``missing`` and ``added`` are the result's sorted lists; no outcome is built.
        """
        self.records += 1
        if self.worst != EXIT_FAILED:
            self.worst = worst_code(self.worst, EXIT_FAILED)
        if missing and added:
            self.lost_and_added += 1
        elif missing:
            self.lost += 1
        else:
            self.added += 1
        add_target = self.lost_targets.add
        for target in missing:
            add_target(target)
        self.counts["not preserved"] += 1
        self.failures_total += 1

    def add_written(self, written: Written) -> None:
        """Count the rewrites an engine checked and wrote (see :class:`Written`): no failure is kept."""
        failed = written.lost + written.added + written.lost_and_added
        self.records += written.rows
        self.counts[_OUTCOME_LABELS[self.check][0]] += written.rows - failed - written.held
        if failed:
            self.worst = worst_code(self.worst, EXIT_FAILED)
            self.counts["not preserved"] += failed
            self.lost += written.lost
            self.added += written.added
            self.lost_and_added += written.lost_and_added
        if written.held:
            self.worst = worst_code(self.worst, EXIT_HELD)
            self.counts["needs staff labels"] += written.held
        self.failures_total += failed + written.held

    def add(self, outcome: Outcome) -> None:
        """Count one outcome; a failure is explained and kept while fewer than N are."""
        line, code, result, error, record = outcome
        self.records += 1
        if code == EXIT_PASS:
            self.counts[_OUTCOME_LABELS[self.check][0]] += 1
            return
        if code != self.worst:
            self.worst = worst_code(self.worst, code)
        if type(result) is TargetScopeResult:  # the common failure, counted without detours
            label = "not preserved"
            missing = result.missing
            if missing and result.added:
                self.lost_and_added += 1
            elif missing:
                self.lost += 1
            else:
                self.added += 1
            add_target = self.lost_targets.add
            for target in missing:
                add_target(target)
        else:
            label = BAD_INPUT if error is not None else result.outcome
        self.counts[label] += 1
        self.failures_total += 1
        if len(self.failures) < self.max_failures:
            carried = record if isinstance(record, Mapping) else {}
            self.failures.append(
                Failure(
                    line=line,
                    outcome=label,
                    output=output_object(outcome),
                    explanation=_explain(self.check, outcome),
                    id=json_safe(carried.get("id")),
                    query=json_safe(carried.get("query")),
                )
            )


class Written:
    """Consecutive rewrites an engine checked and wrote itself (:mod:`helpers.team.duckdb_scope`).

    ``rows`` of them, their output lines as one ``text``, and how many were ``lost`` only,
    ``added`` only, ``lost_and_added`` or ``held``; the others were preserved. For a run that
    shows no summary: its counts and exit status are exact, but no failure is kept and no lost
    target is counted.
    """

    __slots__ = ("added", "held", "lost", "lost_and_added", "rows", "text")

    def __init__(
        self, rows: int, text: bytes, *, lost: int = 0, added: int = 0, lost_and_added: int = 0, held: int = 0
    ) -> None:
        self.rows, self.text, self.held = rows, text, held
        self.lost, self.added, self.lost_and_added = lost, added, lost_and_added


class EngineBlock(list[Any]):
    """A block an engine hands the loop (:mod:`helpers.team.duckdb_lines`): raw JSON lines
    (``bytes``) for the Python route between the engine's :class:`Written` runs and counts, in order."""

    __slots__ = ()


#: What a record reader hands the loop: raw JSON lines (``bytes``, read here), records another
#: reader already parsed (:class:`~helpers.core.jsonio.JsonLine`, e.g. CSV rows), a count
#: (``int``) of consecutive rewrites an engine has proved valid and preserved
#: (:mod:`helpers.team.duckdb_scope`), each written as the preserved line without a carry, or
#: rewrites an engine checked and wrote (:class:`Written`).
Item = bytes | JsonLine | int | Written

#: How many bytes a JSON Lines stream is read at a time.
BLOCK_SIZE = 1 << 18

#: How many parsed records (CSV or Parquet rows) make one block.
BLOCK_RECORDS = 4096


def _blocks(stream: Any, size: int | None = None) -> Iterator[list[bytes]]:
    """The lines of a byte stream, a block of whole lines at a time, without their newlines.

    Lines end at ``\\n`` only, as iterating a binary file splits them, and a final
    newline makes no extra line. An object without ``read`` is taken as an iterable
    of raw lines.
    """
    size = size or BLOCK_SIZE
    read = getattr(stream, "read", None)
    if read is None:  # any iterable of raw lines
        batch: list[bytes] = []
        for raw in stream:
            batch.append(raw[:-1] if raw.endswith(b"\n") else raw)
            if len(batch) >= BLOCK_RECORDS:
                yield batch
                batch = []
        if batch:
            yield batch
        return
    pending: list[bytes] = []  # the start of a line that the next read goes on with
    while True:
        data = read(size)
        if not data:
            break
        lines = data.split(b"\n")  # each line copied once, straight from what was read
        if len(lines) == 1:
            pending.append(data)
            continue
        if pending:
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending = []
        last = lines.pop()
        if last:
            pending.append(last)
        yield lines
    if pending:
        yield [b"".join(pending)]


def _record_blocks(records: Iterable[JsonLine]) -> Iterator[list[JsonLine]]:
    """Parsed records in blocks; a reader's :class:`~helpers.team.inputs.SourceFormatError` (a bad header) is one bad record."""
    from helpers.team.inputs import SourceFormatError

    batch: list[JsonLine] = []
    try:
        for record in records:
            batch.append(record)
            if len(batch) >= BLOCK_RECORDS:
                yield batch
                batch = []
    except SourceFormatError as exc:
        batch.append(JsonLine(exc.line or 1, None, exc))
    if batch:
        yield batch


def check_blocks(
    blocks: Iterable[Sequence[Item]],
    summary: BatchSummary,
    *,
    write: Callable[[bytes], Any] | None = None,
    carry: bool = False,
    bad_lines: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    first_line: int = 1,
) -> BatchSummary:
    """The batch loop: check every record of ``blocks`` into ``summary``, in order.

    Each block goes to :class:`helpers.team.fastpath.Records`, where each record is read,
    checked and written in one place: first its check's fast path
    (:data:`~helpers.team.fastpath.FAST_CHECKS`), and what that cannot vouch for the exact
    way, so results and errors are exactly those of :func:`outcomes_jsonl` and
    :func:`outcomes`. What comes back is counted here. ``write`` gets each block's output
    lines (:func:`output_line`) as one ``bytes``, so writing costs no system call per line;
    ``bad_lines`` gets each bad record as ``SOURCE, line N: message``; ``progress`` the number
    of records so far after each block. ``first_line`` numbers the first raw line (for a part
    of a file; see :func:`check_records`). A count ``n`` stands for the next ``n`` records,
    each preserved (never given with ``carry``), and a :class:`Written` for rewrites an engine
    wrote. A preserved rewrite builds no outcome, and neither does a failed one once the
    summary's failures are full. Taught in ``05_check_your_data.ipynb``.
    """
    source, unit = summary.source, summary.unit
    # Every record is read, checked and written in one place (fastpath.Records); what comes
    # back is counted here. Once the failures are full, a failed rewrite is only counted.
    records = Records(
        summary.check,
        source,
        carry=carry,
        emit=write is not None,
        keep=summary.max_failures - len(summary.failures),
    )
    read = records.block
    add = summary.add
    count_failure = summary.add_not_preserved
    preserved = PRESERVED_LINE
    emit = write is not None
    passes = 0
    number = first_line - 1
    for block in blocks:
        parts: list[bytes] = []
        failed: list[Any] = []
        if block and type(block[0]) is bytes and type(block) is not EngineBlock:  # raw JSON lines, all
            number, passed = read(block, number, parts, failed)
            passes += passed
        else:  # parsed records, with what an engine vouched for between them
            run: list[JsonLine | bytes] = []
            for item in block:
                if type(item) is JsonLine or type(item) is bytes:
                    run.append(item)
                    continue
                if run:
                    number, passed = read(run, number, parts, failed)
                    passes += passed
                    run = []
                if isinstance(item, Written):  # rewrites an engine checked and wrote
                    number += item.rows
                    summary.add_written(item)
                    if emit:
                        parts.append(item.text)
                elif isinstance(item, int):  # that many preserved rewrites, vouched for by an engine
                    number += item
                    passes += item
                    if emit:
                        parts.append(preserved * item)
            if run:
                number, passed = read(run, number, parts, failed)
                passes += passed
        for done in failed:
            if type(done) is TargetScopeResult:  # counted only: the summary keeps no more failures
                count_failure(done.missing, done.added)
                continue
            add(done)
            if bad_lines is not None and done[3] is not None:
                bad_lines.write(f"{source}, {unit} {done[0]}: {error_object(0, done[3])['error']}\n")
        if emit and parts:
            write(b"".join(parts))  # type: ignore[misc]
        if progress is not None:
            progress(summary.records + passes)
    summary.add_passes(passes)
    return summary


#: A regular file at least this big is checked by two processes (see :func:`check_records`).
PARALLEL_MIN_BYTES = 8 << 20


class _Range:
    """Reads bytes ``start`` to ``end`` of an open file with ``pread``, leaving its offset alone."""

    def __init__(self, fd: int, start: int, end: int) -> None:
        self.fd, self.pos, self.end = fd, start, end

    def read(self, size: int = -1) -> bytes:
        left = self.end - self.pos
        if size < 0 or size > left:
            size = left
        if size <= 0:
            return b""
        data = os.pread(self.fd, size, self.pos)
        self.pos += len(data)
        return data


def _count_lines(fd: int, end: int) -> int:
    """How many ``\\n`` bytes the first ``end`` bytes of a file hold."""
    reader, total = _Range(fd, 0, end), 0
    while chunk := reader.read(BLOCK_SIZE * 4):
        total += chunk.count(b"\n")
    return total


def _split_point(fd: int, size: int) -> int | None:
    """The offset just after the first newline at or after the middle of the file, if any."""
    pos = size // 2
    while pos < size:
        chunk = os.pread(fd, 1 << 16, pos)
        if not chunk:
            return None
        found = chunk.find(b"\n")
        if found >= 0:
            return pos + found + 1 if pos + found + 1 < size else None
        pos += len(chunk)
    return None


def merge_summaries(into: BatchSummary, other: BatchSummary) -> BatchSummary:
    """Add ``other`` (the records that follow) to ``into``: counts exactly, failures in order.

    The most-often-lost counts stay exact while both are exact and together hold
    at most ``capacity`` targets; beyond that they are merged as Misra–Gries
    summaries are (subtract the next-largest count), and ``undercount`` grows by it.
    Taught in ``05_check_your_data.ipynb``.
    """
    into.records += other.records
    for label, count in other.counts.items():
        into.counts[label] = into.counts.get(label, 0) + count
    into.lost += other.lost
    into.added += other.added
    into.lost_and_added += other.lost_and_added
    into.failures_total += other.failures_total
    into.failures.extend(other.failures[: max(0, into.max_failures - len(into.failures))])
    into.worst = worst_code(into.worst, other.worst)
    top, more = into.lost_targets, other.lost_targets
    counts = top.counts
    for item, count in more.counts.items():
        counts[item] = counts.get(item, 0) + count
    top.total += more.total
    top.undercount += more.undercount
    if len(counts) > top.capacity:
        cut = sorted(counts.values(), reverse=True)[top.capacity]
        top.counts = {item: count - cut for item, count in counts.items() if count > cut}
        top.undercount += cut
    return into


def _min_bytes() -> int:
    """:data:`PARALLEL_MIN_BYTES`, or ``$EIC_PARALLEL_MIN_BYTES`` (``$HELPERS_PARALLEL_MIN_BYTES``, deprecated)."""
    value = os.environ.get("EIC_PARALLEL_MIN_BYTES") or os.environ.get("HELPERS_PARALLEL_MIN_BYTES")
    return int(value) if value else PARALLEL_MIN_BYTES


def _parallel_split(stream: Any, min_bytes: int | None) -> tuple[int, int, int] | None:
    """``(fd, split, size)`` when ``stream`` is a large regular file read from its start, else ``None``."""
    try:
        fd = stream.fileno()
        info = os.fstat(fd)
        # A file that grows while it is read is checked as far as it went at the start:
        # a snapshot (helpers.team.inputs.open_snapshot) knows how far; else its size now.
        # (No snapshot exists unless its module was imported, so standard input imports nothing.)
        inputs = sys.modules.get(f"{__package__}.inputs")
        size = stream.size if inputs is not None and isinstance(stream, inputs.Snapshot) else info.st_size
        if min_bytes is None:
            min_bytes = _min_bytes()
        if (
            hasattr(os, "fork")
            and (os.cpu_count() or 1) > 1
            and stat.S_ISREG(info.st_mode)
            and size >= max(min_bytes, 1)
            and stream.tell() == 0
        ):
            split = _split_point(fd, size)
            return None if split is None else (fd, split, size)
    except (OSError, ValueError, AttributeError):
        return None
    return None


def _check_on_two_cores(
    fd: int,
    split: int,
    size: int,
    summary: BatchSummary,
    write: Callable[[bytes], Any] | None,
    carry: bool,
) -> BatchSummary:
    """The file's first part checked here and the rest by a forked worker; see :func:`check_records`."""
    import pickle
    import signal
    import tempfile

    def part(
        start: int, end: int, into: BatchSummary, out: Callable[[bytes], Any] | None, first: int
    ) -> None:
        check_blocks(_blocks(_Range(fd, start, end)), into, write=out, carry=carry, first_line=first)

    spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    read_end, write_end = os.pipe()
    # SIGINT (Ctrl-C) is blocked across the fork, so neither process meets it half set up:
    # then the worker dies of it quietly, and this process stops the worker and cleans up.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for end in (read_end, write_end):
            os.close(end)
        spool.close()
        raise
    if pid == 0:  # the worker: check the second part, then report its summary
        status = 70
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(read_end)
            second = BatchSummary(
                check=summary.check,
                source=summary.source,
                max_failures=summary.max_failures,
                unit=summary.unit,
            )
            part(split, size, second, None if write is None else spool.write, _count_lines(fd, split) + 1)
            spool.flush()
            data = pickle.dumps(second)
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        finally:
            os._exit(status)
    chunks: list[bytes] = []
    try:
        os.close(write_end)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        part(0, split, summary, write, 1)
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        pid = 0
    except BaseException:  # Ctrl-C or a failed write: stop the worker, leave nothing behind
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        spool.close()
        raise
    finally:
        os.close(read_end)
    try:
        if status != 0 or not chunks:  # the worker failed: check the second part here
            part(split, size, summary, write, summary.records + 1)
            return summary
        spool.seek(0)
        while write is not None and (chunk := spool.read(BLOCK_SIZE)):
            write(chunk)
    finally:
        spool.close()
    return merge_summaries(summary, pickle.loads(b"".join(chunks)))


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
        return check_blocks(_blocks(stream), summary, **options)  # type: ignore[arg-type]
    if format not in ("csv", "parquet") or summary.check != "target-scope":
        raise ValueError(f"{summary.check} records cannot be read as {format!r}; use JSON Lines")

    def rows() -> Iterator[JsonLine]:
        if format == "parquet":
            from helpers.team.scope_tables import iter_scope_parquet

            yield from iter_scope_parquet(stream, source=summary.source)
        else:
            from helpers.team.scope_csv import iter_scope_csv

            yield from iter_scope_csv(stream, source=summary.source, list_separator=list_separator)

    return check_blocks(_record_blocks(rows()), summary, **options)  # type: ignore[arg-type]


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


@dataclass
class KeyCheck:
    """A proposed answer key checked against a baseline, read from two files.

    ``result`` is ``None`` when either key had problems (listed in ``errors``,
    baseline first) or the baseline was empty. ``pairs`` is true when every ID is a
    (query, document) judgement, which reports show as ``q1 d7``
    (:mod:`helpers.team.id_display`). Taught in ``05_check_your_data.ipynb``.
    """

    baseline: AnswerKey
    proposed: AnswerKey
    result: SentinelResult | None
    errors: list[CheckInputError]
    pairs: bool = False
    #: (baseline IDs, proposed IDs, new IDs) when an engine compared the keys without reading them here.
    sizes: tuple[int, int, int] | None = None
    #: The (baseline, proposed) answers of each changed sentinel, when an engine compared the keys.
    changed_answers: Mapping[str, tuple[str, str]] | None = None

    @property
    def exit_code(self) -> int:
        """0 intact, 1 hold before scoring, 4 bad input."""
        if self.result is None:
            return EXIT_BAD_INPUT
        return EXIT_PASS if self.result.intact else EXIT_FAILED

    @property
    def baseline_ids(self) -> int:
        """How many IDs the baseline holds."""
        return self.sizes[0] if self.sizes is not None else len(self.baseline.answers)

    @property
    def proposed_ids(self) -> int:
        """How many IDs the proposed key holds."""
        return self.sizes[1] if self.sizes is not None else len(self.proposed.answers)

    @property
    def new_ids(self) -> int:
        """How many proposed IDs are not sentinels (allowed, and not checked)."""
        if self.sizes is not None:
            return self.sizes[2]
        return len(self.proposed.answers.keys() - self.baseline.answers.keys())

    def answers(self, sentinel: str) -> tuple[str, str]:
        """The baseline and the proposed answer of a changed ``sentinel``."""
        if self.changed_answers is not None:
            return self.changed_answers[sentinel]
        return self.baseline.answers[sentinel], self.proposed.answers[sentinel]


def check_answer_keys(baseline: AnswerKey, proposed: AnswerKey, *, pairs: bool | None = None) -> KeyCheck:
    """Run the sentinel check on two answer keys read by :mod:`helpers.team.sources`.

    ``pairs`` (whether the IDs are qrels judgements) defaults to what the baseline's
    format says; a Parquet key read with two ID columns is one. Taught in
    ``05_check_your_data.ipynb``.
    """
    if pairs is None:
        from helpers.team.id_display import PAIR_FORMATS

        pairs = baseline.format in PAIR_FORMATS
    errors = [*baseline.errors, *proposed.errors]
    if errors:
        return KeyCheck(baseline, proposed, None, errors, pairs)
    result = fast_sentinels(baseline.answers, proposed.answers)
    if result is None:
        try:
            result = check_sentinels(baseline.answers, proposed.answers)
        except CheckInputError as exc:
            return KeyCheck(
                baseline,
                proposed,
                None,
                [JSONLoadError(exc.message, source=baseline.source, field=exc.field)],
                pairs,
            )
    return KeyCheck(baseline, proposed, result, [], pairs)


def check_key_files(
    baseline: InputFile,
    proposed: InputFile,
    *,
    format: KeyFormat | None = None,
    id_columns: Sequence[str] = (),
    answer_column: str | None = None,
    max_bytes: int | None = None,
) -> KeyCheck:
    """Read two answer keys (paths or uploads) and check the sentinels.

    The format defaults to the one each name gives (``.json`` or ``.jsonl``); the
    others are read by :mod:`helpers.team.key_formats` (a Parquet key needs its
    columns named). A key is held in memory whole, so one over ``max_bytes``
    (default :data:`~helpers.team.inputs.MAX_KEY_BYTES`) is refused unread, as is
    anything but a regular file (:class:`~helpers.core.errors.JSONLoadError`).
    Taught in ``05_check_your_data.ipynb``.
    """
    from helpers.team.inputs import MAX_KEY_BYTES
    from helpers.team.key_formats import read_key
    from helpers.team.sources import key_format_for, open_input

    keys = []
    for item in (baseline, proposed):
        stream, name, _size = open_input(item, max_bytes=MAX_KEY_BYTES if max_bytes is None else max_bytes)
        with stream:
            fmt = format or key_format_for(name)
            keys.append(
                read_key(stream, source=name, format=fmt, id_columns=id_columns, answer_column=answer_column)
            )
    return check_answer_keys(keys[0], keys[1], pairs=True if len(id_columns) == 2 else None)
