"""Two ``.json`` answer keys checked from their bytes (:mod:`helpers.team.json_keys`): as lists or the exact way, alike."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from helpers.team.json_keys import check_json_key_texts

KEYS = st.dictionaries(
    st.sampled_from(["S1", "S2", "S3", "x"]), st.sampled_from(["R", "A", "R "]), max_size=4
)


def _both_routes(baseline: bytes, proposed: bytes):
    sources = ("b.json", "p.json")
    return (
        check_json_key_texts(baseline, proposed, sources=sources, min_bytes=0),
        check_json_key_texts(baseline, proposed, sources=sources, min_bytes=1 << 30),
    )


@given(baseline=KEYS, proposed=KEYS, indent=st.sampled_from([None, 1]))
def test_the_lists_route_and_the_exact_route_give_one_result(baseline, proposed, indent):
    lists, exact = _both_routes(json.dumps(baseline, indent=indent).encode(), json.dumps(proposed).encode())
    assert lists.exit_code == exact.exit_code
    assert lists.result == exact.result
    assert (lists.baseline_ids, lists.proposed_ids, lists.new_ids) == (
        exact.baseline_ids,
        exact.proposed_ids,
        exact.new_ids,
    )
    for sentinel in exact.result.changed if exact.result else ():
        assert lists.answers(sentinel) == exact.answers(sentinel) == (baseline[sentinel], proposed[sentinel])


def test_a_changed_answer_holds_the_key_and_names_its_sources():
    lists, exact = _both_routes(b'{"S1":"R","S2":"A"}', b'{"S1":"R","S2":"B","x":"y"}')
    assert lists.sizes == (2, 3, 1) and exact.sizes is None  # each route really taken
    for check in (lists, exact):
        assert check.exit_code == 1 and check.result.changed == ("S2",)
        assert (check.baseline.source, check.proposed.source) == ("b.json", "p.json")
        assert check.answers("S2") == ("A", "B") and check.new_ids == 1


def test_a_key_the_lists_cannot_vouch_for_is_read_the_exact_way_and_its_problem_named():
    lists, exact = _both_routes(b'{"S1":"R","S1":"A"}', b'{"S1":"R"}')
    for check in (lists, exact):
        assert check.exit_code == 4 and check.result is None
        assert [str(error) for error in check.errors] == [
            'b.json, line 1: duplicate ID "S1" (first given on line 1); each ID may appear only once'
        ]
