"""The sentinel check of two Parquet answer keys run inside DuckDB (``sentinels --engine duckdb``).

DuckDB reads both tables and joins them; Python only sorts and reports the few
IDs that fail. Exactness is the point: columns are compared as bytes (DuckDB's
default, no collation is ever set), integers are written in decimal as the
Python reader writes them, and the output lists are sorted by UTF-16 code units
(:func:`helpers.core.ordering.sorted_ids`), so the output bytes equal the
Python route's. Any input the Python reader would refuse (a missing column, a
type other than a string or an integer, a null, an empty ID, a duplicate, an
empty baseline, a file DuckDB cannot read) is not judged here: :func:`check_parquet_keys`
returns ``None`` and the caller runs the Python route, which names the row.
Taught in ``05_check_your_data.ipynb`` ("When your files outgrow this machine").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.ordering import sorted_ids
from ..core.sentinels import SentinelResult
from .answer_keys import AnswerKey
from .batch import KeyCheck

__all__ = ["DUCKDB_EXTRA", "duckdb_missing", "check_parquet_keys"]

#: The extra that installs DuckDB.
DUCKDB_EXTRA = "duckdb"

#: DuckDB column types the Python reader accepts: strings, and integers (never booleans).
_TEXT_TYPES = frozenset(
    {"VARCHAR", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT"}
    | {"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
)


def duckdb_missing() -> str | None:
    """A one-line reason when DuckDB is not installed, else ``None``."""
    import importlib.util

    if importlib.util.find_spec("duckdb") is None:
        return f"--engine duckdb needs DuckDB: pip install 'eval-integrity-helpers[{DUCKDB_EXTRA}]'"
    return None


def _row(con: Any, sql: str) -> tuple[Any, ...]:
    """The one row an aggregate query gives."""
    row = con.execute(sql).fetchone()
    assert row is not None
    return tuple(row)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _table(con: Any, name: str, path: str, id_columns: Sequence[str], answer: str) -> int | None:
    """Make view ``name`` of (k1[, k2], answer) as text; its row count, or ``None`` if Python must judge."""
    rows = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()
    types = {row[0]: row[1] for row in rows}
    wanted = [*id_columns, answer]
    if len(set(wanted)) != len(wanted) or any(types.get(c) not in _TEXT_TYPES for c in wanted):
        return None
    keys = [f"CAST({_quote(c)} AS VARCHAR) AS k{i}" for i, c in enumerate(id_columns, 1)]
    con.execute(
        f"CREATE TEMP VIEW {name} AS SELECT {', '.join(keys)}, CAST({_quote(answer)} AS VARCHAR) AS a "
        f"FROM read_parquet('{path.replace(chr(39), chr(39) * 2)}')"
    )
    k = ", ".join(f"k{i}" for i in range(1, len(id_columns) + 1))
    nulls = " OR ".join([*(f"k{i} IS NULL OR k{i} = ''" for i in range(1, len(id_columns) + 1)), "a IS NULL"])
    count, bad = _row(con, f"SELECT count(*), count(*) FILTER (WHERE {nulls}) FROM {name}")
    if bad:
        return None
    (duplicated,) = _row(
        con, f"SELECT count(*) FROM (SELECT {k} FROM {name} GROUP BY {k} HAVING count(*) > 1)"
    )
    return None if duplicated else int(count)


def check_parquet_keys(
    baseline: str, proposed: str, *, id_columns: Sequence[str], answer_column: str, threads: int | None = None
) -> KeyCheck | None:
    """The sentinel check of two Parquet keys in DuckDB, or ``None`` when the Python route must judge.

    Taught in ``05_check_your_data.ipynb``.
    """
    import duckdb

    from .key_formats import pair_id

    con = duckdb.connect(config={"threads": threads} if threads else {})
    try:
        sizes = [
            _table(con, name, path, id_columns, answer_column)
            for name, path in (("b", baseline), ("p", proposed))
        ]
        if sizes[0] is None or sizes[1] is None or sizes[0] == 0:
            return None
        on = " AND ".join(f"b.k{i} = p.k{i}" for i in range(1, len(id_columns) + 1))
        k = ", ".join(f"b.k{i}" for i in range(1, len(id_columns) + 1))
        missing_rows = con.execute(f"SELECT {k} FROM b ANTI JOIN p ON {on}").fetchall()
        changed_rows = con.execute(f"SELECT {k}, b.a, p.a FROM b JOIN p ON {on} WHERE b.a <> p.a").fetchall()
        (common,) = _row(con, f"SELECT count(*) FROM b SEMI JOIN p ON {on}")
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None  # Ctrl-C: the run stops, as on the Python route
    except duckdb.Error:
        return None
    finally:
        con.close()
    width = len(id_columns)

    def ident(row: Sequence[str]) -> str:
        return row[0] if width == 1 else pair_id(row[0], row[1])

    answers = {ident(row): (row[width], row[width + 1]) for row in changed_rows}
    result = SentinelResult(
        missing=tuple(sorted_ids(ident(row) for row in missing_rows)), changed=tuple(sorted_ids(answers))
    )
    return KeyCheck(
        AnswerKey(source=baseline, format="parquet"),
        AnswerKey(source=proposed, format="parquet"),
        result,
        [],
        width == 2,
        sizes=(sizes[0], sizes[1], sizes[1] - int(common)),
        changed_answers=answers,
    )
