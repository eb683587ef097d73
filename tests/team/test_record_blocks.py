"""The batch loop (:mod:`helpers.team.record_blocks`): raw lines, parsed records and an engine's counts, in order."""

from __future__ import annotations

import io

from helpers.core.checks import check_lines
from helpers.core.jsonio import JsonLine, dumps_compact, iter_json_lines
from helpers.team.record_blocks import EngineBlock, check_blocks
from helpers.team.summary import BatchSummary, Written

LINES = [
    b'{"original":["a"],"rewritten":["a"]}',
    b'{"original":["a","b"],"rewritten":["a"]}',
    b"not json",
    b'{"original":["a"],"rewritten":["a"],"unresolved":["x"]}',
]
PRESERVED = b'{"missing":[],"added":[],"preserved":true}\n'


def _reference(lines: list[bytes]) -> bytes:
    parsed = iter_json_lines(io.BytesIO(b"\n".join(lines) + b"\n"), source="in.jsonl")
    return b"".join(dumps_compact(out).encode() + b"\n" for out, _ in check_lines("target-scope", parsed))


def _run(blocks, **options):
    written: list[bytes] = []
    summary = check_blocks(blocks, BatchSummary("target-scope", "in.jsonl"), write=written.append, **options)
    return summary, written


def test_raw_lines_in_any_blocks_give_the_reference_output_and_counts():
    for blocks in ([LINES], [LINES[:1], LINES[1:3], LINES[3:]]):
        summary, written = _run(blocks)
        assert b"".join(written) == _reference(LINES)
        assert len(written) == len(blocks)  # one write a block
        assert summary.records == 4 and summary.exit_code == 4
        assert summary.counts == {"preserved": 1, "not preserved": 1, "needs staff labels": 1, "bad input": 1}


def test_bad_lines_are_reported_by_source_and_line_and_progress_after_each_block():
    bad, seen = io.StringIO(), []
    _run([LINES[:2], LINES[2:]], bad_lines=bad, progress=seen.append, first_line=10)
    assert bad.getvalue() == "in.jsonl, line 12: not valid JSON: Expecting value (column 1)\n"
    assert seen == [2, 4]


def test_an_engine_s_counts_and_written_runs_take_their_place_in_order():
    written_run = Written(2, b"ENGINE-1\nENGINE-2\n", lost=1, held=1)
    parsed = JsonLine(5, {"original": ["c"], "rewritten": []})
    summary, written = _run([EngineBlock([LINES[0], 2, written_run, parsed])])
    assert b"".join(written) == (
        PRESERVED * 3 + b"ENGINE-1\nENGINE-2\n" + b'{"missing":["c"],"added":[],"preserved":false}\n'
    )
    assert summary.records == 6
    assert summary.counts["preserved"] == 3 and summary.counts["needs staff labels"] == 1
    assert summary.counts["not preserved"] == 2


def test_without_a_writer_nothing_is_written_and_everything_is_counted():
    summary = check_blocks([LINES], BatchSummary("target-scope", "in.jsonl"))
    assert summary.records == 4 and summary.failures_total == 3
