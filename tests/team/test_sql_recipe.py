"""The DuckDB recipe in docs/sql.md, run as written, agrees with the exact checks byte for byte."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from helpers.core.errors import CheckInputError
from helpers.core.jsonio import dumps_compact, loads_strict
from helpers.core.paths import fixtures_dir, project_root
from helpers.core.sentinels import check_sentinels_input
from helpers.core.target_scope import check_target_scope_input

DOC = project_root() / "docs" / "sql.md"
_BLOCK = re.compile(r"<!-- recipe: ([a-z ]+) -->\n```(?:sql|python)\n(.*?)```", re.S)
RECIPE = dict(_BLOCK.findall(DOC.read_text(encoding="utf-8")))


def client(name: str, function: str):
    space: dict = {}
    exec(RECIPE[f"client {name}"], space)
    return space[function]


sentinel_output = client("sentinels", "sentinel_output")
scope_output = client("scope", "scope_output")


def _utf8(text: object) -> bool:
    if not isinstance(text, str):
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def inputs(check: str) -> list[dict]:
    """The inputs of the filled cases, the edge-case gallery and the sample rewrites for ``check``."""
    filled = json.loads((fixtures_dir() / "filled_cases.json").read_text(encoding="utf-8"))["cases"]
    edge = json.loads((fixtures_dir() / "edge_cases.json").read_text(encoding="utf-8"))["edge_cases"]
    found = []
    for case in [*filled, *edge]:
        if case["check"] != check:
            continue
        if "input" in case:
            found.append(case["input"])
        elif "line" in case:
            raws = case["line"] if isinstance(case["line"], list) else [case["line"]]
            for raw in raws:
                try:
                    found.append(loads_strict(raw))
                except (CheckInputError, TypeError, AttributeError):
                    continue  # a line too long to store whole (kept as pieces), or not JSON
    if check == "target-scope":
        for raw in (
            (fixtures_dir() / "sample_data" / "rewrites.jsonl").read_text(encoding="utf-8").splitlines()
        ):
            try:
                found.append(loads_strict(raw))
            except CheckInputError:
                continue
    return found


def sentinel_tables(record: object) -> tuple[dict, dict] | None:
    if not isinstance(record, dict) or set(record) != {"baseline", "proposed"}:
        return None
    keys = record["baseline"], record["proposed"]
    for key in keys:
        if not isinstance(key, dict):
            return None
        if not all(_utf8(k) and (v is None or _utf8(v)) for k, v in key.items()):
            return None
    return keys


def scope_table(record: object) -> dict | None:
    if not isinstance(record, dict) or not {"original", "rewritten"} <= set(record):
        return None
    if set(record) - {"original", "rewritten", "unresolved", "id", "query", "rewritten_query"}:
        return None
    row = {"unresolved": [], **record}
    for name in ("original", "rewritten", "unresolved"):
        value = row[name]
        if value is not None and not (isinstance(value, list) and all(v is None or _utf8(v) for v in value)):
            return None
    return {name: row[name] for name in ("original", "rewritten", "unresolved")}


def run_recipe(con, name: str) -> list[tuple]:
    for part in ("sources", "refuse", "check"):
        rows = con.execute(RECIPE[f"duckdb {name} {part}"]).fetchall()
        if part == "refuse" and rows:
            return [("refused", *row) for row in rows]
    return rows


SENTINELS = [r for r in inputs("sentinels") if sentinel_tables(r) is not None]
SCOPE = [r for r in inputs("target-scope") if scope_table(r) is not None]


def _refused(check, record) -> bool:
    try:
        check(record)
    except CheckInputError:
        return True
    return False


def test_the_recipe_covers_the_cases():
    assert len(SENTINELS) >= 15 and len(SCOPE) >= 30
    assert any(_refused(check_sentinels_input, r) for r in SENTINELS)
    assert any(_refused(check_target_scope_input, r) for r in SCOPE)
    assert set(RECIPE) >= {
        f"duckdb {check} {part}"
        for check in ("sentinels", "scope")
        for part in ("sources", "refuse", "check")
    }


@pytest.mark.parametrize("record", SENTINELS, ids=lambda r: dumps_compact(r)[:50])
def test_duckdb_sentinels_agree_with_the_exact_check(record, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for side, key in zip(("baseline", "proposed"), sentinel_tables(record), strict=True):
        table = pa.table(
            {"id": pa.array(list(key), pa.string()), "answer": pa.array(list(key.values()), pa.string())}
        )
        pq.write_table(table, Path(f"{side}.parquet"))
    rows = run_recipe(duckdb.connect(), "sentinels")
    try:
        expected = dumps_compact(check_sentinels_input(record).as_dict())
    except CheckInputError:
        assert rows and rows[0][0] == "refused", rows
        return
    assert not rows or rows[0][0] != "refused", rows
    assert sentinel_output(rows) == expected


@pytest.mark.parametrize("record", SCOPE, ids=lambda r: dumps_compact(r)[:50])
def test_duckdb_target_scope_agrees_with_the_exact_check(record, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    row = scope_table(record)
    kind = pa.list_(pa.string())
    pq.write_table(pa.table({k: pa.array([v], kind) for k, v in row.items()}), Path("rewrites.parquet"))
    rows = run_recipe(duckdb.connect(), "scope")
    try:
        expected = dumps_compact(check_target_scope_input(record).as_dict())
    except CheckInputError:
        assert rows and rows[0][0] == "refused", rows
        return
    ((_, held, unresolved, missing, added),) = rows
    assert scope_output(held, unresolved, missing, added) == expected


def test_many_records_keep_their_row_numbers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    records = [
        {"original": [f"t{i}", "\U0001f600"], "rewritten": ["\ue000", f"t{i}"], "unresolved": []}
        for i in range(50)
    ]
    pq.write_table(pa.Table.from_pylist(records), Path("rewrites.parquet"), row_group_size=7)
    rows = run_recipe(duckdb.connect(), "scope")
    assert [r[0] for r in rows] == list(range(50))
    got = [scope_output(*r[1:]) for r in rows]
    assert got == [dumps_compact(check_target_scope_input(r).as_dict()) for r in records]


# --- the pitfalls are real -----------------------------------------------------------------------


def test_sql_sorts_by_code_point_not_utf16():
    con = duckdb.connect()
    (order,) = con.execute("SELECT list_sort(['\uff21', '\U0001f600', 'a', '\ue000'])").fetchone()
    assert order == ["a", "\ue000", "\uff21", "\U0001f600"]
    assert sorted(order, key=lambda s: s.encode("utf-16-be")) == ["a", "\U0001f600", "\ue000", "\uff21"]


def test_not_equal_drops_a_null_answer_and_is_distinct_from_keeps_it():
    con = duckdb.connect()
    con.execute("CREATE TABLE b AS SELECT 'S1' AS id, 'R' AS answer")
    con.execute("CREATE TABLE p AS SELECT 'S1' AS id, NULL::VARCHAR AS answer")
    join = "SELECT b.id FROM b JOIN p ON b.id = p.id WHERE b.answer {} p.answer"
    assert con.execute(join.format("!=")).fetchall() == []
    assert con.execute(join.format("IS DISTINCT FROM")).fetchall() == [("S1",)]


def test_a_nocase_collation_hides_a_changed_answer():
    con = duckdb.connect()
    same = "SELECT 'R' COLLATE NOCASE = 'r', 'R' = 'r'"
    assert con.execute(same).fetchone() == (True, False)
