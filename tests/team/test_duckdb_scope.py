"""Target-scope rewrites from Parquet judged in DuckDB (:mod:`helpers.team.duckdb_scope`): the Python route's bytes."""

from __future__ import annotations

import pytest

from helpers.team.batch import BatchSummary, check_records
from helpers.team.duckdb_scope import scope_parquet_blocks
from helpers.team.record_blocks import check_blocks
from helpers.team.summary import Written

pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

ROWS = {
    "id": ["r1", "r2", "r3", "r4", "r5", "r6"],
    "original": [["a", "b"], ["a"], ["a"], ["b", "a", "a"], ["é\u00e9", "x"], ["a"]],
    "rewritten": [["b", "a"], [], ["a"], ["a", "b"], ["x"], ["a", ""]],
    "unresolved": [[], [], ["the spring course"], [], [], []],
}


def _table(path, rows=ROWS) -> str:
    pq.write_table(pa.table(rows), path)
    return str(path)


def _python_route(path: str) -> tuple[bytes, BatchSummary]:
    written: list[bytes] = []
    with open(path, "rb") as stream:
        summary = check_records(
            stream,
            BatchSummary("target-scope", "t.parquet", unit="row"),
            write=written.append,
            format="parquet",
        )
    return b"".join(written), summary


@pytest.mark.parametrize("lines", [False, True])
def test_the_engine_gives_the_python_route_s_lines_and_counts(tmp_path, lines):
    path = _table(tmp_path / "t.parquet")
    blocks = scope_parquet_blocks(path, lines=lines, threads=1)
    assert blocks is not None
    written: list[bytes] = []
    summary = check_blocks(
        blocks, BatchSummary("target-scope", "t.parquet", unit="row"), write=written.append
    )
    want, expected = _python_route(path)
    assert b"".join(written) == want
    assert (summary.records, summary.counts, summary.exit_code) == (6, expected.counts, expected.exit_code)


def test_rows_the_engine_cannot_vouch_for_are_handed_on_numbered_from_1(tmp_path):
    path = _table(tmp_path / "t.parquet")
    items = [item for block in scope_parquet_blocks(path, lines=True, threads=1) for item in block]
    handed = {item.number: item.value["id"] for item in items if hasattr(item, "number")}
    assert handed.get(6) == "r6"  # an empty ID in a list: the Python route names the error
    assert any(isinstance(item, (Written, int)) for item in items)


@pytest.mark.parametrize(
    "rows",
    [
        {"original": [["a"]], "rewritten": [["a"]], "extra": ["x"]},
        {"original": [["a"]]},
        {"original": [1], "rewritten": [["a"]]},
    ],
    ids=["unknown column", "no rewritten column", "not a list"],
)
def test_a_table_the_python_reader_would_refuse_is_left_to_it(tmp_path, rows):
    assert scope_parquet_blocks(_table(tmp_path / "t.parquet", rows), threads=1) is None


def test_a_file_duckdb_cannot_read_is_left_to_the_python_route(tmp_path):
    (tmp_path / "t.parquet").write_bytes(b"PAR1 not really")
    assert scope_parquet_blocks(str(tmp_path / "t.parquet"), threads=1) is None
