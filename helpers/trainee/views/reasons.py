"""The reasons a case offers, as a trainee reads them: a short plain name first, the rule id after it.

A reason option's label is :attr:`helpers.trainee.cases.rules.Rule.label` (``A target lost (ts-lost)``);
what each rule says is one click away, in a ``<details>`` under the options, in the order shown (the
order is shuffled per case, so the list gives nothing away). Used by the exercises of
``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``, the drills of ``04_practice.ipynb``
and the check-out of ``07_checkout.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence

from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.html import Html, html, html_join, prose

__all__ = ["REASON_NOTES_SUMMARY", "rules_for", "reason_label", "reasons_html", "reasons_lines"]

#: The summary line of the folded list of what each reason says.
REASON_NOTES_SUMMARY = "What each reason says"


def rules_for(rule_ids: Sequence[str], rules: Sequence[Rule] | None = None) -> list[Rule]:
    """The rules of ``rule_ids``, in that order (``rules`` or the project's); an unknown id is left out."""
    known = {rule.id: rule for rule in (rules if rules is not None else load_rules())}
    return [known[rule_id] for rule_id in rule_ids if rule_id in known]


def reason_label(rule_id: str, rules: Sequence[Rule] | None = None) -> str:
    """The option text of ``rule_id``: ``A target lost (ts-lost)``; the bare id when no rule has it."""
    found = rules_for([rule_id], rules)
    return found[0].label if found else rule_id


def reasons_html(rules: Sequence[Rule]) -> Html:
    """What each offered reason says, folded away: name, then the id in small type, then the statement."""
    if not rules:
        return Html()
    items = html_join(
        html(
            '<li><b>{}</b> <small><code class="eic-id">{}</code></small>: {}</li>',
            rule.name,
            rule.id,
            prose(rule.statement, notated=True),
        )
        for rule in rules
    )
    return html(
        '<details class="eic-reason-notes"><summary>{}</summary><ul>{}</ul></details>',
        REASON_NOTES_SUMMARY,
        items,
    )


def reasons_lines(rules: Sequence[Rule], picked: str | None = None) -> list[str]:
    """The offered reasons as plain-text lines, one each: ``( ) A target lost (ts-lost)``."""
    return [f"    ({'*' if picked == rule.id else ' '}) {rule.label}" for rule in rules]
