"""The target-scope check of a Parquet table run inside DuckDB (``target-scope --engine duckdb``).

DuckDB reads the table on every core and proves, row by row, which rewrites are
valid and preserved: ``original`` and ``rewritten`` are non-null lists of
non-empty, non-null strings whose distinct values are equal as bytes (no
collation is ever set), and ``unresolved`` is absent or an empty list. Those rows
are handed to the batch loop as counts (:data:`helpers.data.batch.Item`), written
as the preserved line; every other row (a loss, an addition, a hold, a null, an
empty ID) is fetched as the same ``{column: value}`` record the Python reader
makes and checked the Python way, so results, sort order (UTF-16 code units) and
errors are the Python route's byte for byte. A table the Python reader would
refuse or read differently (an unknown or missing column, a column type other
than a list of strings or a plain scalar, a file DuckDB cannot read) is not
judged here: :func:`scope_parquet_blocks` returns ``None`` and the caller runs
the Python route. Taught in ``05_check_your_data.ipynb`` ("When your files outgrow this machine").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.jsonio import JsonLine
from .scope_tables import SCOPE_TABLE_OPTIONAL, SCOPE_TABLE_REQUIRED

__all__ = ["scope_parquet_blocks", "SCOPE_PROVED_SQL"]

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

#: True for a row the batch loop may write as preserved unseen. ``{clean}`` stands for
#: "this list has no null and no empty string": ``list_distinct`` drops nulls, so it is tested apart.
SCOPE_PROVED_SQL = """
original IS NOT NULL AND rewritten IS NOT NULL {unresolved}
AND len(list_filter(original, lambda x: x IS NULL OR x = '')) = 0
AND len(list_filter(rewritten, lambda x: x IS NULL OR x = '')) = 0
AND list_sort(list_distinct(original)) = list_sort(list_distinct(rewritten))
"""

#: The extra test when the table has an ``unresolved`` column: a present cell must be an empty list.
_UNRESOLVED_EMPTY = "AND unresolved IS NOT NULL AND len(unresolved) = 0"

#: How many rows are fetched from DuckDB at a time.
_FETCH_ROWS = 8192


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _columns(con: Any, path: str) -> list[str] | None:
    """The table's columns when DuckDB reads them as the Python reader does, else ``None``."""
    rows = con.execute(f"DESCRIBE SELECT * FROM read_parquet({path})").fetchall()
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


def scope_parquet_blocks(
    path: str, *, threads: int | None = None, fetch_rows: int = _FETCH_ROWS
) -> Iterator[list[Any]] | None:
    """Blocks for :func:`helpers.data.batch.check_blocks` from a Parquet file, or ``None`` for the Python route.

    Every query runs before the first block is handed on, so a file that fails part-way
    falls back whole, before anything is written. Taught in ``05_check_your_data.ipynb``.
    """
    import duckdb

    con = duckdb.connect(config={"threads": threads} if threads else {})
    source = f"{_literal(path)}, file_row_number = true"
    try:
        names = _columns(con, _literal(path))
        if names is None:
            con.close()
            return None
        proved = SCOPE_PROVED_SQL.format(unresolved=_UNRESOLVED_EMPTY if "unresolved" in names else "")
        cells = ", ".join(_quote(n) for n in names)
        # One pass over the file: the rows to check the Python way, kept (DuckDB spills to disk).
        con.execute(
            f"CREATE TEMP TABLE rest AS SELECT file_row_number AS n, {cells} "
            f"FROM read_parquet({source}) WHERE NOT coalesce(({proved}), false)"
        )
        (rows,) = con.execute(f"SELECT count(*) FROM read_parquet({source})").fetchone() or (0,)
        cursor = con.execute("SELECT * FROM rest ORDER BY n")
    except duckdb.InterruptException:
        con.close()
        raise KeyboardInterrupt from None  # Ctrl-C: the run stops, as on the Python route
    except duckdb.Error:
        con.close()
        return None
    return _blocks(con, cursor, names, int(rows), fetch_rows)


def _blocks(con: Any, cursor: Any, names: list[str], rows: int, fetch_rows: int) -> Iterator[list[Any]]:
    """The counts of proved rows between the others, which come as records numbered from 1."""
    done = 0  # rows accounted for so far
    try:
        while True:
            fetched = cursor.fetchmany(fetch_rows)
            if not fetched:
                break
            block: list[Any] = []
            for row in fetched:
                number = row[0] + 1
                if number - 1 > done:
                    block.append(number - 1 - done)
                block.append(JsonLine(number, value=dict(zip(names, row[1:], strict=True))))
                done = number
            yield block
        if rows > done:
            yield [rows - done]
    finally:
        con.close()
