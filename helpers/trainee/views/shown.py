"""What the exact route makes of one gallery line (:class:`Shown`), and that line and its verdict as HTML
and as text, as every gallery shows them. Taught in ``02_target_scope.ipynb`` and
``03_sentinel_answer_key.ipynb`` ("Edge cases").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from helpers.core.chardiff import visible_text
from helpers.core.checks import CHECKS
from helpers.core.errors import CheckInputError, error_object
from helpers.core.jsonio import parse_json_line
from helpers.trainee.html import Html, html
from helpers.trainee.views.case_html import display_json, explanation_lines, json_html, lines_html
from helpers.trainee.views.edge_cases import EdgeCase

__all__ = [
    "SOURCE",
    "LONG_LINE",
    "SHOWN_BRACKETS",
    "Shown",
    "exact_output",
    "raw_text",
    "input_html",
    "input_text",
    "output_html",
    "output_text",
]

#: The source name the gallery's lines are read under (error messages name it).
SOURCE = "gallery"
#: A raw line longer than this many characters is shown by its two ends and its length.
LONG_LINE = 200


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


def input_html(case: EdgeCase, shown: Shown) -> Html:
    record = _shown_record(case, shown)
    if record is not None:
        return json_html(record)
    return html('<pre class="eic-json">{}</pre>', raw_text(case.line))


def raw_text(line: bytes) -> str:
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


def output_html(shown: Shown) -> Html:
    if shown.refused:
        field = shown.output["field"]
        where = html(" (field <code>{}</code>)", field) if field else Html()
        return html('<p class="eic-error"><b>✘ Refused{}:</b> {}</p>', where, shown.output["refused"])
    return html("{}{}", json_html(shown.output), lines_html(shown.notes))


def output_text(shown: Shown) -> str:
    if shown.refused:
        field = shown.output["field"]
        head = f"refused ({field})" if field else "refused"
        return f"{head}: {shown.output['refused']}"
    return "\n".join([f"output: {display_json(shown.output)}", *(f"- {note}" for note in shown.notes)])


def input_text(case: EdgeCase, shown: Shown) -> str:
    record = _shown_record(case, shown)
    shown_input = display_json(record) if record is not None else raw_text(case.line)
    return f"input:  {shown_input}"
