"""IDs in reports: the notebooks' visible notation in text, exact values (qrels pairs as objects) in JSON."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from helpers.team.id_display import id_json, id_text, split_pair
from helpers.team.key_formats import pair_id


def test_look_alike_ids_read_differently_in_a_text_summary(run_cli):
    line = json.dumps({"original": ["T04256"], "rewritten": ["\u042204256"]}).encode() + b"\n"
    done = run_cli("target-scope", "--summary", stdin=line)
    text = done.stdout.decode("utf-8")
    assert 'lost "T04256"; added "⟨U+0422⟩04256"' in text
    exact = run_cli("target-scope", "--summary-json", stdin=line)
    output = json.loads(exact.stdout)["failures"][0]["output"]
    assert output == {"missing": ["T04256"], "added": ["\u042204256"], "preserved": False}


@given(st.text(min_size=1, max_size=12), st.text(min_size=1, max_size=12))
def test_two_different_ids_never_read_the_same(first, second):
    if first != second:
        assert id_text(first) != id_text(second)
        assert id_text(pair_id(first, "d"), pairs=True) != id_text(pair_id(second, "d"), pairs=True)


@given(st.text(max_size=8), st.text(max_size=8))
def test_a_pair_id_round_trips(query, doc):
    assert split_pair(pair_id(query, doc)) == (query, doc)
    assert id_json(pair_id(query, doc), pairs=True) == {"query": query, "doc": doc}


def test_a_plain_id_that_looks_like_a_pair_stays_exact_without_pairs():
    assert id_json('["q1","d1"]') == '["q1","d1"]'
    assert id_text('["q1","d1"]') == '"[\\"q1\\",\\"d1\\"]"'
    assert id_text('["q1","d1"]', pairs=True) == "q1 d1"
