"""HTML for the notebooks: case tables, worked answers, reveals and feedback.

The answer side (reveal, feedback, hints) is in :mod:`helpers.trainee.views.answer_html`,
kept reachable here; the work-it-yourself widget loads only that.

Every string that goes into HTML is escaped here, whether it comes from
fixtures, from a trainee or from a file. The objects returned display as HTML
in Jupyter and as plain text elsewhere, so strict nbval compares both.
No widgets here. Taught in ``01_start_here.ipynb``; used by every notebook.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from helpers.core.chardiff import visible_id, visible_text
from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError
from helpers.core.explain import explain
from helpers.core.jsonio import loads_strict
from helpers.core.ordering import sorted_ids
from helpers.core.sentinels import SentinelResult
from helpers.core.target_scope import NeedsStaffLabels, TargetScopeResult
from helpers.trainee.cases.filled import Case
from helpers.trainee.html import (
    STYLE,
    Html,
    HtmlBlock,
    block_html,
    display_json,
    esc,
    esc_id,
    html,
    html_join,
    json_html,
    prose,
    scroll_region,
)
from helpers.trainee.views.answer_html import (
    HIDE_SUMMARY,
    REVEAL_SUMMARY,
    feedback_html,
    hint_html,
    reveal_html,
    ticked_html,
    verdict_text,
)
from helpers.trainee.views.check_source import (
    DECIDING,
    deciding_functions,
    deciding_rule_block,
    evaluator_run,
    source_block,
)
from helpers.trainee.views.inputs import context_view, input_view

__all__ = [
    "HtmlBlock",
    "DECIDING",
    "deciding_functions",
    "deciding_rule_block",
    "evaluator_run",
    "source_block",
    "STYLE",
    "esc",
    "esc_id",
    "block_html",
    "scroll_region",
    "display_json",
    "json_html",
    "cases_table",
    "supplied_input",
    "inputs_table",
    "reveal_html",
    "worked_answer",
    "details_html",
    "lines_html",
    "error_html",
    "feedback_html",
    "verdict_text",
    "ticked_html",
    "hint_html",
    "REVEAL_SUMMARY",
    "HIDE_SUMMARY",
    "check_block",
    "explanation_lines",
    "run_cases",
    "parse_block",
    "result_block",
    "queries_block",
    "fixed_result",
    "edit_refused",
    "counts_once",
    "attempt",
]


def cases_table(cases: Sequence[Case]) -> HtmlBlock:
    """The cases as a table: case, supplied input, expected output, decision and reason."""
    head = html_join(
        html('<th scope="col">{}</th>', name)
        for name in ("Case", "Supplied input", "Expected structured output", "Decision and reason")
    )
    rows: list[Html] = []
    text_rows = []
    for case in cases:
        rows.append(
            html(
                "<tr>"
                '<th scope="row"><b>{}</b><br><code class="eic-id">{}</code></th>'
                '<td class="eic-json-cell">{}</td>'
                '<td class="eic-json-cell">{}</td>'
                '<td class="eic-reason"><b>{}.</b> {}</td>'
                "</tr>",
                prose(case.title, notated=True),
                esc_id(case.id),
                json_html(case.input),
                json_html(case.expected),
                prose(case.decision, notated=True),
                prose(case.reason, notated=True),
            )
        )
        text_rows.append(
            f"{visible_id(case.id)}: {visible_text(case.title, notated=True)}\n  input:    {display_json(case.input)}\n"
            f"  expected: {display_json(case.expected)}\n  {visible_text(case.decision, notated=True)}. "
            f"{visible_text(case.reason, notated=True)}"
        )
    table = html(
        '<table class="eic-cases"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>', head, html_join(rows)
    )
    return HtmlBlock(scroll_region(table, "The cases"), "\n".join(text_rows))


#: The label of a case's context: what the trainee sees beside the input, which the check never reads.
CONTEXT_LABEL = "Context (shown for you; the check does not read it)"


def supplied_input(case: Case, *, label: str | None = None) -> HtmlBlock:
    """The case's supplied input laid out for reading (:func:`~helpers.trainee.views.inputs.input_view`:
    two lists or two keys side by side, invisible characters shown), then any context.

    A practice case's context (an earlier key, a rubric revision) follows the
    input, labelled as context the check does not read. ``label`` (such as
    ``"Case 1"``) replaces the case's id, which may name what the case is about.
    """
    context = getattr(case, "context", None) or {}
    context_html = (
        html("<p><b>{}</b>:</p>{}", CONTEXT_LABEL, context_view(context).html) if context else Html()
    )
    context_text = f"\n{CONTEXT_LABEL}:\n{context_view(context).text}" if context else ""
    shown = esc(label) if label is not None else html('<code class="eic-id">{}</code>', esc_id(case.id))
    plain = visible_text(label, notated=True) if label is not None else visible_id(case.id)
    laid_out = input_view(case.input)
    return HtmlBlock(
        html(
            "<p><b>Supplied input</b> for {}:</p>{}{}{}",
            shown,
            laid_out.html,
            _query_html(case.input),
            context_html,
        ),
        f"Supplied input for {plain}:\n{laid_out.text}{_query_text(case.input)}{context_text}",
    )


def inputs_table(cases: Sequence[Case]) -> HtmlBlock:
    """The cases' supplied inputs only, numbered: what a trainee reads before working them.

    The expected outputs, decisions and reasons are left for :func:`cases_table`,
    shown after the exercises. Taught in ``02_target_scope.ipynb``.
    """
    rows: list[Html] = []
    text_rows = []
    for number, case in enumerate(cases, 1):
        rows.append(
            html(
                '<tr><th scope="row">Case {}</th><td class="eic-json-cell">{}</td></tr>',
                number,
                input_view(case.input).html,
            )
        )
        text_rows.append(f"Case {number}:\n{input_view(case.input).text}")
    table = html(
        '<table class="eic-cases"><thead><tr><th scope="col">Case</th><th scope="col">Supplied input</th>'
        "</tr></thead><tbody>{}</tbody></table>",
        html_join(rows),
    )
    return HtmlBlock(scroll_region(table, "The supplied inputs"), "\n".join(text_rows))


def _queries(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The wordings a target-scope input carries: the original query and the rewritten one."""
    found = []
    for key, label in (("query", "Original query"), ("rewritten_query", "Rewritten query")):
        if isinstance(record.get(key), str):
            found.append((label, record[key]))
    return found


def _query_html(record: Mapping[str, Any]) -> Html:
    items = [html("<li><b>{}:</b> {}</li>", label, prose(text)) for label, text in _queries(record)]
    return html('<ul class="eic-queries">{}</ul>', html_join(items)) if items else Html()


def _query_text(record: Mapping[str, Any]) -> str:
    return "".join(f"\n{label}: {visible_text(text)}" for label, text in _queries(record))


#: Shown above the kernel-free reveal; a live notebook hides both (it has the widget's button).
STATIC_NOTE = (
    "No kernel? The worked answer is in the block below; open it once you have an answer of your own."
)


def details_html(case: Case) -> Html:
    """The kernel-free reveal: a collapsed ``<details>`` block holding :func:`reveal_html`.

    It sits in an ``eic-static-reveal`` frame, hidden where the live widget shows the case.
    """
    return html(
        '<div class="eic-static-reveal"><p class="eic-static-hint">{}</p>'
        "<details><summary>{}</summary>{}</details></div>",
        STATIC_NOTE,
        REVEAL_SUMMARY,
        reveal_html(case),
    )


def worked_answer(case: Case) -> HtmlBlock:
    """The ``<details>`` reveal as a displayable block; plain text shows the same answer."""
    return HtmlBlock(
        details_html(case),
        f"{REVEAL_SUMMARY} ({visible_id(case.id)}):\n{display_json(case.expected)}\n"
        f"Decision: {visible_text(case.decision, notated=True)}.\nReason: {visible_text(case.reason, notated=True)}",
    )


def lines_html(lines: Iterable[str], *, css: str = "eic-lines") -> Html:
    """A list of sentences as an escaped ``<ul>``, invisible characters shown."""
    items = html_join(html("<li>{}</li>", prose(line, notated=True)) for line in lines)
    return html('<ul class="{}">{}</ul>', css, items)


def error_html(exc: CheckInputError) -> Html:
    """A clear error message for the widgets, never a traceback; announced to screen readers."""
    return html(
        '<div class="eic-error" role="alert"><b>Cannot check this input:</b> {}</div>',
        prose(exc, notated=True),
    )


def _record_ids(check: str, record: Mapping[str, Any]) -> list[str]:
    """Every string ID in a check's input, in the check's sorted order (for :func:`explanation_lines`)."""
    found: set[str] = set()
    if check == "target-scope":
        for name in ("original", "rewritten"):
            value = record.get(name)
            if isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
    else:
        for name in ("baseline", "proposed"):
            value = record.get(name)
            if isinstance(value, Mapping):
                found.update(k for k in value if isinstance(k, str))
    return sorted_ids(found)


#: A stand-in for the ID at place N of :func:`_record_ids`. Private-use characters never reach
#: an explanation unescaped (an answer's diff shows them as ``⟨U+E000⟩``), and stand-ins sort
#: among themselves as the IDs they stand for, so the explanation lists them in the same order.
_STAND_IN = re.compile("\ue000([0-9]{6})\ue001")


def _stand_in(place: int) -> str:
    return f"\ue000{place:06d}\ue001"


def explanation_lines(check: str, record: Mapping[str, Any], result: Any) -> list[str]:
    """The explanation of ``result`` (:func:`~helpers.core.explain.explain`), IDs in the visible notation.

    Rendered from the result's structure: the explanation is written over stand-ins
    for the IDs, and each stand-in then becomes its ID's visible form, so only whole
    IDs change and never a word of the sentence around them (``induction is missing``
    stays that, even beside an ID ``induction `` with a trailing space).
    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    ids = _record_ids(check, record)
    if not ids or isinstance(result, NeedsStaffLabels):
        return explain(check, record, result)
    token = {item: _stand_in(place) for place, item in enumerate(ids)}

    def tokens(items: Iterable[str]) -> tuple[str, ...]:
        return tuple(token[item] for item in items)

    if isinstance(result, SentinelResult):
        baseline, proposed = record["baseline"], record["proposed"]
        written = explain(
            check,
            {
                "baseline": {token[k]: v for k, v in baseline.items()},
                "proposed": {token[k]: v for k, v in proposed.items()},
            },
            dataclasses.replace(result, missing=tokens(result.missing), changed=tokens(result.changed)),
        )
    elif isinstance(result, TargetScopeResult):
        written = explain(
            check,
            record,
            dataclasses.replace(result, missing=tokens(result.missing), added=tokens(result.added)),
        )
    else:
        return explain(check, record, result)
    return [_STAND_IN.sub(lambda match: visible_id(ids[int(match.group(1))]), line) for line in written]


def check_block(check: str, record: Mapping[str, Any], *, show_input: bool = True) -> HtmlBlock:
    """Run ``check`` on one input object: the input, the output and its explanation, as JSON.

    Bad input shows the helper's clear error instead, still beside its input.
    Used by the sandboxes (``show_input=False``: the text areas show it) and taught in
    ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    shown = (
        (
            html("<p><b>Input</b></p>{}{}", json_html(record), _query_html(record)),
            f"input:  {display_json(record)}",
        )
        if show_input
        else (Html(), "")
    )
    try:
        result = run_check(check, record)
    except CheckInputError as exc:
        text = f"Cannot check this input: {visible_text(str(exc), notated=True)}"
        return HtmlBlock(html("{}{}", shown[0], error_html(exc)), "\n".join(filter(None, [shown[1], text])))
    lines = explanation_lines(check, record, result)
    output = result.as_dict()
    label = html("<p><b>Output</b></p>") if show_input else Html()
    out_text = f"output: {display_json(output)}" if show_input else display_json(output)
    return HtmlBlock(
        html("{}{}{}{}", shown[0], label, json_html(output), lines_html(lines)),
        "\n".join(
            [
                *filter(None, [shown[1]]),
                out_text,
                *(f"- {visible_text(line, notated=True)}" for line in lines),
            ]
        ),
    )


def run_cases(cases: Sequence[Case]) -> HtmlBlock:
    """Run the helper over ``cases``: its output, and whether it matches the worked answer."""
    rows: list[Html] = []
    text = []
    for case in cases:
        actual = case.actual()
        verdict = (
            "✔ matches the worked answer" if case.agrees_with(actual) else "✘ differs from the worked answer"
        )
        rows.append(
            html(
                '<tr><th scope="row"><code class="eic-id">{}</code></th>'
                '<td class="eic-json-cell">{}</td><td>{}</td></tr>',
                esc_id(case.id),
                json_html(actual),
                verdict,
            )
        )
        text.append(f"{visible_id(case.id)}: {display_json(actual)}  {verdict}")
    table = html(
        '<table class="eic-results"><thead><tr><th scope="col">Case</th>'
        '<th scope="col">Output from the helper</th>'
        '<th scope="col">Check</th></tr></thead><tbody>{}</tbody></table>',
        html_join(rows),
    )
    return HtmlBlock(table, "\n".join(text))


def parse_block(text: str, *, source: str) -> HtmlBlock:
    """Read ``text`` as strict JSON and show the input and the value, or the clear error naming ``source``.

    Taught in ``01_start_here.ipynb`` ("When the input is wrong").
    """
    shown = html('<p><b>Input</b> ({})</p><pre class="eic-json">{}</pre>', source, prose(text))
    try:
        value = loads_strict(text, source=source)
    except CheckInputError as exc:
        return HtmlBlock(
            html("{}{}", shown, error_html(exc)),
            f"input:  {visible_text(text)}\nCannot check this input: {visible_text(str(exc), notated=True)}",
        )
    return HtmlBlock(
        html("{}<p><b>Read as</b></p>{}", shown, json_html(value)),
        f"input:  {visible_text(text)}\nread as: {display_json(value)}",
    )


def _plain_data(value: Any) -> Any:
    """``value`` as JSON-ready data: a dataclass as its fields, a tuple or set as a list."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): _plain_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain_data(item) for item in value]
    return value


def result_block(value: Any, *, given: Mapping[str, Any] | None = None) -> HtmlBlock:
    """A helper's result as JSON (``true``, not ``True``), with the input beside it when ``given``.

    So a result reads the same with its code hidden (the app) as in a notebook.
    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    data = _plain_data(value)
    if given is None:
        return HtmlBlock(json_html(data), display_json(data))
    return HtmlBlock(
        html("<p><b>Input</b></p>{}<p><b>Output</b></p>{}", json_html(given), json_html(data)),
        f"input:  {display_json(given)}\noutput: {display_json(data)}",
    )


def attempt(action: Callable[..., Any], *args: Any, **kwargs: Any) -> HtmlBlock:
    """Call a helper and show what it returns, or the clear error it refuses with (never a traceback).

    Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
    """
    try:
        value = action(*args, **kwargs)
    except CheckInputError as exc:
        return HtmlBlock(
            html('<p class="eic-error"><b>✘ Refused:</b> {}</p>', prose(exc, notated=True)),
            f"Refused: {visible_text(str(exc), notated=True)}",
        )
    return result_block(value)


def edit_refused(record: Any) -> str:
    """Try to overwrite ``record``'s first field, and say whether that was refused.

    An edit that went through is undone. Taught in ``02_target_scope.ipynb`` and
    ``05_check_your_data.ipynb``.
    """
    first = dataclasses.fields(record)[0].name
    before = getattr(record, first)
    try:
        setattr(record, first, ())
    except dataclasses.FrozenInstanceError:
        return f"✔ Changing `{first}` afterwards is refused."
    setattr(record, first, before)
    return f"✘ `{first}` could be changed afterwards."


def counts_once(record: Any) -> str:
    """Put ``record`` in a set with an equal copy, and say whether the two count as one.

    Taught in ``02_target_scope.ipynb`` and ``05_check_your_data.ipynb``.
    """
    twin = dataclasses.replace(record)
    try:
        grouped = len({record, twin}) == 1
    except TypeError:
        if type(record).__hash__ is None:
            return "✘ It cannot go in a set at all, so equal ones cannot be grouped or counted."
        return "ℹ It holds a table, so it is not grouped with others; compare two directly (==)."
    if grouped:
        return "✔ Two equal copies count as one, so these can be grouped and counted."
    return "✘ Two equal copies count as two."


def fixed_result(result: Any) -> HtmlBlock:
    """Show that a check's result is a fixed value: it cannot be edited, and equal results are one value.

    Tries to overwrite the result's first field and to put it in a set with an equal copy,
    and says what happened. Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    edit = edit_refused(result)
    group = counts_once(result)
    verdict = "passed" if result.passed else "did not pass"
    head = f"{type(result).__name__} ({result.outcome}, {verdict}): {display_json(result.as_dict())}"
    lines = [head, edit, group]
    return HtmlBlock(
        html("<p><code>{}</code></p>{}", lines[0], lines_html(lines[1:])),
        "\n".join(lines),
    )


def queries_block(*, original: str, rewritten: str) -> HtmlBlock:
    """The original and the rewritten wording of a query, side by side.

    Taught in ``02_target_scope.ipynb`` ("A pass covers only the declared targets").
    """
    rows = html_join(
        html('<tr><th scope="row">{}</th><td>{}</td></tr>', label, prose(text))
        for label, text in (("Original query", original), ("Rewritten query", rewritten))
    )
    return HtmlBlock(
        html('<table class="eic-queries">{}</table>', rows),
        f"Original query:  {visible_text(original)}\nRewritten query: {visible_text(rewritten)}",
    )
