"""One-line explanations of a record's outcome (:mod:`helpers.team.outcome_lines`)."""

from __future__ import annotations

import json

import pytest

from helpers.core.errors import InvalidInputError, JSONLoadError
from helpers.core.sentinels import check_sentinels
from helpers.core.target_scope import check_target_scope_input
from helpers.team.batch import outcomes_jsonl
from helpers.team.outcome_lines import IDS_SHOWN, count_text, explain_outcome, ids_text


def _scope(record: dict) -> str:
    return explain_outcome("target-scope", (1, 0, check_target_scope_input(record), None, record))


def test_a_target_scope_outcome_says_what_was_lost_and_added_cut_to_a_few_ids():
    assert IDS_SHOWN == 5
    assert _scope({"original": list("abcdefg"), "rewritten": ["z"]}) == (
        'lost "a", "b", "c", "d", "e" and 2 more; added "z"'
    )
    assert _scope({"original": ["a"], "rewritten": ["a"]}) == "preserved"
    assert _scope({"original": ["a"], "rewritten": ["a"], "unresolved": ["x y"]}) == (
        'unresolved, not yet labelled by staff: "x y"'
    )


def test_a_sentinel_outcome_shows_each_changed_answer_as_a_diff():
    baseline = {f"S{n}": "R" for n in range(8)}
    proposed = {key: "R " for key in baseline if key != "S0"}
    record = {"baseline": baseline, "proposed": proposed}
    line = explain_outcome("sentinels", (1, 1, check_sentinels(baseline, proposed), None, record))
    changed = ", ".join(f'"S{n}" R{{+\u00b7+}}' for n in range(1, 6))
    assert line == f'missing "S0"; changed {changed} and 2 more'
    intact = {"baseline": {"S1": "R"}, "proposed": {"S1": "R"}}
    assert (
        explain_outcome("sentinels", (1, 0, check_sentinels({"S1": "R"}, {"S1": "R"}), None, intact))
        == "intact"
    )


def test_a_bad_record_gives_its_error_without_the_source_and_line():
    loaded = JSONLoadError("not JSON", source="in.jsonl", line=3)
    assert explain_outcome("sentinels", (3, 4, None, loaded, None)) == "not JSON"
    shaped = InvalidInputError("original is 1, expected a list of string IDs", field="original")
    assert explain_outcome("target-scope", (2, 4, None, shaped, None)) == shaped.message


def test_anything_else_is_not_a_check_result():
    with pytest.raises(TypeError, match="not a check result: 'x'"):
        explain_outcome("target-scope", (1, 0, "x", None, None))


def test_counts_and_ids_in_words():
    assert [count_text(n, "line") for n in (0, 1, 2)] == ["0 lines", "1 line", "2 lines"]
    assert ids_text(["a", "\u200b"]) == '"a", "\u27e8U+200B\u27e9"'
    assert ids_text(["a", "b", "c"], limit=1) == '"a" and 2 more'


def test_explanations_are_short_and_exact():
    def explain(check, line):
        return explain_outcome(check, next(outcomes_jsonl([line], check, source="s")))

    assert explain("target-scope", b'{"original":["a","b"],"rewritten":["a","c"]}') == 'lost "b"; added "c"'
    many = json.dumps({"original": [f"t{i}" for i in range(8)], "rewritten": []}).encode()
    assert explain("target-scope", many) == 'lost "t0", "t1", "t2", "t3", "t4" and 3 more'
    held = b'{"original":["a"],"rewritten":["a"],"unresolved":["the spring course"]}'
    assert explain("target-scope", held) == 'unresolved, not yet labelled by staff: "the spring course"'
    changed = b'{"baseline":{"S1":"R","S2":"A"},"proposed":{"S1":"R\\u200b"}}'
    assert explain("sentinels", changed) == 'missing "S2"; changed "S1" R{+⟨U+200B⟩+}'
    assert (
        explain("target-scope", b"{")
        == "not valid JSON: Expecting property name enclosed in double quotes (column 2)"
    )
