"""``--engine spark`` gives the Python route's bytes: every record, every summary, every refusal.

Spark runs in local mode; its start-up is paid once, by the module's session. The tests
that run Spark take minutes on two cores, so they run under ``--all`` (``EIC_ALL_TESTS=1``,
what CI runs, where ``.ci/run`` installs Java), and there a missing Java or pyspark fails
them. The fast loop skips them, saying why; the checks that need no JVM run in both.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import unicodedata
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import helpers
from helpers.core.jsonio import dumps_compact
from helpers.core.paths import fixtures_dir, project_root
from helpers.team import spark_engine
from helpers.team.batch import BatchSummary, check_answer_keys, check_records
from helpers.team.key_formats import read_key
from helpers.team.reports import key_check_json, key_check_text, key_result_json, summary_json, summary_text

EVERY = os.environ.get("EIC_ALL_TESTS") == "1"


@pytest.fixture(scope="module")
def spark():
    """One local Spark session for the module; the fast loop skips what needs it."""
    if not EVERY:
        pytest.skip("Spark's start-up and jobs take minutes on two cores: run with --all (EIC_ALL_TESTS=1)")
    reason = spark_engine.spark_missing()
    if reason is not None:
        pytest.fail(f"--all runs the Spark tests: {reason}")
    return spark_engine.spark_session("local[2]")


# --- the corpora ---------------------------------------------------------------------------------

LOOK_ALIKES = [
    "T04256",
    "Т04256",  # Cyrillic Т
    "T04256 ",  # a trailing space
    "T04256\u200b",  # a zero-width space
    "ｔ04256",  # full-width
    "t04256",
    unicodedata.normalize("NFC", "café"),
    unicodedata.normalize("NFD", "café"),
    "😀",  # above U+FFFF: sorts before U+E000 by UTF-16 code units, after by code points
    "\ue000",
    "\uff21",
    "𝐓04256",  # mathematical bold T, astral
    "a\\b",
    'q"uote',
    "line\nbreak",
    "\u0000nul",
    "\u2028sep\u0085",
]


def generated_records(count: int = 2400, seed: int = 31) -> list[dict]:
    """Rewrites over look-alike and astral IDs, with duplicates, empty lists and holds."""
    rng = random.Random(seed)
    pool = [*LOOK_ALIKES, *(f"id{n}" for n in range(40)), *(chr(0x1F300 + n) + "x" for n in range(20))]
    found = []
    for n in range(count):
        original = [rng.choice(pool) for _ in range(rng.choice((0, 1, 2, 3, 5)))]
        roll = rng.random()
        if roll < 0.4:
            rewritten = list(reversed(original)) + original[:1]  # the same set, a duplicate
        elif roll < 0.7:
            rewritten = [rng.choice(pool) for _ in range(rng.choice((0, 1, 2, 4)))]
        else:
            rewritten = [unicodedata.normalize("NFD", i) for i in original]
        record: dict = {}
        if rng.random() < 0.5:
            record["id"] = f"r{n}" + rng.choice(("", "😀", " "))
        record["original"], record["rewritten"] = original, rewritten
        if rng.random() < 0.1:
            record["unresolved"] = [rng.choice(pool) for _ in range(rng.choice((0, 1, 3)))]
        if rng.random() < 0.2:
            record["query"] = rng.choice(LOOK_ALIKES)
        if rng.random() < 0.05:  # another key order, still compact
            record = dict(reversed(list(record.items())))
        found.append(record)
    return found


def line(record: dict) -> bytes:
    return dumps_compact(record).encode("utf-8")


#: Lines the Python route refuses, or that Spark must not judge: each is read by the Python route.
REFUSALS = [
    b"",
    b"   ",
    b"\x1c",
    b"[1,2]",
    b'{"original":["a"]}',
    b'{"original":["a"],"rewritten":[7]}',
    b'{"original":["a"],"rewritten":["7",7]}',
    b'{"original":["a"],"original":["b"],"rewritten":["a"]}',
    b'{"original":["a"],"original":["a"],"rewritten":["a"]}',
    b'{"original":["\xff"],"rewritten":["a"]}',
    b'{"original":["\xed\xa0\x80"],"rewritten":["a"]}',
    b'{"original":["\\ud800"],"rewritten":["a"]}',
    b'{"original":[""],"rewritten":["a"]}',
    b'{"original":[null],"rewritten":["a"]}',
    b'{"original":null,"rewritten":["a"]}',
    b'{"original":["a"],"rewritten":["a"],"unresolved":null}',
    b'{"original":["a"],"rewritten":["a"],"unresolved":[""]}',
    b'{"original":["a"],"rewritten":["a"],"unresolved":[]}',
    b'{"original":["a"],"rewritten":["a"],"id":7}',
    b'{"original":["a"],"rewritten":["a"],"id":null,"query":{"deep":[1]}}',
    b'{"original":["a"],"rewritten":["a"],"extra":1}',
    b'{"original":["a"],"rewritten":["a"],"Original":["a"]}',
    b'{"original":["a"],"rewritten":["a"]}\r',
    b'{"original": ["a"], "rewritten": ["b"]}',
    b'{"original":["\\u0061"],"rewritten":["a"]}',
    b'{"original":["a"],"rewritten":["a"]} trailing',
    b'{"original":["a"],"rewritten":NaN}',
    b'{"original":["a"],"rewritten":[1e400]}',
    b'{"original":' + b"[" * 600 + b"]" * 600 + b',"rewritten":[]}',
    b'{"original":["a\tb"],"rewritten":["a"]}',
    b'{"original":["a\\u001fb"],"rewritten":["a\\u001Fb"]}',
]


def edge_lines() -> list[bytes]:
    """The edge-case gallery's target-scope inputs and raw lines."""
    edge = json.loads((fixtures_dir() / "edge_cases.json").read_text(encoding="utf-8"))["edge_cases"]
    found = []
    for case in edge:
        if case["check"] != "target-scope":
            continue
        if "input" in case:
            found.append(dumps_compact(case["input"]).encode("utf-8", "surrogatepass"))
        else:
            pieces = case["line"] if isinstance(case["line"], list) else [case["line"]]
            raw = "".join(p if isinstance(p, str) else p["repeat"] * p["times"] for p in pieces)
            found.append(raw.encode("utf-8", "surrogatepass"))
    return found


def filled_lines() -> list[bytes]:
    return [line(dict(case.input)) for case in helpers.filled_cases("target-scope")]


# --- the two routes ------------------------------------------------------------------------------


def python_route(data: bytes, *, carry: bool, summary: bool) -> tuple[bytes, str, str]:
    out, bad = io.BytesIO(), io.StringIO()
    done = BatchSummary(check="target-scope", source="rewrites.jsonl")
    check_records(
        io.BytesIO(data),
        done,
        write=None if summary else out.write,
        carry=carry,
        bad_lines=bad if summary else None,
    )
    return out.getvalue(), dumps_compact(summary_json(done)) + summary_text(done), bad.getvalue()


def spark_route(path: Path, *, carry: bool, summary: bool) -> tuple[bytes, str, str]:
    out, bad = io.BytesIO(), io.StringIO()
    done = BatchSummary(check="target-scope", source="rewrites.jsonl")
    judged = spark_engine.check_scope_file(
        str(path),
        done,
        write=None if summary else out.write,
        carry=carry,
        bad_lines=bad if summary else None,
    )
    assert judged is done
    return out.getvalue(), dumps_compact(summary_json(done)) + summary_text(done), bad.getvalue()


def assert_same(tmp_path: Path, lines: list[bytes], *, carry: bool = False, summary: bool = False) -> None:
    data = b"".join(raw + b"\n" for raw in lines)
    path = tmp_path / "rewrites.jsonl"
    path.write_bytes(data)
    expected = python_route(data, carry=carry, summary=summary)
    got = spark_route(path, carry=carry, summary=summary)
    if not summary:
        assert got[0].count(b"\n") == len(lines)
        for number, (want, have) in enumerate(
            zip(expected[0].splitlines(), got[0].splitlines(), strict=True), 1
        ):
            assert have == want, f"line {number}: {lines[number - 1]!r}"
    assert got == expected


# --- target scope --------------------------------------------------------------------------------


def test_the_generated_corpus_reads_alike_per_record(spark, tmp_path):
    lines = [line(r) for r in generated_records()]
    assert len(lines) >= 2000
    assert_same(tmp_path, [*filled_lines(), *lines])


def test_lines_are_numbered_across_many_partitions(spark, tmp_path):
    # Small partitions split the file mid-line, many times; line numbers and order must hold.
    lines = [*REFUSALS, *(line(r) for r in generated_records(2000, seed=2)), *REFUSALS]
    spark.conf.set("spark.sql.files.maxPartitionBytes", "8k")
    spark.conf.set("spark.sql.files.openCostInBytes", "1k")
    try:
        assert_same(tmp_path, lines)
        assert_same(tmp_path, lines, carry=True)
        assert spark.read.text(str(tmp_path / "rewrites.jsonl")).rdd.getNumPartitions() > 10
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
        spark.conf.unset("spark.sql.files.openCostInBytes")


def test_every_refusal_is_the_python_routes_own(spark, tmp_path):
    # Refusals between good lines, in runs and alone, so the merge of the two routes is exercised.
    good = [line(r) for r in generated_records(60, seed=7)]
    lines = [*REFUSALS[:3], *good[:20], *REFUSALS[3:], *good[20:40], *edge_lines(), *good[40:], REFUSALS[0]]
    assert_same(tmp_path, lines)
    assert_same(tmp_path, lines, carry=True)


def test_summaries_and_carried_fields_read_alike(spark, tmp_path):
    lines = [*filled_lines(), *(line(r) for r in generated_records(800, seed=3)), *REFUSALS[::3]]
    assert_same(tmp_path, lines, summary=True)
    assert_same(tmp_path, lines, carry=True)


def test_a_file_of_passes_and_an_empty_file(spark, tmp_path):
    assert_same(tmp_path, [b'{"original":["a"],"rewritten":["a"]}'] * 50)
    assert_same(tmp_path, [])


def test_sorted_by_utf16_code_units_not_by_sparks_order(spark, tmp_path):
    lines = [b'{"original":["\xef\xbc\xa1","\xf0\x9f\x98\x80","\xee\x80\x80","a"],"rewritten":[]}']
    path = tmp_path / "order.jsonl"
    path.write_bytes(lines[0] + b"\n")
    out = io.BytesIO()
    spark_engine.check_scope_file(str(path), BatchSummary(check="target-scope", source="x"), write=out.write)
    assert json.loads(out.getvalue())["missing"] == ["a", "😀", "\ue000", "\uff21"]


def test_formats_spark_does_not_read_go_to_the_python_route(tmp_path):
    summary = BatchSummary(check="target-scope", source="x")
    assert spark_engine.check_scope_file("rewrites.jsonl.gz", summary) is None
    assert spark_engine.check_scope_file("rewrites.parquet", summary, format="parquet") is None
    assert summary.records == 0


# --- the sentinel check over Parquet keys --------------------------------------------------------


def write_key(path: Path, columns: dict) -> str:
    pq.write_table(pa.table(columns), path)
    return str(path)


def python_key_check(baseline: str, proposed: str, id_columns: tuple[str, ...], answer: str):
    keys = []
    for file in (baseline, proposed):
        with open(file, "rb") as stream:
            keys.append(
                read_key(stream, source=file, format="parquet", id_columns=id_columns, answer_column=answer)
            )
    return check_answer_keys(keys[0], keys[1], pairs=True if len(id_columns) == 2 else None)


def key_outputs(check) -> str:
    return "\n".join(
        [
            dumps_compact(key_result_json(check)),
            dumps_compact(key_check_json(check, limit=3)),
            key_check_text(check),
        ]
    )


def assert_same_keys(tmp_path: Path, baseline: dict, proposed: dict, id_columns=("id",), answer="answer"):
    b = write_key(tmp_path / "baseline.parquet", baseline)
    p = write_key(tmp_path / "proposed.parquet", proposed)
    got = spark_engine.check_parquet_keys(b, p, id_columns=id_columns, answer_column=answer)
    assert got is not None
    assert key_outputs(got) == key_outputs(python_key_check(b, p, id_columns, answer))


def test_filled_sentinel_cases_and_a_generated_key(spark, tmp_path):
    for case in helpers.filled_cases("sentinels"):
        base, prop = case.input["baseline"], case.input["proposed"]
        assert_same_keys(
            tmp_path,
            {"id": list(base), "answer": list(base.values())},
            {"id": list(prop), "answer": list(prop.values())},
        )
    rng = random.Random(5)
    ids = sorted({rng.choice(LOOK_ALIKES) + str(n % 300) for n in range(2500)})
    answers = [rng.choice(["R", "r", "R ", "é", unicodedata.normalize("NFD", "é"), "😀"]) for _ in ids]
    kept = [i for i in ids if rng.random() < 0.9]
    changed = {i: rng.choice(["R", "r", "😀", "\ue000"]) for i in kept if rng.random() < 0.1}
    base = dict(zip(ids, answers, strict=True))
    assert_same_keys(
        tmp_path,
        {"id": ids, "answer": answers},
        {"id": [*kept, "extra😀"], "answer": [changed.get(i, base[i]) for i in kept] + ["x"]},
    )


def test_qrels_keys_with_integer_labels(spark, tmp_path):
    assert_same_keys(
        tmp_path,
        {"q": ["1", "1", "2", "😀"], "d": ["d1", "d2", "d1", "\ue000"], "rel": [1, 0, 2, 1]},
        {"q": ["1", "2", "😀"], "d": ["d1", "d1", "\ue000"], "rel": [1, 1, 3]},
        id_columns=("q", "d"),
        answer="rel",
    )


@pytest.mark.parametrize(
    ("baseline", "why"),
    [
        ({"id": ["a", "a"], "answer": ["R", "R"]}, "a duplicate ID"),
        ({"id": ["a", None], "answer": ["R", "R"]}, "a null ID"),
        ({"id": ["a", ""], "answer": ["R", "R"]}, "an empty ID"),
        ({"id": ["a", "b"], "answer": ["R", None]}, "a null answer"),
        ({"id": ["a", "b"], "answer": [True, False]}, "a boolean answer"),
        ({"id": ["a", "b"], "answer": [1.5, 2.0]}, "a float answer"),
        ({"id": ["a", "b"], "Answer": ["R", "R"]}, "a column named in another case"),
        ({"id": pa.array([], pa.string()), "answer": pa.array([], pa.string())}, "an empty baseline"),
    ],
)
def test_keys_the_python_route_refuses_are_left_to_it(spark, tmp_path, baseline, why):
    b = write_key(tmp_path / "baseline.parquet", baseline)
    p = write_key(tmp_path / "proposed.parquet", {"id": ["a"], "answer": ["R"]})
    assert spark_engine.check_parquet_keys(b, p, id_columns=("id",), answer_column="answer") is None, why


# --- the command line, end to end ------------------------------------------------------------------


def test_the_command_line_runs_spark_and_writes_the_python_bytes(spark, tmp_path):
    lines = [*filled_lines(), *(line(r) for r in generated_records(300, seed=11)), *REFUSALS[:6]]
    rewrites = tmp_path / "rewrites.jsonl"
    rewrites.write_bytes(b"".join(raw + b"\n" for raw in lines))
    command = [sys.executable, "-m", "helpers", "target-scope", str(rewrites)]
    python = subprocess.run(command, capture_output=True, cwd=project_root(), timeout=600)
    spark_run = subprocess.run(
        [*command, "--engine", "spark", "--spark-master", "local[1]"],
        capture_output=True,
        cwd=project_root(),
        timeout=600,
    )
    assert spark_run.stderr == python.stderr == b""  # Spark's log stays off the terminal
    assert (
        (spark_run.returncode, spark_run.stdout) == (python.returncode, python.stdout) == (4, python.stdout)
    )


def test_the_command_line_refuses_standard_input_for_spark():
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "target-scope", "--engine", "spark"],
        input=b"{}\n",
        capture_output=True,
        cwd=project_root(),
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.decode().count("\n") == 1 and "--engine spark" in done.stderr.decode()


def test_a_missing_java_is_one_line_naming_what_to_install(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path), "JAVA_HOME": str(tmp_path / "none")}
    rewrites = tmp_path / "r.jsonl"
    rewrites.write_bytes(b'{"original":["a"],"rewritten":["a"]}\n')
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "target-scope", str(rewrites), "--engine", "spark"],
        capture_output=True,
        cwd=project_root(),
        env=env,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == b""
    message = done.stderr.decode()
    assert message.count("\n") == 1 and "openjdk-17-jre-headless" in message, message


def test_the_one_line_path_does_not_import_pyspark():
    code = "import sys, helpers.cli; sys.exit('pyspark' in sys.modules or 'helpers.team.spark_engine' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=project_root(), timeout=60).returncode == 0
