"""The target-scope check of a Parquet table run inside DuckDB (``target-scope --engine duckdb``).

A first pass reads every cell of the table (counting them) and proves that DuckDB can read
it all, so a file that cannot be read part-way falls back whole, before a line is written;
a second pass, on every core, judges each row and streams what the batch loop needs, a
batch at a time, so memory does not grow with the table. A row is judged in
DuckDB when it is valid (``original``, ``rewritten`` and ``unresolved``, when present,
non-null lists of non-empty, non-null strings) and short (at most :data:`SHORT` IDs in
``original`` and ``rewritten`` together): its missing and added IDs, or its held
mentions, are worked out as byte-exact sets (no collation is ever set).

* **Writing every line** (``lines=True``, no summary): DuckDB also writes each such row's
  output line, when every ID in it is *plain*: no ``"``, no ``\\``, no control character
  (U+0000-U+001F, the only characters the Python route escapes) and nothing in U+E000-U+FFFF
  (where code-point order, DuckDB's, and UTF-16 order, the checks', part). A plain line
  is the IDs between quotes, in DuckDB's order, which is then the checks' order; so no
  JSON escaping of DuckDB's is used. The lines come out in runs
  (:class:`~helpers.team.batch.Written`), joined by Arrow, never one Python object a row.
* **A summary** (``lines=False``): the preserved rows are counts; every other row is
  handed on as the record the Python reader makes, so its failure is explained and its
  lost targets counted the Python way.

Every other row (a null or an empty ID, a long list that changed, an ID that is not plain)
is handed on as the ``{column: value}`` record the Python reader makes and checked the
Python way, so its result, its order (UTF-16 code units) and its error are the Python
route's byte for byte. A table the Python reader would refuse or read differently (an
unknown or missing column, a column type other than a list of strings or a plain scalar,
a file DuckDB cannot read) is not judged here: :func:`scope_parquet_blocks` returns
``None`` and the caller runs the Python route. Taught in ``05_check_your_data.ipynb``
("When your files outgrow this machine").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from helpers.core.jsonio import JsonLine
from helpers.team.batch import Written
from helpers.team.parquet_tables import unreadable_from
from helpers.team.scope_tables import SCOPE_TABLE_OPTIONAL, SCOPE_TABLE_REQUIRED

__all__ = ["SHORT", "PLAIN_PATTERN", "scope_parquet_blocks", "scope_sql", "judged_sql"]

#: List columns: DuckDB's types for a Parquet ``list<string>`` (any string flavour) and for a
#: ``list<null>`` (what pyarrow writes for a column of empty lists).
_LIST_TYPES = frozenset({"VARCHAR[]", '"NULL"[]'})

#: Scalar column types whose Python values DuckDB and pyarrow give alike (``str``, ``int``, ``bool``).
_SCALAR_TYPES = frozenset(
    {"VARCHAR", "BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT"}
    | {"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT"}
)

#: The list columns of a record; the others are carried scalars.
_LISTS = ("original", "rewritten", "unresolved")

#: A row with at most this many IDs in ``original`` and ``rewritten`` together is compared in
#: DuckDB ID by ID (``list_contains``); a longer one is proved preserved by its sorted sets, and
#: if it is not, it goes to the Python route, whose sets are linear.
SHORT = 64

#: A character that keeps a line from being written in DuckDB (RE2 syntax): one the Python route
#: escapes (``"``, ``\\``, U+0000-U+001F), or one in U+E000-U+FFFF, which UTF-16 sorts after every
#: character above U+FFFF and code-point order before (elsewhere the two orders agree).
PLAIN_PATTERN = r'[\x00-\x1f"\\\x{E000}-\x{FFFF}]'

#: What each row's ``kind`` says, for the counts: preserved, lost only, added only, both, held.
_PRESERVED, _LOST, _ADDED, _BOTH, _HELD = range(5)

#: How many rows are fetched from DuckDB at a time (a batch's Arrow copy is the fetch's working set).
_FETCH_ROWS = 1 << 13

#: The line of a preserved rewrite, which the judged batches hold as a null (docs/performance.md).
_PRESERVED_LINE = '{"missing":[],"added":[],"preserved":true}\n'


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _columns(con: Any, source: str) -> list[str] | None:
    """The table's columns when DuckDB reads them as the Python reader does, else ``None``."""
    rows = con.execute(f"DESCRIBE SELECT * FROM read_parquet({source})").fetchall()
    names = [row[0] for row in rows]
    types = {row[0]: row[1] for row in rows}
    allowed = SCOPE_TABLE_REQUIRED + SCOPE_TABLE_OPTIONAL
    if len(set(names)) != len(names) or any(n not in allowed for n in names):
        return None
    if any(n not in names for n in SCOPE_TABLE_REQUIRED):
        return None
    for name in names:
        if types[name] not in (_LIST_TYPES if name in _LISTS else _SCALAR_TYPES):
            return None
    return names


def _read_every_cell(con: Any, source: str) -> None:
    """Read every cell of the table without judging a row; raises ``duckdb.Error`` where DuckDB cannot.

    Each column is summed over a figure that needs its values (a string's length, a list's, a
    scalar's hash): a ``count`` would not do, since DuckDB answers it from the file's statistics
    when they say a column holds no null, and reads none of its pages."""
    rows = con.execute(f"DESCRIBE SELECT * FROM read_parquet({source})").fetchall()

    def figure(name: str, kind: str) -> str:
        if kind == "VARCHAR":
            return f"sum(strlen({_quote(name)}))"
        return f"sum(len({_quote(name)}))" if kind in _LIST_TYPES else f"bit_xor(hash({_quote(name)}))"

    figures = ", ".join(figure(row[0], row[1]) for row in rows)
    con.execute(f"SELECT count(*), {figures} FROM read_parquet({source})").fetchall()


def _ids(values: str) -> str:
    """SQL: a list of plain IDs as the JSON array the Python route writes (``[]`` or ``["a","b"]``)."""
    return f"""(CASE WHEN len({values}) = 0 THEN '[]' ELSE '["' || array_to_string({values}, '","') || '"]' END)"""


def _set(values: str) -> str:
    """SQL: a list's distinct IDs in DuckDB's order (a list of one or none is that already)."""
    return f"(CASE WHEN len({values}) < 2 THEN {values} ELSE list_sort(list_distinct({values})) END)"


def _plain(values: str) -> str:
    """SQL: true when no ID of the list holds a character of :data:`PLAIN_PATTERN`."""
    return f"NOT regexp_matches(array_to_string({values}, ''), '{PLAIN_PATTERN}')"


def _clean(values: str) -> str:
    """SQL: true when a non-null list holds no null and no empty ID."""
    return f"(list_count({values}) = len({values}) AND NOT list_contains({values}, ''))"


def scope_sql(source: str, names: list[str], *, lines: bool) -> str:
    """The one query over the table: for each row, in order, its number ``n`` (from 0), its
    ``kind`` (see :data:`_PRESERVED`), its output ``line`` when DuckDB wrote it (with ``lines``),
    ``py`` (true when the Python route must check it) and, for those rows only, its cells."""
    unresolved = "CAST(unresolved AS VARCHAR[])" if "unresolved" in names else "[]::VARCHAR[]"
    rows = f"""
        SELECT *, file_row_number AS n, CAST(original AS VARCHAR[]) AS o,
               CAST(rewritten AS VARCHAR[]) AS r, {unresolved} AS u, true AS plain
        FROM read_parquet({source}, file_row_number = true)
    """
    cells = ", ".join(f"CASE WHEN py THEN {_quote(n)} END AS {_quote(n)}" for n in names)
    return judged_sql(rows, lines=lines, cells=cells)


def judged_sql(rows: str, *, lines: bool, cells: str = "", proved: bool = False) -> str:
    """The judgement of each row of the query ``rows``, which gives (at least) its number ``n``,
    its lists ``o``, ``r`` and ``u`` (``VARCHAR[]``, any of them null when absent or not a list)
    and ``plain`` (false when the row is not DuckDB's to judge). Gives ``n``, ``kind``, ``line``
    and ``py`` (see :func:`scope_sql`), then ``cells`` (SQL over those, or nothing). With
    ``proved``, ``plain`` already proves every ID of the row non-empty, non-null and plain (no
    character of :data:`PLAIN_PATTERN`), so that is not looked at again."""
    preserved = """'{"missing":[],"added":[],"preserved":true}' || chr(10)"""
    held = f"""'{{"held":"needs staff labels","unresolved":' || {_ids(_set("u"))} || ',"preserved":false}}' || chr(10)"""
    changed = (
        f"""'{{"missing":' || {_ids(_set("m"))} || ',"added":' || {_ids(_set("a"))} """
        f"""|| ',"preserved":false}}' || chr(10)"""
    )
    line = f"""CASE
        WHEN kind = {_PRESERVED} THEN {preserved}
        WHEN kind = {_HELD} THEN CASE WHEN len(u) <= {SHORT} AND {"true" if proved else _plain("u")} THEN {held} END
        WHEN {"kind IS NOT NULL" if proved else _plain("list_concat(m, a)")} THEN {changed}
    END"""
    valid = (
        "plain AND o IS NOT NULL AND r IS NOT NULL"
        if proved
        else f"coalesce(plain AND {_clean('o')} AND {_clean('r')} AND {_clean('u')}, false)"
    )
    py = "line IS NULL" if lines else f"kind IS DISTINCT FROM {_PRESERVED}"
    return f"""
    WITH rows AS ({rows}), judged AS (
        SELECT *, {valid} AS valid,
               len(o) + len(r) <= {SHORT} AS short
        FROM rows
    ), sets AS (
        SELECT *,
            CASE WHEN valid AND short THEN list_filter(o, lambda x: NOT list_contains(r, x)) END AS m,
            CASE WHEN valid AND short THEN list_filter(r, lambda x: NOT list_contains(o, x)) END AS a
        FROM judged
    ), kinds AS (
        SELECT *, CASE
            WHEN NOT valid THEN NULL
            WHEN len(u) > 0 THEN {_HELD}
            WHEN NOT short THEN CASE WHEN {_set("o")} = {_set("r")} THEN {_PRESERVED} END
            ELSE (len(m) > 0)::INTEGER + 2 * (len(a) > 0)::INTEGER
        END AS kind
        FROM sets
    ), written AS (
        SELECT *, {line if lines else "NULL::VARCHAR"} AS line FROM kinds
    ), handed AS (
        SELECT *, {py} AS py FROM written
    )
    SELECT n, kind, line, py{", " + cells if cells else ""} FROM handed
    """


def scope_parquet_blocks(
    path: str, *, lines: bool = False, threads: int | None = None, fetch_rows: int = _FETCH_ROWS
) -> Iterator[list[Any]] | None:
    """Blocks for :func:`helpers.team.batch.check_blocks` from a Parquet file, or ``None`` for the Python route.

    With ``lines`` (a run that writes every output line and shows no summary), DuckDB writes
    the lines it can (:class:`~helpers.team.batch.Written`); without, preserved rows come as
    counts and every other row as a record. Every cell is read once before the first block is
    handed on, so a file that fails part-way falls back whole; the rows are then judged as they
    are handed on. Taught in ``05_check_your_data.ipynb``.
    """
    import duckdb

    from helpers.team.duckdb_engine import connect

    con = connect(threads)
    source = _literal(path)
    try:
        names = _columns(con, source)
        if names is None:
            con.close()
            return None
        _read_every_cell(con, source)  # a file DuckDB cannot read fails here, before a line is written
        # A preserved row's line is the same every time: fetched as a null (a null string takes
        # no bytes), and :func:`_run` writes it back.
        cells = ", ".join(_quote(n) for n in names)
        line = f"CASE WHEN kind = {_PRESERVED} THEN NULL ELSE line END AS line"
        judged = f"SELECT n, kind, {line}, py, {cells} FROM ({scope_sql(source, names, lines=lines)})"
        reader = con.sql(judged).to_arrow_reader(fetch_rows)
    except duckdb.InterruptException:
        con.close()
        raise KeyboardInterrupt from None  # Ctrl-C: the run stops, as on the Python route
    except duckdb.Error:
        con.close()
        return None
    return _blocks(con, reader, names, lines, path)


def _counted(kinds: Any) -> dict[int, int]:
    """How many rows of each kind an Arrow array holds."""
    import pyarrow.compute as pc

    return {pair["values"]: pair["counts"] for pair in pc.value_counts(kinds).to_pylist()}


def _joined(lines: Any) -> bytes:
    """An Arrow array of output lines as one ``bytes``, joined in Arrow."""
    import pyarrow as pa
    import pyarrow.compute as pc

    whole = pa.ListArray.from_arrays(pa.array([0, len(lines)], pa.int32()), lines)
    return pc.binary_join(whole, "")[0].as_buffer().to_pybytes()


def _run(batch: Any, start: int, stop: int, lines: bool) -> Any:
    """Rows ``start`` to ``stop`` of a batch, none for the Python route: one item."""
    import pyarrow.compute as pc

    if not lines:
        return stop - start  # that many preserved rewrites
    part = batch.slice(start, stop - start)
    counts = _counted(part.column("kind"))
    return Written(
        stop - start,
        _joined(pc.fill_null(part.column("line"), _PRESERVED_LINE)),
        lost=counts.get(_LOST, 0),
        added=counts.get(_ADDED, 0),
        lost_and_added=counts.get(_BOTH, 0),
        held=counts.get(_HELD, 0),
    )


def _blocks(con: Any, reader: Any, names: list[str], lines: bool, path: str) -> Iterator[list[Any]]:
    """One block per Arrow batch: runs of rows judged in DuckDB, and the records numbered from 1.

    Should DuckDB fail after the first pass (the file changed under it), the next row is
    reported as the Python route reports it, and the reading ends there."""
    import duckdb
    import pyarrow as pa

    done = 0  # rows handed on so far
    batches = iter(reader)
    try:
        while True:
            try:
                batch = next(batches, None)
            except duckdb.InterruptException:
                raise KeyboardInterrupt from None
            except (duckdb.Error, pa.ArrowException, OSError) as exc:
                yield [JsonLine(done + 1, error=unreadable_from(exc, source=path, row=done + 1))]
                return
            if batch is None:
                return
            if len(batch):
                yield _block(batch, names, lines, done)
                done += len(batch)
    finally:
        con.close()


def _block(batch: Any, names: list[str], lines: bool, done: int) -> list[Any]:
    """One Arrow batch's block, its rows numbered from ``done``."""
    import pyarrow.compute as pc

    numbers = batch.column("n")
    first = numbers[0].as_py()
    steps = pc.min_max(pc.pairwise_diff(numbers)).as_py() if len(batch) > 1 else {"min": 1, "max": 1}
    if first != done or steps != {"min": 1, "max": 1}:  # each row once, in the table's order
        raise AssertionError(f"DuckDB gave the rows from {first + 1} out of order ({done + 1} was due)")
    handed = pc.indices_nonzero(batch.column("py")).to_pylist()
    records = batch.select(names).take(handed).to_pylist() if handed else []
    block: list[Any] = []
    start = 0
    for index, record in zip(handed, records, strict=True):
        if index > start:
            block.append(_run(batch, start, index, lines))
        block.append(JsonLine(first + index + 1, value=record))
        start = index + 1
    if start < len(batch):
        block.append(_run(batch, start, len(batch), lines))
    return block
