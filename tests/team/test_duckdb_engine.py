"""The sentinel check of two Parquet keys inside DuckDB (:mod:`helpers.team.duckdb_engine`): the Python route's result, or ``None``."""

from __future__ import annotations

import importlib.util
import os

import pytest

from helpers.core.sentinels import check_sentinels
from helpers.team import duckdb_engine
from helpers.team.key_formats import pair_id

pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _key(path, **columns) -> str:
    pq.write_table(pa.table(columns), path)
    return str(path)


def test_two_keys_give_the_exact_check_s_result_and_sizes(tmp_path):
    baseline = {"S1": "R", "S2": "A", "😀": "x", "\uff01": "y"}
    proposed = {"S1": "R", "S2": "A ", "\uff01": "y", "C1": "z"}
    b = _key(tmp_path / "b.parquet", id=list(baseline), answer=list(baseline.values()))
    p = _key(tmp_path / "p.parquet", id=list(proposed), answer=list(proposed.values()))
    check = duckdb_engine.check_parquet_keys(b, p, id_columns=["id"], answer_column="answer", threads=1)
    assert check is not None
    assert check.result == check_sentinels(baseline, proposed)
    assert check.result.missing == ("😀",)  # sorted as JavaScript sorts strings
    assert (check.baseline_ids, check.proposed_ids, check.new_ids) == (4, 4, 1)
    assert check.answers("S2") == ("A", "A ") and check.exit_code == 1


def test_two_id_columns_make_pair_ids(tmp_path):
    b = _key(tmp_path / "b.parquet", q=["q1", "q1"], d=["d1", "d2"], rel=[1, 0])
    p = _key(tmp_path / "p.parquet", q=["q1"], d=["d1"], rel=[2])
    check = duckdb_engine.check_parquet_keys(b, p, id_columns=["q", "d"], answer_column="rel", threads=1)
    assert check is not None and check.pairs
    assert check.result.missing == (pair_id("q1", "d2"),)
    assert check.answers(pair_id("q1", "d1")) == ("1", "2")  # integers written in decimal


@pytest.mark.parametrize(
    "baseline",
    [
        {"id": ["S1", "S1"], "answer": ["R", "A"]},
        {"id": ["S1", None], "answer": ["R", "A"]},
        {"id": ["S1", ""], "answer": ["R", "A"]},
        {"id": [], "answer": []},
        {"key": ["S1"], "answer": ["R"]},
        {"id": ["S1"], "answer": [1.5]},
    ],
    ids=["duplicate", "null", "empty ID", "empty", "no id column", "float answer"],
)
def test_what_the_python_reader_would_refuse_is_left_to_it(tmp_path, baseline):
    b = _key(tmp_path / "b.parquet", **baseline)
    p = _key(tmp_path / "p.parquet", id=["S1"], answer=["R"])
    assert (
        duckdb_engine.check_parquet_keys(b, p, id_columns=["id"], answer_column="answer", threads=1) is None
    )


def test_a_file_duckdb_cannot_read_is_left_to_the_python_route(tmp_path):
    (tmp_path / "b.parquet").write_bytes(b"not parquet")
    p = _key(tmp_path / "p.parquet", id=["S1"], answer=["R"])
    check = duckdb_engine.check_parquet_keys(
        str(tmp_path / "b.parquet"), p, id_columns=["id"], answer_column="answer"
    )
    assert check is None


def test_a_connection_spills_to_a_folder_of_its_own_that_close_removes():
    con = duckdb_engine.connect(threads=1)
    folder = con.folder
    assert os.path.isdir(folder) and os.path.basename(folder).startswith("eic-duckdb-")
    assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] != ""
    assert con.execute("SELECT 'a' < 'B'").fetchone() == (False,)  # bytes, no collation
    con.close()
    assert not os.path.exists(folder)


def test_a_missing_module_is_named_with_the_extra_to_install(monkeypatch):
    assert duckdb_engine.duckdb_missing() is None
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "pyarrow" else real(name))
    assert duckdb_engine.duckdb_missing() == (
        "--engine duckdb needs pyarrow: pip install 'eval-integrity-helpers[duckdb]'"
    )
