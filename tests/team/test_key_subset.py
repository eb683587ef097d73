"""Sentinels out of a full baseline (--sentinels IDS), and the command line of the new key formats."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.paths import fixtures_dir
from helpers.team.key_formats import read_trec_qrels
from helpers.team.key_subset import (
    check_sentinel_subset,
    outside_changes,
    read_sentinel_ids,
    subset_check_json,
    subset_check_text,
)

SAMPLE = fixtures_dir() / "sample_data"


def key(text: str):
    return read_trec_qrels(io.BytesIO(text.encode()), source="k.txt")


def ids(text: bytes):
    return read_sentinel_ids(io.BytesIO(text), source="s.txt")


BASE = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\nq2 0 d3 1\n"


def test_sentinel_ids_are_read_exactly():
    found = ids(b'\xef\xbb\xbf["q1","d1"]\r\n["q2","d1"] \n')
    assert found.errors == [] and found.ids == ['["q1","d1"]', '["q2","d1"] ']


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"a\n\nb\n", "s.txt, line 2: blank line, expected a sentinel ID"),
        (
            b"a\nb\na\n",
            's.txt, line 3: duplicate ID "a" (first given on line 1); each ID may appear only once',
        ),
        (b"a\n\xff\n", "s.txt, line 2: not UTF-8 text (byte 0)"),
        (b"", "s.txt, line 1: has no sentinel IDs; it would check nothing"),
    ],
)
def test_bad_sentinel_files(data, message):
    assert [str(e) for e in ids(data).errors] == [message]


def test_only_the_sentinels_are_checked_and_the_rest_is_counted_apart():
    proposed = key("q1 0 d1 1\nq1 0 d2 1\nq2 0 d1 2\nq9 0 d9 0\n")
    subset = check_sentinel_subset(key(BASE), proposed, ids(b'["q1","d1"]\n["q2","d1"]\n'))
    assert subset.check.result is not None
    assert subset.check.result.as_dict() == {"missing": [], "changed": [], "intact": True}
    assert subset.exit_code == 0
    assert subset.outside is not None
    assert subset.outside.changed == ('["q1","d2"]',)
    assert subset.outside.dropped == ('["q2","d3"]',)
    assert subset.outside.added == ('["q9","d9"]',)


def test_a_changed_sentinel_fails_and_non_sentinels_never_do():
    proposed = key("q1 0 d1 01\n")
    subset = check_sentinel_subset(key(BASE), proposed, ids(b'["q1","d1"]\n'))
    assert subset.check.result is not None
    assert subset.check.result.as_dict() == {"missing": [], "changed": ['["q1","d1"]'], "intact": False}
    assert subset.exit_code == 1
    assert subset.outside is not None and subset.outside.dropped == (
        '["q1","d2"]',
        '["q2","d1"]',
        '["q2","d3"]',
    )


def test_a_sentinel_missing_from_the_baseline_is_bad_input():
    subset = check_sentinel_subset(key(BASE), key(BASE), ids(b'["q1","d1"]\n["q7","d1"]\n'))
    assert subset.exit_code == 4 and subset.outside is None
    assert [str(e) for e in subset.check.errors] == [
        "s.txt, line 2: sentinel q7 d1 is not in the baseline k.txt"
    ]


def test_problems_in_every_file_are_all_reported():
    base = key("q1 0 d1\n")
    subset = check_sentinel_subset(base, key("x\n"), ids(b"a\n\n"))
    assert [e.line for e in subset.check.errors] == [1, 1, 2]


def test_outside_changes_lists_are_in_utf16_order():
    base = key("q 0 \ue000 1\nq 0 \U0001f600 1\n")
    changes = outside_changes(base, key(""), [])
    assert changes.dropped == ('["q","\U0001f600"]', '["q","\ue000"]')


def test_subset_reports():
    proposed = key("q1 0 d1 1\nq1 0 d2 1\nq9 0 d9 0\n")
    subset = check_sentinel_subset(key(BASE), proposed, ids(b'["q1","d1"]\n'))
    data = subset_check_json(subset)
    assert data["baseline"]["ids"] == 4 and data["sentinels"] == {"source": "s.txt", "ids": 1}
    assert data["outside"] == {
        "changed": {"count": 1, "first": [{"query": "q1", "doc": "d2"}]},
        "dropped": {"count": 2, "first": [{"query": "q2", "doc": "d1"}, {"query": "q2", "doc": "d3"}]},
        "added": {"count": 1, "first": [{"query": "q9", "doc": "d9"}]},
    }
    assert list(data)[-1] == "exit_status" and data["exit_status"] == 0
    text = subset_check_text(subset)
    assert text.splitlines()[:2] == [
        "Sentinel answer key: baseline k.txt (4 IDs), proposed k.txt (3 IDs, 2 not sentinels)",
        "sentinels s.txt (1 ID)",
    ]
    assert "outside the sentinels (allowed, not checked): 4 judgements differ" in text
    assert "dropped outside the sentinels: q2 d1, q2 d3\n" in text
    assert text.endswith("exit status 0: every record passed\n")


# --- the command line --------------------------------------------------------------------------


@pytest.fixture
def sample(tmp_path):
    for name in ("qrels_baseline.txt", "qrels_proposed.txt", "qrels_sentinels.txt"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    return tmp_path


QRELS = ["--baseline", "qrels_baseline.txt", "--proposed", "qrels_proposed.txt", "--format", "trec-qrels"]


def test_cli_qrels_whole_key(sample, run_cli):
    done = run_cli("sentinels", *QRELS)
    assert done.returncode == 1
    assert done.stdout == (
        b'{"missing":[{"query":"q2","doc":"d4"}],"changed":[{"query":"q1","doc":"d3"}],"intact":false}\n'
    )


def test_cli_qrels_sentinel_subset(sample, run_cli):
    done = run_cli("sentinels", *QRELS, "--sentinels", "qrels_sentinels.txt")
    assert (done.returncode, done.stdout) == (0, b'{"missing":[],"changed":[],"intact":true}\n')
    summary = run_cli("sentinels", *QRELS, "--sentinels", "qrels_sentinels.txt", "--summary-json")
    data = json.loads(summary.stdout)
    assert summary.returncode == 0
    assert {name: part["count"] for name, part in data["outside"].items()} == {
        "changed": 1,
        "dropped": 1,
        "added": 2,
    }
    text = run_cli("sentinels", *QRELS, "--sentinels", "qrels_sentinels.txt", "--summary")
    assert b"outside the sentinels (allowed, not checked): 4 judgements differ" in text.stdout


def test_cli_key_errors_are_one_line_each(sample, run_cli):
    (sample / "bad.txt").write_text("q1 0 d1 1\nq1 0 d1\nq1 0 d1 2\n")
    done = run_cli(
        "sentinels", "--baseline", "bad.txt", "--proposed", "qrels_proposed.txt", "--format", "trec-qrels"
    )
    assert done.returncode == 4
    assert [json.loads(line)["line"] for line in done.stdout.splitlines()] == [2, 3]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--id-column", "id"], b"--id-column and --answer-column apply only with --format parquet"),
        (["--format", "parquet"], b"--format parquet needs --answer-column and --id-column"),
        (
            [
                "--format",
                "parquet",
                "--id-column",
                "a",
                "--id-column",
                "b",
                "--id-column",
                "c",
                "--answer-column",
                "x",
            ],
            b"--format parquet needs",
        ),
    ],
)
def test_cli_column_usage_errors(sample, run_cli, args, message):
    done = run_cli("sentinels", "--baseline", "b.json", "--proposed", "p.json", *args)
    assert done.returncode == 2 and message in done.stderr


def test_cli_sentinels_needs_two_keys(run_cli):
    done = run_cli("sentinels", "--sentinels", "ids.txt")
    assert done.returncode == 2 and b"go with --baseline and --proposed" in done.stderr


def test_cli_key_format_is_still_accepted(sample, run_cli):
    (sample / "b.txt").write_text('{"S1":"R"}')
    done = run_cli("sentinels", "--baseline", "b.txt", "--proposed", "b.txt", "--key-format", "json")
    assert (done.returncode, done.stdout) == (0, b'{"missing":[],"changed":[],"intact":true}\n')


def test_cli_parquet_qrels_pair(tmp_path, run_cli):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(
        pa.table({"q_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "score": [1, 0]}), tmp_path / "b.parquet"
    )
    pq.write_table(pa.table({"q_id": ["q1"], "doc_id": ["d1"], "score": [2]}), tmp_path / "p.parquet")
    done = run_cli(
        "sentinels", "--baseline", "b.parquet", "--proposed", "p.parquet", "--format", "parquet",
        "--id-column", "q_id", "--id-column", "doc_id", "--answer-column", "score",
    )  # fmt: skip
    assert done.returncode == 1
    assert json.loads(done.stdout) == {
        "missing": [{"query": "q1", "doc": "d2"}],
        "changed": [{"query": "q1", "doc": "d1"}],
        "intact": False,
    }


def pair_ids(text: bytes):
    return read_sentinel_ids(io.BytesIO(text), source="s.txt", pairs=True)


def test_qrels_sentinels_are_read_in_the_keys_own_forms():
    found = pair_ids(b'q1 d1\nq2\td1\nq2 0 d3 1\nq3\td9\t2\n["q4","d 4"]\n')
    assert found.errors == []
    assert found.ids == ['["q1","d1"]', '["q2","d1"]', '["q2","d3"]', '["q3","d9"]', '["q4","d 4"]']
    assert found.lines == [1, 2, 3, 4, 5]
    beir = pair_ids(b"query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    assert (beir.ids, beir.lines) == (['["q1","d1"]'], [2])


PAIR_LAYOUTS = {
    "one space": b"q1 d1\n",
    "one tab": b"q1\td1\n",
    "a run of spaces": b"q1    d1\n",
    "a space and a tab": b"q1 \t d1\n",
    "leading and trailing": b" \tq1 d1 \t\n",
    "VT and FF": b"q1\v\fd1\n",
    "CRLF after a trailing space": b"q1 d1 \r\n",
    "a TREC line in aligned columns": b"q1   0   d1    1\n",
    "a TREC line with mixed tabs": b"q1\t0\td1 1\n",
    "a BEIR line": b"q1\td1\t1\n",
}


@pytest.mark.parametrize("layout", sorted(PAIR_LAYOUTS))
def test_qrels_sentinel_lines_are_split_as_the_qrels_reader_splits_them(layout):
    """Any run of spaces or tabs separates, as in the TREC qrels reader; so a line cut from the key always works."""
    found = pair_ids(PAIR_LAYOUTS[layout])
    assert found.errors == []
    assert found.ids == ['["q1","d1"]']


@given(
    st.lists(st.text(alphabet="qd1\u00a0\u200b", min_size=1, max_size=4), min_size=4, max_size=4),
    st.lists(st.text(alphabet=" \t\v\f", min_size=1, max_size=3), min_size=5, max_size=5),
)
def test_a_trec_qrels_line_names_the_same_judgement_in_the_key_and_the_sentinels(fields, gaps):
    line = gaps[0] + "".join(f + g for f, g in zip(fields, gaps[1:], strict=True))
    key = read_trec_qrels(io.BytesIO(line.encode() + b"\n"), source="k")
    assert key.errors == []
    assert pair_ids(line.encode() + b"\n").ids == list(key.answers)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"q1\n", "s.txt, line 1: has 1 field, expected a judgement"),
        (b" \t \n", "s.txt, line 1: holds only spaces or tabs"),
        (b"q1 d1 1\n", "s.txt, line 1: has 3 fields, expected a judgement"),
        (b"q1 d1\nq1\td1\n", 's.txt, line 2: duplicate ID "[\\"q1\\",\\"d1\\"]" (first given on line 1)'),
        (b'["q1", "d1"]\n', "s.txt, line 1: is not a pair ID"),
        (b"a b c d e\n", "s.txt, line 1: has 5 fields"),
    ],
)
def test_bad_qrels_sentinel_lines_name_their_line(data, message):
    assert [str(e)[: len(message)] for e in pair_ids(data).errors] == [message]


def test_every_sentinel_error_in_json_names_its_line(sample, run_cli):
    (sample / "ids.txt").write_text("q1 d3\n\nq7 d1\n")
    done = run_cli("sentinels", *QRELS, "--sentinels", "ids.txt", "--summary-json")
    errors = json.loads(done.stdout)["errors"]
    assert done.returncode == 4
    assert [(e["line"], e["field"]) for e in errors] == [(2, None), (3, {"query": "q7", "doc": "d1"})]


def test_one_judgement_differs_in_the_singular(sample, run_cli):
    proposed = key("q1 0 d1 1\nq1 0 d2 1\nq2 0 d1 2\nq2 0 d3 1\n")
    subset = check_sentinel_subset(key(BASE), proposed, ids(b'["q1","d1"]\n'))
    assert "outside the sentinels (allowed, not checked): 1 judgement differs\n" in subset_check_text(subset)
