"""JSON Lines through DuckDB (``target-scope --engine duckdb``, and ``auto`` on large input) give the
Python route's bytes: standard output, standard error and exit status, from a file and from
standard input, in every output mode, whatever the lines hold.

The corpora: the rewrites corpus of ``test_engine_parity.py`` written as JSON Lines in several
ways (compact, with spaces, ASCII-escaped, keys in other orders), every edge-case line of the
fixtures, and lines made by Hypothesis from a grammar of near-plain records with every trap
(quotes, backslashes and escapes, control characters, U+E000-U+FFFF, astral characters, a
colon or ``":`` in an ID, repeated keys, numbers, nulls, nesting, trailing commas, blank lines,
a byte-order mark, CR, invalid UTF-8). Small chunks make lines cross chunk boundaries.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.core.paths import fixtures_dir
from tests.team.test_engine_parity import _scope_corpus, run

duckdb = pytest.importorskip("duckdb")

MODES = [(), ("--summary",), ("--summary-json", "--max-failures", "3")]


def _serialise(record: dict[str, Any], style: int) -> str:
    if style == 0:
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    if style == 1:
        return json.dumps(record, ensure_ascii=False)  # ", " and ": "
    if style == 2:
        return json.dumps(record)  # \\u escapes: the Python route's
    items = list(record.items())
    random.Random(len(items)).shuffle(items)
    return json.dumps(dict(items), separators=(",", ":"), ensure_ascii=False)


def _corpus_lines() -> list[bytes]:
    lines = []
    for i, row in enumerate(_scope_corpus()):
        record = {k: v for k, v in row.items() if v is not None or k in ("original", "rewritten")}
        try:
            lines.append(_serialise(record, i % 4).encode("utf-8"))
        except UnicodeEncodeError:
            continue
    edge = json.loads((fixtures_dir() / "edge_cases.json").read_text(encoding="utf-8"))["edge_cases"]
    for case in edge:
        if case["check"] == "target-scope" and isinstance(case.get("line"), str):
            lines.append(case["line"].encode("utf-8", "surrogatepass"))
    return lines


#: Lines the Python route refuses or reads its own way, and DuckDB must hand on.
TRAPS = [
    b"",
    b"   ",
    b'{"original":["a"],"rewritten":["a"],"original":["b"]}',
    b'{"original":["a"],"rewritten":["a"],"id":"x","id":"y"}',
    b'{"original":["a"],"rewritten":["a"],}',
    b'{"original":["a",],"rewritten":["a"]}',
    b'{"original":["a"],"rewritten":[1]}',
    b'{"original":["a"],"rewritten":["a"],"unresolved":null}',
    b'{"original":["a"],"rewritten":["a"],"id":7}',
    b'{"original":[""],"rewritten":[""]}',
    b'{"original":["a\\u003ab"],"rewritten":["a:b"]}',
    b'{"original":["a\\"b"],"rewritten":["a"]}',
    b'{"original":["a\\\\b"],"rewritten":["a"]}',
    b'{"original":["a\tb"],"rewritten":["a"]}',
    b'{"original":["\xee\x80\x80","\xf0\x9f\x98\x80"],"rewritten":["z"]}',
    b'{"original":["\xef\xbf\xae"],"rewritten":["\xf0\x9d\x90\x80"]}',
    b'{"original":["a"],"rewritten":["a"]}\r',
    b'{"original" :["a"],"rewritten":["a"]}',
    b'\t{"original":["a"],"rewritten":["a"]}',
    b'{"original":["a"],"rewritten":["a"],"extra":["a"]}',
    b'{"original":["a"],"rewritten":["a"],"query":{"x":1}}',
    b'{"rewritten":["a"]}',
    b'["original","rewritten"]',
    b'{"original":["q:1","id\\":"],"rewritten":["q:1"]}',
    b'{"original":["q\\":"],"rewritten":["a"],"id":"\\":"}',
    b'{"original":[' + b'"a",' * 70 + b'"b"],"rewritten":["b","a"]}',
    b'{"original":[' + b'"a",' * 70 + b'"b"],"rewritten":["b","c"]}',
    b'{"original":["x"],"rewritten":["x"],"unresolved":["u2","u1","u1"]}',
    b'{"original":["x"],"rewritten":["x"],"unresolved":[]}',
    b'{"original":[],"rewritten":[]}',
    b'{"original":["\xc3\xa9"],"rewritten":["e\xcc\x81"]}',
    b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
]


#: Lines that are not UTF-8: DuckDB is never given them (their chunk goes to the Python route whole).
BAD_UTF8 = [b'{"original":["a\xff"],"rewritten":["a"]}', b'{"original":["\xed\xa0\x80"],"rewritten":["a"]}']

#: The traps DuckDB may judge itself: plain lines.
PLAIN_TRAPS = {
    b'{"original":["x"],"rewritten":["x"],"unresolved":["u2","u1","u1"]}',
    b'{"original":["x"],"rewritten":["x"],"unresolved":[]}',
    b'{"original":[],"rewritten":[]}',
    b'{"original":["\xc3\xa9"],"rewritten":["e\xcc\x81"]}',
    b'{"original":[' + b'"a",' * 70 + b'"b"],"rewritten":["b","a"]}',
}


def _write(path: Path, lines: list[bytes], *, bom: bool = False, final_newline: bool = True) -> Path:
    data = b"\n".join(lines) + (b"\n" if final_newline else b"")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few KiB, so lines cross chunk boundaries and many chunks are judged."""
    from helpers.team import duckdb_lines

    monkeypatch.setattr(duckdb_lines, "CHUNK_BYTES", 4096)
    real = duckdb_lines.scope_jsonl_blocks
    monkeypatch.setattr(
        duckdb_lines, "scope_jsonl_blocks", lambda stream, **k: real(stream, **{**k, "chunk_bytes": 4096})
    )


def both(capfdbinary: Any, *args: str) -> tuple[int, bytes, bytes]:
    want = run(capfdbinary, *args, "--engine", "python")
    got = run(capfdbinary, *args, "--engine", "duckdb")
    assert got == want
    return want


@pytest.mark.parametrize("mode", MODES, ids=["lines", "summary", "summary-json"])
def test_the_corpus_gives_the_python_bytes(mode, tmp_path, capfdbinary, small_chunks):
    lines = _corpus_lines() + TRAPS + _corpus_lines()[:50] + BAD_UTF8
    path = _write(tmp_path / "r.jsonl", lines)
    code, out, err = both(capfdbinary, "target-scope", str(path), *mode)
    assert code == 4 and out
    if mode:
        assert err.count(b"\n") >= len(TRAPS) // 2  # every bad line named, by its number
    else:
        assert out.count(b"\n") == len(lines)


@pytest.mark.parametrize(
    "bom, final_newline", [(True, True), (False, False)], ids=["bom", "no-final-newline"]
)
def test_the_first_and_last_lines_give_the_python_bytes(bom, final_newline, tmp_path, capfdbinary):
    lines = [b'{"original":["a"],"rewritten":["a"]}', b'{"original":["a"],"rewritten":["b"]}'] * 3
    path = _write(tmp_path / "r.jsonl", lines, bom=bom, final_newline=final_newline)
    for mode in MODES:
        both(capfdbinary, "target-scope", str(path), *mode)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert both(capfdbinary, "target-scope", str(empty))[0] == 4
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n\n")
    assert both(capfdbinary, "target-scope", str(blank))[0] == 4


def test_standard_input_gives_the_python_bytes(tmp_path, capfdbinary, monkeypatch, small_chunks):
    path = _write(tmp_path / "r.jsonl", TRAPS + _corpus_lines()[:300] + BAD_UTF8)
    results = []
    for engine in ("python", "duckdb"):
        with open(path, "rb") as handle:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(handle))
            results.append(run(capfdbinary, "target-scope", "--engine", engine))
    assert results[0] == results[1] and results[0][0] == 4


def test_the_engine_judges_the_lines_itself(tmp_path):
    """DuckDB writes most lines of the corpus itself, and hands on every trap: the parity above
    is not the Python route beside itself."""
    from helpers.team.batch import Written
    from helpers.team.duckdb_lines import scope_jsonl_blocks

    corpus = [line for i, line in enumerate(_corpus_lines()) if i % 4 == 0]
    data = b"\n".join(corpus + TRAPS) + b"\n"
    blocks = list(scope_jsonl_blocks(io.BytesIO(data), chunk_bytes=1 << 14))
    items = [item for block in blocks for item in block]
    written = sum(item.rows for item in items if isinstance(item, Written))
    handed = [item for item in items if type(item) is bytes]
    assert written + len(handed) == len(corpus) + len(TRAPS)
    assert written > len(corpus) // 2
    assert set(handed) >= set(TRAPS) - PLAIN_TRAPS  # every line DuckDB cannot prove plain
    assert not set(handed) & PLAIN_TRAPS  # and only those


@pytest.mark.parametrize("good", [0, 1, 3], ids=lambda n: f"after-{n}-batches")
def test_duckdb_failing_part_way_through_a_chunk_hands_on_the_rest(good, tmp_path, capfdbinary, monkeypatch):
    """The batches DuckDB judged stand; the rest of the chunk goes to the Python route, and the
    bytes are still the Python route's."""
    import duckdb

    from helpers.team import duckdb_lines
    from helpers.team.batch import Written
    from helpers.team.duckdb_engine import Connection

    monkeypatch.setattr(duckdb_lines, "_BATCH_ROWS", 16)
    real = Connection.sql

    class Failing:
        def __init__(self, relation: Any) -> None:
            self.relation = relation

        def to_arrow_reader(self, rows: int) -> Any:
            reader = self.relation.to_arrow_reader(rows)
            for _ in range(good):
                yield reader.read_next_batch()
            raise duckdb.InvalidInputException("DuckDB gave up")

    monkeypatch.setattr(Connection, "sql", lambda self, sql: Failing(real(self, sql)))
    corpus = [line for i, line in enumerate(_corpus_lines()) if i % 4 == 0][:200]
    data = b"\n".join(corpus) + b"\n"
    tally: dict[str, int] = {}
    items = [
        item
        for block in duckdb_lines.scope_jsonl_blocks(io.BytesIO(data), chunk_bytes=len(data), tally=tally)
        for item in block
    ]
    judged = sum(item.rows for item in items if isinstance(item, Written))
    handed = [item for item in items if type(item) is bytes]
    assert 0 < judged <= 16 * good if good else judged == 0
    assert handed[-(len(corpus) - 16 * good) :] == corpus[16 * good :]
    assert judged + len(handed) == len(corpus) == tally["lines"] and tally["python"] == len(handed)
    path = _write(tmp_path / "r.jsonl", corpus)
    for mode in MODES:
        both(capfdbinary, "target-scope", str(path), *mode)


class _ReadOnly:
    """A stream with ``read`` only (as :class:`helpers.team.spool.Prefixed`), giving a few bytes a call."""

    def __init__(self, data: bytes, step: int) -> None:
        self.stream, self.step = io.BytesIO(data), step

    def read(self, size: int = -1) -> bytes:
        return self.stream.read(min(size, self.step))


@settings(max_examples=examples(200), deadline=None)
@given(
    lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=60),
    final=st.booleans(),
    size=st.integers(1, 300),
    step=st.integers(1, 50),
    readinto=st.booleans(),
)
def test_chunks_are_whole_lines_read_in_place(lines, final, size, step, readinto):
    """Any stream comes back byte for byte, in chunks that end at a newline (all but the last),
    none over twice ``size`` or twice its longest line, whether it reads into a buffer or not."""
    from helpers.team.duckdb_lines import _chunks

    data = b"\n".join(lines) + (b"\n" if final and lines else b"")
    stream = io.BytesIO(data) if readinto else _ReadOnly(data, step)
    chunks = [bytes(chunk) for chunk in _chunks(stream, size)]
    assert b"".join(chunks) == data
    assert all(chunks) and all(chunk.endswith(b"\n") for chunk in chunks[:-1])
    bound = 2 * max(size, max((len(line) + 1 for line in lines), default=0))
    assert all(len(chunk) <= bound for chunk in chunks)


# --- lines made by Hypothesis ------------------------------------------------------------------

#: Characters DuckDB may write (among them the ones where UTF-16 and code-point order part), and
#: traps it must hand on; the plain ones drawn most often, so that many lines are plain.
_PLAIN = [
    "a",
    "b",
    "A",
    ":",
    "]",
    "[",
    "{",
    ",",
    " ",
    "é",
    "e\u0301",
    "\U0001f600",
    "\U0001d400",
    "\u2028",
    "\ufeff",
]
_ORDER = ["\ue000", "\uffee", "\uff21", "\U0001f600", "a"]
_TRAPS = ['":', '"', "\\", "\\u0041", "\\n", "\t", "\x00", "\x1f", "\ue000", "\uffee"]
_CHARS = st.sampled_from(_PLAIN * 6 + _TRAPS)  # about one character in ten a trap
_ID = st.lists(_CHARS, min_size=1, max_size=3).map("".join)
_VALUE = st.one_of(
    st.lists(_ID, max_size=5),
    _ID,
    st.integers(-3, 3),
    st.none(),
    st.lists(st.one_of(_ID, st.just(""), st.integers(0, 2), st.none()), max_size=3),
)
_KEY = st.sampled_from(["original", "rewritten", "unresolved", "id", "query", "rewritten_query", "other"])
_LISTS = ("original", "rewritten", "unresolved")


@st.composite
def _line(draw: Any) -> bytes:
    """One line: members written by hand (so keys can repeat), spacing drawn, and now and then
    cut short, given a trailing comma or a CR, or a key twice."""
    keys = ["original", "rewritten"] if draw(st.booleans()) else []
    keys += draw(st.lists(_KEY, max_size=3))
    draw(st.randoms()).shuffle(keys)
    comma, colon = draw(st.sampled_from([(",", ":"), (", ", ": "), (" , ", ":  "), (",", " :")]))

    def text(value: Any) -> str:
        if isinstance(value, str):
            return '"' + value + '"'  # written raw: a quote or backslash in it may break the JSON
        if isinstance(value, list):
            return "[" + comma.join(text(v) for v in value) + "]"
        return json.dumps(value)

    def value(key: str) -> Any:
        if draw(st.integers(0, 4)):  # mostly the type the key takes
            return draw(st.lists(_ID, max_size=5) if key in _LISTS else _ID)
        return draw(_VALUE)

    members = [f'"{k}"{colon}{text(value(k))}' for k in keys]
    if members and draw(st.integers(0, 3)) == 0:  # a key given twice
        again = draw(st.sampled_from(keys))
        members.insert(draw(st.integers(0, len(members))), f'"{again}"{colon}{text(value(again))}')
    body = "{" + comma.join(members) + "}"
    raw = body.encode("utf-8", "surrogatepass")
    trick = draw(st.integers(0, 9))
    if trick == 1:
        raw = raw[: draw(st.integers(0, len(raw)))]
    elif trick == 2:
        raw = raw.replace(b"]", b",]", 1)
    elif trick == 3:
        raw += b"\r"
    return raw  # (invalid UTF-8 sends a chunk to the Python route whole: see BAD_UTF8)


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(_line(), min_size=1, max_size=30), mode=st.sampled_from(MODES))
def test_generated_lines_give_the_python_bytes(tmp_path, capfdbinary, lines, mode):
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n")
    both(capfdbinary, "target-scope", str(path), *mode)


_ORDER_ID = st.lists(st.sampled_from(_ORDER), min_size=1, max_size=3).map("".join)
_RECORD = st.fixed_dictionaries(
    {"original": st.lists(_ORDER_ID, max_size=4), "rewritten": st.lists(_ORDER_ID, max_size=4)},
    optional={"unresolved": st.lists(_ORDER_ID, max_size=3), "id": _ID},
)


@settings(max_examples=examples(30), deadline=None)
@given(
    records=st.lists(
        st.one_of(
            _RECORD,
            st.fixed_dictionaries(
                {"original": st.lists(_ID, max_size=4), "rewritten": st.lists(_ID, max_size=4)}
            ),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_generated_valid_records_give_the_python_bytes(records):
    """Valid JSON (``json.dumps``) of records whose IDs hold every trap: DuckDB judges the plain
    ones; the output of the chunked route equals the Python route's."""
    from helpers.team.batch import BatchSummary, check_blocks
    from helpers.team.duckdb_lines import scope_jsonl_blocks

    data = b"".join(
        json.dumps(r, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n" for r in records
    )
    outputs = []
    for blocks in (None, scope_jsonl_blocks(io.BytesIO(data), chunk_bytes=256)):
        from helpers.team.batch import _blocks

        summary = BatchSummary(check="target-scope", source="g", max_failures=0)
        written: list[bytes] = []
        check_blocks(
            blocks if blocks is not None else _blocks(io.BytesIO(data)), summary, write=written.append
        )
        outputs.append((b"".join(written), summary.exit_code, summary.counts))
    assert outputs[0] == outputs[1]


# --- the engine chosen, and standard input on two cores ---------------------------------------


def test_auto_picks_duckdb_from_its_threshold_and_says_so(tmp_path, capfdbinary, monkeypatch):
    from helpers.team import commands as check_commands
    from helpers.team import duckdb_lines

    calls: list[int] = []
    real = duckdb_lines.scope_jsonl_blocks
    monkeypatch.setattr(duckdb_lines, "scope_jsonl_blocks", lambda *a, **k: calls.append(1) or real(*a, **k))
    path = _write(tmp_path / "r.jsonl", _corpus_lines()[:200])
    small = run(capfdbinary, "target-scope", str(path), "-v")
    assert calls == [] and check_commands._AUTO_JSONL_BYTES == 40 << 20
    assert small[2].endswith(b"python (--engine auto: 0.0 MB of JSON Lines, below 40 MiB)\n") or (
        b"below 40 MiB" in small[2]
    )
    monkeypatch.setattr(check_commands, "_AUTO_JSONL_BYTES", path.stat().st_size)
    big = run(capfdbinary, "target-scope", str(path), "--verbose")
    assert calls == [1] and b"engine: duckdb (--engine auto:" in big[2]
    judged = big[2].splitlines()[-1].decode()
    assert judged.startswith("python -m helpers target-scope: engine: duckdb judged ") and judged.endswith(
        " of 200 lines; the Python route checked " + judged.rsplit(" ", 1)[1]
    )
    assert 0 < int(judged.rsplit(" ", 1)[1]) < 200  # DuckDB judged some, the Python route the others
    assert big[:2] == small[:2] == run(capfdbinary, "target-scope", str(path))[:2]
    # without -v nothing is said
    assert run(capfdbinary, "target-scope", str(path))[2] == b""


def test_without_duckdb_everything_takes_the_python_route(tmp_path, capfdbinary, monkeypatch):
    from helpers.team import commands as check_commands

    path = _write(tmp_path / "r.jsonl", _corpus_lines()[:200])
    want = run(capfdbinary, "target-scope", str(path), "--engine", "python")
    monkeypatch.setitem(sys.modules, "duckdb", None)  # find_spec and import both fail, as uninstalled
    monkeypatch.setattr(check_commands, "_AUTO_JSONL_BYTES", 1)
    assert run(capfdbinary, "target-scope", str(path)) == want
    code, out, err = run(capfdbinary, "target-scope", str(path), "-v")
    assert (code, out) == want[
        :2
    ] and err == b"python -m helpers target-scope: engine: python (--engine auto: DuckDB is not installed)\n"
    code, out, err = run(capfdbinary, "target-scope", str(path), "--engine", "duckdb")
    assert (code, out) == (2, b"") and err.count(b"\n") == 1 and b"needs duckdb" in err


def test_a_pipe_is_spooled_and_split_over_two_cores(monkeypatch):
    """A large pipe is copied to a temporary file, which the Python route splits as a named file."""
    from helpers.team import batch
    from helpers.team.spool import Prefixed, spool_if_large

    data = b"".join(
        json.dumps({"original": [f"t{i}"], "rewritten": [f"t{i % 7}"]}).encode() + b"\n" for i in range(3000)
    )
    read_end, write_end = os.pipe()
    threading.Thread(target=lambda: (os.write(write_end, data), os.close(write_end)), daemon=True).start()
    with os.fdopen(read_end, "rb") as pipe:
        spooled = spool_if_large(pipe, min_bytes=1000)
        assert not isinstance(spooled, Prefixed) and spooled.tell() == 0
        split = batch._parallel_split(spooled, 1000)
        assert split is not None
        serial = batch.BatchSummary(check="target-scope", source="s", max_failures=0)
        want: list[bytes] = []
        batch.check_blocks(batch._blocks(io.BytesIO(data)), serial, write=want.append)
        got: list[bytes] = []
        summary = batch.BatchSummary(check="target-scope", source="s", max_failures=0)
        batch.check_records(spooled, summary, write=got.append, parallel=True, min_bytes=1000)
        spooled.close()
    assert b"".join(got) == b"".join(want) and summary.counts == serial.counts
    small_read, small_write = os.pipe()
    os.write(small_write, data[:500])
    os.close(small_write)
    with os.fdopen(small_read, "rb") as pipe:
        kept = spool_if_large(pipe, min_bytes=1000)
        assert isinstance(kept, Prefixed) and kept.read() == data[:500]
    parts = Prefixed(b"abcdef", io.BytesIO(b"gh"))
    assert [parts.read(2), parts.read(10), parts.read(), parts.read()] == [b"ab", b"cdef", b"gh", b""]


def test_the_process_reads_a_pipe_alike_on_every_route(tmp_path):
    path = _write(tmp_path / "r.jsonl", TRAPS + _corpus_lines()[:2000])
    runs = []
    for engine, env in (("python", {"EIC_PARALLEL_MIN_BYTES": "4096"}), ("duckdb", {}), ("auto", {})):
        with open(path, "rb") as handle:  # auto: standard input is the file itself; else a pipe
            given: dict[str, Any] = {"stdin": handle} if engine == "auto" else {"input": path.read_bytes()}
            proc = subprocess.run(
                [sys.executable, "-m", "helpers", "target-scope", "--engine", engine],
                **given,
                capture_output=True,
                timeout=120,
                check=False,
                env={**os.environ, **env},
            )
        runs.append((proc.returncode, proc.stdout, proc.stderr))
    assert runs[0] == runs[1] == runs[2] and runs[0][0] == 4


def test_results_files_are_the_python_bytes(tmp_path, capfdbinary, small_chunks):
    """``--summary --results FILE``: DuckDB counts the preserved lines, and the results file holds
    every line, as the Python route writes it."""
    path = _write(tmp_path / "r.jsonl", _corpus_lines()[:400] + TRAPS)
    files = []
    for engine in ("python", "duckdb"):
        results = tmp_path / f"{engine}.jsonl"
        code, out, err = run(
            capfdbinary, "target-scope", str(path), "--summary", "--results", str(results), "--engine", engine
        )
        files.append((code, out, err, results.read_bytes()))
    assert files[0] == files[1] and files[0][3].count(b"\n") == 400 + len(TRAPS)
