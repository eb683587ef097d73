"""Target-scope rewrites in JSON Lines judged in DuckDB (``target-scope --engine duckdb``, and
``--engine auto`` on large input), from a file or from standard input, a chunk at a time.

The stream is read :data:`CHUNK_BYTES` at a time and cut at its last newline; the chunk's lines
(split at ``\\n`` only, as the Python route splits them) go to DuckDB as one Arrow column,
without a copy, so memory stays bounded by a few chunks however long the input is. DuckDB
judges a line only when it can prove the line is *plain*, a shape the Python route reads the
same way, byte for byte:

* the line is valid UTF-8 (Arrow's full validation, which refuses what Python's strict decoder
  refuses: surrogates, overlong forms, code points beyond U+10FFFF), and matches
  :data:`PLAIN_RECORD` as a whole: one JSON object whose members are ``original``,
  ``rewritten`` and ``unresolved`` (lists of non-empty strings) and ``id``, ``query`` and
  ``rewritten_query`` (strings), with spaces only between tokens (never before a colon), and no
  string holding ``"``, ``\\`` or a control character;
* no member is given twice: in such a line every ``":`` ends a key, so the keys written are
  counted and compared with the distinct known keys present;
* ``original`` and ``rewritten`` are present.

Such a line is strict JSON with no escapes, so DuckDB's ``from_json`` reads the very strings
the Python reader reads; the judgement and the line written are then the Parquet route's
(:func:`helpers.team.duckdb_scope.judged_sql`: byte-exact sets, UTF-16 order, plain IDs only).
Every other line (a blank or malformed one, a number where an ID belongs, an escape, a repeated
key, a first line with a byte-order mark, anything DuckDB does not write) is handed on as its
raw bytes and checked by the Python route, which names it by its number; a chunk that is not
valid UTF-8, or that DuckDB fails on, is handed on whole. So output bytes, bad lines and exit
status are the Python route's. Taught in ``05_check_your_data.ipynb`` ("When your files
outgrow this machine").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from helpers.team.batch import EngineBlock
from helpers.team.duckdb_scope import _literal, _run, judged_sql

__all__ = ["CHUNK_BYTES", "PLAIN_RECORD", "scope_jsonl_blocks", "lines_sql"]

#: How many bytes of input DuckDB judges at a time: the memory bound of the route is the chunk
#: (read in place, never copied) and DuckDB's working set over it (docs/performance.md).
CHUNK_BYTES = 6 << 20

#: Rows per Arrow batch handed to DuckDB (its unit of parallel work), and per block handed on.
_BATCH_ROWS = 1 << 13

#: A character of a plain string: not ``"``, ``\\`` or a control character (the characters the
#: Python route escapes), and in an ID nothing in U+E000-U+FFFF either (where code-point order,
#: DuckDB's, and UTF-16 order, the checks', part).
_CHAR = r'[^"\\\x00-\x1f]'
_ID_CHAR = r'[^"\\\x00-\x1f\x{E000}-\x{FFFF}]'
_STRING = '"' + _CHAR + '*"'
_ID = '"' + _ID_CHAR + '+"'
_LIST = r"\[ *(?:" + _ID + r"(?: *, *" + _ID + r")*)? *\]"
_MEMBER = (
    r'(?:"(?:original|rewritten|unresolved)": *'
    + _LIST
    + r'|"(?:id|query|rewritten_query)": *'
    + _STRING
    + ")"
)

#: A plain record (RE2 syntax, matched against the whole line and its newline): see the module notes.
PLAIN_RECORD = r"\{ *" + _MEMBER + r"(?: *, *" + _MEMBER + r")* *\}\n?"

#: The keys a plain record may hold.
_KEYS = ("original", "rewritten", "unresolved", "id", "query", "rewritten_query")

_SCHEMA = (
    '{"original":["VARCHAR"],"rewritten":["VARCHAR"],"unresolved":["VARCHAR"],'
    '"id":"VARCHAR","query":"VARCHAR","rewritten_query":"VARCHAR"}'
)


def lines_sql(table: str, *, lines: bool = True) -> str:
    """The query over ``table`` (columns ``n``, the line number from 0, and ``t``, the line with
    its newline): :func:`~helpers.team.duckdb_scope.judged_sql` of each line, plain or not."""
    present = " + ".join(f"(j.{key} IS NOT NULL)::INTEGER" for key in _KEYS)
    members = """(strlen(t) - strlen(replace(t, '":', ''))) // 2"""
    rows = f"""
        SELECT n, coalesce(grammar AND {members} = {present}, false) AS plain,
               j.original AS o, j.rewritten AS r, coalesce(j.unresolved, []::VARCHAR[]) AS u
        FROM (
            SELECT n, t, grammar, CASE WHEN grammar THEN from_json(t, {_literal(_SCHEMA)}) END AS j
            FROM (SELECT n, t, regexp_full_match(t, {_literal(PLAIN_RECORD)}) AS grammar FROM {table})
        )
    """
    return judged_sql(rows, lines=lines, proved=True)


def _chunks(stream: Any, size: int) -> Iterator[memoryview]:
    """The stream's bytes in chunks of whole lines (up to ``size`` bytes, doubled for a longer
    line), each read into a buffer of its own: no chunk is joined or cut by a copy, and a buffer's
    pages are only taken as they are read into (it is not filled with zeros first), so a short
    stream stays small."""
    import numpy as np

    pending = b""
    while True:
        view = np.empty(max(size, len(pending)), np.uint8).data  # a memoryview of fresh pages
        view[: len(pending)] = pending
        got = len(pending) + _fill(stream, view[len(pending) :])
        if got < len(view):  # the stream ended
            if got:
                yield view[:got]
            return
        cut = _last_newline(view)
        if cut < 0:  # one line longer than the chunk so far: read on
            pending = bytes(view)
            size *= 2
            continue
        pending = bytes(view[cut + 1 :])
        yield view[: cut + 1]
        del view  # not held while the next chunk is read


def _last_newline(view: memoryview) -> int:
    """Where the last ``\\n`` of ``view`` is, or -1."""
    end = len(view)
    while end > 0:
        start = max(0, end - _PIECE)
        at = bytes(view[start:end]).rfind(b"\n")
        if at >= 0:
            return start + at
        end = start
    return -1


#: The most bytes read at a time from a stream that cannot read into a buffer.
_PIECE = 1 << 20


def _fill(stream: Any, view: memoryview) -> int:
    """Read into ``view`` until it is full or the stream ends; how many bytes were read."""
    readinto = getattr(stream, "readinto", None)
    got = 0
    while got < len(view):
        if readinto is not None:
            count = readinto(view[got:]) or 0
        else:
            data = stream.read(min(len(view) - got, _PIECE))
            count = len(data)
            view[got : got + count] = data
        if not count:
            break
        got += count
    return got


def _to_python(data: bytes | memoryview, tally: dict[str, int]) -> list[bytes]:
    """A chunk whose every line goes to the Python route: its raw lines, counted in ``tally``."""
    raws = _raw_lines(data)
    tally["lines"] += len(raws)
    tally["python"] += len(raws)
    return raws


def _raw_lines(data: bytes | memoryview) -> list[bytes]:
    """The lines of a chunk as the Python route reads them (no newline; a final one makes no line)."""
    lines = bytes(data).split(b"\n")
    if not lines[-1]:
        lines.pop()
    return lines


#: Bytes looked at a time for newlines (the comparison's working array is this long).
_SCAN = 1 << 20


def _column(data: bytes | memoryview) -> Any:
    """The chunk's lines, each with its newline, as an Arrow string array over the chunk's own
    bytes; ``None`` when they are not all valid UTF-8 (or too many bytes for one array)."""
    import numpy as np
    import pyarrow as pa

    if len(data) >= 1 << 31:
        return None
    view = np.frombuffer(data, np.uint8)
    found = [np.flatnonzero(view[at : at + _SCAN] == 10) + (at + 1) for at in range(0, len(view), _SCAN)]
    ends = np.concatenate(found) if found else np.empty(0, np.int64)
    if not len(ends) or ends[-1] != len(data):
        ends = np.append(ends, len(data))
    offsets = np.concatenate(([0], ends)).astype(np.int32)
    column = pa.StringArray.from_buffers(len(ends), pa.py_buffer(offsets), pa.py_buffer(data))
    try:
        column.validate(full=True)
    except pa.ArrowInvalid:
        return None
    return column


def scope_jsonl_blocks(
    stream: Any,
    *,
    lines: bool = True,
    threads: int | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    tally: dict[str, int] | None = None,
) -> Iterator[list[Any]]:
    """Blocks for :func:`helpers.team.batch.check_blocks` from a JSON Lines byte stream.

    With ``lines`` (a run that writes every output line and shows no summary), DuckDB writes
    the lines it can (:class:`~helpers.team.batch.Written`); without, preserved rewrites come
    as counts. Every other line is handed on as its raw bytes. ``tally``, when given, counts
    the lines handed on (``"python"``) and all lines (``"lines"``). Taught in
    ``05_check_your_data.ipynb``.
    """
    if tally is None:
        tally = {}
    tally.setdefault("lines", 0)
    tally.setdefault("python", 0)
    import pyarrow as pa

    from helpers.team.duckdb_engine import connect

    # Arrow's default allocator (mimalloc) kept the pages of the batches taken apart here, so the
    # peak grew with the input; the system allocator hands them back (docs/performance.md).
    pa.set_memory_pool(pa.system_memory_pool())
    con = connect(threads)
    sql = lines_sql("chunk", lines=lines)
    done = 0  # lines handed on so far
    chunks = _chunks(stream, chunk_bytes)
    try:
        while (data := next(chunks, None)) is not None:
            judged = _judge(con, sql, data, done, lines, tally)
            del data  # the chunk's bytes go with its last block, before the next chunk is read
            for block, count in judged:
                done += count
                yield block
                del block
    finally:
        con.close()


def _judge(
    con: Any, sql: str, data: bytes | memoryview, done: int, lines: bool, tally: dict[str, int]
) -> Iterator[tuple[list[Any], int]]:
    """One chunk's blocks and how many lines each holds: one a batch DuckDB judges (its lines
    numbered from ``done``), each handed on before the next batch is judged; the lines DuckDB
    does not judge (all of them when the chunk is not UTF-8 throughout, the rest when DuckDB
    fails) go to the Python route."""
    import duckdb
    import numpy as np
    import pyarrow as pa

    column = _column(data)
    if column is None:  # not UTF-8 throughout: the Python route names the lines
        raws = _to_python(data, tally)
        yield EngineBlock(raws), len(raws)
        return
    count = len(column)
    numbers = pa.array(np.arange(done, done + count, dtype=np.int64))
    chunk = pa.Table.from_arrays([numbers, column], names=["n", "t"]).to_batches(_BATCH_ROWS)
    del numbers
    at = 0  # lines of the chunk judged so far
    try:
        con.con.register("chunk", pa.Table.from_batches(chunk))
        del chunk
        for batch in con.sql(sql).to_arrow_reader(_BATCH_ROWS):
            if len(batch):
                block = _block(batch, column, done + at, at, lines)
                tally["lines"] += len(batch)
                tally["python"] += sum(type(item) is bytes for item in block)
                at += len(batch)
                yield block, len(batch)
                del block
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None  # Ctrl-C: the run stops, as on the Python route
    except (duckdb.Error, pa.ArrowException, OSError):
        pass  # DuckDB could not judge the rest: the Python route does
    finally:
        con.con.unregister("chunk")
    if at < count:
        start = int(np.frombuffer(column.buffers()[1], np.int32)[column.offset + at])  # line at's first byte
        raws = _to_python(data[start:], tally)
        yield EngineBlock(raws), len(raws)


def _block(batch: Any, column: Any, first: int, at: int, lines: bool) -> list[Any]:
    """The block of one batch DuckDB judged, the lines ``first`` on (line ``at`` of ``column``):
    runs of lines judged in DuckDB, and the raw lines for the Python route."""
    import pyarrow as pa
    import pyarrow.compute as pc

    numbers = batch.column("n")
    steps = pc.min_max(pc.pairwise_diff(numbers)).as_py() if len(batch) > 1 else {"min": 1, "max": 1}
    if numbers[0].as_py() != first or steps != {"min": 1, "max": 1}:  # each line once, in order
        raise AssertionError(
            f"DuckDB gave the lines from {numbers[0].as_py() + 1} out of order ({first + 1} was due)"
        )
    handed = pc.indices_nonzero(batch.column("py")).to_pylist()
    taken = pa.array([at + index for index in handed], pa.int64())
    raws = column.take(taken).view(pa.binary()).to_pylist() if handed else []
    block = EngineBlock()
    start = 0
    for index, raw in zip(handed, raws, strict=True):
        if index > start:
            block.append(_run(batch, start, index, lines))
        block.append(raw[:-1] if raw.endswith(b"\n") else raw)
        start = index + 1
    if start < len(batch):
        block.append(_run(batch, start, len(batch), lines))
    return block
