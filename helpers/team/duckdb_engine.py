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
from typing import TYPE_CHECKING, Any

from helpers.core.ordering import sorted_ids
from helpers.core.sentinels import SentinelResult

if TYPE_CHECKING:  # read when a key pair is checked: choosing an engine imports neither
    from helpers.team.batch import KeyCheck

__all__ = [
    "DUCKDB_EXTRA",
    "MEMORY_LIMIT",
    "STREAM_BUFFER",
    "Connection",
    "connect",
    "duckdb_missing",
    "check_parquet_keys",
]

#: The extra that installs DuckDB.
DUCKDB_EXTRA = "duckdb"

#: DuckDB column types the Python reader accepts: strings, and integers (never booleans).
_TEXT_TYPES = frozenset(
    {"VARCHAR", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT"}
    | {"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
)


def duckdb_missing() -> str | None:
    """A one-line reason when DuckDB (or what its routes hand data with: pyarrow, numpy) is not
    installed, else ``None``."""
    import importlib.util

    for module in ("duckdb", "pyarrow", "numpy"):
        if importlib.util.find_spec(module) is None:
            return f"--engine duckdb needs {module}: pip install 'eval-integrity-helpers[{DUCKDB_EXTRA}]'"
    return None


#: DuckDB's memory for one run. Past it, joins and aggregates spill to a temporary folder of the
#: run's own (never the working folder, DuckDB's default): a 10,000,000-row key pair stays under
#: 1 GB in all (docs/performance.md).
MEMORY_LIMIT = "768MB"


#: How much of a streamed result DuckDB may queue ahead of the batch being handed on (its
#: default, 10 MiB, showed in the peak of a streamed table: docs/performance.md).
STREAM_BUFFER = "1MB"


class Connection:
    """A DuckDB connection of this run's own: byte comparison (no collation is ever set), at most
    :data:`MEMORY_LIMIT`, spilling to a private temporary folder that :meth:`close` removes, and
    streaming results :data:`STREAM_BUFFER` ahead."""

    def __init__(self, threads: int | None = None) -> None:
        import tempfile

        import duckdb

        self.folder = tempfile.mkdtemp(prefix="eic-duckdb-")
        config: dict[str, Any] = {"memory_limit": MEMORY_LIMIT, "temp_directory": self.folder}
        if threads:
            config["threads"] = threads
        try:
            self.con = duckdb.connect(config=config)
            self.con.execute(f"SET streaming_buffer_size = '{STREAM_BUFFER}'")  # not a global option
        except BaseException:
            self._remove_folder()
            raise

    def execute(self, sql: str, parameters: Any = None) -> Any:
        """``duckdb.DuckDBPyConnection.execute``."""
        return self.con.execute(sql) if parameters is None else self.con.execute(sql, parameters)

    def sql(self, sql: str) -> Any:
        """``duckdb.DuckDBPyConnection.sql``: a relation (e.g. for ``to_arrow_reader``)."""
        return self.con.sql(sql)

    def close(self) -> None:
        """Close the connection and remove its temporary folder."""
        try:
            self.con.close()
        finally:
            self._remove_folder()

    def _remove_folder(self) -> None:
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)


def connect(threads: int | None = None) -> Connection:
    """A :class:`Connection` (``threads``: DuckDB's own default, every core, when ``None``)."""
    return Connection(threads)


def _row(con: Any, sql: str) -> tuple[Any, ...]:
    """The one row an aggregate query gives."""
    row = con.execute(sql).fetchone()
    assert row is not None
    return tuple(row)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _view(con: Any, name: str, path: str, id_columns: Sequence[str], answer: str) -> bool:
    """Make view ``name`` of (k1[, k2], a) as text; ``False`` if a column is missing or of a type
    the Python reader judges (it then names it)."""
    rows = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()
    types = {row[0]: row[1] for row in rows}
    wanted = [*id_columns, answer]
    if len(set(wanted)) != len(wanted) or any(types.get(c) not in _TEXT_TYPES for c in wanted):
        return False
    keys = [f"CAST({_quote(c)} AS VARCHAR) AS k{i}" for i, c in enumerate(id_columns, 1)]
    con.execute(
        f"CREATE TEMP VIEW {name} AS SELECT {', '.join(keys)}, CAST({_quote(answer)} AS VARCHAR) AS a "
        f"FROM read_parquet('{path.replace(chr(39), chr(39) * 2)}')"
    )
    return True


def _row_counts(con: Any, names: Sequence[str], width: int) -> list[int | None]:
    """Each view's row count, or ``None`` where Python must judge it.

    One query over both views (a ``UNION ALL``, whose sides DuckDB scans at once) proves every row
    usable: no null or empty ID, no null answer, and no ID twice, by counting the distinct hashes of
    the IDs (distinct hashes are distinct IDs; only when two hashes meet are the IDs themselves
    counted, exactly).
    """
    k = ", ".join(f"k{i}" for i in range(1, width + 1))
    nulls = " OR ".join([*(f"k{i} IS NULL OR k{i} = ''" for i in range(1, width + 1)), "a IS NULL"])
    query = " UNION ALL ".join(
        f"SELECT {n} AS side, count(*), count(*) FILTER (WHERE {nulls}), count(DISTINCT hash({k})) FROM {name}"
        for n, name in enumerate(names)
    )
    found = {row[0]: row[1:] for row in con.execute(query).fetchall()}
    counts: list[int | None] = []
    for n, name in enumerate(names):
        count, bad, hashes = found[n]
        if bad:
            counts.append(None)
            continue
        if hashes != count:  # two IDs share a hash: a repeated ID, or (rarely) two that only hash alike
            (distinct,) = _row(con, f"SELECT count(*) FROM (SELECT DISTINCT {k} FROM {name})")
            if distinct != count:
                counts.append(None)
                continue
        counts.append(int(count))
    return counts


def check_parquet_keys(
    baseline: str, proposed: str, *, id_columns: Sequence[str], answer_column: str, threads: int | None = None
) -> KeyCheck | None:
    """The sentinel check of two Parquet keys in DuckDB, or ``None`` when the Python route must judge.

    Taught in ``05_check_your_data.ipynb``.
    """
    import duckdb

    from helpers.team.answer_keys import AnswerKey
    from helpers.team.batch import KeyCheck
    from helpers.team.key_formats import pair_id

    con = connect(threads)
    try:
        if not (
            _view(con, "b", baseline, id_columns, answer_column)
            and _view(con, "p", proposed, id_columns, answer_column)
        ):
            return None
        baseline_rows, proposed_rows = _row_counts(con, ("b", "p"), len(id_columns))
        if not baseline_rows or proposed_rows is None:  # refused, or empty: the Python route says which
            return None
        on = " AND ".join(f"b.k{i} = p.k{i}" for i in range(1, len(id_columns) + 1))
        k = ", ".join(f"b.k{i}" for i in range(1, len(id_columns) + 1))
        # One join gives both lists: a baseline ID with no partner is missing, one whose answer
        # differs is changed (neither side holds a null, so ``<>`` is exact).
        rows = con.execute(
            f"SELECT {k}, b.a, p.a, p.k1 IS NULL FROM b LEFT JOIN p ON {on} WHERE p.k1 IS NULL OR b.a <> p.a"
        ).fetchall()
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None  # Ctrl-C: the run stops, as on the Python route
    except duckdb.Error:
        return None
    finally:
        con.close()
    width = len(id_columns)

    def ident(row: Sequence[str]) -> str:
        return row[0] if width == 1 else pair_id(row[0], row[1])

    missing = [ident(row) for row in rows if row[-1]]
    answers = {ident(row): (row[width], row[width + 1]) for row in rows if not row[-1]}
    result = SentinelResult(missing=tuple(sorted_ids(missing)), changed=tuple(sorted_ids(answers)))
    common = baseline_rows - len(missing)  # each baseline ID is once there, and at most once in proposed
    return KeyCheck(
        AnswerKey(source=baseline, format="parquet"),
        AnswerKey(source=proposed, format="parquet"),
        result,
        [],
        width == 2,
        sizes=(baseline_rows, proposed_rows, proposed_rows - common),
        changed_answers=answers,
    )
