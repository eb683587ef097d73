"""Two answer keys walked side by side (:mod:`helpers.team.key_windows`): the first place they part."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from helpers.team.key_windows import first_difference


def _looked_up(ids, answers, their_ids, their_answers, i, j):
    """The same walk one pair at a time (an independent oracle)."""
    while i < len(ids) and j < len(their_ids):
        if ids[i] != their_ids[j] or answers[i] != their_answers[j]:
            break
        i, j = i + 1, j + 1
    return i, j


def test_equal_keys_are_walked_to_their_end():
    ids, answers = ["a", "b", "c"], ["1", "2", "3"]
    assert first_difference(ids, answers, ids, answers, 0, 0, window=2) == (3, 3)


def test_a_changed_answer_or_id_stops_the_walk_there():
    ids, answers = ["a", "b", "c", "d"], ["1", "2", "3", "4"]
    assert first_difference(ids, answers, ids, ["1", "2", "X", "4"], 0, 0, window=2) == (2, 2)
    assert first_difference(ids, answers, ["a", "b", "c", "e"], answers, 1, 1, window=3) == (3, 3)


def test_where_one_side_ends_first_the_walk_stops_there():
    assert first_difference(["a", "b"], ["1", "2"], ["a"], ["1"], 0, 0) == (1, 1)
    assert first_difference(["b"], ["2"], ["a", "b"], ["1", "2"], 0, 1) == (1, 2)
    assert first_difference([], [], ["a"], ["1"], 0, 0) == (0, 0)


PAIRS = st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("xy")), max_size=12)


@given(ours=PAIRS, theirs=PAIRS, i=st.integers(0, 3), j=st.integers(0, 3), window=st.integers(1, 5))
def test_any_window_finds_what_one_pair_at_a_time_finds(ours, theirs, i, j, window):
    ids, answers = [p[0] for p in ours], [p[1] for p in ours]
    their_ids, their_answers = [p[0] for p in theirs], [p[1] for p in theirs]
    i, j = min(i, len(ids)), min(j, len(their_ids))
    assert first_difference(ids, answers, their_ids, their_answers, i, j, window) == _looked_up(
        ids, answers, their_ids, their_answers, i, j
    )
