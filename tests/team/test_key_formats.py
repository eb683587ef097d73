"""Answer keys in the formats teams already have: good files, and every malformed shape with its message."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import CheckInputError, JSONLoadError
from helpers.team import command_parser as check_parser
from helpers.team.answer_keys import AnswerKey
from helpers.team.batch import check_answer_keys, check_key_files
from helpers.team.inputs import DuplicateIDError, SourceFormatError
from helpers.team.key_formats import (
    KEY_FORMATS,
    pair_id,
    read_beir_tsv,
    read_key,
    read_lm_eval_samples,
    read_parquet_key,
    read_trec_qrels,
)
from helpers.team.parquet_tables import DuplicateRowError, MissingExtraError, RowError


def lines(text: str | bytes) -> io.BytesIO:
    return io.BytesIO(text.encode("utf-8") if isinstance(text, str) else text)


def messages(key: AnswerKey) -> list[str]:
    return [str(e) for e in key.errors]


# --- TREC qrels ----------------------------------------------------------------------------


def test_trec_qrels_maps_each_judgement_to_its_pair_and_literal_label():
    key = read_trec_qrels(lines("q1 0 d1 1\nq1 0 d2 01\nq2\t0\td1\t-1\r\n"), source="q.txt")
    assert key.ok and key.format == "trec-qrels"
    assert key.answers == {'["q1","d1"]': "1", '["q1","d2"]': "01", '["q2","d1"]': "-1"}


def test_trec_qrels_1_and_01_differ():
    base = read_trec_qrels(lines("q1 0 d1 1\n"), source="b")
    prop = read_trec_qrels(lines("q1 0 d1 01\n"), source="p")
    result = check_answer_keys(base, prop).result
    assert result is not None and result.as_dict() == {
        "missing": [],
        "changed": ['["q1","d1"]'],
        "intact": False,
    }


def test_trec_qrels_iteration_is_not_compared_and_a_bom_is_dropped():
    base = read_trec_qrels(lines(b"\xef\xbb\xbfq1 0 d1 1\n"), source="b")
    prop = read_trec_qrels(lines("q1 Q0 d1 1"), source="p")
    assert base.answers == prop.answers == {'["q1","d1"]': "1"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q1 0 d1\n", "q.txt, line 1: has 3 fields, expected 4 (query, iteration, document, relevance)"),
        ("q1 0 d1 1 x\n", "q.txt, line 1: has 5 fields, expected 4"),
        ("q1  0 d1 1 \t x\n", "q.txt, line 1: has 5 fields, expected 4"),
        ("q1 0  d1\n", "q.txt, line 1: has 3 fields, expected 4"),
        (" q1 0 d1 \n", "q.txt, line 1: has 3 fields, expected 4"),
        ("q1 0 d1 1\rq2 0 d2 1\n", "q.txt, line 1: has 8 fields, expected 4"),
        (
            "q1 0 d1 1\n\nq2 0 d1 1\n",
            'q.txt, line 2: blank line, expected "query iteration document relevance"',
        ),
        (
            "q1 0 d1 1\n \t \nq2 0 d1 1\n",
            'q.txt, line 2: blank line, expected "query iteration document relevance"',
        ),
        ("q1 0 d\x001 1\n", "q.txt, line 1: holds a NUL character (U+0000) at character 7"),
        (
            "q1 0 d1 1\n\ufeffq2 0 d1 1\n",
            "q.txt, line 2: holds a byte-order mark (U+FEFF) at character 1; only the start of a file may",
        ),
        (b"q1 0 d\xff 1\n", "q.txt, line 1: not UTF-8 text (byte 6)"),
        (
            "q1 0 d1 1\nq2 0 d2 0\nq1 0 d1 2\n",
            'q.txt, line 3: duplicate ID "[\\"q1\\",\\"d1\\"]" (first given on line 1)',
        ),
    ],
)
def test_trec_qrels_malformed_lines_name_their_line(text, message):
    key = read_trec_qrels(lines(text), source="q.txt")
    assert len(key.errors) == 1 and messages(key)[0].startswith(message), messages(key)
    assert isinstance(key.errors[0], JSONLoadError)


def test_trec_qrels_repeated_pair_names_both_lines_and_reading_goes_on():
    key = read_trec_qrels(lines("q1 0 d1 1\nbad\nq1 0 d1 1\nq2 0 d1 0\n"), source="q.txt")
    assert [e.line for e in key.errors] == [2, 3]
    dup = key.errors[1]
    assert isinstance(dup, DuplicateIDError) and dup.first_line == 1
    assert '["q2","d1"]' in key.answers


def test_trec_qrels_keep_other_whitespace_inside_a_field():
    key = read_trec_qrels(lines("q1 0 d1\u00a0 1\nq1 0 d1 1\n"), source="q.txt")
    assert key.ok and set(key.answers) == {'["q1","d1\u00a0"]', '["q1","d1"]'}


# --- BEIR ------------------------------------------------------------------------------------

BEIR = "query-id\tcorpus-id\tscore\n"


def test_beir_tsv_maps_each_row_to_its_pair_and_literal_score():
    key = read_beir_tsv(lines(BEIR + "q1\td1\t1\nq1\td 2\t2\r\n"), source="t.tsv")
    assert key.ok and key.format == "beir-tsv"
    assert key.answers == {'["q1","d1"]': "1", '["q1","d 2"]': "2"}


def test_beir_tsv_keeps_spaces_inside_fields():
    key = read_beir_tsv(lines(BEIR + "q1\td1\t1\nq1 \td1\t1\n"), source="t.tsv")
    assert key.ok and set(key.answers) == {'["q1","d1"]', '["q1 ","d1"]'}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", 't.tsv, line 1: is empty, expected the header "query-id<TAB>corpus-id<TAB>score"'),
        ("query-id corpus-id score\n", 't.tsv, line 1: header is "query-id corpus-id score", expected'),
        ("q1\td1\t1\n", 't.tsv, line 1: header is "q1\\td1\\t1", expected'),
        (BEIR + "q1\td1\n", "t.tsv, line 2: has 2 tab-separated fields, expected 3"),
        (BEIR + "q1\t\t1\n", "t.tsv, line 2: the corpus-id field is empty (a tab twice in a row"),
        (BEIR + "q1\td1\t1\t\n", "t.tsv, line 2: has 4 tab-separated fields, expected 3"),
        (BEIR + "\n", 't.tsv, line 2: blank line, expected "query-id<TAB>corpus-id<TAB>score"'),
        (
            BEIR + "q1\td1\t1\nq1\td1\t0\n",
            't.tsv, line 3: duplicate ID "[\\"q1\\",\\"d1\\"]" (first given on line 2)',
        ),
        (BEIR.encode() + b"q\xc3\td1\t1\n", "t.tsv, line 2: not UTF-8 text (byte 1)"),
    ],
)
def test_beir_tsv_malformed_shapes(text, message):
    key = read_beir_tsv(lines(text), source="t.tsv")
    assert len(key.errors) == 1 and messages(key)[0].startswith(message), messages(key)


def test_beir_tsv_bad_header_is_a_source_format_error():
    key = read_beir_tsv(lines("query-id\tdoc-id\tscore\nq1\td1\t1\n"), source="t.tsv")
    assert isinstance(key.errors[0], SourceFormatError) and not key.answers


# --- lm-evaluation-harness samples -------------------------------------------------------------


def sample(doc_id, target, **extra) -> str:
    return json.dumps({"doc_id": doc_id, "doc": {"q": "?"}, "target": target, "target_hash": "ab", **extra})


def test_lm_eval_samples_id_is_doc_id_and_answer_is_target_as_json():
    text = "\n".join([sample(0, "Paris"), sample(1, 2), sample("x-7", ["a", "b"])]) + "\n"
    key = read_lm_eval_samples(lines(text), source="s.jsonl")
    assert key.ok and key.format == "lm-eval-samples"
    assert key.answers == {"0": '"Paris"', "1": "2", "x-7": '["a","b"]'}


def test_lm_eval_samples_string_and_number_targets_differ_and_case_counts():
    base = read_lm_eval_samples(lines(sample(0, "1") + "\n" + sample(1, "Paris")), source="b")
    prop = read_lm_eval_samples(lines(sample(0, 1) + "\n" + sample(1, "paris")), source="p")
    result = check_answer_keys(base, prop).result
    assert result is not None and list(result.changed) == ["0", "1"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"target": "A"}\n', 's.jsonl, line 1: has no "doc_id" field'),
        ('{"doc_id": 3}\n', 's.jsonl, line 1: has no "target" field'),
        (
            '{"doc_id": true, "target": "A"}\n',
            "s.jsonl, line 1: doc_id is true, expected an integer or a non-empty string",
        ),
        ('{"doc_id": 1.5, "target": "A"}\n', "s.jsonl, line 1: doc_id is 1.5, expected"),
        ('{"doc_id": "", "target": "A"}\n', 's.jsonl, line 1: doc_id is "", expected'),
        ("[1]\n", 's.jsonl, line 1: is [1], expected an object with "doc_id" and "target"'),
        ('{"doc_id": 1, "target": "A"\n', "s.jsonl, line 1: not valid JSON"),
        ('{"doc_id": 1, "doc_id": 2, "target": "A"}\n', 's.jsonl, line 1: duplicate key "doc_id"'),
        ("\n", "s.jsonl, line 1: blank line"),
    ],
)
def test_lm_eval_samples_malformed_lines(text, message):
    key = read_lm_eval_samples(lines(text), source="s.jsonl")
    assert len(key.errors) == 1 and messages(key)[0].startswith(message), messages(key)


def test_lm_eval_samples_repeated_doc_id_names_both_lines():
    text = "\n".join([sample(4, "A", filter="strict"), sample(5, "B"), sample(4, "A", filter="flexible")])
    key = read_lm_eval_samples(lines(text), source="s.jsonl")
    assert messages(key) == [
        's.jsonl, line 3: duplicate ID "4" (first given on line 1); each ID may appear only once'
    ]


# --- Parquet ---------------------------------------------------------------------------------


def parquet(tmp_path, name: str, **columns) -> str:
    path = tmp_path / name
    pq.write_table(pa.table(columns), path)
    return str(path)


def read_pq(path: str, ids=("id",), answer="answer") -> AnswerKey:
    with open(path, "rb") as stream:
        return read_parquet_key(stream, source="k.parquet", id_columns=ids, answer_column=answer)


def test_parquet_key_with_one_id_column(tmp_path):
    path = parquet(tmp_path, "k.parquet", id=["S1", "S2"], answer=["R", ""], other=[1, 2])
    key = read_pq(path)
    assert key.ok and key.format == "parquet" and key.answers == {"S1": "R", "S2": ""}


def test_parquet_qrels_table_uses_the_pair_and_integers_in_decimal(tmp_path):
    path = parquet(tmp_path, "k.parquet", q_id=["q1", "q1"], doc_id=["d1", "d2"], score=[1, 0])
    key = read_pq(path, ("q_id", "doc_id"), "score")
    assert key.ok and key.answers == {'["q1","d1"]': "1", '["q1","d2"]': "0"}


def test_parquet_dictionary_encoded_strings_read_as_strings(tmp_path):
    ids = pa.array(["S1", "S2"]).dictionary_encode()
    path = tmp_path / "k.parquet"
    pq.write_table(pa.table({"id": ids, "answer": ["a", "b"]}), path)
    assert read_pq(str(path)).answers == {"S1": "a", "S2": "b"}


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        (
            {"id": ["S1", None], "answer": ["R", "A"]},
            "k.parquet, row 2: column 'id' is null, expected a non-empty string",
        ),
        (
            {"id": ["S1", ""], "answer": ["R", "A"]},
            "k.parquet, row 2: column 'id' is \"\", expected a non-empty string",
        ),
        (
            {"id": ["S1"], "answer": [None]},
            "k.parquet, row 1: column 'answer' is null, expected a string or an integer",
        ),
        (
            {"id": ["S1"], "answer": [1.5]},
            "k.parquet, row 1: column 'answer' is 1.5, expected a string or an integer",
        ),
        ({"id": ["S1"], "answer": [True]}, "k.parquet, row 1: column 'answer' is true, expected"),
        (
            {"id": ["S1", "S2", "S1"], "answer": ["R", "A", "R"]},
            'k.parquet, row 3: duplicate ID "S1" (first given in row 1)',
        ),
        (
            {"ident": ["S1"], "answer": ["R"]},
            "k.parquet: has no column 'id' (its columns: 'ident', 'answer')",
        ),
    ],
)
def test_parquet_key_malformed_rows(tmp_path, columns, message):
    key = read_pq(parquet(tmp_path, "k.parquet", **columns))
    assert len(key.errors) == 1 and messages(key)[0].startswith(message), messages(key)


def test_parquet_errors_name_rows_and_derive_from_the_project_errors(tmp_path):
    key = read_pq(parquet(tmp_path, "k.parquet", id=["S1", "S1"], answer=["R", None]))
    (first,) = key.errors
    assert isinstance(first, RowError) and isinstance(first, JSONLoadError) and first.line == 2
    key = read_pq(parquet(tmp_path, "k.parquet", id=["S1", "S1"], answer=["R", "R"]))
    assert isinstance(key.errors[0], DuplicateRowError) and key.errors[0].first_line == 1


def test_parquet_same_column_for_id_and_answer_is_refused(tmp_path):
    key = read_pq(parquet(tmp_path, "k.parquet", id=["S1"]), ("id",), "id")
    assert messages(key) == ["k.parquet: the ID and answer columns must be different columns"]


def test_a_file_that_is_not_parquet_is_named(tmp_path):
    path = tmp_path / "k.parquet"
    path.write_bytes(b'{"S1": "R"}')
    key = read_pq(str(path))
    assert messages(key)[0].startswith("k.parquet: is not a readable Parquet file (")


def test_read_key_dispatches_and_guards_the_column_options(tmp_path):
    assert read_key(lines('{"S1":"R"}'), source="b.json", format="json").answers == {"S1": "R"}
    with pytest.raises(ValueError, match="only to parquet"):
        read_key(lines(""), source="q", format="trec-qrels", id_columns=("id",))
    with pytest.raises(ValueError, match="needs id_columns"):
        read_key(lines(""), source="q", format="parquet")


def test_check_key_files_reads_every_format(tmp_path):
    base = parquet(tmp_path, "b.parquet", id=["S1", "S2"], answer=["R", "A"])
    prop = parquet(tmp_path, "p.parquet", id=["S1"], answer=["r"])
    found = check_key_files(base, prop, format="parquet", id_columns=("id",), answer_column="answer")
    assert found.result is not None and found.result.as_dict() == {
        "missing": ["S2"],
        "changed": ["S1"],
        "intact": False,
    }


# --- pair IDs ----------------------------------------------------------------------------------


@given(st.text(), st.text(), st.text(), st.text())
def test_pair_ids_never_collide(a, b, c, d):
    assert (pair_id(a, b) == pair_id(c, d)) == ((a, b) == (c, d))


def test_the_command_line_offers_every_key_format():
    assert check_parser._KEY_FORMATS == KEY_FORMATS


# --- without pyarrow ---------------------------------------------------------------------------

NO_PYARROW = "import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"


@pytest.mark.parametrize(
    "args",
    [
        [
            "sentinels",
            "--baseline",
            "b.parquet",
            "--proposed",
            "p.parquet",
            "--format",
            "parquet",
            "--id-column",
            "id",
            "--answer-column",
            "answer",
        ],
        ["target-scope", "r.parquet", "--format", "parquet"],
    ],
)
def test_without_pyarrow_parquet_names_the_extra_and_exits_2(tmp_path, args):
    code = NO_PYARROW + f"from helpers.cli import main; raise SystemExit(main({args!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tmp_path, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert done.stderr.decode().endswith(
        "reading Parquet needs pyarrow, which is not installed; install the 'parquet' extra: "
        "pip install 'eval-integrity-helpers[parquet]'\n"
    )


def test_without_pyarrow_the_reader_raises_a_project_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(MissingExtraError, match=r"eval-integrity-helpers\[parquet\]") as caught:
        read_parquet_key(io.BytesIO(b""), source="k.parquet", id_columns=("id",), answer_column="a")
    assert isinstance(caught.value, CheckInputError) and caught.value.extra == "parquet"


def test_text_formats_and_import_helpers_never_load_pyarrow(tmp_path):
    (tmp_path / "q.txt").write_text("q1 0 d1 1\n")
    code = (
        "import sys, helpers\nimport helpers.team.key_formats, helpers.team.key_subset\n"
        "from helpers.cli import main\n"
        "code = main(['sentinels', '--baseline', 'q.txt', '--proposed', 'q.txt', '--format', 'trec-qrels'])\n"
        "assert code == 0, code\nprint(sorted(m for m in sys.modules if m.startswith(('pyarrow', 'duckdb'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tmp_path, check=True)
    assert done.stdout.decode().splitlines()[-1] == "[]"


def test_a_parquet_key_holding_text_that_is_not_utf8_is_refused_not_a_traceback(tmp_path):
    path = tmp_path / "key.parquet"
    ids = pa.array([b"S1", b"S\xff"], type=pa.binary()).cast(pa.string(), safe=False)
    pq.write_table(pa.table({"id": ids, "answer": ["R", "N"]}), path)
    run = subprocess.run(
        [
            *(sys.executable, "-m", "helpers", "sentinels", "--format", "parquet", "--id-column", "id"),
            *("--answer-column", "answer", "--baseline", str(path), "--proposed", str(path)),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 4, run.stderr
    assert "Traceback" not in run.stderr
    errors = [json.loads(line)["error"] for line in run.stdout.splitlines()]
    assert errors == ["the table cannot be read from here on (a string that is not UTF-8 text)"] * 2
