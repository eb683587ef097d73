"""HTML for the notebooks: case tables, worked answers, reveals and feedback.

Every string that goes into HTML is escaped here, whether it comes from
fixtures, from a trainee or from a file. The objects returned display as HTML
in Jupyter and as plain text elsewhere, so strict nbval compares both.
No widgets here. Taught in ``01_start_here.ipynb``; used by every notebook.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.checks import run_check
from ..core.errors import CheckInputError, escape_surrogates
from ..core.explain import explain
from ..core.jsonio import dumps_compact, loads_strict
from .cases import Case

__all__ = [
    "HtmlBlock",
    "esc",
    "json_html",
    "cases_table",
    "supplied_input",
    "reveal_html",
    "worked_answer",
    "details_html",
    "lines_html",
    "error_html",
    "feedback_html",
    "REVEAL_SUMMARY",
    "check_block",
    "run_cases",
    "parse_block",
]

#: The label of every worked-answer reveal, widget button and ``<details>`` alike.
REVEAL_SUMMARY = "Show the worked answer"


def esc(text: Any) -> str:
    """Escape ``text`` for HTML, quotes included."""
    return html.escape(escape_surrogates(str(text)), quote=True)


@dataclass(frozen=True)
class HtmlBlock:
    """A block that shows as HTML in Jupyter and as ``text`` in plain contexts."""

    html: str
    text: str

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text


def json_html(value: Any) -> str:
    """Compact JSON in a ``<pre>`` block, escaped."""
    return f'<pre class="eic-json">{esc(dumps_compact(value))}</pre>'


def cases_table(cases: Sequence[Case]) -> HtmlBlock:
    """The cases as a table: case, supplied input, expected output, decision and reason."""
    head = "".join(
        f"<th>{name}</th>"
        for name in ("Case", "Supplied input", "Expected structured output", "Decision and reason")
    )
    rows = []
    text_rows = []
    for case in cases:
        rows.append(
            "<tr>"
            f"<td><b>{esc(case.title)}</b><br><code>{esc(case.id)}</code></td>"
            f"<td><code>{esc(case.input_json)}</code></td>"
            f"<td><code>{esc(case.expected_json)}</code></td>"
            f"<td><b>{esc(case.decision)}.</b> {esc(case.reason)}</td>"
            "</tr>"
        )
        text_rows.append(
            f"{case.id}: {case.title}\n  input:    {case.input_json}\n"
            f"  expected: {case.expected_json}\n  {case.decision}. {case.reason}"
        )
    table = f'<table class="eic-cases"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    return HtmlBlock(table, "\n".join(text_rows))


def supplied_input(case: Case) -> HtmlBlock:
    """The case's supplied input as compact JSON."""
    return HtmlBlock(
        f"<p><b>Supplied input</b> for <code>{esc(case.id)}</code>:</p>{json_html(case.input)}",
        f"Supplied input for {case.id}:\n{case.input_json}",
    )


def reveal_html(case: Case) -> str:
    """The worked answer: expected output, decision and reason. Same in widget and ``<details>``."""
    return (
        '<div class="eic-reveal">'
        f"<p><b>Expected structured output</b></p>{json_html(case.expected)}"
        f"<p><b>Decision:</b> {esc(case.decision)}.</p>"
        f"<p><b>Reason:</b> {esc(case.reason)}</p>"
        "</div>"
    )


def details_html(case: Case) -> str:
    """The kernel-free reveal: a collapsed ``<details>`` block holding :func:`reveal_html`."""
    return f"<details><summary>{REVEAL_SUMMARY}</summary>{reveal_html(case)}</details>"


def worked_answer(case: Case) -> HtmlBlock:
    """The ``<details>`` reveal as a displayable block; plain text shows the same answer."""
    return HtmlBlock(
        details_html(case),
        f"{REVEAL_SUMMARY} ({case.id}):\n{case.expected_json}\n"
        f"Decision: {case.decision}.\nReason: {case.reason}",
    )


def lines_html(lines: Iterable[str], *, css: str = "eic-lines") -> str:
    """A list of sentences as an escaped ``<ul>``."""
    items = "".join(f"<li>{esc(line)}</li>" for line in lines)
    return f'<ul class="{css}">{items}</ul>'


def error_html(exc: CheckInputError) -> str:
    """A clear error message for the widgets, never a traceback."""
    return f'<div class="eic-error" style="color:#a00"><b>Cannot check this input:</b> {esc(exc)}</div>'


def feedback_html(correct: bool, mistakes: Sequence[tuple[str, str]]) -> str:
    """Grading feedback: a verdict, then one line per ``(field, message)`` mistake."""
    if correct:
        return '<div class="eic-feedback eic-correct"><b>✔ Fully correct.</b> Every field and every ID is right.</div>'
    items = "".join(f"<li><b>{esc(field)}</b>: {esc(message)}</li>" for field, message in mistakes)
    count = len(mistakes)
    noun = "thing" if count == 1 else "things"
    return (
        f'<div class="eic-feedback eic-wrong"><b>✘ Not yet: {count} {noun} to fix.</b><ul>{items}</ul></div>'
    )


def check_block(check: str, record: Mapping[str, Any]) -> HtmlBlock:
    """Run ``check`` on one input object and show the output and its explanation.

    Bad input shows the helper's clear error instead. Used by the sandboxes and
    taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    try:
        result = run_check(check, record)
    except CheckInputError as exc:
        return HtmlBlock(error_html(exc), f"Cannot check this input: {exc}")
    lines = explain(check, record, result)
    output = result.as_dict()
    return HtmlBlock(
        json_html(output) + lines_html(lines),
        "\n".join([dumps_compact(output), *(f"- {line}" for line in lines)]),
    )


def run_cases(cases: Sequence[Case]) -> HtmlBlock:
    """Run the helper over ``cases``: its output, and whether it matches the worked answer."""
    rows, text = [], []
    for case in cases:
        actual = case.actual()
        agrees = actual == case.expected and list(actual) == list(case.expected)
        verdict = "✔ matches the worked answer" if agrees else "✘ differs from the worked answer"
        rows.append(
            f"<tr><td><code>{esc(case.id)}</code></td><td>{json_html(actual)}</td><td>{verdict}</td></tr>"
        )
        text.append(f"{case.id}: {dumps_compact(actual)}  {verdict}")
    table = (
        '<table class="eic-results"><thead><tr><th>Case</th><th>Output from the helper</th>'
        f"<th>Check</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return HtmlBlock(table, "\n".join(text))


def parse_block(text: str, *, source: str) -> HtmlBlock:
    """Read ``text`` as strict JSON and show the value, or the clear error naming ``source``.

    Taught in ``01_start_here.ipynb`` ("When the input is wrong").
    """
    try:
        value = loads_strict(text, source=source)
    except CheckInputError as exc:
        return HtmlBlock(error_html(exc), f"Cannot check this input: {exc}")
    return HtmlBlock(json_html(value), dumps_compact(value))
