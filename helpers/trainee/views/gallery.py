"""Edge-case galleries: every rule of a check at work on a small input, computed as the notebook runs.

The inputs and the teaching notes come from ``fixtures/edge_cases.json``; the
outputs, explanations and error messages are computed by the checks each time,
so a broken rule changes what the gallery shows (and strict nbval notices).
Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("Edge
cases"), and in ``05_check_your_data.ipynb`` (the fast path beside the exact
route, and how lines are read).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any

from helpers.core.baselines import baseline_from_data
from helpers.core.chardiff import char_diff, char_name, visible_id, visible_text
from helpers.core.checks import CHECKS, require_check_name, run_check
from helpers.core.errors import CheckInputError, InvalidInputError
from helpers.core.jsonio import (
    dumps_compact,
    iter_json_lines,
    load_json_file,
    loads_document,
    parse_json_line,
)
from helpers.core.paths import fixtures_dir
from helpers.core.validation import require_record
from helpers.team.batch import error_object, outcomes_jsonl, output_object
from helpers.team.fastpath import FAST_JSON, dumps_line, fast_sentinels_input, fast_target_scope, loads_fast
from helpers.trainee.cases.filled import Case, cases_from_csv, cases_from_data, cases_to_csv
from helpers.trainee.cases.fixture_fields import text_field
from helpers.trainee.html import Html, html, html_join
from helpers.trainee.views.case_html import (
    HtmlBlock,
    counts_once,
    display_json,
    edit_refused,
    explanation_lines,
    json_html,
    lines_html,
    scroll_region,
)

__all__ = [
    "EdgeCase",
    "Source",
    "edge_cases_json",
    "load_edge_cases",
    "edge_cases",
    "sources",
    "exact_output",
    "gallery",
    "fast_beside_exact",
    "reading_gallery",
    "baseline_gallery",
    "baseline_documents",
    "BaselineDocument",
    "LONG_LINE",
    "notation_examples",
    "notation_table",
    "documents",
    "document_gallery",
    "case_files",
    "case_file_gallery",
    "case_csv_round_trip",
    "fixed_records",
    "fixed_results",
    "fixed_answers",
    "Shown",
    "FastRun",
    "fast_run",
    "SOURCE",
]

#: The source name the gallery's lines are read under (error messages name it).
SOURCE = "gallery"
#: The fixture's optional top-level fields (besides ``edge_cases`` and ``sources``).
_TOP_LEVEL = (
    "about",
    "sources_about",
    "baselines",
    "baselines_about",
    "notation",
    "notation_about",
    "documents",
    "documents_about",
    "case_files",
    "case_files_about",
    "edge_cases",
    "sources",
)
#: A raw line longer than this many characters is shown by its two ends and its length.
LONG_LINE = 200


@dataclass(frozen=True)
class EdgeCase:
    """One gallery entry: its check, group, title, teaching note and raw JSON line (UTF-8)."""

    check: str
    group: str
    title: str
    why: str
    line: bytes


@dataclass(frozen=True)
class Source:
    """A few lines of a JSON Lines source, read as the command line reads them."""

    check: str
    title: str
    why: str
    lines: tuple[bytes, ...]


def edge_cases_json() -> Path:
    """``fixtures/edge_cases.json``: the galleries' inputs and notes."""
    return fixtures_dir() / "edge_cases.json"


def _edge_case(raw: Any, where: str) -> EdgeCase:
    record = require_record(
        raw, required=("check", "group", "title", "why"), optional=("input", "line"), field=where
    )
    check = require_check_name(record["check"], f"{where}.check")
    if ("input" in record) == ("line" in record):
        raise InvalidInputError(f'{where} needs exactly one of "input" and "line"', field=where)
    line = dumps_compact(record["input"]) if "input" in record else _line(record["line"], f"{where}.line")
    if not line:
        raise InvalidInputError(f"{where}.line must not be empty", field=f"{where}.line")
    return EdgeCase(
        check=check,
        group=text_field(record, "group", where),
        title=text_field(record, "title", where),
        why=text_field(record, "why", where),
        line=line.encode("utf-8", "surrogateescape"),
    )


def _line(raw: Any, where: str) -> str:
    """A source line: a string, or a list of parts (strings, or ``{"repeat": text, "times": n}``) joined."""
    if isinstance(raw, str):
        return raw
    if not isinstance(raw, list):
        raise InvalidInputError(f"{where} must be a string or a list of parts", field=where)
    pieces = []
    for index, part in enumerate(raw):
        if isinstance(part, str):
            pieces.append(part)
            continue
        spec = require_record(part, required=("repeat", "times"), field=f"{where}[{index}]")
        times = spec["times"]
        if not isinstance(spec["repeat"], str) or type(times) is not int or times < 1:
            raise InvalidInputError(
                f"{where}[{index}] repeats a string a whole number of times", field=f"{where}[{index}]"
            )
        pieces.append(spec["repeat"] * times)
    return "".join(pieces)


def _source(raw: Any, where: str) -> Source:
    record = require_record(raw, required=("check", "title", "why", "lines"), field=where)
    lines = record["lines"]
    if not isinstance(lines, list):
        raise InvalidInputError(f"{where}.lines must be a list", field=f"{where}.lines")
    return Source(
        check=require_check_name(record["check"], f"{where}.check"),
        title=text_field(record, "title", where),
        why=text_field(record, "why", where),
        lines=tuple(
            _line(line, f"{where}.lines[{n}]").encode("utf-8", "surrogateescape")
            for n, line in enumerate(lines)
        ),
    )


@dataclass(frozen=True)
class BaselineDocument:
    """A baseline file's content, shown with what :func:`~helpers.core.baselines.baseline_from_data` says."""

    title: str
    why: str
    document: Any


def _baseline_document(raw: Any, where: str) -> BaselineDocument:
    record = require_record(raw, required=("title", "why", "document"), field=where)
    return BaselineDocument(
        text_field(record, "title", where), text_field(record, "why", where), record["document"]
    )


def load_edge_cases(
    path: str | Path | None = None,
) -> tuple[list[EdgeCase], list[Source], list[BaselineDocument]]:
    """Read the galleries' fixture; a malformed entry raises naming it (e.g. ``edge_cases[3].why``)."""
    source = Path(path) if path is not None else edge_cases_json()
    data = require_record(
        load_json_file(source),
        required=("edge_cases", "sources"),
        optional=_TOP_LEVEL,
        field=source.name,
    )
    entries, reads, documents = data["edge_cases"], data["sources"], data.get("baselines", [])
    if not all(isinstance(group, list) for group in (entries, reads, documents)):
        raise InvalidInputError(
            f"{source.name}: edge_cases, sources and baselines must be lists", field=source.name
        )
    return (
        [_edge_case(raw, f"edge_cases[{n}]") for n, raw in enumerate(entries)],
        [_source(raw, f"sources[{n}]") for n, raw in enumerate(reads)],
        [_baseline_document(raw, f"baselines[{n}]") for n, raw in enumerate(documents)],
    )


def edge_cases(check: str) -> list[EdgeCase]:
    """The gallery entries of one check, in the fixture's order."""
    require_check_name(check)
    return [case for case in load_edge_cases()[0] if case.check == check]


def sources() -> list[Source]:
    """The multi-line sources that show how lines are read (``05_check_your_data.ipynb``)."""
    return load_edge_cases()[1]


def baseline_documents() -> list[BaselineDocument]:
    """The baseline documents of ``03_sentinel_answer_key.ipynb``'s gallery of baseline files."""
    return load_edge_cases()[2]


@dataclass(frozen=True)
class Shown:
    """What the exact route makes of one line: the parsed input (if any), the output, and why."""

    record: Any
    output: dict[str, Any]
    refused: bool
    notes: tuple[str, ...]


def exact_output(check: str, line: bytes) -> Shown:
    """Read ``line`` strictly and run the exact check: the output object, or the refusal with its message."""
    parsed = parse_json_line(line, 1, SOURCE)
    if parsed.error is not None:
        return Shown(None, _refusal(parsed.error), True, ())
    try:
        result = CHECKS[check](parsed.value)
    except CheckInputError as exc:
        return Shown(parsed.value, _refusal(exc), True, ())
    return Shown(parsed.value, result.as_dict(), False, tuple(explanation_lines(check, parsed.value, result)))


def _refusal(exc: CheckInputError) -> dict[str, Any]:
    error = error_object(1, exc)
    return {"refused": error["error"], "field": error["field"]}


#: An input holding more brackets than this is shown as its line, shortened, not as a wall
#: of brackets (a deeply nested one always holds many).
SHOWN_BRACKETS = 40


def _shown_record(case: EdgeCase, shown: Shown) -> Any | None:
    """The parsed record to show as JSON, or ``None`` to show the raw line instead."""
    if shown.record is None or case.line.count(b"[") + case.line.count(b"{") > SHOWN_BRACKETS:
        return None
    return shown.record


def _input_html(case: EdgeCase, shown: Shown) -> Html:
    record = _shown_record(case, shown)
    if record is not None:
        return json_html(record)
    return html('<pre class="eic-json">{}</pre>', _raw_text(case.line))


def _raw_text(line: bytes) -> str:
    """A raw line as the notebooks show it: look-alike and invisible characters in the visible
    notation, and a byte that is not UTF-8 as ``⟨byte E9⟩``."""
    text = line.decode("utf-8", "surrogateescape")
    if len(text) > LONG_LINE:
        text = f"{text[:40]} … {text[-30:]} ({len(text):,} characters in all)"
    parts = _RAW_BYTE.split(text)
    # split() with a group alternates text and bad bytes: even indexes are text.
    return "".join(
        visible_text(part) if index % 2 == 0 else f"⟨byte {ord(part) - 0xDC00:02X}⟩"
        for index, part in enumerate(parts)
    )


_RAW_BYTE = re.compile("([\\udc80-\\udcff])")


def _output_html(shown: Shown) -> Html:
    if shown.refused:
        field = shown.output["field"]
        where = html(" (field <code>{}</code>)", field) if field else Html()
        return html('<p class="eic-error"><b>✘ Refused{}:</b> {}</p>', where, shown.output["refused"])
    return html("{}{}", json_html(shown.output), lines_html(shown.notes))


def _output_text(shown: Shown) -> str:
    if shown.refused:
        field = shown.output["field"]
        head = f"refused ({field})" if field else "refused"
        return f"{head}: {shown.output['refused']}"
    return "\n".join([f"output: {display_json(shown.output)}", *(f"- {note}" for note in shown.notes)])


def _input_text(case: EdgeCase, shown: Shown) -> str:
    record = _shown_record(case, shown)
    shown_input = display_json(record) if record is not None else _raw_text(case.line)
    return f"input:  {shown_input}"


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
                    _input_html(case, shown),
                    _output_html(shown),
                    case.why,
                )
            )
            text.append(f"{case.title}\n  {_input_text(case, shown)}\n  {_indent(_output_text(shown))}")
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


_FAST = {"target-scope": fast_target_scope, "sentinels": fast_sentinels_input}


@dataclass(frozen=True)
class FastRun:
    """The fast path on one line: what its reader and its check did, and whether it agrees."""

    reader: str
    check: str
    output: dict[str, Any] | None
    agrees: bool


def fast_run(check: str, line: bytes, exact: Shown) -> FastRun:
    """Run the fast path's reader and check on ``line``, beside the exact route's ``exact``.

    The fast path may decline a line (return nothing), and then the exact route
    decides; when it answers, its output must be the exact route's, key order
    included. Without ``orjson`` the reader always declines and the fast check
    runs on the strict reader's value.
    """
    value = loads_fast(line)
    if value is None:
        reader = "declines: the strict reader decides"
        value = exact.record
    elif exact.record is not None and value == exact.record:
        reader = "reads the same value"
    else:
        return FastRun("reads a different value", "not run", None, False)
    result = None if value is None else _FAST[check](value)
    if result is None:
        return FastRun(reader, "declines: the exact check decides", None, True)
    output = result.as_dict()
    same = not exact.refused and output == exact.output and list(output) == list(exact.output)
    return FastRun(reader, "answers", output, same)


def fast_beside_exact(check: str) -> HtmlBlock:
    """Every gallery input of ``check`` run both ways, the fast path beside the exact route.

    Taught in ``05_check_your_data.ipynb`` ("The fast path").
    """
    rows: list[Html] = []
    text, agreeing = [], 0
    cases = edge_cases(check)
    for case in cases:
        exact = exact_output(check, case.line)
        fast = fast_run(check, case.line, exact)
        agreeing += fast.agrees
        verdict = "✔ agrees" if fast.agrees else "✘ differs"
        fast_html = json_html(fast.output) if fast.output is not None else html("<p>{}</p>", fast.check)
        rows.append(
            html(
                '<tr><th scope="row">{}</th><td class="eic-json-cell">{}</td>'
                '<td>{}</td><td class="eic-json-cell">{}</td><td>{}</td></tr>',
                case.title,
                _output_html(Shown(exact.record, exact.output, exact.refused, ())),
                fast.reader,
                fast_html,
                verdict,
            )
        )
        fast_text = display_json(fast.output) if fast.output is not None else fast.check
        exact_text = _output_text(Shown(exact.record, exact.output, exact.refused, ()))
        text.append(
            f"{case.title}\n  exact:  {exact_text.removeprefix('output: ')}\n"
            f"  fast:   reader {fast.reader}; check {fast_text}\n  {verdict}"
        )
    summary = f"{agreeing} of {len(cases)} inputs: the fast path agrees with the exact route."
    reader = (
        "orjson is installed here, so the fast reader runs."
        if FAST_JSON
        else "orjson is not installed here, so the fast reader always declines and the fast checks run on "
        "the strict reader's values."
    )
    table = html(
        '<table class="eic-fast"><thead><tr><th scope="col">Case</th><th scope="col">Exact route</th>'
        '<th scope="col">Fast reader</th><th scope="col">Fast check</th><th scope="col">Same result?</th>'
        "</tr></thead><tbody>{}</tbody></table>",
        html_join(rows),
    )
    return HtmlBlock(
        html(
            "<p><b>{}</b> {}</p>{}",
            summary,
            reader,
            scroll_region(table, f"The fast path beside the exact route: {check}"),
        ),
        "\n".join([f"{summary} {reader}", *text]),
    )


def reading_gallery() -> HtmlBlock:
    """A few whole sources read as the command line reads them: what each line reads as, and its output line.

    The reader is :func:`~helpers.core.jsonio.iter_json_lines`; the output lines are what
    ``python -m helpers CHECK --carry`` writes. Taught in ``05_check_your_data.ipynb`` ("How lines are read").
    """
    parts: list[Html] = []
    text = []
    for item in sources():
        outcomes = outcomes_jsonl(item.lines, item.check, source=SOURCE)
        # Each output line exactly as the command line writes it, in the visible notation.
        outputs = [
            visible_text(dumps_line(output_object(o, carry=True)).decode("utf-8")).rstrip() for o in outcomes
        ]
        reads = [
            f"✘ {error_object(line.number, line.error)['error']}"
            if line.error is not None
            else display_json(line.value)
            for line in iter_json_lines(item.lines, source=SOURCE)
        ]
        rows: list[Html] = []
        lines_text = []
        for number, (raw, read, output) in enumerate(zip(item.lines, reads, outputs, strict=True), 1):
            rows.append(
                html(
                    '<tr><th scope="row">{}</th><td><code>{}</code></td>'
                    "<td><code>{}</code></td><td><code>{}</code></td></tr>",
                    number,
                    _raw_text(raw),
                    read,
                    output,
                )
            )
            lines_text.append(f"{number}: {_raw_text(raw)}\n   read: {read}\n   -> {output}")
        table = html(
            '<table class="eic-reading"><caption><b>{}</b> ({})</caption>'
            '<thead><tr><th scope="col">Line</th><th scope="col">As written</th>'
            '<th scope="col">What the reader makes of it</th><th scope="col">Output line</th></tr></thead>'
            "<tbody>{}</tbody></table>",
            item.title,
            item.check,
            html_join(rows),
        )
        parts.append(html("<p>{}</p>{}", item.why, scroll_region(table, f"How lines are read: {item.title}")))
        text.append("\n".join([f"## {item.title}", *lines_text]))
    return HtmlBlock(html_join(parts), "\n".join(text))


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
                visible_text(verdict),
                item.why,
            )
        )
        text.append(f"{item.title}\n  file:  {display_json(item.document)}\n  {visible_text(verdict)}")
    heads = ("File", "Content", "What reading it says", "Why")
    return HtmlBlock(_table("eic-gallery", heads, rows, "Baseline files"), "\n".join(text))


def _section(name: str, required: tuple[str, ...]) -> list[tuple[str, Mapping[str, Any]]]:
    """The entries of one optional list in the fixture, each checked for ``required`` and named."""
    source = edge_cases_json()
    entries = require_record(load_json_file(source), required=(), optional=_TOP_LEVEL, field=source.name).get(
        name, []
    )
    if not isinstance(entries, list):
        raise InvalidInputError(f"{source.name}: {name} must be a list", field=name)
    return [
        (f"{name}[{n}]", require_record(raw, required=required, field=f"{name}[{n}]"))
        for n, raw in enumerate(entries)
    ]


def notation_examples() -> list[tuple[str, str]]:
    """The strings of ``01_start_here.ipynb``'s notation table, each with its note."""
    found = []
    for where, record in _section("notation", ("text", "why")):
        if not isinstance(record["text"], str) or not record["text"]:
            raise InvalidInputError(f"{where}.text must be a non-empty string", field=f"{where}.text")
        found.append((record["text"], text_field(record, "why", where)))
    return found


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


def documents() -> list[tuple[str, str, bytes]]:
    """The whole files of ``01_start_here.ipynb``'s gallery: title, note and bytes."""
    return [
        (
            text_field(record, "title", where),
            text_field(record, "why", where),
            _line(record["text"], f"{where}.text").encode("utf-8", "surrogateescape"),
        )
        for where, record in _section("documents", ("title", "why", "text"))
    ]


def document_gallery() -> HtmlBlock:
    """Whole JSON files, good and broken, and what the strict reader says of each.

    Taught in ``01_start_here.ipynb`` ("When the input is wrong").
    """
    rows, text = [], []
    for title, why, body in documents():
        shown = "\n".join(_raw_text(line) for line in body.split(b"\n"))
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
                visible_text(said),
                why,
            )
        )
        text.append(f"{title}\n  {visible_text(said)}")
    heads = ("File", "Its lines", "What reading it says", "Why")
    return HtmlBlock(_table("eic-gallery", heads, rows, "Whole files"), "\n".join(text))


def case_files() -> list[tuple[str, str, str, str]]:
    """The case files of ``06_trainer.ipynb``'s gallery: title, note, file name and text."""
    found = []
    for where, record in _section("case_files", ("title", "why", "name", "text")):
        name = text_field(record, "name", where)
        if not name.endswith((".csv", ".json")):
            raise InvalidInputError(f"{where}.name must end in .csv or .json", field=f"{where}.name")
        text = record["text"]
        if not isinstance(text, str):
            raise InvalidInputError(f"{where}.text must be a string", field=f"{where}.text")
        found.append((text_field(record, "title", where), text_field(record, "why", where), name, text))
    return found


def read_case_text(name: str, text: str) -> list[Case]:
    """Read the cases in ``text`` as :func:`~helpers.trainee.cases.filled.load_cases` reads a file called ``name``."""
    if name.endswith(".csv"):
        return cases_from_csv(text, source=name)
    return cases_from_data(loads_document(text.encode("utf-8"), source=name), source=name)


def _case_run(case: Case) -> str:
    """What running ``case`` says of its expected output: the check agrees, or what it gives instead."""
    actual = case.actual()
    if case.agrees_with(actual):
        return "✔ the check agrees"
    return f"✘ the check gives {display_json(actual)}"


def _cases_read(cases: Sequence[Case]) -> str:
    said = [
        f"{case.check} {visible_id(case.id)}, titled “{visible_text(case.title)}”, expects "
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
    lines = [f"Title: {visible_text(awkward.title)}", f"Reason: {visible_text(awkward.reason)}", same]
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
