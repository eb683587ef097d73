"""Edge-case galleries: every rule of a check at work on a small input, computed as the notebook runs.

The inputs and the teaching notes come from ``fixtures/edge_cases.json``; the
outputs, explanations and error messages are computed by the checks each time,
so a broken rule changes what the gallery shows (and strict nbval notices).
Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("Edge
cases"); the team's galleries (the fast path, how lines are read) are in
:mod:`helpers.team.views.fast_gallery`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace as dataclass_replace
from typing import Any

from helpers.core.baselines import baseline_from_data
from helpers.core.chardiff import char_diff, char_name, visible_id, visible_text
from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError, InvalidInputError
from helpers.core.jsonio import loads_document
from helpers.trainee.cases.filled import Case, cases_from_csv, cases_to_csv
from helpers.trainee.html import Html, html, html_join
from helpers.trainee.views.case_html import (
    HtmlBlock,
    counts_once,
    display_json,
    edit_refused,
    json_html,
    lines_html,
    scroll_region,
)
from helpers.trainee.views.edge_cases import (
    baseline_documents,
    case_files,
    documents,
    edge_cases,
    notation_examples,
    read_case_text,
)
from helpers.trainee.views.shown import (
    exact_output,
    input_html,
    input_text,
    output_html,
    output_text,
    raw_text,
)

__all__ = [
    "gallery",
    "baseline_gallery",
    "notation_table",
    "document_gallery",
    "case_file_gallery",
    "case_csv_round_trip",
    "fixed_records",
    "fixed_results",
    "fixed_answers",
]


def gallery(check: str, groups: Sequence[str] | None = None) -> HtmlBlock:
    """One check's edge cases, grouped: input, what the check says (computed now) and why.

    ``groups`` picks some groups (in the fixture's order); the default shows all.
    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    cases = edge_cases(check)
    if groups is not None:
        unknown = sorted(set(groups) - {case.group for case in cases})
        if unknown:
            raise InvalidInputError(f"no gallery group {unknown[0]!r} for {check}", field="groups")
        cases = [case for case in cases if case.group in groups]
    parts: list[Html] = []
    text = []
    for group in dict.fromkeys(case.group for case in cases):
        rows: list[Html] = []
        text.append(f"## {group}")
        for case in (c for c in cases if c.group == group):
            shown = exact_output(check, case.line)
            rows.append(
                html(
                    '<tr><th scope="row">{}</th><td class="eic-json-cell">{}</td>'
                    '<td class="eic-json-cell">{}</td><td class="eic-reason">{}</td></tr>',
                    case.title,
                    input_html(case, shown),
                    output_html(shown),
                    case.why,
                )
            )
            text.append(f"{case.title}\n  {input_text(case, shown)}\n  {_indent(output_text(shown))}")
        table = html(
            '<table class="eic-gallery"><caption><b>{}</b></caption><thead><tr>'
            '<th scope="col">Case</th><th scope="col">Input</th><th scope="col">What the check says</th>'
            '<th scope="col">Why</th></tr></thead><tbody>{}</tbody></table>',
            group,
            html_join(rows),
        )
        parts.append(scroll_region(table, f"Edge cases: {group}"))
    return HtmlBlock(html_join(parts), "\n".join(text))


def _table(css: str, heads: Sequence[str], rows: Sequence[Html], label: str) -> Html:
    """An escaped table in its own scroll region: ``heads`` are plain text, ``rows`` ready ``<tr>`` markup."""
    head = html_join(html('<th scope="col">{}</th>', name) for name in heads)
    table = html(
        '<table class="{}"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>', css, head, html_join(rows)
    )
    return scroll_region(table, label)


def _indent(text: str) -> str:
    return text.replace("\n", "\n  ")


def baseline_gallery() -> HtmlBlock:
    """Baseline files, good and damaged, and what reading each one says.

    Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
    """
    rows, text = [], []
    for item in baseline_documents():
        try:
            baseline = baseline_from_data(item.document, where="baseline.json")
        except CheckInputError as exc:
            verdict = f"✘ Refused: {exc.message}"
        else:
            count = len(baseline.answers)
            verdict = (
                f"✔ Read: version {baseline.version} of {baseline.revised_on}, "
                f"{count} sentinel{'' if count == 1 else 's'}, because “{baseline.reason}”"
            )
        rows.append(
            html(
                '<tr><th scope="row">{}</th><td class="eic-json-cell">{}</td>'
                '<td class="eic-reason">{}</td><td class="eic-reason">{}</td></tr>',
                item.title,
                json_html(item.document),
                visible_text(verdict, notated=True),
                item.why,
            )
        )
        text.append(
            f"{item.title}\n  file:  {display_json(item.document)}\n  {visible_text(verdict, notated=True)}"
        )
    heads = ("File", "Content", "What reading it says", "Why")
    return HtmlBlock(_table("eic-gallery", heads, rows, "Baseline files"), "\n".join(text))


def _characters(text: str) -> str:
    """Every character outside printable ASCII, by code point and name."""
    named = [char_name(char) for char in dict.fromkeys(text) if not 0x20 <= ord(char) <= 0x7E]
    return ", ".join(named) or "printable ASCII only"


def notation_table() -> HtmlBlock:
    """How the notebooks show a string: as an ID and in prose, with the characters it holds.

    Taught in ``01_start_here.ipynb`` ("How IDs are shown").
    """
    rows, text = [], []
    for value, why in notation_examples():
        as_id, as_prose, held = visible_id(value), visible_text(value), _characters(value)
        rows.append(
            html(
                '<tr><td><code class="eic-id">{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>',
                as_id,
                as_prose,
                held,
                why,
            )
        )
        text.append(f"{as_id}  |  {as_prose}  |  {held}")
    heads = ("As an ID", "In prose", "Characters outside printable ASCII", "Why")
    return HtmlBlock(_table("eic-notation", heads, rows, "The visible notation"), "\n".join(text))


def document_gallery() -> HtmlBlock:
    """Whole JSON files, good and broken, and what the strict reader says of each.

    Taught in ``01_start_here.ipynb`` ("When the input is wrong").
    """
    rows, text = [], []
    for title, why, body in documents():
        shown = "\n".join(raw_text(line) for line in body.split(b"\n"))
        try:
            value = loads_document(body, source="key.json")
        except CheckInputError as exc:
            said = f"✘ Refused: {exc}"
        else:
            said = f"✔ Read: {display_json(value)}"
        rows.append(
            html(
                '<tr><th scope="row">{}</th><td><pre class="eic-json">{}</pre></td>'
                '<td class="eic-reason">{}</td><td class="eic-reason">{}</td></tr>',
                title,
                shown,
                visible_text(said, notated=True),
                why,
            )
        )
        text.append(f"{title}\n  {visible_text(said, notated=True)}")
    heads = ("File", "Its lines", "What reading it says", "Why")
    return HtmlBlock(_table("eic-gallery", heads, rows, "Whole files"), "\n".join(text))


def _case_run(case: Case) -> str:
    """What running ``case`` says of its expected output: the check agrees, or what it gives instead."""
    actual = case.actual()
    if case.agrees_with(actual):
        return "✔ the check agrees"
    return f"✘ the check gives {display_json(actual)}"


def _cases_read(cases: Sequence[Case]) -> str:
    said = [
        f"{case.check} {visible_id(case.id)}, titled “{visible_text(case.title, notated=True)}”, expects "
        f"{display_json(case.expected)}: {_case_run(case)}"
        for case in cases
    ]
    return f"Read {len(cases)} {'case' if len(cases) == 1 else 'cases'}: " + "; ".join(said)


def case_file_gallery() -> HtmlBlock:
    """Case files a trainer might write, good and broken, and what reading each says.

    Taught in ``06_trainer.ipynb`` ("Cases of your own").
    """
    rows, text = [], []
    for title, why, name, body in case_files():
        try:
            said = _cases_read(read_case_text(name, body))
        except CheckInputError as exc:
            field = getattr(exc, "field", None)
            said = f"✘ Refused: {exc}" + (f" (field: {field})" if field else "")
        lines = body.split("\n")
        shown = "\n".join(visible_text(line) for line in (lines[:-1] if lines[-1] == "" else lines))
        shown = shown or "(an empty file)"
        rows.append(
            html(
                '<tr><th scope="row">{}<br><code>{}</code></th><td><pre class="eic-json">{}</pre></td>'
                '<td class="eic-reason">{}</td><td class="eic-reason">{}</td></tr>',
                title,
                name,
                shown,
                said,
                why,
            )
        )
        text.append(f"{title} ({name})\n  {said}")
    heads = ("File", "Its text", "What reading it says", "Why")
    return HtmlBlock(_table("eic-gallery", heads, rows, "Case files"), "\n".join(text))


def case_csv_round_trip() -> HtmlBlock:
    """The first gallery case written as CSV with awkward cells, and read back unchanged.

    Its title starts like a formula and its reason holds a carriage return, so the
    CSV shows the spreadsheet-safe mark and the fully quoted row. Taught in
    ``06_trainer.ipynb`` ("Cases of your own").
    """
    _title, _why, name, body = case_files()[0]
    case = read_case_text(name, body)[0]
    awkward = dataclass_replace(case, title='=HYPERLINK("x") is text here', reason="two lines:\rthe second")
    written = cases_to_csv([awkward])
    back = cases_from_csv(written, source="written.csv")
    same = "✔ Read back as the same case." if back == [awkward] else "✘ Read back as a different case."
    shown = "\n".join(visible_text(row) for row in written.split("\n") if row)
    lines = [
        f"Title: {visible_text(awkward.title, notated=True)}",
        f"Reason: {visible_text(awkward.reason, notated=True)}",
        same,
    ]
    return HtmlBlock(
        html('<pre class="eic-json">{}</pre>{}', shown, lines_html(lines)),
        "\n".join([shown, *lines]),
    )


def fixed_records(records: Sequence[tuple[str, Any]], label: str) -> HtmlBlock:
    """A table of records, each with what editing it and counting two equal copies in a set does.

    ``records`` pairs a short description with a record the helpers made. Taught in
    ``04_practice.ipynb`` (answers and grades) and ``05_check_your_data.ipynb`` (results).
    """
    rows, text = [], []
    for what, record in records:
        edit = edit_refused(record)
        group = counts_once(record)
        name = type(record).__name__
        rows.append(
            html(
                '<tr><th scope="row"><code>{}</code><br>{}</th><td>{}</td><td>{}</td></tr>',
                name,
                what,
                edit,
                group,
            )
        )
        text.append(f"{name}: {what}\n  {edit}\n  {group}")
    heads = ("Record", "Editing a field", "An equal copy in a set")
    return HtmlBlock(_table("eic-fixed", heads, rows, label), "\n".join(text))


def fixed_results() -> HtmlBlock:
    """:func:`fixed_records` for what the checks hand back: each kind of result, a diff piece, a baseline.

    Taught in ``05_check_your_data.ipynb``.
    """
    first = baseline_documents()[0]
    records = [
        ("a target-scope result", run_check("target-scope", {"original": ["a", "b"], "rewritten": ["a"]})),
        (
            "a rewrite held for staff labels",
            run_check("target-scope", {"original": ["a"], "rewritten": ["a"], "unresolved": ["b?"]}),
        ),
        ("a sentinel result", run_check("sentinels", {"baseline": {"S1": "A"}, "proposed": {"S1": "a"}})),
        ("one piece of a character diff", char_diff("spring", "autumn")[0]),
        ("a baseline read from a file", baseline_from_data(first.document)),
    ]
    return fixed_records(records, "Results are fixed records")


def fixed_answers() -> HtmlBlock:
    """:func:`fixed_records` for the drill's records: a case, an answer, its grade, one finding.

    Taught in ``04_practice.ipynb``.
    """
    from helpers.trainee.cases.filled import filled_cases
    from helpers.trainee.grading import Answer, grade

    case = filled_cases("target-scope")[0]
    answer = Answer(case.check, flag=True)
    graded = grade(case, answer, ask_reason=True)
    records = [
        ("a case", case),
        ("an answer", answer),
        (f"the grade of that answer, with {len(graded.mistakes)} findings", graded),
        ("the first finding of that grade", graded.mistakes[0]),
    ]
    return fixed_records(records, "Answers and grades are fixed records")
