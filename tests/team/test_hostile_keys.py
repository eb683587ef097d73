"""Answer keys as a hostile user or an odd tool writes them: every one a line error or a refusal, never a traceback.

The qrels layouts trec_eval reads (any run of ASCII whitespace between fields), look-alike characters
that stay part of an ID, a NUL, a byte-order mark past the start, a lone CR ending the file, numbers too
large for a float in lm-eval targets, Parquet files with a doubled column or a corrupt page, special
files (a FIFO with no writer, ``/proc/self/mem``) and files over the size limit.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from helpers.core.errors import JSONLoadError
from helpers.team.inputs import MAX_KEY_BYTES, open_input, open_snapshot
from helpers.team.key_formats import (
    TREC_SEPARATORS,
    pair_id,
    read_beir_tsv,
    read_lm_eval_samples,
    read_parquet_key,
    read_trec_qrels,
)
from helpers.team.key_subset import read_sentinel_ids
from helpers.team.parquet_tables import RowError


def lines(data: str | bytes) -> io.BytesIO:
    return io.BytesIO(data.encode("utf-8") if isinstance(data, str) else data)


def sentinels(tmp_path: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "helpers", "sentinels", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=timeout,
        check=False,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refusal writes to standard error (and proof that there is no traceback)."""
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    return done.stderr


# --- qrels: any run of whitespace between fields (issue 32) ---------------------------------------

LAYOUTS = {
    "one space": "q1 0 d1 1\n",
    "one tab": "q1\t0\td1\t1\n",
    "two spaces": "q1  0  d1  1\n",
    "a space and a tab": "q1 \t0\t d1 \t1\n",
    "aligned columns": "q1      0   d1        1\n",
    "leading and trailing": "  \tq1 0 d1 1 \t \n",
    "CRLF": "q1  0\td1 1\r\n",
    "VT and FF": "q1\v0\fd1 1\n",
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_trec_qrels_read_every_layout_trec_eval_reads(layout):
    key = read_trec_qrels(lines(LAYOUTS[layout]), source="q.txt")
    assert key.ok, key.errors
    assert key.answers == {pair_id("q1", "d1"): "1"}


def test_the_separators_are_the_c_locales_whitespace_and_no_other():
    assert set(TREC_SEPARATORS) == {chr(c) for c in range(128) if chr(c).isspace()} - {
        "\n",
        *map(chr, range(0x1C, 0x20)),
    }


@pytest.mark.parametrize(
    "char",
    ["\u00a0", "\u200b", "\u2003", "\u3000", "\u202f", "\u0085", "\u001c", "\u2028", "\uff51"],
    ids=lambda c: f"U+{ord(c):04X}",
)
def test_look_alike_and_unicode_space_characters_stay_part_of_the_id(char):
    """Python's str.split() splits on U+00A0, U+3000, U+001C...; trec_eval does not, and neither do we."""
    key = read_trec_qrels(lines(f"q1 0 d{char}1 1\nq1 0 d1 1\n"), source="q.txt")
    assert key.ok, key.errors
    assert set(key.answers) == {pair_id("q1", f"d{char}1"), pair_id("q1", "d1")}


def test_a_look_alike_in_a_duplicate_error_is_shown_as_its_code_point():
    key = read_trec_qrels(lines("q1 0 d\u200b1 1\nq1 0 d\u200b1 2\n"), source="q.txt")
    assert len(key.errors) == 1
    message = str(key.errors[0])
    assert "⟨U+200B⟩" in message and "\u200b" not in message
    assert "line 2" in message and "first given on line 1" in message


def test_duplicates_stay_refused_whatever_the_layout():
    key = read_trec_qrels(lines("q1 0 d1 1\nq1\t\t0  d1   1  \n"), source="q.txt")
    assert [(e.line, getattr(e, "first_line", None)) for e in key.errors] == [(2, 1)]


def test_a_very_long_line_with_many_fields_is_refused_without_splitting_it_whole():
    line = "x " * 2_000_000  # 4 MB, two million fields
    key = read_trec_qrels(lines(f"q1 0 d1 1\n{line}\n"), source="q.txt")
    assert [str(e) for e in key.errors] == [
        "q.txt, line 2: has more than 4 fields, expected 4 (query, iteration, document, relevance) "
        "separated by spaces or tabs"
    ]


# --- NUL, byte-order mark, lone CR (issue 30, rows 11 and 12) ----------------------------------


@pytest.mark.parametrize(
    ("reader", "head"),
    [(read_trec_qrels, ""), (read_beir_tsv, "query-id\tcorpus-id\tscore\n")],
    ids=["trec-qrels", "beir-tsv"],
)
def test_a_byte_order_mark_past_the_start_is_a_line_error_not_part_of_an_id(reader, head):
    row = "q1 0 d1 1" if reader is read_trec_qrels else "q1\td1\t1"
    other = row.replace("q1", "q2")
    key = reader(lines(f"{head}{row}\n\ufeff{other}\n"), source="k")
    number = head.count("\n") + 2
    assert [e.line for e in key.errors] == [number]
    assert "byte-order mark (U+FEFF)" in str(key.errors[0])
    assert not any("\ufeff" in ident for ident in key.answers)


@pytest.mark.parametrize(
    ("reader", "head"),
    [(read_trec_qrels, ""), (read_beir_tsv, "query-id\tcorpus-id\tscore\n")],
    ids=["trec-qrels", "beir-tsv"],
)
def test_a_nul_is_a_line_error(reader, head):
    row = "q1 0 d\x001 1" if reader is read_trec_qrels else "q1\td\x001\t1"
    key = reader(lines(f"{head}{row}\n"), source="k")
    assert len(key.errors) == 1 and "NUL character (U+0000)" in str(key.errors[0])


def test_a_lone_cr_ending_the_last_line_is_not_kept_in_the_label():
    trec = read_trec_qrels(lines("q1 0 d1 1\nq1 0 d2 1\r"), source="q")
    beir = read_beir_tsv(lines("query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t1\r"), source="b")
    lm = read_lm_eval_samples(lines('{"doc_id":1,"target":"A"}\n{"doc_id":2,"target":"B"}\r'), source="s")
    ids = read_sentinel_ids(lines('["q1","d1"]\n["q1","d2"]\r'), source="s")
    assert trec.ok and trec.answers[pair_id("q1", "d2")] == "1"
    assert beir.ok and beir.answers[pair_id("q1", "d2")] == "1"
    assert lm.ok and lm.answers["2"] == '"B"'
    assert not ids.errors and ids.ids == ['["q1","d1"]', '["q1","d2"]']


def test_a_cr_inside_a_beir_line_is_still_part_of_the_score():
    """BEIR's reader keeps every character but the tab: only the file's very end loses a CR."""
    key = read_beir_tsv(lines("query-id\tcorpus-id\tscore\nq1\td1\t1\r\r\nq1\td2\t1\n"), source="b")
    assert key.answers[pair_id("q1", "d1")] == "1\r"


# --- lm-eval targets too large for a float (row 2) ---------------------------------------------


@pytest.mark.parametrize("target", ["1e400", "-1e999", '{"a":[1,{"b":-1e999}]}'])
def test_an_lm_eval_target_too_large_for_a_float_is_a_line_error(target, tmp_path):
    text = f'{{"doc_id":0,"target":"A"}}\n{{"doc_id":1,"target":{target}}}\n'
    key = read_lm_eval_samples(lines(text), source="s.jsonl")
    assert [(e.line, e.field) for e in key.errors] == [(2, "target")]
    (tmp_path / "b.jsonl").write_text(text)
    (tmp_path / "p.jsonl").write_text('{"doc_id":0,"target":"A"}\n{"doc_id":1,"target":"B"}\n')
    done = sentinels(
        tmp_path, "--baseline", "b.jsonl", "--proposed", "p.jsonl", "--format", "lm-eval-samples"
    )
    assert done.returncode == 4 and "Traceback" not in done.stderr, done.stderr
    problem = json.loads(done.stdout.splitlines()[0])
    assert problem["line"] == 2 and problem["field"] == "target" and "1e400" in problem["error"]


# --- Parquet: a doubled column, a corrupt page, memory (rows 3, 4, 14) -------------------------


def test_a_parquet_key_with_two_columns_named_id_is_refused_naming_the_column(tmp_path):
    path = tmp_path / "dup.parquet"
    arrays = [pa.array(["S1", "S2"]), pa.array(["S3", "S4"]), pa.array(["A", "B"])]
    pq.write_table(pa.Table.from_arrays(arrays, names=["id", "id", "answer"]), path)
    with open(path, "rb") as stream:
        key = read_parquet_key(stream, source="dup.parquet", id_columns=["id"], answer_column="answer")
    assert not key.answers
    assert [str(e) for e in key.errors] == [
        "dup.parquet: has 2 columns named 'id'; which one to read would be a guess"
    ]
    assert key.errors[0].field == "id"


@pytest.mark.parametrize("id_columns", [["id"], ["q", "id"]], ids=["one ID column", "a qrels table"])
def test_a_look_alike_in_a_parquet_duplicate_row_is_shown_as_its_code_point(tmp_path, id_columns):
    path = tmp_path / "dup.parquet"
    ids = ["S\u200b1", "S1", "S\u200b1"]
    pq.write_table(pa.table({"q": ["q1"] * 3, "id": ids, "answer": ["A", "B", "C"]}), path)
    with open(path, "rb") as stream:
        key = read_parquet_key(stream, source="dup.parquet", id_columns=id_columns, answer_column="answer")
    assert len(key.errors) == 1
    message = str(key.errors[0])
    assert "S⟨U+200B⟩1" in message and "\u200b" not in message, message
    assert message.startswith("dup.parquet, row 3: duplicate ID ") and "first given in row 1" in message


def corrupt_parquet(path: Path) -> None:
    """A Parquet key whose footer is intact but whose fourth row group's data page is garbled."""
    rows = 5000
    table = pa.table({"id": [f"S{i}" for i in range(rows)], "answer": [f"A{i % 7}" for i in range(rows)]})
    pq.write_table(table, path, compression="snappy", row_group_size=1000)
    column = pq.ParquetFile(path).metadata.row_group(3).column(0)
    data = bytearray(path.read_bytes())
    for at in range(
        column.data_page_offset + 30, column.data_page_offset + column.total_compressed_size - 10
    ):
        data[at] = (data[at] * 7 + 13) & 0xFF
    path.write_bytes(bytes(data))


def test_a_parquet_key_with_a_corrupt_data_page_is_an_error_at_the_first_row_not_read(tmp_path):
    corrupt_parquet(tmp_path / "bad.parquet")
    with open(tmp_path / "bad.parquet", "rb") as stream:
        key = read_parquet_key(stream, source="bad.parquet", id_columns=["id"], answer_column="answer")
    assert len(key.errors) == 1 and isinstance(key.errors[0], RowError)
    assert key.errors[0].line == 3001 and "cannot be read from here on" in str(key.errors[0])
    assert "\n" not in str(key.errors[0])
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"id": ["S1"], "answer": ["A"]}), good)
    args = ["--format", "parquet", "--id-column", "id", "--answer-column", "answer"]
    done = sentinels(tmp_path, "--baseline", "bad.parquet", "--proposed", "good.parquet", *args)
    assert done.returncode == 4 and "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["line"] == 3001


def test_reading_a_parquet_key_holds_the_key_not_the_table():
    """Python memory beyond the key itself stays within one batch (here a row group of 2,500 rows).

    Reading the whole table's rows as dicts, and a second dict of each ID's row, took 6.8 MiB here.
    """
    rows = 20_000
    table = pa.table(
        {"q": [f"q{i // 10}" for i in range(rows)], "d": [f"d{i}" for i in range(rows)], "s": ["1"] * rows}
    )
    buffer = io.BytesIO()
    pq.write_table(table, buffer, row_group_size=2500)
    buffer.seek(0)
    tracemalloc.start()
    try:
        key = read_parquet_key(buffer, source="k", id_columns=["q", "d"], answer_column="s")
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert key.ok and len(key.answers) == rows
    assert peak - kept < 2 * 2**20, f"{(peak - kept) / 2**20:.1f} MiB beyond the key"


# --- special files and the size limit (rows 7 and 8) -------------------------------------------


@pytest.fixture
def qrels(tmp_path: Path) -> Path:
    path = tmp_path / "b.qrels"
    path.write_text("q1 0 d1 1\n")
    return path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("which", ["--proposed", "--baseline", "--sentinels"])
def test_a_fifo_with_no_writer_is_refused_before_it_is_read(tmp_path, qrels, which):
    os.mkfifo(tmp_path / "fifo")
    files = {"--baseline": "b.qrels", "--proposed": "b.qrels", which: "fifo"}
    args = [arg for pair in files.items() for arg in pair]
    done = sentinels(tmp_path, *args, "--format", "trec-qrels", timeout=20)
    assert done.returncode == 2
    assert one_line_error(done) == (
        "python -m helpers sentinels: cannot open fifo: is a FIFO (a named pipe), not a regular file; "
        "save it to a file first\n"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_by_the_record_commands_and_the_notebook_readers_too(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "target-scope", "fifo"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=20,
        check=False,
    )
    assert done.returncode == 2 and "is a FIFO (a named pipe)" in one_line_error(done)
    with pytest.raises(JSONLoadError, match="is a FIFO"):
        open_input(tmp_path / "fifo")


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc")
@pytest.mark.parametrize("path", ["/proc/self/mem", "/dev/zero", "link"])
def test_system_files_are_refused_before_they_are_read(tmp_path, qrels, path):
    (tmp_path / "link").symlink_to("/proc/self/mem")
    done = sentinels(tmp_path, "--baseline", path, "--proposed", "b.qrels", "--format", "trec-qrels")
    assert done.returncode == 2
    assert f"cannot open {path}: is " in one_line_error(done)
    with pytest.raises(OSError):
        open_snapshot(path if path != "link" else tmp_path / "link")


def test_a_key_over_the_size_limit_is_refused_unread_and_the_flag_raises_it(tmp_path, qrels):
    assert MAX_KEY_BYTES == 512 * 2**20
    big = tmp_path / "big.qrels"
    big.write_text("q1 0 d1 1\n" * 20_000)  # 200,000 bytes
    args = ["--baseline", "big.qrels", "--proposed", "b.qrels", "--format", "trec-qrels"]
    done = sentinels(tmp_path, *args, "--max-file-mb", "0.1")
    assert done.returncode == 2
    assert one_line_error(done) == (
        "python -m helpers sentinels: cannot open big.qrels: is 200,000 bytes, over the limit of "
        "104,857 bytes (0.1 MB), so it was not read (raise the limit with --max-file-mb)\n"
    )
    done = sentinels(tmp_path, *args, "--max-file-mb", "1")
    assert done.returncode == 4 and "duplicate ID" in done.stdout  # read, and judged
    with pytest.raises(JSONLoadError, match="over the limit"):
        open_input(big, max_bytes=1000)


def test_the_notebook_key_reader_has_the_size_limit_too(tmp_path, qrels, monkeypatch):
    """``check_key_files`` (the data checker's widget) refuses a key over the limit unread, path or upload."""
    from helpers.team import inputs
    from helpers.team.batch import check_key_files
    from helpers.team.sources import Upload

    sparse = tmp_path / "huge.json"  # 513 MB on paper, nothing on disk: refused by its size alone
    with open(sparse, "wb") as handle:
        handle.truncate(MAX_KEY_BYTES + 2**20)
    with pytest.raises(
        JSONLoadError,
        match=r"huge\.json: cannot be read \(is 537,919,488 bytes, over the limit of 536,870,912",
    ):
        check_key_files(sparse, qrels, format="json")
    monkeypatch.setattr(inputs, "MAX_KEY_BYTES", 5)
    with pytest.raises(
        JSONLoadError, match=r"b\.qrels: cannot be read \(is 10 bytes, over the limit of 5 bytes"
    ):
        check_key_files(qrels, qrels, format="trec-qrels")
    with pytest.raises(JSONLoadError, match=r"u\.json: is 12 bytes, over the limit of 5 bytes"):
        check_key_files(Upload("u.json", b'{"S1": "A"} '), qrels, format="json")
    raised = check_key_files(qrels, qrels, format="trec-qrels", max_bytes=10)  # the cap raised
    assert raised.exit_code == 0


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_the_size_limit_must_be_a_positive_number(tmp_path, qrels, value):
    done = sentinels(tmp_path, "--baseline", "b.qrels", "--proposed", "b.qrels", "--max-file-mb", value)
    assert done.returncode == 2 and "--max-file-mb must be a number of MB more than 0" in done.stderr


def test_a_key_that_fails_while_it_is_read_is_one_line_and_exit_status_2(tmp_path, qrels, monkeypatch, capfd):
    """An I/O error part-way (a disk going bad, a network file system gone) is named, never a traceback."""
    from helpers import cli
    from helpers.team import key_formats

    def failing_reader(stream, **_options):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(key_formats, "read_key", failing_reader)
    code = cli.main(
        ["sentinels", "--baseline", str(qrels), "--proposed", str(qrels), "--format", "trec-qrels"]
    )
    assert code == 2
    assert capfd.readouterr().err == f"python -m helpers sentinels: cannot read {qrels}: Input/output error\n"


def test_a_beir_header_with_a_look_alike_shows_it_as_its_code_point():
    key = read_beir_tsv(lines("query-id\tcorpus\u00a0id\tscore\nq1\td1\t1\n"), source="t.tsv")
    assert len(key.errors) == 1 and "corpus⟨U+00A0⟩id" in str(key.errors[0])
