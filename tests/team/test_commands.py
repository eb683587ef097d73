"""The checks' commands (:mod:`helpers.team.commands`): the engine chosen or refused, and what each command writes."""

from __future__ import annotations

import json

import pytest

from helpers.cli import main
from helpers.team import commands, duckdb_engine
from helpers.team.command_parser import _DataOptions


@pytest.mark.parametrize(
    ("check", "options", "keys", "starts"),
    [
        ("target-scope", _DataOptions(engine="python"), False, None),
        ("target-scope", _DataOptions(engine="duckdb"), False, None),
        (
            "target-scope",
            _DataOptions(engine="duckdb", carry=True),
            False,
            "--engine duckdb writes no --carry",
        ),
        (
            "sentinels",
            _DataOptions(engine="duckdb"),
            False,
            "--engine duckdb has no route for sentinel records",
        ),
        (
            "sentinels",
            _DataOptions(engine="duckdb", key_format="jsonl"),
            True,
            "--engine duckdb compares two Parquet",
        ),
        ("sentinels", _DataOptions(engine="duckdb", key_format="parquet"), True, None),
    ],
)
def test_the_duckdb_engine_is_refused_only_where_it_has_no_route(check, options, keys, starts):
    pytest.importorskip("duckdb")
    refusal = commands._engine_refusal(check, options, keys)
    assert refusal is None if starts is None else refusal.startswith(starts)


def test_without_duckdb_its_engine_is_refused_naming_the_extra_and_auto_never_picks_it(monkeypatch):
    monkeypatch.setattr(
        duckdb_engine, "duckdb_missing", lambda: "--engine duckdb needs duckdb: pip install x"
    )
    assert commands._engine_refusal("target-scope", _DataOptions(engine="duckdb"), False) == (
        "--engine duckdb needs duckdb: pip install x"
    )
    monkeypatch.setattr(commands, "_AUTO_DUCKDB_BYTES", 1)
    assert commands._auto_picks_duckdb([__file__]) is False


def test_auto_picks_duckdb_from_the_files_size_together(tmp_path, monkeypatch):
    monkeypatch.setattr(duckdb_engine, "duckdb_missing", lambda: None)
    monkeypatch.setattr(commands, "_AUTO_DUCKDB_BYTES", 10)
    (tmp_path / "a").write_bytes(b"x" * 6)
    (tmp_path / "b").write_bytes(b"x" * 4)
    assert commands._auto_picks_duckdb([str(tmp_path / "a"), None]) is False
    assert commands._auto_picks_duckdb([str(tmp_path / "a"), str(tmp_path / "b")]) is True
    assert commands._auto_picks_duckdb([str(tmp_path / "missing")]) is False


def test_standard_input_s_size_is_known_only_for_a_regular_file(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"0123456789")
    with open(path, "rb") as stream:
        stream.read(4)
        assert commands._stdin_size(stream) == 6
    assert commands._stdin_size(object()) is None
    assert commands._is_terminal(object()) is False


def test_a_key_is_read_as_json_by_its_format_or_its_name():
    assert commands._names_json("k.json", _DataOptions())
    assert not commands._names_json("k.jsonl", _DataOptions())
    assert commands._names_json("k.jsonl", _DataOptions(key_format="json"))
    assert not commands._names_json("k.txt", _DataOptions()) and not commands._names_json(
        None, _DataOptions()
    )


def test_two_keys_give_one_result_line_or_a_json_summary(tmp_path, capfd):
    (tmp_path / "b.json").write_text('{"S1":"R","S2":"A"}')
    (tmp_path / "p.json").write_text('{"S1":"R","S2":"B"}')
    keys = ["sentinels", "--baseline", str(tmp_path / "b.json"), "--proposed", str(tmp_path / "p.json")]
    assert main([*keys, "--engine", "python"]) == 1
    assert capfd.readouterr().out == '{"missing":[],"changed":["S2"],"intact":false}\n'
    assert main([*keys, "--summary-json", "--engine", "python"]) == 1
    summary = json.loads(capfd.readouterr().out)
    assert summary["exit_status"] == 1 and summary["changed"]["first"][0]["id"] == "S2"


def test_a_bad_key_is_one_error_line_and_exit_4(tmp_path, capfd):
    (tmp_path / "b.json").write_text('{"S1":"R",\n"S1":"A"}')
    (tmp_path / "p.json").write_text('{"S1":"R"}')
    code = main(["sentinels", "--baseline", str(tmp_path / "b.json"), "--proposed", str(tmp_path / "p.json")])
    out = capfd.readouterr().out.splitlines()
    assert code == 4 and len(out) == 1
    assert "duplicate ID" in json.loads(out[0])["error"]


def test_export_csv_writes_one_check_s_filled_cases(tmp_path, capfd):
    target = tmp_path / "cases.csv"
    assert main(["export-csv", "--check", "sentinels", "-o", str(target)]) == 0
    rows = target.read_text(encoding="utf-8").splitlines()
    assert len(rows) > 1 and all("target-scope" not in row for row in rows[1:])
