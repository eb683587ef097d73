"""A batch run as HTML tables for the notebook; each also has a plain-text picture.

Every string placed in HTML is escaped. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from helpers.core.checks import CHECK_TITLES
from helpers.core.errors import describe_value
from helpers.core.outcomes import EXIT_BAD_INPUT, EXIT_MEANINGS, EXIT_USAGE, SEVERITY, code_for, worst_code
from helpers.core.sentinels import check_sentinels
from helpers.core.target_scope import check_target_scope
from helpers.team.batch import BatchSummary, KeyCheck
from helpers.team.reports import counts_text, failure_where, key_check_text, percent, summary_rows
from helpers.trainee.html import Html, HtmlBlock, html, html_join

__all__ = ["summary_table", "failures_table", "key_check_table", "exit_status_table"]


def summary_table(summary: BatchSummary) -> HtmlBlock:
    """The counts by outcome as an HTML table; plain text shows :func:`~helpers.team.reports.summary_text`'s counts.

    Taught in ``05_check_your_data.ipynb``.
    """
    indent = html(' style="padding-left:2em"')
    rows = html_join(
        html(
            "<tr><td{}>{}</td><td>{}</td><td>{}</td></tr>",
            indent if indented else Html(),
            label,
            count,
            "" if indented else percent(count, summary.records),
        )
        for label, count, indented in summary_rows(summary)
    )
    title = f"{CHECK_TITLES[summary.check]}: {summary.source}"
    code = summary.exit_code
    table = html(
        '<div class="eic-summary"><p><b>{}</b>: {} records checked</p>'
        '<table class="eic-results"><thead><tr><th>Outcome</th><th>Records</th><th>Share</th>'
        "</tr></thead><tbody>{}</tbody></table>"
        "<p>Exit status <b>{}</b>: {}</p></div>",
        title,
        summary.records,
        rows,
        code,
        EXIT_MEANINGS[code],
    )
    text = [*counts_text(summary), f"exit status {code}: {EXIT_MEANINGS[code]}"]
    return HtmlBlock(table, "\n".join(text))


def failures_table(summary: BatchSummary) -> HtmlBlock:
    """The first failures, each with its line, id and explanation, as an HTML table.

    Taught in ``05_check_your_data.ipynb``.
    """
    if not summary.failures:
        return HtmlBlock(html("<p>Every record passed.</p>"), "Every record passed.")
    rows: list[Html] = []
    text = []
    for f in summary.failures:
        ident = "" if f.id is None else f.id if isinstance(f.id, str) else describe_value(f.id)
        rows.append(
            html(
                '<tr><td>{}</td><td style="text-align:left"><code>{}</code></td>'
                '<td style="text-align:left">{}</td>'
                '<td style="text-align:left"><code>{}</code></td></tr>',
                f.line,
                ident,
                f.outcome,
                f.explanation,
            )
        )
        text.append(f"{failure_where(f, summary.unit)}: {f.outcome}: {f.explanation}")
    shown = len(summary.failures)
    caption = (
        f"The first {shown} of {summary.failures_total} records that did not pass"
        if shown < summary.failures_total
        else f"The {shown} records that did not pass"
    )
    table = html(
        "<p>{}:</p>"
        '<table class="eic-results"><thead><tr><th>{}</th><th>id</th><th>Outcome</th>'
        "<th>Why</th></tr></thead><tbody>{}</tbody></table>",
        caption,
        summary.unit.capitalize(),
        html_join(rows),
    )
    return HtmlBlock(table, "\n".join([caption + ":", *text]))


def key_check_table(check: KeyCheck, *, limit: int = 20) -> HtmlBlock:
    """The two-file sentinel check as HTML, each changed answer shown as a diff.

    Taught in ``05_check_your_data.ipynb``.
    """
    text = key_check_text(check, limit=limit)
    lines = text.rstrip("\n").split("\n")
    rows = html_join(html("<tr><td><code>{}</code></td></tr>", line.strip()) for line in lines[1:])
    table = html(
        '<div class="eic-summary"><p><b>{}</b></p>'
        '<table class="eic-results"><thead><tr><th scope="col">Finding</th></tr></thead>'
        "<tbody>{}</tbody></table></div>",
        lines[0],
        rows,
    )
    return HtmlBlock(table, text.rstrip("\n"))


def exit_status_table() -> HtmlBlock:
    """Every verdict exit status, least serious first, with a result that gives it and how two combine.

    Each example result comes from the checks and its code from
    :func:`~helpers.core.outcomes.code_for`; the combinations from
    :func:`~helpers.core.outcomes.worst_code`. Taught in ``05_check_your_data.ipynb``.
    """
    examples = {
        "a preserved rewrite": check_target_scope(["induction"], ["induction"]),
        "a key with a sentinel missing": check_sentinels({"S1": "A"}, {}),
        "a rewrite held for staff labels": check_target_scope(["induction"], ["induction"], unresolved=["x"]),
    }
    given = {code_for(result): name for name, result in examples.items()}
    given.setdefault(EXIT_BAD_INPUT, "a record that could not be checked")
    rows: list[Html] = []
    text = []
    for code in SEVERITY:
        rows.append(
            html(
                '<tr><th scope="row">{}</th><td>{}</td><td>{}</td></tr>',
                code,
                EXIT_MEANINGS[code],
                given.get(code, "—"),
            )
        )
        text.append(f"{code}: {EXIT_MEANINGS[code]} (e.g. {given.get(code, '—')})")
    pairs = [(a, b) for a in SEVERITY for b in SEVERITY if a < b]
    combined = ", ".join(f"{a} with {b} gives {worst_code(a, b)}" for a, b in pairs)
    table = html(
        '<table class="eic-exit"><thead><tr><th scope="col">Exit status</th><th scope="col">Meaning</th>'
        '<th scope="col">For example</th></tr></thead><tbody>{}</tbody></table>',
        html_join(rows),
    )
    note = f"The most serious status of all the records wins: {combined}."
    usage = (
        f"Status {EXIT_USAGE} is not a verdict: the command itself could not run (a usage error, an input "
        "that cannot be opened, or output that cannot be written), so no record was judged."
    )
    return HtmlBlock(html("{}<p>{}</p><p>{}</p>", table, note, usage), "\n".join([*text, note, usage]))
