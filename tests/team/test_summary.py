"""The bounded summary of a batch run (:mod:`helpers.team.summary`): counts, capped failures, the most-often-lost count."""

from __future__ import annotations

import collections

from hypothesis import given
from hypothesis import strategies as st

from helpers.team.batch import BatchSummary, TopCounter, check_records


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
