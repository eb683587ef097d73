"""Parquet rewrites through DuckDB are judged as they are handed on, yet a file that fails part-way
still falls back whole: its first pass reads every cell before a line is written.

The bytes are compared with ``--engine python`` as in ``test_engine_parity.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tests.team.test_engine_parity import same_bytes  # noqa: E402

LIST = pa.list_(pa.string())
ROWS = 3000
GROUP = 500


def _table(rows: int = ROWS, broken: int | None = None) -> Any:
    """Rewrites in row groups of :data:`GROUP`: every third one loses an ID (so lines are written);
    ``broken``, when given, is a row whose ``original`` holds an ID that is not UTF-8."""
    original = [[f"a{i}", f"b{i % 7}"] for i in range(rows)]
    rewritten = [[f"b{i % 7}", f"a{i}"] if i % 3 else [f"a{i}"] for i in range(rows)]
    values = pa.array([v for pair in original for v in pair], pa.binary())
    if broken is not None:
        flat = values.to_pylist()
        flat[2 * broken] = b"\xff\xfe"
        values = pa.array(flat, pa.binary())
    offsets = pa.array(range(0, 2 * rows + 1, 2), pa.int32())
    return pa.table(
        {
            "id": [f"r{i}" for i in range(rows)],
            "original": pa.ListArray.from_arrays(offsets, values.view(pa.string())),
            "rewritten": pa.array(rewritten, LIST),
        }
    )


def _garble(path: Path, group: int, column: int) -> None:
    """Garble the data page of ``column`` in row group ``group``, leaving the footer intact."""
    chunk = pq.ParquetFile(path).metadata.row_group(group).column(column)
    start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
    data = bytearray(path.read_bytes())
    for at in range(chunk.data_page_offset + 30, start + chunk.total_compressed_size - 10):
        data[at] = (data[at] * 7 + 13) & 0xFF
    path.write_bytes(bytes(data))


def _blocks_of(path: Path, **options: Any) -> list[Any] | None:
    from helpers.team.duckdb_scope import scope_parquet_blocks

    blocks = scope_parquet_blocks(str(path), **options)
    return None if blocks is None else [item for block in blocks for item in block]


def test_a_readable_table_is_judged_in_batches_as_it_is_handed_on(tmp_path):
    from helpers.team.batch import Written

    path = tmp_path / "good.parquet"
    pq.write_table(_table(), path, row_group_size=GROUP)
    from helpers.team.duckdb_scope import scope_parquet_blocks

    blocks = scope_parquet_blocks(str(path), lines=True, fetch_rows=256)
    assert blocks is not None
    sizes = [sum(item.rows for item in block) for block in blocks]
    assert sum(sizes) == ROWS and max(sizes) <= 256 and len(sizes) >= ROWS // 256
    items = _blocks_of(path, lines=True)
    assert items is not None and all(type(item) is Written for item in items)
    assert sum(item.lost for item in items) == ROWS // 3 + (ROWS % 3 > 0)


@settings(
    max_examples=examples(24), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(group=st.integers(1, ROWS // GROUP - 1), column=st.sampled_from([0, 1, 2]))
def test_a_garbled_page_past_the_first_batch_falls_back_whole(tmp_path_factory, capfdbinary, group, column):
    """Whichever row group and column is garbled, DuckDB hands on nothing and the Python route
    reports the table as it always does."""
    path = tmp_path_factory.mktemp("garbled") / "t.parquet"
    pq.write_table(_table(), path, row_group_size=GROUP, compression="snappy")
    _garble(path, group, column)
    assert _blocks_of(path, lines=True) is None
    assert _blocks_of(path) is None
    for mode in ((), ("--summary-json",)):
        code, out, err = same_bytes(
            capfdbinary, "duckdb", "target-scope", str(path), "--format", "parquet", *mode
        )
        assert code != 0 and b"cannot be read from here on" in out + err


@settings(
    max_examples=examples(16), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(broken=st.integers(GROUP, ROWS - 1))
def test_an_id_that_is_not_utf8_falls_back_whole(tmp_path_factory, broken):
    """DuckDB refuses such a table in its first pass, wherever the ID is, and so hands on nothing."""
    path = tmp_path_factory.mktemp("utf8") / "t.parquet"
    pq.write_table(_table(broken=broken), path, row_group_size=GROUP)
    assert _blocks_of(path, lines=True) is None
    assert _blocks_of(path) is None
    pq.write_table(_table(), path, row_group_size=GROUP)
    assert _blocks_of(path) is not None  # the same table, every ID UTF-8: judged


def test_a_table_that_fails_after_the_first_pass_ends_at_the_next_row(tmp_path):
    """Should DuckDB fail while streaming (the file changed under it), the rows handed on stand and
    the next one is reported as the Python route reports a table it cannot read on."""
    import duckdb

    from helpers.team import duckdb_scope
    from helpers.team.duckdb_engine import connect

    path = tmp_path / "good.parquet"
    pq.write_table(_table(), path, row_group_size=GROUP)
    con = connect(1)
    source = duckdb_scope._literal(str(path))
    names = duckdb_scope._columns(con, source)
    assert names is not None
    sql = f"SELECT n, kind, line, py, {', '.join(names)} FROM ({duckdb_scope.scope_sql(source, names, lines=True)})"
    reader = con.sql(sql).to_arrow_reader(700)

    def failing() -> Any:
        yield next(iter(reader))
        raise duckdb.IOException("the file went away")

    items = [item for block in duckdb_scope._blocks(con, failing(), names, True, str(path)) for item in block]
    *written, last = items
    assert sum(item.rows for item in written) == 700
    assert last.number == 701 and last.value is None
    assert str(last.error).startswith(f"{path}, row 701: the table cannot be read from here on (")
    with pytest.raises(duckdb.ConnectionException):
        con.execute("SELECT 1")  # the connection was closed
