"""The practice notebook's tables as escaped HTML: rules, coverage, and the drill summary.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...core.checks import CHECK_TITLES, require_check_name
from ..cases.practice_cases import PracticeCase
from ..cases.rules import Rule
from ..drill.course import Progress, rule_scores
from .case_html import HtmlBlock, esc, esc_id, scroll_region

__all__ = ["coverage", "coverage_table", "rules_table", "summary"]


def coverage(rules: Sequence[Rule], cases: Sequence[PracticeCase]) -> dict[str, list[PracticeCase]]:
    """Each rule id, in rule order, with the cases that exercise it (possibly none)."""
    table: dict[str, list[PracticeCase]] = {rule.id: [] for rule in rules}
    for case in cases:
        for rule_id in case.rules:
            if rule_id in table:
                table[rule_id].append(case)
    return table


def coverage_table(rules: Sequence[Rule], cases: Sequence[PracticeCase], check: str) -> HtmlBlock:
    """One check's rules × cases: a ● where a case exercises a rule, and a count per rule.

    Taught in ``04_practice.ipynb`` ("Which case practises which rule").
    """
    require_check_name(check)
    rules = [rule for rule in rules if rule.check == check]
    cases = [case for case in cases if case.check == check]
    covered = coverage(rules, cases)
    head = "".join(
        f'<th title="{esc(rule.statement)}"><code class="eic-id">{esc(rule.id)}</code></th>' for rule in rules
    )
    rows = []
    for case in cases:
        cells = "".join(f"<td>{'●' if rule.id in case.rules else ''}</td>" for rule in rules)
        rows.append(f'<tr><th scope="row"><code class="eic-id">{esc_id(case.id)}</code></th>{cells}</tr>')
    counts = "".join(f"<td><b>{len(covered[rule.id])}</b></td>" for rule in rules)
    html = (
        f'<table class="eic-coverage"><thead><tr><th>{esc(CHECK_TITLES[check])}: case</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}<tr><th>cases per rule</th>{counts}</tr></tbody></table>"
    )
    text = [f"{CHECK_TITLES[check]}: {len(cases)} practice cases, {len(rules)} rules"]
    for rule in rules:
        ids = ", ".join(case.id for case in covered[rule.id]) or "(none)"
        text.append(f"{rule.id} ({len(covered[rule.id])}): {ids}")
    return HtmlBlock(
        scroll_region(html, f"{CHECK_TITLES[check]}: which case practises which rule"), "\n".join(text)
    )


def rules_table(rules: Sequence[Rule]) -> HtmlBlock:
    """The rules with their statements and the section that teaches each.

    Taught in ``04_practice.ipynb`` ("The rules").
    """
    rows, text = [], []
    for rule in rules:
        rows.append(
            f"<tr><td><b>{esc(rule.name)}</b><br><small><code class='eic-id'>{esc(rule.id)}</code></small></td>"
            f'<td>{esc(rule.statement)}</td><td><a href="{esc(rule.href)}">{esc(rule.pointer)}</a></td></tr>'
        )
        text.append(f"{rule.label}: {rule.statement}\n  taught in {rule.pointer}")
    html = (
        '<table class="eic-rules"><thead><tr><th>Rule</th><th>Statement</th><th>Taught in</th></tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return HtmlBlock(html, "\n".join(text))


def summary(progress: Progress, cases: Iterable[PracticeCase], rules: Sequence[Rule]) -> HtmlBlock:
    """The end-of-drill summary: score, each rule missed, where, and the section that teaches it.

    Taught in ``04_practice.ipynb``.
    """
    by_key = {case.key: case for case in cases}
    scores = rule_scores(progress, by_key.values(), rules)
    missed = [score for score in scores if score.missed]
    state = "Drill finished" if progress.finished else "Drill so far"
    head = f"{state}: {progress.correct} of {progress.done} correct ({progress.percent()}%)."
    html = [f'<div class="eic-summary-body"><p><b>{esc(head)}</b></p>']
    text = [head]
    if not missed:
        html.append("<p>No rule missed.</p>")
        text.append("No rule missed.")
    else:
        html.append(
            '<p><b>Rules missed</b></p><table class="eic-missed"><thead><tr><th>Rule</th>'
            "<th>Missed in</th><th>Taught in</th></tr></thead><tbody>"
        )
        text.append("Rules missed:")
        for score in missed:
            where = "<br>".join(
                f"<code>{esc(by_key[key].id)}</code> {esc(by_key[key].title)}" for key in score.missed_in
            )
            html.append(
                f"<tr><td><code class='eic-id'>{esc(score.rule.id)}</code><br>{esc(score.rule.statement)}</td>"
                f'<td>{where}</td><td><a href="{esc(score.rule.href)}">{esc(score.rule.pointer)}</a></td></tr>'
            )
            text.append(f"- {score.rule.id}: {score.rule.statement}")
            text.extend(f"    missed in {by_key[key].id}: {by_key[key].title}" for key in score.missed_in)
            text.append(f"    taught in {score.rule.pointer}")
        html.append("</tbody></table>")
    html.append(
        '<p><b>Every rule</b></p><table class="eic-rule-scores"><thead><tr><th>Rule</th>'
        "<th>Cases</th><th>Right</th><th>Missed</th></tr></thead><tbody>"
    )
    text.append("Every rule (cases, right, missed):")
    for score in scores:
        html.append(
            f"<tr><td><code class='eic-id'>{esc(score.rule.id)}</code></td><td>{score.seen}</td>"
            f"<td>{score.right}</td><td>{score.missed}</td></tr>"
        )
        text.append(f"  {score.rule.id}: {score.seen}, {score.right}, {score.missed}")
    html.append("</tbody></table></div>")
    return HtmlBlock("".join(html), "\n".join(text))
