"""CSV through DuckDB (``target-scope --format csv --engine duckdb``, and ``auto`` on large input)
gives the Python route's bytes: standard output, standard error and exit status, from a file and
from standard input, in every output mode, whatever the rows hold.

The rows: hand-written traps (quoting, a quoted newline, a CR, ragged rows, blank lines, an
empty ID, numbers and escapes in a list, a byte-order mark, invalid UTF-8, list separators) and
rows made by Hypothesis from a grammar of near-plain rows with every trap, under headers of every
column order. Small chunks make records cross chunk boundaries.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.team.test_engine_parity import run

duckdb = pytest.importorskip("duckdb")

MODES = [(), ("--summary",), ("--summary-json", "--max-failures", "3")]

HEADER = b"id,original,rewritten,unresolved\n"

#: Rows DuckDB may judge itself (under :data:`HEADER`).
PLAIN = [
    b'r1,"[""a"",""b""]","[""b"",""a""]",',
    b'r2,"[""a""]","[""b""]",',
    b'r3,"[ ""a"" , ""b"" ]","[""a""]",',
    b"r4,[],[],",
    b'r5,"[""x""]","[""x""]","[""u2"",""u1"",""u1""]"',
    b'"r,6","[""a,b""]","[""a,b""]",',
    b'r7,"[""\xc3\xa9""]","[""e\xcc\x81""]",',
    b'r8,"[""\xf0\x9f\x98\x80""]","[""\xf0\x9f\x98\x80""]",\r',
    b'r9,"[' + b'""a"",' * 70 + b'""b""]","[""b"",""a""]",',
    b'r10,"[""a""]","[""a""]",[]',
]

#: Rows the Python route reads its own way, and DuckDB must hand on.
TRAPS = [
    b"",
    b",",
    b'r,"[""a""]","[""a""]"',  # a cell short
    b'r,"[""a""]","[""a""]",,',  # a cell too many
    b',"[""a""]","[""a""]",',  # an empty ID
    b'"","[""a""]","[""a""]",',
    b'r,"[1]","[""a""]",',
    b'r,"[""""]","[""""]",',  # an empty ID in a list
    b'r,"[""a\\u0041""]","[""aA""]",',
    b'r,"[""a\\""b""]","[""a""]",',
    b'r,"[""a\tb""]","[""a""]",',
    b'r,"[""\xee\x80\x80"",""\xf0\x9f\x98\x80""]","[""z""]",',
    b'r,"[""a""],","[""a""]",',
    b'r,"[""a"",]","[""a""]",',
    b'r,["a"],["a"],',  # unquoted, the quotes kept literally
    b'r,"[""a""]"x,"[""a""]",',  # text after a closing quote
    b'r,"[""a""]","[""a""]",null',
    b'r,"[""a""]","[""a""]",""',
    b'r,"[""a""]","[""a""]",\rr,[],[],',  # a CR inside the line
    b'r,"[""a\n""]","[""a""]",',  # a quoted newline: one record over two lines
    b'r,"[""a""]","[""a""]","[""u\n""]"',
    b'r,"[""a""]","[""a""]","[""a""]\n",',
    b'r,"[' + b'""a"",' * 70 + b'""b""]","[""b"",""c""]",',
    b'r,"[""a\xff""]","[""a""]",',  # not UTF-8: its chunk goes to the Python route whole
]


def _write(path: Path, rows: list[bytes], *, header: bytes = HEADER, final_newline: bool = True) -> Path:
    path.write_bytes(header + b"\n".join(rows) + (b"\n" if final_newline else b""))
    return path


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few hundred bytes, so records cross chunk boundaries and many chunks are judged."""
    from helpers.team import duckdb_csv

    real = duckdb_csv.scope_csv_blocks
    monkeypatch.setattr(
        duckdb_csv, "scope_csv_blocks", lambda stream, **k: real(stream, **{**k, "chunk_bytes": 300})
    )


def both(capfdbinary: Any, *args: str) -> tuple[int, bytes, bytes]:
    want = run(capfdbinary, *args, "--format", "csv", "--engine", "python")
    got = run(capfdbinary, *args, "--format", "csv", "--engine", "duckdb")
    assert got == want
    return want


@pytest.mark.parametrize("mode", MODES, ids=["lines", "summary", "summary-json"])
def test_the_traps_give_the_python_bytes(mode, tmp_path, capfdbinary, small_chunks):
    rows = PLAIN * 3 + TRAPS + PLAIN + TRAPS[::-1] + PLAIN
    path = _write(tmp_path / "r.csv", rows)
    code, out, err = both(capfdbinary, "target-scope", str(path), *mode)
    assert code == 4 and out
    if mode:
        assert err.count(b"\n") >= len(TRAPS) // 2  # every bad row named, by its line


def test_the_engine_judges_the_plain_rows_itself():
    """DuckDB judges every plain row and hands on every trap, numbered by its first line: the
    parity above is not the Python route beside itself."""
    from helpers.core.jsonio import JsonLine
    from helpers.team.batch import Written
    from helpers.team.duckdb_csv import scope_csv_blocks
    from helpers.team.scope_csv import iter_scope_csv

    rows = [row for row in TRAPS if b"\xff" not in row] + PLAIN
    data = HEADER + b"\n".join(rows) + b"\n"
    tally: dict[str, int] = {}
    items = [
        item
        for block in scope_csv_blocks(io.BytesIO(data), source="r", tally=tally, chunk_bytes=256)
        for item in block
    ]
    handed = [item for item in items if type(item) is JsonLine]
    written = sum(item.rows for item in items if isinstance(item, Written))
    python = list(iter_scope_csv(io.BytesIO(data), source="r"))
    assert written + len(handed) == len(python) == tally["lines"] and tally["python"] == len(handed)
    assert written >= len(PLAIN)  # every plain row

    def seen(records: list[Any]) -> list[Any]:
        return [(r.number, r.value, str(r.error)) for r in records]

    assert seen(handed) == seen([r for r in python if r.number in {item.number for item in handed}])
    lines = data.split(b"\n")
    firsts = {trap.split(b"\n")[0] for trap in TRAPS}  # each trap's first line
    assert {lines[item.number - 1] for item in handed} == firsts - {b'r,"[""a\xff""]","[""a""]",'}


@pytest.mark.parametrize(
    "header",
    [
        b"\xef\xbb\xbfid,original,rewritten\n",
        b"rewritten,query,id,original\r\n",
        b"id,original,rewritten,rewritten_query,unresolved,query\n",
        b'"id",original,rewritten\n',  # quoted: not plain, the Python route reads all
        b"id,original,rewritten,extra\n",
        b"id,original\n",
        b"id,original,original,rewritten\n",
        b"\xffid,original,rewritten\n",
        b"id,original,rewritten",
        b"",
    ],
)
def test_every_header_gives_the_python_bytes(header, tmp_path, capfdbinary):
    names = next(csv.reader([header.decode("utf-8", "replace").lstrip("\ufeff")]), [])
    cells = {"id": "r", "original": '"[""a""]"', "rewritten": '"[""b""]"', "query": "q,x"}
    row = ",".join(cells.get(name, "") for name in names).encode()
    path = tmp_path / "h.csv"
    path.write_bytes(header + (row + b"\n" + row + b"\n" if header.endswith(b"\n") else b""))
    for mode in MODES:
        both(capfdbinary, "target-scope", str(path), *mode)


@pytest.mark.parametrize("separator", [";", "|", " ", "\t", ",", ";;", "é"])
def test_a_list_separator_gives_the_python_bytes(separator, tmp_path, capfdbinary, small_chunks):
    s = separator
    rows = [
        f"r1,a{s}b,b{s}a,",
        f"r2,a,b,u1{s}u2",
        "r3,,,",
        f"r4,a{s}{s}b,a,",
        f'r5,"a{s}b","b{s}a",',
        'r6,"a""b",a,',
        f"r7,\ue000{s}a,a,",
        "r8,a\\b,a\\b,",
    ]
    path = _write(tmp_path / "s.csv", [r.encode("utf-8") for r in rows] * 3)
    for mode in MODES:
        both(capfdbinary, "target-scope", str(path), "--list-separator", separator, *mode)


def test_the_first_and_last_lines_give_the_python_bytes(tmp_path, capfdbinary):
    path = _write(tmp_path / "r.csv", PLAIN, final_newline=False)
    for mode in MODES:
        both(capfdbinary, "target-scope", str(path), *mode)
    quoted = _write(tmp_path / "q.csv", [*PLAIN, b'r,"[""a""]","[""a'], final_newline=False)
    assert both(capfdbinary, "target-scope", str(quoted), "--summary")[0] == 4  # end of data in a quote
    only = _write(tmp_path / "o.csv", [], final_newline=False)
    assert both(capfdbinary, "target-scope", str(only))[0] == 4  # no rows after the header


def test_standard_input_gives_the_python_bytes(tmp_path, capfdbinary, monkeypatch, small_chunks):
    path = _write(tmp_path / "r.csv", PLAIN * 5 + TRAPS + PLAIN)
    results = []
    for engine in ("python", "duckdb"):
        with open(path, "rb") as handle:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(handle))
            results.append(run(capfdbinary, "target-scope", "--format", "csv", "--engine", engine))
    assert results[0] == results[1] and results[0][0] == 4


def test_the_process_reads_a_pipe_alike_on_every_route(tmp_path):
    path = _write(tmp_path / "r.csv", PLAIN * 200 + TRAPS)
    runs = []
    for engine in ("python", "duckdb", "auto"):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "helpers",
                "target-scope",
                "--format",
                "csv",
                "--engine",
                engine,
                "--summary",
            ],
            input=path.read_bytes(),
            capture_output=True,
            timeout=120,
            check=False,
        )
        runs.append((proc.returncode, proc.stdout, proc.stderr))
    assert runs[0] == runs[1] == runs[2] and runs[0][0] == 4


def test_auto_picks_duckdb_from_its_threshold_and_says_so(tmp_path, capfdbinary, monkeypatch):
    from helpers.team import commands as check_commands
    from helpers.team import duckdb_csv

    calls: list[int] = []
    real = duckdb_csv.scope_csv_blocks

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(duckdb_csv, "scope_csv_blocks", counted)
    path = _write(tmp_path / "r.csv", PLAIN * 20 + TRAPS[:3])
    small = run(capfdbinary, "target-scope", str(path), "--format", "csv", "-v")
    assert calls == [] and check_commands._AUTO_CSV_BYTES == 4 << 20
    assert small[2].endswith(b"engine: python (--engine auto: 0.0 MB of CSV, below 4 MiB)\n")
    monkeypatch.setattr(check_commands, "_AUTO_CSV_BYTES", path.stat().st_size)
    big = run(capfdbinary, "target-scope", str(path), "--format", "csv", "--verbose")
    assert calls == [1] and b"engine: duckdb (--engine auto: 0.0 MB of CSV, from " in big[2]
    n = len(PLAIN) * 20
    assert big[2].endswith(
        f"engine: duckdb judged {n} of {n + 3} rows; the Python route checked 3\n".encode()
    )
    assert big[:2] == small[:2]
    assert run(capfdbinary, "target-scope", str(path), "--format", "csv")[2] == b""  # without -v, nothing


# --- rows made by Hypothesis ------------------------------------------------------------------

_PLAIN_CHARS = ["a", "b", "A", ":", "]", "[", "{", " ", "é", "e\u0301", "\U0001f600", "\u2028", "\ufeff"]
_TRAP_CHARS = ['"', "\\", ",", "\n", "\r", "\t", "\x00", "\ue000", "\uffee", ";"]
_CHARS = st.sampled_from(_PLAIN_CHARS * 6 + _TRAP_CHARS)
_ID = st.lists(_CHARS, min_size=1, max_size=3).map("".join)
_ITEM = st.one_of(_ID, _ID, _ID, st.just(""), st.integers(0, 2), st.none())
_LISTS = ("original", "rewritten", "unresolved")
_COLUMNS = ("id", "original", "rewritten", "unresolved", "query", "rewritten_query")


@st.composite
def _header(draw: Any) -> list[str]:
    names = ["id", "original", "rewritten", *draw(st.lists(st.sampled_from(_COLUMNS[3:]), unique=True))]
    draw(st.randoms()).shuffle(names)
    return names


@st.composite
def _cell(draw: Any, name: str, separator: str | None) -> str:
    if name in _LISTS:
        items = draw(st.lists(_ITEM if draw(st.integers(0, 5)) == 0 else _ID, max_size=4))
        if separator is not None:
            return separator.join(str(i) if i is not None else "" for i in items)
        spacing = draw(st.sampled_from([",", ", ", " , "]))
        text = (
            "["
            + spacing.join(
                json.dumps(i, ensure_ascii=False) if draw(st.integers(0, 4)) else f'"{i}"' for i in items
            )
            + "]"
        )
        return "" if name == "unresolved" and draw(st.integers(0, 3)) == 0 else text
    return draw(st.one_of(_ID, st.just("")) if name != "id" or draw(st.integers(0, 5)) else st.just(""))


@st.composite
def _rows(draw: Any) -> tuple[bytes, str | None]:
    separator = draw(st.sampled_from([None, None, ";", "|"]))
    header = draw(_header())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    raws = [out.getvalue().encode()]
    for _ in range(draw(st.integers(1, 25))):
        cells = [draw(_cell(name, separator)) for name in header]
        trick = draw(st.integers(0, 12))
        if trick == 1:
            cells.pop()
        elif trick == 2:
            cells.append("x")
        out = io.StringIO()
        if trick == 3:  # written by hand: quotes left as they are
            out.write(",".join(cells) + "\n")
        else:
            csv.writer(out, lineterminator="\r\n" if trick == 4 else "\n").writerow(cells)
        raw = out.getvalue().encode("utf-8", "surrogatepass")
        if trick == 5:
            raw = raw[: draw(st.integers(0, len(raw)))] + b"\n"
        elif trick == 6:
            raw = b"\n"
        raws.append(raw)
    if draw(st.integers(0, 5)) == 0:
        raws[0] = b"\xef\xbb\xbf" + raws[0]
    return b"".join(raws), separator


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(drawn=_rows(), mode=st.sampled_from(MODES))
def test_generated_rows_give_the_python_bytes(tmp_path, capfdbinary, drawn, mode):
    data, separator = drawn
    path = tmp_path / "g.csv"
    path.write_bytes(data)
    extra = ("--list-separator", separator) if separator is not None else ()
    both(capfdbinary, "target-scope", str(path), *extra, *mode)


@settings(max_examples=examples(60), deadline=None)
@given(drawn=_rows(), size=st.integers(16, 400))
def test_generated_rows_in_small_chunks_give_the_python_records(drawn, size):
    """In chunks of any size, a record that crosses a chunk's end is read whole, once."""
    from helpers.team.batch import BatchSummary, check_blocks, check_records
    from helpers.team.duckdb_csv import scope_csv_blocks

    data, separator = drawn
    outputs = []
    for engine in ("python", "duckdb"):
        summary = BatchSummary(check="target-scope", source="g", max_failures=50)
        written: list[bytes] = []
        bad = io.StringIO()
        if engine == "python":
            check_records(
                io.BytesIO(data),
                summary,
                format="csv",
                list_separator=separator,
                write=written.append,
                bad_lines=bad,
            )
        else:
            blocks = scope_csv_blocks(
                io.BytesIO(data), source="g", list_separator=separator, chunk_bytes=size
            )
            check_blocks(blocks, summary, write=written.append, bad_lines=bad)
        outputs.append(
            (b"".join(written), bad.getvalue(), summary.exit_code, summary.counts, summary.records)
        )
    assert outputs[0] == outputs[1]


def test_a_stream_read_ahead_gives_its_lines_whole():
    """Standard input that ``auto`` looked at (:class:`~helpers.team.spool.Prefixed`) reads as the
    lines of a binary file, a line the look-ahead cut short joined whole."""
    from helpers.team.spool import Prefixed

    data = b"id,original\nr1,a\r\nr2,b\n\nlast"
    for cut in range(len(data) + 1):
        assert list(Prefixed(data[:cut], io.BytesIO(data[cut:]))) == list(io.BytesIO(data))
