"""The reasons a case offers (``helpers/trainee/views/reasons.py``): labels, plain lines, the folded notes."""

from __future__ import annotations

from dataclasses import replace

from helpers.trainee.cases.rules import load_rules
from helpers.trainee.html import Html
from helpers.trainee.views.reasons import (
    REASON_NOTES_SUMMARY,
    reason_label,
    reasons_html,
    reasons_lines,
    rules_for,
)

RULES = load_rules()


def test_rules_come_in_the_order_asked_and_unknown_ids_are_left_out() -> None:
    assert [rule.id for rule in rules_for(["sk-changed", "no-such-rule", "ts-lost"])] == [
        "sk-changed",
        "ts-lost",
    ]
    assert rules_for(["ts-lost"], rules=[]) == []


def test_a_label_is_the_plain_name_then_the_id_or_the_bare_id_when_unknown() -> None:
    assert reason_label("ts-lost") == "A target lost (ts-lost)"
    assert reason_label("no-such-rule") == "no-such-rule"
    assert all(reason_label(rule.id, RULES) == f"{rule.name} ({rule.id})" for rule in RULES)


def test_plain_lines_mark_only_the_picked_reason() -> None:
    offered = rules_for(["ts-lost", "sk-changed"])
    assert reasons_lines(offered, "sk-changed") == [
        "    ( ) A target lost (ts-lost)",
        "    (*) A sentinel's answer changed (sk-changed)",
    ]
    assert all(line.startswith("    ( ) ") for line in reasons_lines(offered))


def test_the_notes_fold_away_each_rules_statement_escaped() -> None:
    assert reasons_html([]) == Html()
    (lost,) = rules_for(["ts-lost"])
    assert reasons_html([lost]) == (
        f'<details class="eic-reason-notes"><summary>{REASON_NOTES_SUMMARY}</summary><ul>'
        '<li><b>A target lost</b> <small><code class="eic-id">ts-lost</code></small>: '
        "A target the original has and the rewrite lacks is missing, so the rewrite is not preserved.</li>"
        "</ul></details>"
    )
    hostile = replace(lost, name="<img src=x>", statement="a < b & c")
    shown = reasons_html([hostile])
    assert "<img" not in shown and "&lt;img src=x&gt;" in shown and "a &lt; b &amp; c" in shown
