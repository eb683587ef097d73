"""The checks' fast paths (:mod:`helpers.team.fast_checks`): the exact result for what they can vouch for, else a decline."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.jsonio import loads_strict
from helpers.core.sentinels import check_sentinels, check_sentinels_input
from helpers.core.target_scope import check_target_scope_input
from helpers.team import fast_checks
from helpers.team.fast_checks import (
    FAST_CHECKS,
    PRESERVED,
    answers_are_strings,
    fast_answer_key,
    fast_sentinels,
    fast_sentinels_text,
    fast_target_scope,
)

IDS = st.lists(st.sampled_from(["a", "b", "é", "😀", "\uff01", "Z"]), max_size=5)


@given(original=IDS, rewritten=IDS, unresolved=st.none() | IDS)
def test_a_well_formed_rewrite_gets_the_exact_result(original, rewritten, unresolved):
    record = {"original": original, "rewritten": rewritten}
    if unresolved is not None:
        record["unresolved"] = unresolved
    fast = fast_target_scope(record)
    assert fast is not None
    exact = check_target_scope_input(record)
    assert type(fast) is type(exact) and fast == exact


def test_a_preserved_rewrite_is_the_one_shared_result():
    assert fast_target_scope({"original": ["a", "b"], "rewritten": ["b", "a"], "id": "r1"}) is PRESERVED


@pytest.mark.parametrize(
    "record",
    [
        {"original": ("a",), "rewritten": ["a"]},
        {"original": ["a", ""], "rewritten": ["a"]},
        {"original": ["a"], "rewritten": ["a"], "id": 12},
        {"original": ["a"], "rewritten": ["a"], "extra": 1},
        {"original": ["a"]},
        ["a"],
    ],
)
def test_what_the_exact_check_must_judge_is_declined(record):
    assert fast_target_scope(record) is None


def test_an_answer_key_is_vouched_for_only_with_string_ids_and_answers():
    assert fast_answer_key({"S1": "R"})
    assert not fast_answer_key({"S1": 1}) and not fast_answer_key({1: "R"}) and not fast_answer_key({"": "R"})
    assert fast_answer_key({1: "R"}, json_keys=True)  # keys read from JSON are strings: not looked at
    assert not fast_answer_key([("S1", "R")])


KEYS = st.dictionaries(
    st.sampled_from(["S1", "S2", "😀", "\uff01", "C"]), st.sampled_from(["R", "A"]), max_size=5
)


@given(baseline=KEYS, proposed=KEYS)
def test_two_keys_get_the_exact_result_or_an_empty_baseline_is_declined(baseline, proposed):
    fast = fast_sentinels(baseline, proposed)
    if not baseline:
        assert fast is None
    else:
        assert fast == check_sentinels(baseline, proposed)


def test_the_text_proves_the_answers_strings_only_when_it_can():
    record_text = b'{"baseline":{"S1":"R","S2":"A"},"proposed":{"S1":"R"}}'
    record = loads_strict(record_text.decode())
    assert answers_are_strings(record_text, record)
    with_number = b'{"baseline":{"S1":"R","S2":1},"proposed":{"S1":"R"}}'
    assert not answers_are_strings(with_number, loads_strict(with_number.decode()))
    escaped = b'{"baseline":{"S1":"R\\n"},"proposed":{"S1":"R"}}'
    assert not answers_are_strings(escaped, loads_strict(escaped.decode()))


def test_a_long_record_text_is_checked_as_the_exact_check_does(monkeypatch):
    monkeypatch.setattr(fast_checks, "_PROOF_MIN", 0)
    record = {"baseline": {"S1": "R", "S2": "A"}, "proposed": {"S1": "S"}, "id": "k"}
    text = json.dumps(record, separators=(",", ":")).encode()
    assert fast_sentinels_text(record, text) == check_sentinels_input(record)
    assert fast_sentinels_text({**record, "id": 3}, text) is None
    assert fast_sentinels_text({"baseline": {"S1": "R"}}, None) is None
    assert set(FAST_CHECKS) == {"target-scope", "sentinels"}
