"""A record's walk from the command line enters each room once, downhill.

The command line hands a file to the batch driver (``helpers.team.batch``), whose loop
(``helpers.team.record_blocks``) hands each block of records to the one place they are read,
checked and written (``helpers.team.fastpath``), which uses the fast checks and fast JSON below it
and the exact parser, checks and writer of ``helpers.core`` for what it cannot do fast. Traced
call by call, the loop enters that place once a block, never once a record, and every call goes
down the rooms' order (:data:`RANK`): nothing below calls back up.
"""

from __future__ import annotations

import collections
import gc
import sys
from pathlib import Path

import pytest

from helpers.cli import main

#: Records of every kind: preserved, failed, held, refused, malformed, a repeated key, a colon escaped.
LINES = [
    b'{"original":["a","b"],"rewritten":["b","a"]}',
    b'{"original":["a","b"],"rewritten":["a"]}',
    b'{"id":"r3","original":["a"],"rewritten":["a","c"],"unresolved":[]}',
    b'{"original":["a"],"rewritten":["a"],"unresolved":["x"]}',
    b'{"original":["a"],"rewritten":[""]}',
    b"not json",
    b'{"original":["a"],"rewritten":["a"],"original":["b"]}',
    b'{"original":["a:b"],"rewritten":["a\\u003ab"]}',
]
SENTINEL_LINES = [
    b'{"baseline":{"S1":"R"},"proposed":{"S1":"R"}}',
    b'{"baseline":{"S1":"R","S2":"N"},"proposed":{"S1":"r"}}',
    b'{"baseline":{},"proposed":{}}',
    b'{"baseline":{"S1":"R","S1":"N"},"proposed":{}}',
]


def _module(frame) -> str:
    return frame.f_globals.get("__name__", "")


def _walk(args: list[str], capfdbinary) -> collections.Counter[tuple[str, str, str]]:
    """Every call from one helpers module into another during a command-line run, counted as
    ``(caller's module, callee's module, callee)``."""
    steps: collections.Counter[tuple[str, str, str]] = collections.Counter()

    def profile(frame, event, _arg):
        if event == "call" and frame.f_back is not None:
            callee, caller = _module(frame), _module(frame.f_back)
            if callee != caller and callee.startswith("helpers.") and caller.startswith("helpers."):
                steps[caller, callee, frame.f_code.co_name] += 1

    capfdbinary.readouterr()
    # Objects earlier tests left in reference cycles are collected now, not by a collection that
    # would run their finalizers from inside the traced walk.
    gc.collect()
    gc.disable()
    sys.setprofile(profile)
    try:
        main(args)
    finally:
        sys.setprofile(None)
        gc.enable()
    out, _ = capfdbinary.readouterr()
    assert out
    return steps


#: The rooms a record passes, highest first: a call may only go to a lower one.
RANK = {
    "helpers.cli": 10,
    "helpers.team.commands": 9,  # the checks' commands, where the command line hands the file on
    "helpers.team.batch": 8,
    "helpers.team.two_cores": 7,
    "helpers.team.record_blocks": 6,
    # DuckDB's route for JSON Lines, entered by the loop once a block: it reads the file's chunks,
    # has DuckDB judge them, and hands back what DuckDB cannot judge for the one place below.
    "helpers.team.duckdb_lines": 5.8,
    "helpers.team.duckdb_scope": 5.6,
    "helpers.team.duckdb_engine": 5.4,
    "helpers.team.summary": 5,
    "helpers.team.line_blocks": 5,  # the reader, cutting the file into blocks
    "helpers.team.inputs": 4,  # the file being read
    "helpers.team.fastpath": 4,
    "helpers.team.outcome_lines": 4,
    "helpers.team.fast_checks": 3,
    "helpers.team.key_lists": 3,
    "helpers.team.id_display": 3,
    "helpers.team.key_windows": 2,
    "helpers.team.fast_json": 1,
    "helpers.team.process_end": 1,
    "helpers.core": 0,
}


def _rank(module: str) -> float | None:
    for room, rank in RANK.items():
        if module == room or module.startswith(room + "."):
            return rank
    return None


#: What reads, checks or writes a record in ``helpers.core``: the loop itself never calls them.
_RECORD_WORK = {
    "helpers.core.jsonio": None,  # the exact parser and writer, every function
    "helpers.core.validation": None,
    "helpers.core.target_scope": {"check_target_scope", "check_target_scope_input"},
    "helpers.core.sentinels": {"check_sentinels", "check_sentinels_input"},
}


@pytest.mark.parametrize(("check", "lines"), [("target-scope", LINES), ("sentinels", SENTINEL_LINES)])
@pytest.mark.parametrize("options", [[], ["--carry"], ["--summary-json"]], ids=["lines", "carry", "summary"])
def test_a_record_enters_each_room_once(tmp_path: Path, capfdbinary, check, lines, options):
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"\n".join(lines * 60) + b"\n")  # one block of records
    steps = _walk([check, str(path), *options], capfdbinary)
    # The loop enters the one place once a block (and once to set it up), never once a record.
    into_fastpath = sum(
        n
        for (caller, callee, name), n in steps.items()
        if (caller, callee) == ("helpers.team.record_blocks", "helpers.team.fastpath")
        and name != "__getattr__"
    )
    assert 1 <= into_fastpath <= 3, steps
    # It reads, checks and writes nothing itself: that is all below the one place.
    for (caller, callee, name), count in steps.items():
        if caller in ("helpers.team.batch", "helpers.team.record_blocks") and callee in _RECORD_WORK:
            names = _RECORD_WORK[callee]
            assert names is not None and name not in names, (caller, callee, name, count)
    # Every call goes downhill: nothing below the loop calls back into it, nor core up into data.
    # (The import system asks a module with ``__getattr__`` for names: that is no call of the walk;
    # the writer the command line hands down is called back with each block's output.)
    assert not _uphill(steps), _uphill(steps)
    assert not [s for s in steps if s[0].startswith("helpers.core.") and s[1].startswith("helpers.team.")]
    # The one place goes to core for what it cannot do fast: every malformed line, read exactly.
    exact = steps["helpers.team.fastpath", "helpers.core.jsonio", "parse_json_line"]
    assert exact >= 60, steps


def _uphill(steps: collections.Counter[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return [
        s
        for s in steps
        if s[2] != "__getattr__"
        and s[:3] != ("helpers.team.record_blocks", "helpers.core.streams", "write")
        and _rank(s[0]) is not None
        and _rank(s[1]) is not None
        and not (s[0].startswith("helpers.core.") and s[1].startswith("helpers.core."))
        and not (s[0].startswith("helpers.cli.") and s[1].startswith("helpers.cli."))
        and _rank(s[1]) >= _rank(s[0])  # type: ignore[operator]
    ]


@pytest.mark.parametrize("engine", ["duckdb", "auto"])
def test_the_engine_route_is_chosen_once_and_entered_once_a_block_downhill(
    tmp_path: Path, capfdbinary, engine
):
    """The engine-choice helpers of the command line run once, and DuckDB's route, like the Python
    route, is entered by the loop once a block and only ever calls down."""
    pytest.importorskip("duckdb")
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"\n".join(LINES * 60) + b"\n")
    steps = _walk(["target-scope", str(path), "--engine", engine], capfdbinary)
    # The engine is asked for once: is DuckDB there at all.
    assert steps["helpers.team.commands", "helpers.team.duckdb_engine", "duckdb_missing"] == 1, steps
    into_duckdb = sum(
        n
        for (caller, callee, _), n in steps.items()
        if (caller, callee) == ("helpers.team.record_blocks", "helpers.team.duckdb_lines")
    )
    if engine == "duckdb":
        assert 1 <= into_duckdb <= 3, steps
        # What DuckDB cannot judge (the malformed line, the repeated key) goes to the one place, read exactly.
        assert steps["helpers.team.fastpath", "helpers.core.jsonio", "parse_json_line"] >= 60, steps
    else:  # a small file: auto keeps the Python route, and DuckDB's is never entered
        assert into_duckdb == 0, steps
    assert not _uphill(steps), _uphill(steps)
