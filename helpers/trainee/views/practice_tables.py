"""The practice notebook's tables as escaped HTML: rules, coverage, and the drill summary.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from helpers.core.checks import CHECK_TITLES, require_check_name
from helpers.trainee.cases.practice_cases import PracticeCase
from helpers.trainee.cases.rules import Rule
from helpers.trainee.drill.course import Progress, rule_scores
from helpers.trainee.html import Html, html, html_join
from helpers.trainee.views.case_html import HtmlBlock, esc_id, scroll_region

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
    head = html_join(
        html('<th title="{}"><code class="eic-id">{}</code></th>', rule.statement, rule.id) for rule in rules
    )
    rows: list[Html] = []
    for case in cases:
        cells = html_join(html("<td>{}</td>", "●" if rule.id in case.rules else "") for rule in rules)
        rows.append(
            html('<tr><th scope="row"><code class="eic-id">{}</code></th>{}</tr>', esc_id(case.id), cells)
        )
    counts = html_join(html("<td><b>{}</b></td>", len(covered[rule.id])) for rule in rules)
    table = html(
        '<table class="eic-coverage"><thead><tr><th>{}: case</th>{}</tr></thead>'
        "<tbody>{}<tr><th>cases per rule</th>{}</tr></tbody></table>",
        CHECK_TITLES[check],
        head,
        html_join(rows),
        counts,
    )
    text = [f"{CHECK_TITLES[check]}: {len(cases)} practice cases, {len(rules)} rules"]
    for rule in rules:
        ids = ", ".join(case.id for case in covered[rule.id]) or "(none)"
        text.append(f"{rule.id} ({len(covered[rule.id])}): {ids}")
    return HtmlBlock(
        scroll_region(table, f"{CHECK_TITLES[check]}: which case practises which rule"), "\n".join(text)
    )


def rules_table(rules: Sequence[Rule]) -> HtmlBlock:
    """The rules with their statements and the section that teaches each.

    Taught in ``04_practice.ipynb`` ("The rules").
    """
    rows: list[Html] = []
    text = []
    for rule in rules:
        rows.append(
            html(
                "<tr><td><b>{}</b><br><small><code class='eic-id'>{}</code></small></td>"
                '<td>{}</td><td><a href="{}">{}</a></td></tr>',
                rule.name,
                rule.id,
                rule.statement,
                rule.href,
                rule.pointer,
            )
        )
        text.append(f"{rule.label}: {rule.statement}\n  taught in {rule.pointer}")
    table = html(
        '<table class="eic-rules"><thead><tr><th>Rule</th><th>Statement</th><th>Taught in</th></tr>'
        "</thead><tbody>{}</tbody></table>",
        html_join(rows),
    )
    return HtmlBlock(table, "\n".join(text))


def summary(progress: Progress, cases: Iterable[PracticeCase], rules: Sequence[Rule]) -> HtmlBlock:
    """The end-of-drill summary: score, each rule missed, where, and the section that teaches it.

    Taught in ``04_practice.ipynb``.
    """
    by_key = {case.key: case for case in cases}
    scores = rule_scores(progress, by_key.values(), rules)
    missed = [score for score in scores if score.missed]
    state = "Drill finished" if progress.finished else "Drill so far"
    head = f"{state}: {progress.correct} of {progress.done} correct ({progress.percent()}%)."
    text = [head]
    if not missed:
        missed_html = html("<p>No rule missed.</p>")
        text.append("No rule missed.")
    else:
        missed_rows: list[Html] = []
        text.append("Rules missed:")
        for score in missed:
            where = html_join(
                (html("<code>{}</code> {}", by_key[key].id, by_key[key].title) for key in score.missed_in),
                "<br>",
            )
            missed_rows.append(
                html(
                    "<tr><td><code class='eic-id'>{}</code><br>{}</td>"
                    '<td>{}</td><td><a href="{}">{}</a></td></tr>',
                    score.rule.id,
                    score.rule.statement,
                    where,
                    score.rule.href,
                    score.rule.pointer,
                )
            )
            text.append(f"- {score.rule.id}: {score.rule.statement}")
            text.extend(f"    missed in {by_key[key].id}: {by_key[key].title}" for key in score.missed_in)
            text.append(f"    taught in {score.rule.pointer}")
        missed_html = html(
            '<p><b>Rules missed</b></p><table class="eic-missed"><thead><tr><th>Rule</th>'
            "<th>Missed in</th><th>Taught in</th></tr></thead><tbody>{}</tbody></table>",
            html_join(missed_rows),
        )
    score_rows: list[Html] = []
    text.append("Every rule (cases, right, missed):")
    for score in scores:
        score_rows.append(
            html(
                "<tr><td><code class='eic-id'>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                score.rule.id,
                score.seen,
                score.right,
                score.missed,
            )
        )
        text.append(f"  {score.rule.id}: {score.seen}, {score.right}, {score.missed}")
    body = html(
        '<div class="eic-summary-body"><p><b>{}</b></p>{}'
        '<p><b>Every rule</b></p><table class="eic-rule-scores"><thead><tr><th>Rule</th>'
        "<th>Cases</th><th>Right</th><th>Missed</th></tr></thead><tbody>{}</tbody></table></div>",
        head,
        missed_html,
        html_join(score_rows),
    )
    return HtmlBlock(body, "\n".join(text))
