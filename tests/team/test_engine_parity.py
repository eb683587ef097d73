"""Every engine gives the Python route's bytes: standard output, standard error and exit status.

Each corpus is written once as Parquet (a rewrites table, or a pair of answer keys) and run
through the command line's entry point, ``helpers.cli.main``, once with ``--engine python``
and once per engine in :data:`ENGINES`, in each output mode; the bytes must be equal. The
corpora: the filled cases, the edge cases, a seeded corpus of at least 2,000 records (and a
key pair of 2,000 IDs, and a qrels pair) with astral-plane IDs, characters in U+E000-U+FFFF,
every look-alike kind, trailing spaces, NFC/NFD pairs, duplicates and empty lists, and a
refusal corpus (what the Python route refuses: the engine refuses it alike or hands it
over). A few runs go through ``python -m helpers`` as a process as well. ``--all``
(``EIC_ALL_TESTS=1``) adds a corpus of 60,000 records over many row groups.

Another engine is one more entry of :data:`ENGINES`: its ``--engine`` name, and whether it
can run here.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import random
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import helpers
from helpers.cli import main
from helpers.core.jsonio import loads_strict
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.deciding_rule import FACETS, lookalike_kinds


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


#: The engines compared with ``--engine python``: (name, marks). Add an engine here.
ENGINES = [
    pytest.param(
        "duckdb", id="duckdb", marks=pytest.mark.skipif(not _installed("duckdb"), reason="no duckdb")
    ),
]

#: The output modes every corpus is run in.
MODES = [pytest.param((), id="lines"), pytest.param(("--summary",), id="summary")]
MODES_JSON = [*MODES, pytest.param(("--summary-json", "--max-failures", "5"), id="summary-json")]

ALL = os.environ.get("EIC_ALL_TESTS") == "1"

LIST = pa.list_(pa.string())


def run(capfdbinary: Any, *args: str) -> tuple[int, bytes, bytes]:
    """One run of the command line in this process: (exit status, stdout, stderr)."""
    capfdbinary.readouterr()
    code = main(list(args))
    out, err = capfdbinary.readouterr()
    return code, out, err


def same_bytes(capfdbinary: Any, engine: str, *args: str) -> tuple[int, bytes, bytes]:
    """Run ``args`` with ``--engine python`` and with ``engine``; assert equal results and return them."""
    want = run(capfdbinary, *args, "--engine", "python")
    got = run(capfdbinary, *args, "--engine", engine)
    assert got == want
    return want


# --- the corpora --------------------------------------------------------------------------------


def _cases(check: str) -> list[Any]:
    """The inputs of the filled cases and of the edge cases for ``check`` that JSON can read."""
    found: list[Any] = [c.input for c in helpers.filled_cases() if c.check == check]
    edge = json.loads((fixtures_dir() / "edge_cases.json").read_text(encoding="utf-8"))["edge_cases"]
    for case in edge:
        if case["check"] != check:
            continue
        if "input" in case:
            found.append(case["input"])
        elif isinstance(case.get("line"), str):
            try:
                found.append(loads_strict(case["line"]))
            except Exception:
                continue  # not JSON: nothing a table can hold
    return found


def _utf8(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _scope_row(record: Any) -> dict[str, Any] | None:
    """A record as a row of a rewrites table, or ``None`` when a table cannot hold it."""
    fields = {"original", "rewritten", "unresolved", "id", "query"}
    if not isinstance(record, dict) or not {"original", "rewritten"} <= set(record) or set(record) - fields:
        return None
    row = {"id": None, "query": None, "unresolved": [], **record}
    for name in ("original", "rewritten", "unresolved"):
        value = row[name]
        if value is not None and not (isinstance(value, list) and all(v is None or _utf8(v) for v in value)):
            return None
    if not all(row[n] is None or _utf8(row[n]) for n in ("id", "query")):
        return None
    return row


def write_scope(path: Path, rows: list[dict[str, Any]], row_group_size: int | None = None) -> Path:
    schema = pa.schema(
        [
            ("id", pa.string()),
            ("query", pa.string()),
            ("original", LIST),
            ("rewritten", LIST),
            ("unresolved", LIST),
        ]
    )
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path, row_group_size=row_group_size)
    return path


def write_key(path: Path, key: dict[Any, Any], *, answers: pa.DataType | None = None) -> Path:
    """A key as a table: ``id`` (or ``query`` and ``doc`` for pair IDs) and ``answer``."""
    if key and isinstance(next(iter(key)), tuple):
        columns = {"query": [k[0] for k in key], "doc": [k[1] for k in key]}
    else:
        columns = {"id": list(key)}
    table = pa.table({**columns, "answer": pa.array(list(key.values()), answers or pa.string())})
    pq.write_table(table, path)
    return path


def key_args(baseline: Path, proposed: Path, *, pairs: bool = False) -> list[str]:
    ids = ["--id-column", "query", "--id-column", "doc"] if pairs else ["--id-column", "id"]
    keys = ["--baseline", str(baseline), "--proposed", str(proposed), "--format", "parquet"]
    return ["sentinels", *keys, *ids, "--answer-column", "answer"]


#: Words that every look-alike kind can be made from.
WORDS = ["induction", "Refresher", "payroll-policy", "Onboarding", "health and safety", "café", "expenses"]
#: Characters where UTF-16 order and code-point (or UTF-8 byte) order disagree, and their neighbours.
ORDER_TRAPS = ["\U0001f600", "\U0001d400", "\ue000", "\uff21", "\uffee", "\ud7ff", "a", "~", "\u00e9"]


def lookalike(word: str, kind: str, rng: random.Random) -> str:
    """``word`` changed by one look-alike ``kind`` alone."""
    if kind == "case":
        return word.swapcase()
    if kind == "outer-space":
        return word + rng.choice([" ", "  "])
    if kind == "no-break-space":
        return word.replace(" ", "\u00a0") if " " in word else word + "\u00a0"
    if kind == "nfd":
        return unicodedata.normalize("NFD", "é") + word
    if kind == "zero-width":
        return word[:2] + rng.choice(["\u200b", "\u200d", "\u2060"]) + word[2:]
    if kind == "full-width":
        return chr(ord(word[0]) + 0xFEE0) + word[1:]
    if kind == "homoglyph":  # Cyrillic о for Latin o, or Cyrillic а for Latin a
        return word.replace("o", "\u043e", 1) if "o" in word else word.replace("a", "\u0430", 1)
    raise AssertionError(kind)


def generated_ids(rng: random.Random, count: int) -> list[str]:
    """IDs with every trap: astral, U+E000-U+FFFF, look-alikes of each kind, NFC/NFD, trailing spaces."""
    ids: list[str] = []
    for i in range(count):
        word = rng.choice(WORDS)
        roll = i % 6
        if roll == 0:
            ids.append(f"{word}-{i}")
        elif roll == 1:
            ids.append(rng.choice(ORDER_TRAPS) + f"{i}" + rng.choice(ORDER_TRAPS))
        elif roll == 2:
            ids.append(lookalike(f"{word}-{i}", FACETS[i % len(FACETS)], rng))
        elif roll == 3:
            ids.append(unicodedata.normalize("NFD" if i % 2 else "NFC", f"caf\u00e9-{i // 4}"))
        elif roll == 4:
            ids.append(f"{word}-{i} ")
        else:
            ids.append(rng.choice(ORDER_TRAPS) * rng.randint(1, 3))
    return ids


def generated_rewrites(count: int, seed: int = 31) -> list[dict[str, Any]]:
    """Rewrites of every kind: preserved, reordered, duplicated, lost, added, look-alike, held, empty."""
    rng = random.Random(seed)
    pool = generated_ids(rng, 400)
    rows = []
    for i in range(count):
        original = rng.sample(pool, rng.randint(0, 4))
        kind = i % 10
        rewritten = list(original)
        unresolved: list[str] = []
        if kind == 1:
            rewritten.reverse()
        elif kind == 2 and original:
            rewritten += original[:1]  # a duplicate
        elif kind == 3 and original:
            rewritten.pop(rng.randrange(len(rewritten)))
        elif kind == 4:
            rewritten += rng.sample(pool, 2)
        elif kind == 5 and original:
            j = rng.randrange(len(rewritten))
            rewritten[j] = lookalike(rewritten[j], FACETS[i % len(FACETS)], rng)
        elif kind == 6:
            unresolved = rng.sample(pool, rng.randint(1, 3))
        elif kind == 7:
            original, rewritten = [], []
        elif kind == 8 and original:
            rewritten = [unicodedata.normalize("NFD", r) for r in rewritten]
        rows.append(
            {"id": f"r{i}", "query": rng.choice(["q", "😀 q", None]), "original": original}
            | {"rewritten": rewritten, "unresolved": unresolved}
        )
    return rows


def generated_keys(count: int, seed: int = 32) -> tuple[dict[str, str], dict[str, str]]:
    """A key pair: dropped, changed (to look-alike answers too), added and look-alike IDs."""
    rng = random.Random(seed)
    baseline = dict.fromkeys(generated_ids(rng, count), "")
    baseline = {k: rng.choice(["R", "N", "relevant", "1", "01", "😀", "\ue000"]) for k in baseline}
    proposed = {}
    for i, (key, answer) in enumerate(baseline.items()):
        kind = i % 9
        if kind == 1:
            continue  # dropped
        if kind == 2:
            answer = lookalike(answer + "x", FACETS[i % len(FACETS)], rng)
        elif kind == 3:
            answer = answer + " "
        elif kind == 4:
            proposed[lookalike(key, FACETS[i % len(FACETS)], rng)] = answer  # a look-alike ID beside it
        proposed[key] = answer
    return baseline, proposed


@functools.cache
def _scope_corpus() -> list[dict[str, Any]]:
    rows = [row for record in _cases("target-scope") if (row := _scope_row(record)) is not None]
    return rows + generated_rewrites(2_000)


# --- target-scope ---------------------------------------------------------------------------------


def test_the_corpora_have_every_trap():
    rows = _scope_corpus()
    assert len(rows) >= 2_020
    ids = {i for r in rows for i in (r["original"] or []) + (r["rewritten"] or []) if i}
    assert any(ord(c) > 0xFFFF for i in ids for c in i) and any(
        0xE000 <= ord(c) <= 0xFFFF for i in ids for c in i
    )
    assert any(unicodedata.normalize("NFD", i) != i and unicodedata.normalize("NFD", i) in ids for i in ids)
    assert any(i.endswith(" ") for i in ids)
    pairs = [(a, b) for r in rows for a, b in zip(r["original"] or [], r["rewritten"] or [], strict=False)]
    kinds = {k for a, b in pairs if a != b and a and b for k in lookalike_kinds(a, b)}
    assert kinds >= set(FACETS)
    assert any(r["original"] == [] and r["rewritten"] == [] for r in rows)
    assert any(len(set(r["rewritten"] or [])) < len(r["rewritten"] or []) for r in rows)
    assert any(r["original"] is None or None in r["original"] for r in rows)  # the refusals in the cases


@pytest.mark.parametrize("mode", MODES_JSON)
@pytest.mark.parametrize("engine", ENGINES)
def test_rewrites_give_the_python_bytes(engine, mode, tmp_path, capfdbinary):
    path = write_scope(tmp_path / "rewrites.parquet", _scope_corpus(), row_group_size=700)
    code, out, _ = same_bytes(capfdbinary, engine, "target-scope", str(path), "--format", "parquet", *mode)
    assert code == 4  # the cases hold a refusal, so the worst outcome is bad input
    assert out.count(b"\n") == (len(_scope_corpus()) if not mode else out.count(b"\n"))


def test_the_engine_judges_the_rewrites_itself(tmp_path):
    """DuckDB proves the preserved rows, and writes the lines it can: the parity above is not the
    Python route beside itself."""
    pytest.importorskip("duckdb")
    from helpers.team.batch import Written
    from helpers.team.duckdb_scope import scope_parquet_blocks

    rows = _scope_corpus()
    path = str(write_scope(tmp_path / "r.parquet", rows, row_group_size=300))
    blocks = scope_parquet_blocks(path)
    assert blocks is not None
    items = [item for block in blocks for item in block]
    counted = sum(item for item in items if type(item) is int)
    handed = [item.number for item in items if type(item) is not int]
    assert counted + len(handed) == len(rows) and counted > len(rows) // 4
    assert handed == sorted(handed)
    blocks = scope_parquet_blocks(path, lines=True, fetch_rows=500)
    assert blocks is not None
    items = [item for block in blocks for item in block]
    written = [item for item in items if type(item) is Written]
    handed = [item.number for item in items if type(item) is not Written]
    assert sum(item.rows for item in written) + len(handed) == len(rows)
    assert sum(item.rows for item in written) > len(rows) // 2 and handed == sorted(handed)
    assert sum(item.lost + item.added + item.lost_and_added + item.held for item in written) > len(rows) // 5


#: IDs for each class of character an output line may hold: those the Python route escapes
#: (control characters, the quote, the backslash), those it writes as they are (DEL, U+2028 and
#: U+2029, non-ASCII, combining marks, astral) and those where UTF-16 order and code-point order part
#: (U+E000 up, beside astral ones).
CHARACTER_CLASSES: dict[str, list[str]] = {
    "control": ["a\x00b", "tab\tx", "nl\nx", "cr\rx", "unit\x1f", "bell\x07", "\x08\x0c"],
    "quote": ['say "x"', '"'],
    "backslash": ["back\\slash", "\\", "\\u0061"],
    "slash": ["a/b", "</script>"],
    "del": ["del\x7f", "\x7f"],
    "separators": ["ls\u2028", "ps\u2029", "\u0085nel"],
    "non-ascii": ["café", "cafe\u0301", "中文", "ß", "\u00a0nbsp", "zw\u200bj"],
    "astral": ["\U0001f600", "x\U0001d400", "\U0010fffd"],
    "private-and-full-width": ["\uff21", "\uffee", "\ufffd", "a\ue001"],
    "first-after-surrogates": ["\ue000", "b\ue000"],
    "last-of-the-plane": ["\uffff"],
    "plain": ["a", "B", "z-9", "~", "0"],
}


def character_class_rows() -> list[dict[str, Any]]:
    """Rewrites whose missing, added or held IDs hold every pair of character classes."""
    rows = []
    classes = list(CHARACTER_CLASSES.items())
    for i, (_, ids) in enumerate(classes):
        for j, (_, others) in enumerate(classes):
            both = ids + others if i != j else ids
            rows += [
                {"original": both, "rewritten": ["kept"]},  # all lost
                {"original": ["kept"], "rewritten": both},  # all added
                {"original": [*ids, "kept"], "rewritten": ["kept", *others]},  # lost and added
                {"original": both, "rewritten": list(reversed(both)) + both[:1]},  # preserved
                {"original": ["kept"], "rewritten": ["kept"], "unresolved": both},  # held
            ]
    return [{"id": f"c{n}", "query": None, "unresolved": [], **row} for n, row in enumerate(rows)]


def test_the_character_classes_are_all_there():
    ids = {i for r in character_class_rows() for i in r["original"] + r["rewritten"]}
    assert any(ord(c) < 0x20 for i in ids for c in i) and any('"' in i or "\\" in i for i in ids)
    assert any(0xE000 <= ord(c) <= 0xFFFF for i in ids for c in i) and any(
        ord(c) > 0xFFFF for i in ids for c in i
    )
    assert {"\x7f", "\u2028", "\u2029"} <= {c for i in ids for c in i}


@pytest.mark.parametrize("mode", MODES_JSON)
@pytest.mark.parametrize("engine", ENGINES)
def test_every_character_class_gives_the_python_bytes(engine, mode, tmp_path, capfdbinary):
    path = write_scope(tmp_path / "classes.parquet", character_class_rows(), row_group_size=97)
    code, out, _ = same_bytes(capfdbinary, engine, "target-scope", str(path), "--format", "parquet", *mode)
    assert code == 3 and out


def test_duckdb_writes_the_lines_of_plain_ids_and_hands_on_the_rest(tmp_path):
    """A line of IDs the Python route writes as they are (DEL, U+2028, non-ASCII, astral) is written
    by DuckDB; one with an ID to escape, or a character in U+E000-U+FFFF, is checked the Python way."""
    pytest.importorskip("duckdb")
    from helpers.team.batch import Written
    from helpers.team.duckdb_scope import scope_parquet_blocks

    rows = character_class_rows()
    blocks = scope_parquet_blocks(str(write_scope(tmp_path / "c.parquet", rows)), lines=True)
    assert blocks is not None
    items = [item for block in blocks for item in block]
    handed = {item.number for item in items if type(item) is not Written}
    escaped = set(CHARACTER_CLASSES["control"] + CHARACTER_CLASSES["quote"] + CHARACTER_CLASSES["backslash"])
    for name in ("private-and-full-width", "first-after-surrogates", "last-of-the-plane"):
        escaped |= set(CHARACTER_CLASSES[name])
    for number, row in enumerate(rows, 1):
        ids = set(row["original"]) ^ set(row["rewritten"]) | set(row["unresolved"])
        assert (number in handed) == bool(ids & escaped), row


#: Characters for generated IDs: every class above, with ASCII to make IDs meet.
_TRICKY = 'ab~\x00\x1f"\\\x7f\u2028é\u0301中\ue000\uff21\uffff\U0001f600\U0010ffff'


# run() reads capfdbinary empty before each run, so sharing it between examples is safe.
@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.lists(st.text(_TRICKY, max_size=3), max_size=5),
            st.lists(st.text(_TRICKY, max_size=3), max_size=5),
            st.lists(st.text(_TRICKY, min_size=1, max_size=2), max_size=2),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_generated_rows_give_the_python_bytes(tmp_path_factory, capfdbinary, table):
    """Any rows of tricky IDs (empty ones too, refused alike), in lines and in a summary."""
    pytest.importorskip("duckdb")
    rows = [{"original": o, "rewritten": r, "unresolved": u, "id": None, "query": None} for o, r, u in table]
    path = write_scope(tmp_path_factory.mktemp("generated") / "g.parquet", rows)
    for mode in ((), ("--summary-json",)):
        same_bytes(capfdbinary, "duckdb", "target-scope", str(path), "--format", "parquet", *mode)


@pytest.mark.parametrize("engine", ENGINES)
def test_long_lists_give_the_python_bytes(engine, tmp_path, capfdbinary):
    """Rows longer than DuckDB compares ID by ID: proved preserved by their sets, or checked the Python way."""
    from helpers.team.duckdb_scope import SHORT

    ids = [f"t{i}" for i in range(SHORT)] + ["\U0001f600", "\uff21"]
    rows = [
        {"original": ids, "rewritten": list(reversed(ids))},
        {"original": ids, "rewritten": [*ids[1:], "new"]},
        {"original": ids + ids, "rewritten": ids[:1]},
        {"original": ids[:1], "rewritten": ids[:1], "unresolved": ids},
    ]
    path = write_scope(tmp_path / "long.parquet", [{"unresolved": [], **row} for row in rows])
    for mode in ((), ("--summary",)):
        code, _, _ = same_bytes(capfdbinary, engine, "target-scope", str(path), "--format", "parquet", *mode)
        assert code == 3


#: Tables the Python route refuses (or, for ``float-id``, reads its own way): (name, table or bytes).
def _scope_refusals() -> list[tuple[str, Any]]:
    ok = {"original": [["a", "b"]], "rewritten": [["b", "a"]]}
    return [
        ("unknown-column", pa.table({**ok, "orignal": [["a"]]})),
        ("no-rewritten", pa.table({"original": [["a"]]})),
        ("integer-ids", pa.table({"original": [[1, 2]], "rewritten": [[1, 2]]})),
        ("nested-lists", pa.table({"original": [[["a"]]], "rewritten": [[["a"]]]})),
        ("float-id", pa.table({**ok, "id": [1.5]})),
        ("null-list", pa.table({"original": pa.array([None, ["a"]], LIST), "rewritten": [["a"], ["a"]]})),
        ("null-id", pa.table({"original": pa.array([["a", None]], LIST), "rewritten": [["a"]]})),
        ("empty-id", pa.table({"original": [["a", ""]], "rewritten": [["a", ""]]})),
        ("null-unresolved", pa.table({**ok, "unresolved": pa.array([None], LIST)})),
        ("no-rows", pa.table({"original": pa.array([], LIST), "rewritten": pa.array([], LIST)})),
        ("not-parquet", b'{"original":["a"],"rewritten":["a"]}\n'),
        ("truncated", b"PAR1" + b"\0" * 64),
    ]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "table"), _scope_refusals(), ids=[n for n, _ in _scope_refusals()])
def test_refused_rewrites_are_refused_alike(name, table, engine, mode, tmp_path, capfdbinary):
    path = tmp_path / f"{name}.parquet"
    if isinstance(table, bytes):
        path.write_bytes(table)
    else:
        pq.write_table(table, path)
    code, _, _ = same_bytes(capfdbinary, engine, "target-scope", str(path), "--format", "parquet", *mode)
    assert code == (0 if name == "float-id" else 4)  # a float id is carried, not checked


# --- answer keys ----------------------------------------------------------------------------------


def _key_pairs() -> list[tuple[dict, dict]]:
    found = []
    for record in _cases("sentinels"):
        if not isinstance(record, dict) or set(record) != {"baseline", "proposed"}:
            continue
        keys = record["baseline"], record["proposed"]
        if all(
            isinstance(k, dict) and all(_utf8(i) and (a is None or _utf8(a)) for i, a in k.items())
            for k in keys
        ):
            found.append(keys)
    return found


def test_the_key_cases_are_many():
    pairs = _key_pairs()
    assert len(pairs) >= 15
    assert any(not b for b, _ in pairs)  # an empty baseline, refused


@pytest.mark.parametrize("engine", ENGINES)
def test_key_cases_give_the_python_bytes(engine, tmp_path, capfdbinary):
    for n, (baseline, proposed) in enumerate(_key_pairs()):
        b = write_key(tmp_path / f"b{n}.parquet", baseline)
        p = write_key(tmp_path / f"p{n}.parquet", proposed)
        same_bytes(capfdbinary, engine, *key_args(b, p), *(("--summary-json",) if n % 2 else ()))


@pytest.mark.parametrize("mode", MODES_JSON)
@pytest.mark.parametrize("engine", ENGINES)
def test_generated_keys_give_the_python_bytes(engine, mode, tmp_path, capfdbinary):
    baseline, proposed = generated_keys(2_000)
    b = write_key(tmp_path / "b.parquet", baseline)
    p = write_key(tmp_path / "p.parquet", proposed)
    code, out, _ = same_bytes(capfdbinary, engine, *key_args(b, p), *mode, "--max-failures", "50")
    assert code == 1 and out


def test_the_engine_judges_the_keys_itself(tmp_path):
    pytest.importorskip("duckdb")
    from helpers.team.duckdb_engine import check_parquet_keys

    baseline, proposed = generated_keys(2_000)
    b = write_key(tmp_path / "b.parquet", baseline)
    p = write_key(tmp_path / "p.parquet", proposed)
    checked = check_parquet_keys(str(b), str(p), id_columns=["id"], answer_column="answer")
    assert checked is not None and checked.result is not None
    assert checked.result.missing and checked.result.changed
    refused = write_key(tmp_path / "empty.parquet", {})
    assert check_parquet_keys(str(refused), str(p), id_columns=["id"], answer_column="answer") is None


def test_ids_that_only_hash_alike_are_counted_exactly(tmp_path):
    """The one pass proves no ID repeats by its hashes; where hashes meet, the IDs themselves decide."""
    duckdb = pytest.importorskip("duckdb")
    from helpers.team.duckdb_engine import _row_counts, _view

    distinct = write_key(tmp_path / "distinct.parquet", {"S1": "R", "S2": "N", "S3": "R"})
    repeated = tmp_path / "repeated.parquet"
    pq.write_table(pa.table({"id": ["S1", "S2", "S1"], "answer": ["R", "N", "R"]}), repeated)
    con = duckdb.connect()
    con.execute("CREATE TEMP MACRO hash(x) AS 0")  # every ID hashes alike
    try:
        assert _view(con, "d", str(distinct), ["id"], "answer")
        assert _view(con, "r", str(repeated), ["id"], "answer")
        assert _row_counts(con, ("d", "r"), 1) == [3, None]
        assert _row_counts(con, ("r", "d"), 1) == [None, 3]
    finally:
        con.close()


@pytest.mark.parametrize("engine", ENGINES)
def test_generated_qrels_give_the_python_bytes(engine, tmp_path, capfdbinary):
    rng = random.Random(33)
    queries, docs = generated_ids(rng, 40), generated_ids(rng, 60)
    baseline = {(q, d): rng.choice([0, 1, 2]) for q in queries for d in rng.sample(docs, 5)}
    proposed = {k: (v if i % 7 else v + 1) for i, (k, v) in enumerate(baseline.items()) if i % 11}
    proposed[(queries[0], "\U0001f600new")] = 1
    b = write_key(tmp_path / "b.parquet", baseline, answers=pa.int64())
    p = write_key(tmp_path / "p.parquet", proposed, answers=pa.int64())
    for mode in ((), ("--summary",), ("--summary-json",)):
        code, _, _ = same_bytes(capfdbinary, engine, *key_args(b, p, pairs=True), *mode)
        assert code == 1


def _key_refusals() -> list[tuple[str, pa.Table, pa.Table]]:
    good = pa.table({"id": ["S1", "S2"], "answer": ["R", "N"]})
    return [
        ("repeated-id", pa.table({"id": ["S1", "S1"], "answer": ["R", "N"]}), good),
        ("null-id", pa.table({"id": pa.array(["S1", None]), "answer": ["R", "N"]}), good),
        ("empty-id", good, pa.table({"id": ["S1", ""], "answer": ["R", "N"]})),
        ("null-answer", good, pa.table({"id": ["S1", "S2"], "answer": pa.array(["R", None])})),
        (
            "empty-baseline",
            pa.table({"id": pa.array([], pa.string()), "answer": pa.array([], pa.string())}),
            good,
        ),
        ("float-answer", pa.table({"id": ["S1"], "answer": [1.5]}), good),
        ("boolean-answer", good, pa.table({"id": ["S1"], "answer": [True]})),
        ("no-answer-column", pa.table({"id": ["S1"]}), good),
    ]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("name", "baseline", "proposed"), _key_refusals(), ids=[n for n, *_ in _key_refusals()]
)
def test_refused_keys_are_refused_alike(name, baseline, proposed, engine, tmp_path, capfdbinary):
    b, p = tmp_path / "b.parquet", tmp_path / "p.parquet"
    pq.write_table(baseline, b)
    pq.write_table(proposed, p)
    for mode in ((), ("--summary-json",)):
        code, _, _ = same_bytes(capfdbinary, engine, *key_args(b, p), *mode)
        assert code in (2, 4)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_sentinel_list_gives_the_python_bytes(engine, tmp_path, capfdbinary):
    baseline, proposed = generated_keys(300)
    b = write_key(tmp_path / "b.parquet", baseline)
    p = write_key(tmp_path / "p.parquet", proposed)
    ids = tmp_path / "ids.txt"
    ids.write_text("".join(k + "\n" for k in list(baseline)[::3] if "\n" not in k), encoding="utf-8")
    same_bytes(capfdbinary, engine, *key_args(b, p), "--sentinels", str(ids), "--summary")


# --- what the engines take, and the process itself --------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_names_the_formats_it_takes(engine, tmp_path, capfdbinary):
    records = tmp_path / "r.jsonl"
    records.write_text('{"original":["a"],"rewritten":["a"]}\n', encoding="utf-8")
    csv = tmp_path / "r.csv"
    csv.write_text('id,original,rewritten\nr1,"[""a""]","[""a""]"\n', encoding="utf-8")
    # CSV has a route: the Python route's bytes
    same_bytes(capfdbinary, engine, "target-scope", str(csv), "--format", "csv")
    for args in (
        ["sentinels", str(records)],
        ["sentinels", "--baseline", str(records), "--proposed", str(records)],
    ):
        code, out, err = run(capfdbinary, *args, "--engine", engine)
        assert (code, out) == (2, b"")
        assert err.count(b"\n") == 1 and (b"no route" in err or b"no engine route" in err), err
        assert b"Python route" in err, err
        # auto takes the Python route for them, byte for byte
        assert run(capfdbinary, *args, "--engine", "auto") == run(capfdbinary, *args)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_process_gives_the_python_bytes(engine, tmp_path):
    path = write_scope(tmp_path / "rewrites.parquet", generated_rewrites(300, seed=5))
    baseline, proposed = generated_keys(300, seed=6)
    b, p = write_key(tmp_path / "b.parquet", baseline), write_key(tmp_path / "p.parquet", proposed)
    for args in (["target-scope", str(path), "--format", "parquet"], key_args(b, p)):
        runs = [
            subprocess.run(
                [sys.executable, "-m", "helpers", *args, "--engine", name],
                capture_output=True,
                timeout=120,
                check=False,
            )
            for name in ("python", engine)
        ]
        assert [(r.returncode, r.stdout, r.stderr) for r in runs[1:]] == [
            (runs[0].returncode, runs[0].stdout, runs[0].stderr)
        ]
        assert runs[0].returncode in (1, 3) and runs[0].stdout


@pytest.mark.skipif(not ALL, reason="the large corpus runs with --all")
@pytest.mark.parametrize("engine", ENGINES)
def test_a_large_corpus_gives_the_python_bytes(engine, tmp_path, capfdbinary):
    path = write_scope(tmp_path / "big.parquet", generated_rewrites(60_000, seed=7), row_group_size=4_096)
    same_bytes(capfdbinary, engine, "target-scope", str(path), "--format", "parquet")
    baseline, proposed = generated_keys(60_000, seed=8)
    b, p = write_key(tmp_path / "b.parquet", baseline), write_key(tmp_path / "p.parquet", proposed)
    same_bytes(capfdbinary, engine, *key_args(b, p), "--summary-json")


def test_auto_picks_duckdb_from_its_threshold(tmp_path, capfdbinary, monkeypatch):
    """``--engine auto`` hands a Parquet file to DuckDB from the stated size, and only then."""
    pytest.importorskip("duckdb")
    from helpers.team import commands as check_commands
    from helpers.team import duckdb_engine, duckdb_scope

    calls: list[str] = []
    for module, name in ((duckdb_scope, "scope_parquet_blocks"), (duckdb_engine, "check_parquet_keys")):
        real = getattr(module, name)
        monkeypatch.setattr(
            module, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k)
        )
    path = write_scope(tmp_path / "r.parquet", generated_rewrites(200))
    b, p = (
        write_key(tmp_path / f"{n}.parquet", key) for n, key in zip("bp", generated_keys(200), strict=True)
    )
    scope = ["target-scope", str(path), "--format", "parquet"]
    small = [run(capfdbinary, *args, "--engine", "auto") for args in (scope, key_args(b, p))]
    assert calls == [] and check_commands._AUTO_DUCKDB_BYTES == 1 << 20
    smallest = min(path.stat().st_size, b.stat().st_size + p.stat().st_size)
    monkeypatch.setattr(check_commands, "_AUTO_DUCKDB_BYTES", smallest)
    big = [run(capfdbinary, *args, "--engine", "auto") for args in (scope, key_args(b, p))]
    assert calls == ["scope_parquet_blocks", "check_parquet_keys"]
    assert big == small == [run(capfdbinary, *args) for args in (scope, key_args(b, p))]
