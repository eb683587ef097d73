"""Plain-language explanations (:mod:`helpers.core.explain`): one sentence per finding, in the reported order."""

from __future__ import annotations

from helpers.core.explain import explain, explain_sentinels, explain_target_scope
from helpers.core.sentinels import check_sentinels
from helpers.core.target_scope import check_target_scope_input


def test_a_lost_and_an_added_target_are_each_a_sentence_then_the_verdict():
    result = check_target_scope_input({"original": ["a", "b"], "rewritten": ["a", "c"]})
    assert explain_target_scope(result) == [
        "b is missing: the original asks about it and the rewrite does not.",
        "c was added: the rewrite asks about it and the original did not.",
        "Scope not preserved: repair the rewrite before it is used.",
    ]


def test_a_preserved_scope_says_the_wording_is_not_checked():
    result = check_target_scope_input({"original": ["a"], "rewritten": ["a"]})
    assert explain_target_scope(result) == [
        "Scope preserved: every original target is still there and nothing was added. "
        "The rest of the query's wording is not checked."
    ]


def test_a_held_rewrite_names_what_could_not_be_resolved():
    result = check_target_scope_input({"original": ["a"], "rewritten": ["a"], "unresolved": ["x", "y"]})
    (line,) = explain_target_scope(result)
    assert line.startswith("Held for staff labels: x, y could not be resolved")
    assert line.endswith("A held rewrite is never preserved.")


def test_a_sentinel_key_names_the_missing_the_changed_with_a_diff_and_the_sorted_extras():
    baseline, proposed = {"S1": "R", "S2": "A"}, {"S1": "S", "Z": "q", "B": "q"}
    record = {"baseline": baseline, "proposed": proposed}
    lines = explain("sentinels", record, check_sentinels(baseline, proposed))
    assert lines == [
        "S2 is missing: the baseline has it and the proposed key does not.",
        "S1 changed: [-R-]{+S+}.",
        "New non-sentinel cases, allowed and not checked: B, Z.",
        "Hold the key before scoring: fix it, or revise the baseline if the change is authorised.",
    ]


def test_an_intact_key_is_one_sentence_and_an_invisible_change_is_shown_and_named():
    assert explain_sentinels(check_sentinels({"S1": "R"}, {"S1": "R"}), {"S1": "R"}, {"S1": "R"}) == [
        "Intact: every sentinel is present with its literal answer."
    ]
    changed = explain_sentinels(check_sentinels({"S1": "R "}, {"S1": "R"}), {"S1": "R "}, {"S1": "R"})
    assert changed[0] == "S1 changed: R[-\u00b7-] (U+0020 SPACE removed)."


def test_any_other_check_name_is_explained_as_target_scope():
    record = {"original": ["a"], "rewritten": []}
    result = check_target_scope_input(record)
    assert explain("target-scope", record, result) == explain_target_scope(result)
