"""The team's galleries, taught in ``05_check_your_data.ipynb``: the fast path beside the exact route on
every edge case (:func:`fast_beside_exact`), and whole sources read as the command line reads them
(:func:`reading_gallery`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from helpers.core.chardiff import visible_text
from helpers.core.errors import error_object
from helpers.core.jsonio import iter_json_lines
from helpers.core.outcomes import output_object
from helpers.team.batch import outcomes_jsonl
from helpers.team.fastpath import FAST_JSON, dumps_line, fast_sentinels_input, fast_target_scope, loads_fast
from helpers.trainee.html import Html, html, html_join
from helpers.trainee.views.case_html import HtmlBlock, display_json, json_html, scroll_region
from helpers.trainee.views.edge_cases import edge_cases, sources
from helpers.trainee.views.shown import SOURCE, Shown, exact_output, output_html, output_text, raw_text

__all__ = ["FastRun", "fast_beside_exact", "fast_run", "reading_gallery"]


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
                output_html(Shown(exact.record, exact.output, exact.refused, ())),
                fast.reader,
                fast_html,
                verdict,
            )
        )
        fast_text = display_json(fast.output) if fast.output is not None else fast.check
        exact_text = output_text(Shown(exact.record, exact.output, exact.refused, ()))
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
            visible_text(dumps_line(output_object(o, carry=True)).decode("utf-8"), notated=True).rstrip()
            for o in outcomes
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
                    raw_text(raw),
                    read,
                    output,
                )
            )
            lines_text.append(f"{number}: {raw_text(raw)}\n   read: {read}\n   -> {output}")
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
