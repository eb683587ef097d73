"""Target-scope rewrites in CSV judged in DuckDB (``target-scope --engine duckdb``), from a file
or from standard input, a chunk of whole lines at a time, as :mod:`helpers.team.duckdb_lines`
judges JSON Lines.

The header row is read by the Python route's own reader; DuckDB takes part only when it is
*plain* (the column names, comma-separated, unquoted, after an optional byte-order mark) and
valid, and, with ``--list-separator``, when the separator is one character that is not ``"``,
``,``, ``\\`` or a control character. Otherwise the whole input takes the Python route.

Each later physical line (split at ``\\n`` only, as the Python route splits them) goes to DuckDB
as one Arrow string, and DuckDB judges a line only when it can prove it is a *plain row*, one
the Python route reads the same way: valid UTF-8; one cell per column, in the header's order,
each unquoted or quoted whole within the line; no control character anywhere but the line's
final ``\\r\\n``; ``id`` not empty; and each list cell either a JSON array of plain IDs (quoted,
``"[""a"",""b""]"``, or ``[]``), spaces only between its tokens, or, with a list separator, the
plain IDs joined by it. A plain ID is non-empty and holds no ``"``, ``\\``, control character or
anything in U+E000-U+FFFF (where code-point order, DuckDB's, and UTF-16 order, the checks',
part). The judgement and the line written are then the Parquet route's
(:func:`helpers.team.duckdb_scope.judged_sql`).

Every other line starts a record that the Python route reads with its own CSV reader
(:func:`helpers.team.scope_csv.csv_rows`), from that line on, for as many lines as the record
takes (a quoted cell may hold a newline); the lines it took are not DuckDB's, whatever DuckDB
made of them. A record that reaches the end of a chunk is read again at the start of the next,
so no record is cut. A chunk that is not valid UTF-8, or that DuckDB fails on, is read by the
Python route whole. So output bytes, bad lines and exit status are the Python route's. Taught
in ``05_check_your_data.ipynb`` ("When your files outgrow this machine").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from helpers.team.batch import EngineBlock, _record_blocks
from helpers.team.duckdb_lines import _BATCH_ROWS, _column
from helpers.team.duckdb_scope import _literal, _run, judged_sql
from helpers.team.inputs import SCOPE_CSV_OPTIONAL, SCOPE_CSV_REQUIRED

__all__ = ["CHUNK_BYTES", "scope_csv_blocks", "csv_sql", "plain_row"]

#: How many bytes of rows DuckDB judges at a time: DuckDB's working set grows with the chunk (about
#: 11 MB a MiB) while each query costs about 25 ms of CPU to plan, so 1.5 MiB keeps a run's peak memory
#: within 1.2x that of a small file at about 3% more CPU than 8 MiB (docs/performance.md, "How each route stays fast").
CHUNK_BYTES = 3 << 19

#: A plain header row (bytes): the known column names, unquoted, after an optional byte-order mark.
_NAME = b"(?:" + b"|".join(n.encode() for n in SCOPE_CSV_REQUIRED + SCOPE_CSV_OPTIONAL) + b")"
_HEADER = re.compile(rb"(?:\xef\xbb\xbf)?" + _NAME + rb"(?:," + _NAME + rb")*\r?\n")

#: Cells (RE2): any text without a control character, unquoted or quoted; a non-empty one for ``id``.
_TEXT = r'(?:[^",\x00-\x1f]*|"(?:[^"\x00-\x1f]|"")*")'
_ID_TEXT = r'(?:[^",\x00-\x1f]+|"(?:[^"\x00-\x1f]|"")+")'
#: A plain ID inside a quoted JSON array (its quotes doubled), and the array cell itself.
_JSON_ID = r'""[^"\\\x00-\x1f\x{E000}-\x{FFFF}]+""'
_JSON_LIST = r'(\[ *\]|"\[ *(?:' + _JSON_ID + r"(?: *, *" + _JSON_ID + r')*)? *\]")'


def _separated_list(separator: str) -> str:
    """A list cell of plain IDs joined by ``separator`` (RE2), unquoted or quoted."""
    sep = re.escape(separator)
    ident = r'[^"\\,\x00-\x1f\x{E000}-\x{FFFF}' + sep + "]+"
    ids = "(?:" + ident + "(?:" + sep + ident + ")*)?"
    return "(" + ids + '|"' + ids + '")'


def plain_row(header: list[str], separator: str | None) -> str:
    """The RE2 pattern of a plain row under ``header`` (see the module notes), matched against
    the whole line with its newline; the list cells are its groups, in the header's order."""
    lists = _JSON_LIST if separator is None else _separated_list(separator)
    cells = []
    for name in header:
        if name in ("original", "rewritten"):
            cells.append(lists)
        elif name == "unresolved":
            cells.append(lists if separator is not None else "(|" + lists[1:])
        else:
            cells.append(_ID_TEXT if name == "id" else _TEXT)
    return ",".join(cells) + r"(?:\r?\n)?"


def _usable_separator(separator: str | None) -> bool:
    return separator is None or (len(separator) == 1 and separator not in '",\\' and separator >= " ")


def csv_sql(table: str, header: list[str], separator: str | None, *, lines: bool = True) -> str:
    """The query over ``table`` (columns ``n``, the line's number from 0, and ``t``, the line with
    its newline): :func:`~helpers.team.duckdb_scope.judged_sql` of each line, plain or not."""
    pattern = plain_row(header, separator)
    names = [name for name in header if name in ("original", "rewritten", "unresolved")]

    def ids(cell: str) -> str:
        if separator is None:
            return f"""regexp_extract_all({cell}, '""([^"]+)""', 1)"""
        text = f"trim({cell}, '\"')"
        return (
            f"CASE WHEN {text} = '' THEN []::VARCHAR[] ELSE string_split({text}, {_literal(separator)}) END"
        )

    groups = "[" + ", ".join(_literal(name) for name in ("w", *(name[0] for name in names))) + "]"
    unresolved = ids("m.u") if "unresolved" in names else "[]::VARCHAR[]"
    # One match a line: the whole row is group w (empty when the line is not plain; a plain row never is).
    rows = f"""
        SELECT n, grammar AS plain,
               CASE WHEN grammar THEN {ids("m.o")} END AS o,
               CASE WHEN grammar THEN {ids("m.r")} END AS r,
               CASE WHEN grammar THEN {unresolved} ELSE []::VARCHAR[] END AS u
        FROM (
            SELECT n, m, m.w <> '' AS grammar
            FROM (SELECT n, regexp_extract(t, {_literal("^(" + pattern + ")$")}, {groups}) AS m FROM {table})
        )
    """
    return judged_sql(rows, lines=lines, proved=True)


class _Chunks:
    """A byte stream as chunks of whole lines (at least ``size`` bytes but the last), each with
    whether it is the last; a chunk's tail can be given back to lead the next one."""

    def __init__(self, stream: Any, size: int) -> None:
        self.read, self.size, self.pending, self.ended = stream.read, size, b"", False

    def next(self) -> tuple[bytes, bool] | None:
        while True:
            parts, got = [self.pending], len(self.pending)
            while got < self.size and not self.ended:
                data = self.read(self.size - got)
                if not data:
                    self.ended = True
                    break
                parts.append(data)
                got += len(data)
            data, self.pending = b"".join(parts), b""
            if self.ended:
                return (data, True) if data else None
            cut = data.rfind(b"\n")
            if cut < 0:  # one line longer than the chunk so far: read on
                self.pending, self.size = data, self.size * 2
                continue
            self.pending = data[cut + 1 :]
            return data[: cut + 1], False

    def give_back(self, tail: bytes, whole: bool) -> None:
        """``tail`` leads the next chunk; when it is a ``whole`` chunk, the next one is longer."""
        self.pending = tail + self.pending
        if whole:
            self.size *= 2


def _ends(data: bytes) -> Any:
    """Where each line of ``data`` ends (after its newline, or at the end of the data)."""
    import numpy as np

    ends = np.flatnonzero(np.frombuffer(data, np.uint8) == 10) + 1
    if not len(ends) or ends[-1] != len(data):
        ends = np.append(ends, len(data))
    return ends


def scope_csv_blocks(
    stream: Any,
    *,
    source: str,
    list_separator: str | None = None,
    lines: bool = True,
    threads: int | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    tally: dict[str, int] | None = None,
) -> Iterator[list[Any]]:
    """Blocks for :func:`helpers.team.batch.check_blocks` from a CSV byte stream.

    With ``lines`` (a run that writes every output line and shows no summary), DuckDB writes
    the lines it can (:class:`~helpers.team.batch.Written`); without, preserved rewrites come
    as counts. Every other record comes as the Python reader makes it. ``tally``, when given,
    counts the records the Python route read (``"python"``) and all records (``"lines"``).
    Taught in ``05_check_your_data.ipynb``.
    """
    from helpers.team.scope_csv import iter_scope_csv

    if tally is None:
        tally = {}
    tally.setdefault("lines", 0)
    tally.setdefault("python", 0)
    chunks = _Chunks(stream, chunk_bytes)
    first = chunks.next()
    header = _plain_header(first[0] if first else b"", source) if _usable_separator(list_separator) else None
    if header is None or first is None:  # the Python route reads it all, from the first byte
        from helpers.team.spool import Prefixed

        whole = Prefixed((first[0] if first else b"") + chunks.pending, stream)
        chunks.pending = b""
        for block in _record_blocks(iter_scope_csv(whole, source=source, list_separator=list_separator)):
            tally["lines"] += len(block)
            tally["python"] += len(block)
            yield block
        return
    yield from _judged_blocks(chunks, first, header, source, list_separator, lines, threads, tally)


def _plain_header(data: bytes, source: str) -> list[str] | None:
    """The header row at the start of ``data`` when it is plain and valid, else ``None``."""
    import csv

    from helpers.team.inputs import SourceFormatError
    from helpers.team.scope_csv import read_header

    found = _HEADER.match(data)
    if found is None:
        return None
    text = found.group().decode("utf-8-sig")
    try:
        return read_header(csv.reader([text], strict=True), [], source)
    except SourceFormatError:
        return None  # the Python route names what is wrong


def _judged_blocks(
    chunks: _Chunks,
    first: tuple[bytes, bool],
    header: list[str],
    source: str,
    separator: str | None,
    lines: bool,
    threads: int | None,
    tally: dict[str, int],
) -> Iterator[list[Any]]:
    import duckdb
    import numpy as np
    import pyarrow as pa

    from helpers.team.duckdb_engine import connect

    data, final = first
    cut = data.index(b"\n") + 1
    chunks.give_back(data[cut:], False)  # the rows after the header lead the first chunk
    before = 1  # lines before the chunk (the header's)
    con = connect(threads)
    sql = csv_sql("chunk", header, separator, lines=lines)
    try:
        while (got := chunks.next()) is not None:
            data, final = got
            column = _column(data)
            judged = None
            if column is not None:
                count = len(column)
                numbers = pa.array(np.arange(count, dtype=np.int64))
                table = pa.Table.from_arrays([numbers, column], names=["n", "t"])
                try:
                    con.con.register("chunk", pa.Table.from_batches(table.to_batches(_BATCH_ROWS)))
                    judged = con.sql(sql).to_arrow_table()
                except duckdb.InterruptException:
                    raise KeyboardInterrupt from None  # Ctrl-C: the run stops, as on the Python route
                except duckdb.Error:
                    judged = None
                finally:
                    con.con.unregister("chunk")
                del table, numbers, column
                if judged is not None and len(judged) != count:
                    judged = None
            block, used, at = _block(data, judged, before, header, source, separator, lines, final, tally)
            if at < len(data):  # a record reaches the chunk's end: it leads the next chunk
                chunks.give_back(data[at:], at == 0)
            before += used
            if block:
                yield block
    finally:
        con.close()


def _block(
    data: bytes,
    judged: Any,
    before: int,
    header: list[str],
    source: str,
    separator: str | None,
    lines: bool,
    final: bool,
    tally: dict[str, int],
) -> tuple[EngineBlock, int, int]:
    """One chunk's block (runs of rows judged in DuckDB, and the records the Python route read),
    how many of its lines it took and the byte they end at: all, unless a record the Python route
    reads reaches the end of a chunk that is not the last."""
    import pyarrow as pa
    import pyarrow.compute as pc

    ends = _ends(data).tolist()
    count = len(ends)
    batch = None
    if judged is None:  # not UTF-8 throughout, or DuckDB could not judge it: all the Python route's
        handed = list(range(count))
    else:
        numbers = judged.column("n").combine_chunks()
        in_order = numbers[0].as_py() == 0 and (
            count == 1 or pc.min_max(pc.pairwise_diff(numbers)).as_py() == {"min": 1, "max": 1}
        )
        if not in_order:
            judged = judged.sort_by("n")
            numbers = judged.column("n").combine_chunks()
            if pc.any(pc.not_equal(numbers, pa.array(range(count), pa.int64()))).as_py():
                raise AssertionError(f"DuckDB did not give each line from {before + 1} once")
        batch = judged.combine_chunks().to_batches()[0]
        handed = pc.indices_nonzero(batch.column("py")).to_pylist()
    py = set(handed)
    block = EngineBlock()
    start = 0
    for i in handed:
        if i < start:  # a line of a record the Python route read
            continue
        if i > start:
            assert batch is not None
            block.append(_run(batch, start, i, lines))
            tally["lines"] += i - start
        records, starts, after = _python_records(data, ends, i, py, before, header, source, separator)
        deferred = after >= count and not final  # the last record may go on in the next chunk
        if deferred:
            records.pop()  # it is read again at the start of the next chunk
        block.extend(records)
        tally["lines"] += len(records)
        tally["python"] += len(records)
        if deferred:
            return block, starts[-1], ends[starts[-1] - 1] if starts[-1] else 0
        start = after
    if start < count:
        assert batch is not None
        block.append(_run(batch, start, count, lines))
        tally["lines"] += count - start
    return block, count, len(data)


def _python_records(
    data: bytes,
    ends: list[int],
    first: int,
    py: set[int],
    before: int,
    header: list[str],
    source: str,
    separator: str | None,
) -> tuple[list[Any], list[int], int]:
    """The records the Python route reads from line ``first`` of the chunk on, for as long as
    each next record starts at a line of ``py`` (DuckDB's lines for the Python route): the
    records, the line each starts at, and the line after the last."""
    from helpers.team.scope_csv import csv_rows

    count = len(ends)
    raws = (data[(ends[j - 1] if j else 0) : ends[j]] for j in range(first, count))
    reader, rows = csv_rows(raws, header, source=source, list_separator=separator, first=before + first + 1)
    records: list[Any] = []
    starts: list[int] = []
    at = first
    while at < count and (at == first or at in py):
        starts.append(at)
        records.append(next(rows))
        at = first + reader.line_num
    return records, starts, at
