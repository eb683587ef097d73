"""The command line on real data files: CSV, two answer keys, summaries, carried ids, big files."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.checks import check_lines
from helpers.core.jsonio import MAX_NESTING, dumps_compact, dumps_compact_deep, iter_json_lines
from helpers.core.paths import fixtures_dir
from helpers.team.batch import json_safe
from helpers.team.commands import _run_check_command
from tests.team.test_batch import VARIANTS, _line, corrupt_file, scope_records, sentinel_records

SAMPLE = fixtures_dir() / "sample_data"
SEVERITY = (0, 1, 3, 4)


def lines_of(done) -> list[str]:
    text = done.stdout.decode("utf-8")
    assert text.endswith("\n"), text
    return text[:-1].split("\n")


@pytest.fixture
def sample(tmp_path):
    """The sample data copied where ``run_cli`` runs, so paths in the output are short and stable."""
    for path in SAMPLE.iterdir():
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


# --- the default output stays byte for byte what the foundation wrote ----------


def _foundation_output(check: str, data: bytes) -> tuple[bytes, int]:
    """What the foundation's CLI wrote: one compact line per input line; worst code wins."""
    out, worst, count = [], 0, 0
    for obj, code in check_lines(check, iter_json_lines(io.BytesIO(data), source="in.jsonl")):
        out.append(dumps_compact(obj).encode("utf-8") + b"\n")
        count += 1
        worst = max(worst, code, key=SEVERITY.index)
    return b"".join(out), worst if count else 4


@given(st.lists(st.tuples(scope_records(), VARIANTS), max_size=6))
def test_default_target_scope_output_is_unchanged(tmp_path_factory, lines):
    data = b"\n".join(_line(r, v) for r, v in lines)
    path = tmp_path_factory.mktemp("in") / "in.jsonl"
    path.write_bytes(data)
    out, err = io.BytesIO(), io.StringIO()
    code = _run_check_command("target-scope", str(path), out, err)
    assert (out.getvalue(), code) == _foundation_output("target-scope", data)


@given(st.lists(st.tuples(sentinel_records(), VARIANTS), max_size=6))
def test_default_sentinel_output_is_unchanged(tmp_path_factory, lines):
    data = b"\n".join(_line(r, v) for r, v in lines)
    path = tmp_path_factory.mktemp("in") / "in.jsonl"
    path.write_bytes(data)
    out, err = io.BytesIO(), io.StringIO()
    code = _run_check_command("sentinels", str(path), out, err)
    assert (out.getvalue(), code) == _foundation_output("sentinels", data)


# --- CSV ---------------------------------------------------------------------


def test_csv_with_carried_ids(run_cli, sample):
    done = run_cli("target-scope", "--format", "csv", "--carry", str(sample / "rewrites.csv"))
    assert lines_of(done) == [
        '{"line":2,"id":"c01","query":"How do the induction and refresher procedures differ?",'
        '"missing":[],"added":[],"preserved":true}',
        '{"line":3,"id":"c02","query":"Induction versus refresher: which is longer?",'
        '"missing":["refresher"],"added":[],"preserved":false}',
        '{"line":4,"id":"c03","query":"What does induction cover?","missing":[],"added":["payroll"],'
        '"preserved":false}',
        '{"line":5,"id":"c04","query":"First aid and fire safety course lengths","missing":[],'
        '"added":[],"preserved":true}',
        '{"line":6,"id":"c05","query":"Refresher deadlines","field":"rewritten",'
        '"error":"the rewritten cell: not valid JSON: Expecting \',\' delimiter (column 13)"}',
        '{"line":7,"id":"c06","query":"","missing":[],"added":[],"preserved":true}',
    ]
    assert done.returncode == 4


def test_csv_from_stdin_with_a_list_separator(run_cli):
    done = run_cli(
        "target-scope",
        "--format",
        "csv",
        "--list-separator",
        "|",
        stdin="id,original,rewritten\nr1,induction|refresher,refresher|induction\nr2,a,\n",
    )
    assert lines_of(done) == [
        '{"missing":[],"added":[],"preserved":true}',
        '{"missing":["a"],"added":[],"preserved":false}',
    ]
    assert done.returncode == 1


def test_csv_header_only_checks_nothing(run_cli):
    done = run_cli("target-scope", "--format", "csv", stdin="id,original,rewritten\n")
    assert done.returncode == 4 and done.stdout == b""
    assert b"no rows after the header" in done.stderr


def test_csv_bad_header_is_one_bad_line(run_cli):
    done = run_cli("target-scope", "--format", "csv", stdin="id,orig,rewritten\nr1,[],[]\n")
    assert lines_of(done) == [
        '{"line":1,"field":"orig","error":"unknown column \\"orig\\" (allowed: id, original, '
        'rewritten, query, rewritten_query, unresolved)"}'
    ]
    assert done.returncode == 4


# --- carrying id and query ----------------------------------------------------


def test_carry_on_json_lines(run_cli):
    done = run_cli(
        "target-scope",
        "--carry",
        stdin='{"id":"r1","query":"q","original":["a"],"rewritten":["a"]}\n'
        '{"original":["a"],"rewritten":["a"],"id":1e400}\n'
        "oops\n",
    )
    assert lines_of(done) == [
        '{"line":1,"id":"r1","query":"q","missing":[],"added":[],"preserved":true}',
        '{"line":2,"id":null,"missing":[],"added":[],"preserved":true}',  # as JSON.stringify writes it
        '{"line":3,"field":null,"error":"not valid JSON: Expecting value (column 1)"}',
    ]


@pytest.mark.parametrize("field", ["query", "id"])
@pytest.mark.parametrize("depth", range(MAX_NESTING - 4, MAX_NESTING + 1))
def test_carry_writes_values_nested_up_to_the_limit(run_cli, tmp_path, field, depth):
    """A carried value nested as deep as the readers allow is written, never a RecursionError."""
    other = "id" if field == "query" else "query"
    deep = "[" * depth + "]" * depth
    record = f'{{"{other}":"r","original":["a"],"rewritten":["a"],"{field}":{deep}}}'
    (tmp_path / "q.jsonl").write_text(record + "\n", encoding="utf-8")
    if depth < MAX_NESTING:  # the record itself is one level more
        carried = {"query": f'"id":"r","query":{deep}', "id": f'"id":{deep},"query":"r"'}[field]
        expected = f'{{"line":1,{carried},"missing":[],"added":[],"preserved":true}}\n'
        code = 0
    else:
        expected = (
            '{"line":1,"field":null,"error":"arrays or objects are nested more than 500 levels deep"}\n'
        )
        code = 4
    done = run_cli("target-scope", "--carry", "q.jsonl")
    assert (done.returncode, done.stderr, done.stdout.decode("utf-8")) == (code, b"", expected)
    summary = run_cli("target-scope", "--carry", "--summary", "--results", "out.jsonl", "q.jsonl")
    assert summary.returncode == code and b"Traceback" not in summary.stderr, summary.stderr
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == expected
    failing = record.replace('"rewritten":["a"]', '"rewritten":["b"]')
    (tmp_path / "q.jsonl").write_text(failing + "\n", encoding="utf-8")
    done = run_cli("target-scope", "--summary-json", "q.jsonl")
    assert b"Traceback" not in done.stderr, done.stderr
    if depth < MAX_NESTING:
        (kept,) = json.loads(done.stdout)["failures"]
        assert kept[field] == json.loads(deep) and done.returncode == 1


def test_json_safe_copies_any_depth_without_recursion():
    deep: list = [1e400]
    for _ in range(5 * MAX_NESTING):
        deep = [deep, {"k": deep[0] if isinstance(deep[0], float) else 1}]
    copy = json_safe(deep)
    inner = copy
    for _ in range(5 * MAX_NESTING):
        inner = inner[0]
    assert inner == [None]
    assert dumps_compact_deep(copy) == dumps_compact_deep(deep)
    assert json_safe({"a": [float("nan"), {"b": float("-inf")}], "c": 1.5}) == {
        "a": [None, {"b": None}],
        "c": 1.5,
    }


# --- summaries -----------------------------------------------------------------


def test_human_summary(run_cli, sample):
    done = run_cli("target-scope", "--summary", "--max-failures", "3", "rewrites.jsonl")
    assert done.stdout.decode("utf-8") == (
        "Target scope: rewrites.jsonl\n"
        "records checked: 24\n"
        "  preserved                   10   41.7%\n"
        "  not preserved                8   33.3%\n"
        "    lost targets               5\n"
        "    added targets              1\n"
        "    lost and added             2\n"
        "  needs staff labels           2    8.3%\n"
        "  bad input                    4   16.7%\n"
        'most often lost: "refresher" ×4, "induction" ×2, "fire-safety" ×1, "first-aid" ×1\n'
        "first 3 of 14 records that did not pass:\n"
        '  line 3 (id "r03"): not preserved: lost "refresher"\n'
        '  line 5 (id "r05"): not preserved: added "payroll"\n'
        '  line 6 (id "r06"): not preserved: lost "refresher"\n'
        "exit status 4: bad input: something could not be checked\n"
    )
    assert done.stderr.decode("utf-8") == (
        "rewrites.jsonl, line 11: not valid JSON: Expecting ',' delimiter (column 137)\n"
        'rewrites.jsonl, line 12: duplicate key "original" in a JSON object (each key may appear only once)\n'
        "rewrites.jsonl, line 15: rewritten[1] is 7, expected a string ID\n"
        'rewrites.jsonl, line 18: input has no "rewritten" field\n'
    )
    assert done.returncode == 4


def test_json_summary_and_results_file(run_cli, sample):
    done = run_cli("target-scope", "--summary-json", "--results", "out.jsonl", "rewrites.jsonl")
    (line,) = lines_of(done)
    data = json.loads(line)
    assert data["records"] == 24 and data["exit_status"] == 4 == done.returncode
    assert data["most_often_lost"][:2] == [{"id": "refresher", "count": 4}, {"id": "induction", "count": 2}]
    assert len(data["failures"]) == data["failures_total"] == 14
    results = (sample / "out.jsonl").read_bytes()
    plain = run_cli("target-scope", "rewrites.jsonl")
    assert results == plain.stdout


def test_summary_of_sentinel_records(run_cli):
    done = run_cli(
        "sentinels",
        "--summary-json",
        stdin='{"id":"k1","baseline":{"S1":"R"},"proposed":{"S1":"R\\t"}}\n',
    )
    data = json.loads(done.stdout)
    assert data["outcomes"] == {"intact": 0, "hold before scoring": 1, "bad input": 0}
    assert data["failures"][0]["explanation"] == 'changed "S1" R{+→+}'
    assert done.returncode == 1


def test_summary_of_nothing(run_cli):
    done = run_cli("target-scope", "--summary", stdin=b"")
    assert done.returncode == 4
    assert done.stdout.decode().endswith("exit status 4: no records to check\n")
    assert b"no input lines" in done.stderr


# --- two answer keys --------------------------------------------------------------


@pytest.mark.parametrize("baseline_form", ["json", "jsonl"])
@pytest.mark.parametrize("proposed_form", ["json", "jsonl"])
def test_two_answer_keys_in_any_form(run_cli, tmp_path, baseline_form, proposed_form):
    baseline = {"S1": "R", "S2": "A", "S3": "x"}
    proposed = {"S1": "S", "S3": "x", "C4": "new"}

    def write(name, answers, form):
        path = tmp_path / f"{name}.{form}"
        if form == "json":
            path.write_text(json.dumps(answers), encoding="utf-8")
        else:
            path.write_text("".join(json.dumps({"id": k, "answer": v}) + "\n" for k, v in answers.items()))
        return str(path)

    done = run_cli(
        "sentinels",
        "--baseline",
        write("baseline", baseline, baseline_form),
        "--proposed",
        write("proposed", proposed, proposed_form),
    )
    assert lines_of(done) == ['{"missing":["S2"],"changed":["S1"],"intact":false}']
    assert done.returncode == 1


def test_sample_answer_keys_summary(run_cli, sample):
    done = run_cli("sentinels", "--baseline", "baseline.json", "--proposed", "proposed.jsonl", "--summary")
    assert done.stdout.decode("utf-8") == (
        "Sentinel answer key: baseline baseline.json (6 IDs), proposed proposed.jsonl (7 IDs, 2 not sentinels)\n"
        "outcome: hold before scoring\n"
        "  missing sentinels           1\n"
        "  changed answers             2\n"
        'missing: "S4"\n'
        'changed "S2": A{+·+}\n'
        'changed "S5": [-P-]{+p+}ayroll\n'
        "exit status 1: a check failed\n"
    )
    assert done.returncode == 1


def test_intact_keys_and_named_formats(run_cli, tmp_path):
    (tmp_path / "b.txt").write_text('{"S1":"R"}')
    (tmp_path / "p.txt").write_text('{"S1":"R","C2":"A"}')
    done = run_cli("sentinels", "--baseline", "b.txt", "--proposed", "p.txt", "--key-format", "json")
    assert lines_of(done) == ['{"missing":[],"changed":[],"intact":true}'] and done.returncode == 0
    done = run_cli("sentinels", "--baseline", "b.txt", "--proposed", "p.txt")
    assert done.returncode == 2 and b"--key-format" in done.stderr


def test_key_problems_are_reported_by_file_and_line(run_cli, tmp_path):
    (tmp_path / "b.json").write_text('{\n "S1": "R",\n "S1": "Q"\n}\n')
    (tmp_path / "p.jsonl").write_text('{"id":"S1","answer":"R"}\n{"id":"S1","answer":"R"}\n')
    done = run_cli("sentinels", "--baseline", "b.json", "--proposed", "p.jsonl")
    assert lines_of(done) == [
        '{"source":"b.json","line":3,"field":"S1","error":"duplicate ID \\"S1\\" (first given on line 2); '
        'each ID may appear only once"}',
        '{"source":"p.jsonl","line":2,"field":"S1","error":"duplicate ID \\"S1\\" (first given on line 1); '
        'each ID may appear only once"}',
    ]
    assert done.returncode == 4
    summary = run_cli("sentinels", "--baseline", "b.json", "--proposed", "p.jsonl", "--summary-json")
    data = json.loads(summary.stdout)
    assert data["outcome"] == "bad input" and data["missing"] is None and data["errors_total"] == 2
    assert summary.stderr.decode().splitlines()[0].startswith("b.json, line 3: duplicate ID")


def test_missing_key_file_is_a_usage_error(run_cli, tmp_path):
    (tmp_path / "b.json").write_text('{"S1":"R"}')
    done = run_cli("sentinels", "--baseline", "b.json", "--proposed", "nowhere.json")
    assert done.returncode == 2 and b"cannot open nowhere.json" in done.stderr


# --- usage errors and help ------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["target-scope", "--list-separator", ";"],
        ["target-scope", "--format", "csv", "--list-separator", ""],
        ["target-scope", "--results", "x.jsonl"],
        ["target-scope", "--summary", "--summary-json"],
        ["target-scope", "--max-failures", "-1"],
        ["target-scope", "--format", "xml"],
        ["sentinels", "--baseline", "b.json"],
        ["sentinels", "x.jsonl", "--baseline", "b.json", "--proposed", "p.json"],
        ["sentinels", "--baseline", "b.json", "--proposed", "p.json", "--carry"],
        ["sentinels", "--key-format", "json"],
        ["sentinels", "--format", "csv"],
    ],
)
def test_usage_errors_exit_2(run_cli, args):
    done = run_cli(*args)
    assert done.returncode == 2 and done.stdout == b""


@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
def test_help_documents_the_data_options(run_cli, check):
    text = run_cli(check, "--help").stdout.decode("utf-8")
    for flag in ("--carry", "--summary", "--summary-json", "--max-failures", "--results"):
        assert flag in text
    usage = text.split("\n\n")[0]
    assert ("--list-separator" in usage) == (check == "target-scope")
    assert ("--baseline" in usage) == (check == "sentinels")
    assert "most_often_lost_undercount" in text and "05_check_your_data.ipynb" in text


# --- a big file with 1% corrupt lines ---------------------------------------------------


def test_every_corrupt_line_of_10k_is_reported(run_cli, tmp_path):
    expected = corrupt_file(tmp_path / "big.jsonl")
    done = run_cli("target-scope", "big.jsonl")
    outputs = [json.loads(line) for line in lines_of(done)]
    assert len(outputs) == 10_000
    assert sorted(o["line"] for o in outputs if "error" in o) == sorted(expected)
    assert done.returncode == 4
    summary = run_cli("target-scope", "--summary-json", "big.jsonl")
    reported = [int(line.split(", line ")[1].split(":")[0]) for line in summary.stderr.decode().splitlines()]
    assert sorted(reported) == sorted(expected)
    assert json.loads(summary.stdout)["outcomes"]["bad input"] == 100
    assert summary.returncode == 4
