"""Target scope from Parquet (and CSV) with list columns: the same results and errors as JSON Lines."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.jsonio import dumps_compact
from helpers.core.paths import fixtures_dir
from helpers.team.command_parser import _DataOptions
from helpers.team.commands import _run_check_command
from helpers.team.inputs import SourceFormatError
from helpers.team.scope_tables import iter_scope_parquet

LIST_FIELDS = ("original", "rewritten", "unresolved")
TEXT_FIELDS = ("id", "query", "rewritten_query")


def scope_inputs() -> list[dict]:
    """Every target-scope input of the filled cases and the edge-case gallery that a table can hold."""
    filled = json.loads((fixtures_dir() / "filled_cases.json").read_text(encoding="utf-8"))["cases"]
    edge = json.loads((fixtures_dir() / "edge_cases.json").read_text(encoding="utf-8"))["edge_cases"]
    found = []
    for case in [*filled, *edge]:
        record = case.get("input")
        if case["check"] == "target-scope" and isinstance(record, dict) and _representable(record):
            found.append(record)
    return found


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: Parquet strings are UTF-8
        return False
    return True


def _representable(record: dict) -> bool:
    if not {"original", "rewritten"} <= set(record):
        return False  # a table without the column is refused as a whole (below)
    for name, value in record.items():
        if name in LIST_FIELDS:
            if value is not None and not (
                isinstance(value, list) and all(v is None or (isinstance(v, str) and _utf8(v)) for v in value)
            ):
                return False
        elif name in TEXT_FIELDS:
            if not isinstance(value, str) or not _utf8(value):
                return False
        else:
            return False
    return True


def run(path, fmt: str) -> tuple[bytes, int]:
    out, err = io.BytesIO(), io.StringIO()
    code = _run_check_command("target-scope", str(path), out, err, _DataOptions(format=fmt))
    return out.getvalue(), code


def as_parquet(record: dict, path) -> None:
    columns = {}
    for name, value in record.items():
        kind = pa.list_(pa.string()) if name in LIST_FIELDS else pa.string()
        columns[name] = pa.array([value], type=kind)
    pq.write_table(pa.table(columns), path)


def as_csv(record: dict, path) -> bool:
    """Write ``record`` as one CSV row; False when CSV cannot hold it (a null list, or no list)."""
    if any(record.get(name, []) is None for name in LIST_FIELDS):
        return False
    header = list(record)
    cells = [json.dumps(v, ensure_ascii=False) if k in LIST_FIELDS else v for k, v in record.items()]
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([header, cells])
    return True


def same_everywhere(record: dict, tmp_path) -> None:
    record = {"id": "r1", **record}
    (tmp_path / "r.jsonl").write_text(dumps_compact(record) + "\n", encoding="utf-8")
    expected = run(tmp_path / "r.jsonl", "jsonl")
    as_parquet(record, tmp_path / "r.parquet")
    assert run(tmp_path / "r.parquet", "parquet") == expected, record
    if "unresolved" in record and not record["unresolved"]:
        return  # CSV reads an empty unresolved cell as none, and JSON Lines an empty list: both pass
    if as_csv(record, tmp_path / "r.csv"):
        # CSV lines are numbered from the header, so the only row is line 2
        want = expected[0].replace(b'{"line":1,', b'{"line":2,'), expected[1]
        assert run(tmp_path / "r.csv", "csv") == want, record


@pytest.mark.parametrize("record", scope_inputs(), ids=lambda r: dumps_compact(r)[:40])
def test_parquet_and_csv_agree_with_json_lines_on_every_case(record, tmp_path):
    same_everywhere(record, tmp_path)


def test_the_cases_cover_errors_and_holds(tmp_path):
    records = scope_inputs()
    assert len(records) >= 15
    codes = set()
    for number, record in enumerate(records):
        path = tmp_path / f"r{number}.jsonl"
        path.write_text(dumps_compact(record) + "\n", encoding="utf-8")
        codes.add(run(path, "jsonl")[1])
    assert codes == {0, 1, 3, 4}


ids = st.one_of(st.none(), st.sampled_from(["a", "b", "", "a ", "é", "e\u0301", "\U0001f600", "\ue000"]))


@settings(max_examples=examples(60), deadline=None)
@given(
    st.fixed_dictionaries(
        {"original": st.one_of(st.none(), st.lists(ids, max_size=4)), "rewritten": st.lists(ids, max_size=4)},
        optional={
            "unresolved": st.one_of(st.none(), st.lists(ids, max_size=2)),
            "query": st.text(max_size=5),
        },
    )
)
def test_parquet_agrees_with_json_lines_on_any_record(tmp_path_factory, record):
    same_everywhere(record, tmp_path_factory.mktemp("r"))


def test_many_rows_keep_their_order_and_numbers(tmp_path):
    originals = [[f"t{i}", "x"] for i in range(200_001 % 1000)]
    table = pa.table({"original": originals, "rewritten": [["x"]] * len(originals)})
    pq.write_table(table, tmp_path / "r.parquet", row_group_size=64)
    with open(tmp_path / "r.parquet", "rb") as stream:
        rows = list(iter_scope_parquet(stream, source="r.parquet"))
    assert [r.number for r in rows] == list(range(1, len(originals) + 1))
    assert rows[-1].value == {"original": originals[-1], "rewritten": ["x"]}


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        (
            {"original": [["a"]], "rewriten": [["a"]]},
            'r.parquet: unknown column "rewriten" (allowed: original,',
        ),
        ({"original": [["a"]]}, "r.parquet: has no 'rewritten' column (needed: original, rewritten)"),
    ],
)
def test_bad_columns_are_one_bad_input(tmp_path, columns, message):
    pq.write_table(pa.table(columns), tmp_path / "r.parquet")
    with open(tmp_path / "r.parquet", "rb") as stream, pytest.raises(SourceFormatError) as caught:
        list(iter_scope_parquet(stream, source="r.parquet"))
    assert str(caught.value) == message or str(caught.value).startswith(message)
    out, code = run(tmp_path / "r.parquet", "parquet")
    assert code == 4 and json.loads(out)["line"] == 1


def test_an_empty_table_is_bad_input(tmp_path, run_cli):
    pq.write_table(
        pa.table(
            {
                "original": pa.array([], pa.list_(pa.string())),
                "rewritten": pa.array([], pa.list_(pa.string())),
            }
        ),
        tmp_path / "r.parquet",
    )
    done = run_cli("target-scope", "r.parquet", "--format", "parquet")
    assert done.returncode == 4 and b"r.parquet has no rows; nothing was checked" in done.stderr


def test_parquet_from_standard_input(tmp_path, run_cli):
    pq.write_table(pa.table({"original": [["a", "b"]], "rewritten": [["b"]]}), tmp_path / "r.parquet")
    done = run_cli("target-scope", "--format", "parquet", stdin=(tmp_path / "r.parquet").read_bytes())
    assert (done.returncode, done.stdout) == (1, b'{"missing":["a"],"added":[],"preserved":false}\n')


class _Pipe(io.RawIOBase):
    """A byte stream that cannot seek, as standard input on a pipe."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        got = self.data.read(min(len(buffer), 1000))
        buffer[: len(got)] = got
        return len(got)


def test_a_parquet_table_on_a_pipe_reads_every_row_across_batches_and_row_groups(tmp_path):
    from helpers.team.parquet_tables import BATCH_ROWS

    count = 2 * BATCH_ROWS + 3
    rows = [{"id": f"r{i}", "original": [f"a{i}", "b"], "rewritten": [f"a{i}"]} for i in range(count)]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "r.parquet", row_group_size=BATCH_ROWS + 1)
    pipe = _Pipe((tmp_path / "r.parquet").read_bytes())
    assert not pipe.seekable()
    read = list(iter_scope_parquet(pipe, source="-"))
    assert [line.number for line in read] == list(range(1, count + 1))
    assert [line.value for line in read] == rows


def test_a_parquet_summary_names_rows_and_a_json_lines_one_names_lines(tmp_path, run_cli):
    table = pa.table({"id": ["r1", "r2"], "original": [["a"], None], "rewritten": [["b"], ["a"]]})
    pq.write_table(table, tmp_path / "rewrites.parquet")
    parquet = run_cli("target-scope", "--format", "parquet", "--summary", str(tmp_path / "rewrites.parquet"))
    text, errors = parquet.stdout.decode(), parquet.stderr.decode()
    assert '  row 1 (id "r1"): not preserved' in text and '  row 2 (id "r2"): bad input' in text
    assert (
        errors == f"{tmp_path / 'rewrites.parquet'}, row 2: original is null, expected a list of string IDs\n"
    )
    assert "line" not in text.replace("records that did not pass", "")
    (tmp_path / "rewrites.jsonl").write_text('{"original":["a"],"rewritten":["b"]}\n{"rewritten":[]}\n')
    lines = run_cli("target-scope", "--summary", str(tmp_path / "rewrites.jsonl"))
    assert "  line 1: not preserved" in lines.stdout.decode()
    assert f"{tmp_path / 'rewrites.jsonl'}, line 2: " in lines.stderr.decode()


def test_the_notebook_table_of_a_parquet_file_names_rows(tmp_path):
    from helpers.team.batch import check_file
    from helpers.team.views.batch_html import failures_table

    pq.write_table(
        pa.table({"id": ["r1"], "original": [["a"]], "rewritten": [["b"]]}), tmp_path / "r.parquet"
    )
    block = failures_table(check_file(tmp_path / "r.parquet", format="parquet"))
    assert "<th>Row</th>" in block.html and '\nrow 1 (id "r1"): not preserved' in block.text


def _not_utf8(column: list[bytes]) -> pa.Array:
    """A string column holding bytes that are not UTF-8, as a careless writer can leave one."""
    return pa.array(column, type=pa.binary()).cast(pa.string(), safe=False)


@pytest.mark.parametrize("engine", ["python", "duckdb"])
def test_a_string_that_is_not_utf8_is_a_row_error_not_a_traceback(tmp_path, engine):
    if engine == "duckdb":
        pytest.importorskip("duckdb")
    path = tmp_path / "bad.parquet"
    ids = pa.ListArray.from_arrays([0, 1, 2], _not_utf8([b"a", b"b\xff"]))
    pq.write_table(pa.table({"original": ids, "rewritten": ids}), path)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "helpers",
            "target-scope",
            "--format",
            "parquet",
            "--engine",
            engine,
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 4, run.stderr
    assert "Traceback" not in run.stderr
    line = json.loads(run.stdout.splitlines()[-1])
    assert line["error"] == "the table cannot be read from here on (a string that is not UTF-8 text)"
