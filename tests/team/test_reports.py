"""The reports of a batch run (:mod:`helpers.team.reports`): the summary as text and as JSON, in their documented shapes."""

from __future__ import annotations

from helpers.core.paths import fixtures_dir
from helpers.team.batch import BatchSummary, check_file, check_records
from helpers.team.reports import summary_json, summary_text

SAMPLE = fixtures_dir() / "sample_data"


def test_summary_reports_have_their_documented_shapes():
    summary = check_file(SAMPLE / "rewrites.jsonl", max_failures=2)
    data = summary_json(summary)
    assert list(data) == [
        "check",
        "source",
        "records",
        "outcomes",
        "changes",
        "most_often_lost",
        "most_often_lost_undercount",
        "failures_total",
        "failures",
        "exit_status",
    ]
    assert data["failures"][0] == {
        "line": 3,
        "id": "r03",
        "query": "Induction versus refresher: which is longer?",
        "outcome": "not preserved",
        "explanation": 'lost "refresher"',
        "output": {"missing": ["refresher"], "added": [], "preserved": False},
    }
    text = summary_text(summary)
    assert text.startswith("Target scope: fixtures/sample_data/rewrites.jsonl\nrecords checked: 24\n")
    assert "first 2 of 14 records that did not pass:" in text
    assert text.endswith("exit status 4: bad input: something could not be checked\n")


def test_sentinel_record_summary_has_no_target_counts():
    lines = [
        b'{"baseline":{"S1":"R"},"proposed":{"S1":"S"}}',
        b'{"baseline":{"S1":"R"},"proposed":{"S1":"R"}}',
    ]
    summary = check_records(lines, BatchSummary("sentinels", "s"))
    data = summary_json(summary)
    assert data["outcomes"] == {"intact": 1, "hold before scoring": 1, "bad input": 0}
    assert "changes" not in data and data["failures"][0]["explanation"] == 'changed "S1" [-R-]{+S+}'
