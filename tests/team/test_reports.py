"""The reports of a batch run (:mod:`helpers.team.reports`): the summary as text and as JSON, in their documented shapes."""

from __future__ import annotations

from helpers.core.errors import InvalidInputError, JSONLoadError
from helpers.core.paths import fixtures_dir
from helpers.team.batch import BatchSummary, check_answer_keys, check_file, check_records
from helpers.team.key_formats import pair_id
from helpers.team.reports import key_error_object, key_result_json, percent, summary_json, summary_text
from helpers.team.sources import AnswerKey

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


def test_a_share_is_a_percent_to_one_place_or_a_dash_of_nothing():
    assert [percent(1, 3), percent(2, 2), percent(0, 0)] == ["33.3%", "100.0%", "-"]


def test_a_key_problem_names_its_source_line_and_field_a_judgement_as_an_object():
    loaded = JSONLoadError("bad", source="k.tsv", line=3, field=pair_id("q1", "d2"))
    assert key_error_object(loaded, pairs=True) == {
        "source": "k.tsv",
        "line": 3,
        "field": {"query": "q1", "doc": "d2"},
        "error": "bad",
    }
    assert key_error_object(InvalidInputError("empty")) == {
        "source": None,
        "line": None,
        "field": None,
        "error": "empty",
    }


def test_a_qrels_result_line_writes_each_judgement_as_query_and_doc():
    baseline = AnswerKey("b", "trec-qrels", {pair_id("q1", "d1"): "1", pair_id("q1", "d2"): "0"})
    check = check_answer_keys(baseline, AnswerKey("p", "trec-qrels", {pair_id("q1", "d1"): "2"}))
    assert check.pairs
    assert key_result_json(check) == {
        "missing": [{"query": "q1", "doc": "d2"}],
        "changed": [{"query": "q1", "doc": "d1"}],
        "intact": False,
    }
