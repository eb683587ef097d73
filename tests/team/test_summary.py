"""The bounded summary of a batch run (:mod:`helpers.team.summary`): counts, capped failures, the most-often-lost count."""

from __future__ import annotations

import collections

from hypothesis import given
from hypothesis import strategies as st

from helpers.team.batch import BatchSummary, TopCounter, check_records
from helpers.team.summary import Written, merge_summaries, record_unit


@given(st.lists(st.sampled_from("abcdefgh"), max_size=200), st.integers(1, 10))
def test_top_counter_bounds(items, capacity):
    counter = TopCounter(capacity)
    for item in items:
        counter.add(item)
    true = collections.Counter(items)
    assert len(counter.counts) <= capacity
    for item, count in counter.counts.items():
        assert true[item] - counter.undercount <= count <= true[item]
    for item, count in true.items():
        if count > len(items) / (capacity + 1):
            assert item in counter.counts
    if len(true) <= capacity:
        assert counter.exact and counter.counts == dict(true)


def test_top_counter_ties_in_javascript_order():
    counter = TopCounter()
    for item in ["b", "\uffff", "😀", "a", "b"]:
        counter.add(item)
    assert counter.most_common(4) == [("b", 2), ("a", 1), ("😀", 1), ("\uffff", 1)]


def test_failures_are_capped_but_counted():
    lines = [b'{"original":["a"],"rewritten":[]}'] * 50
    summary = check_records(lines, BatchSummary("target-scope", "s", max_failures=3))
    assert (len(summary.failures), summary.failures_total, summary.records) == (3, 50, 50)


def test_merged_top_counts_keep_the_misra_gries_bound():
    from helpers.team.batch import BatchSummary, merge_summaries

    first, second = (BatchSummary(check="target-scope", source="x") for _ in range(2))
    for summary in (first, second):
        summary.lost_targets.capacity = 3
    for item in "aaaabbc":
        first.lost_targets.add(item)
    for item in "aaddde":
        second.lost_targets.add(item)
    merged = merge_summaries(first, second).lost_targets
    true = collections.Counter("aaaabbcaaddde")
    assert len(merged.counts) <= 3
    for item, count in merged.counts.items():
        assert true[item] - merged.undercount <= count <= true[item]
    assert "a" in merged.counts


def test_a_new_summary_has_every_outcome_at_zero_and_no_records_is_bad_input():
    scope, keys = BatchSummary("target-scope", "s"), BatchSummary("sentinels", "k")
    assert scope.counts == {"preserved": 0, "not preserved": 0, "needs staff labels": 0, "bad input": 0}
    assert keys.counts == {"intact": 0, "hold before scoring": 0, "bad input": 0}
    assert scope.exit_code == 4
    keys.add_passes(3)
    assert (keys.records, keys.passed, keys.exit_code) == (3, 3, 0)


def test_a_failure_counted_only_once_the_list_is_full_is_counted_as_add_counts_it():
    full = BatchSummary("target-scope", "s", max_failures=0)
    assert full.failures_full()
    full.add_not_preserved(("a", "b"), ())
    full.add_not_preserved(("a",), ("c",))
    full.add_not_preserved((), ("c",))
    assert (full.records, full.lost, full.lost_and_added, full.added, full.failures_total) == (3, 1, 1, 1, 3)
    assert full.lost_targets.most_common(2) == [("a", 2), ("b", 1)] and full.failures == []
    assert full.exit_code == 1


def test_an_engine_s_written_run_is_counted_by_outcome_with_no_failure_kept():
    summary = BatchSummary("target-scope", "s")
    summary.add_written(Written(10, b"", lost=2, added=1, lost_and_added=1, held=3))
    assert summary.counts == {"preserved": 3, "not preserved": 4, "needs staff labels": 3, "bad input": 0}
    assert (summary.lost, summary.added, summary.lost_and_added, summary.failures_total) == (2, 1, 1, 7)
    assert summary.exit_code == 3 and summary.failures == []


def test_merging_keeps_counts_exact_and_the_first_failures_in_order():
    first = check_records(
        [b'{"original":["a"],"rewritten":[]}'] * 2, BatchSummary("target-scope", "s", max_failures=3)
    )
    second = check_records([b"{", b'{"original":["b"],"rewritten":[]}'], BatchSummary("target-scope", "s"))
    merged = merge_summaries(first, second)
    assert merged.records == 4 and merged.exit_code == 4
    assert [f.outcome for f in merged.failures] == ["not preserved", "not preserved", "bad input"]
    assert merged.failures_total == 4 and merged.lost_targets.most_common(2) == [("a", 2), ("b", 1)]
    assert record_unit("parquet") == "row" and record_unit("csv") == record_unit("jsonl") == "line"
