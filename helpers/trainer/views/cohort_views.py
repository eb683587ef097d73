"""The trainer's view of a cohort as text, CSV, JSON Lines, HTML tables and charts.

Names are neutralised for the terminal, escaped for HTML and made
spreadsheet-safe for CSV; right and wrong are never shown by colour alone.
Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from helpers.core.chardiff import visible_text
from helpers.trainee.cases.filled import spreadsheet_safe
from helpers.trainee.drill.state import RuleState
from helpers.trainee.html import Html, HtmlBlock, esc, html, html_join
from helpers.trainer.cohort import NAME_SHOWN, Cohort, Trainee, shown
from helpers.trainer.item_analysis import item_table_text

if TYPE_CHECKING:
    from helpers.trainer.verified_results import CertifiedBound


__all__ = [
    "CSV_FIELDS",
    "cohort_text",
    "cohort_csv",
    "cohort_json_lines",
    "cohort_table",
    "hardest_table",
    "item_table",
    "item_chart",
    "mastery_numbers",
    "cohort_chart",
]

CSV_FIELDS = (
    "trainee",
    "file",
    "rule",
    "status",
    "streak",
    "attempts",
    "correct",
    "last_practised",
    "mastered_on",
    "content_hash",
    "version",
    "ready",
    "not_ready_because",
    "problems",
    "certified_bound",
    "certified_lower_bound",
    "checkout",
)


_MARK = {"mastered": "✓", "not started": "·"}


#: The CSV's columns that hold messages, whose names are already in the notation.
_NOTATED_FIELDS = frozenset({"not_ready_because", "problems", "certified_bound"})


def _shown(text: str, limit: int | None = None, *, notated: bool = False) -> str:
    """``text`` (a name, a path, a reason) in the notebooks' notation, so no invisible, blank-looking or
    control character shows raw (a Hangul filler reads ``⟨U+3164⟩``, a literal ``⟨`` ``⟨U+27E8⟩``), then
    cut to ``limit`` with "…" (never inside a ``⟨U+XXXX⟩``). A ``notated`` reason keeps the escapes of
    the names in it."""
    safe = shown(visible_text(text, notated=notated))
    if limit is None or len(safe) <= limit:
        return safe
    cut = safe[: limit - 1]
    if cut.rfind("⟨") > cut.rfind("⟩"):  # never half a code point
        cut = cut[: cut.rfind("⟨")]
    return cut + "…"


def _mark(status: str) -> str:
    return _MARK.get(status, status)


def _certified(t: Trainee) -> CertifiedBound | None:
    """The bound the trainee's verified check-out certifies, from its signed counts; None without one."""
    from helpers.trainer.verified_results import certified_bound

    return certified_bound(t.checkout)


def _readiness(t: Trainee) -> str:
    """``ready``, or ``not ready: REASON; REASON``."""
    return "ready" if t.ready else "not ready: " + "; ".join(t.not_ready)


def display_width(text: str) -> int:
    """How many terminal columns ``text`` takes: two for a wide or full-width character, none for a
    combining mark, one for the rest (``text`` is already :func:`shown`, so it holds no control character)."""
    return sum(
        0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
        for char in text
    )


def _pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns, so the grid's columns line up."""
    return text + " " * max(columns - display_width(text), 0)


def cohort_text(cohort: Cohort) -> str:
    """The trainer's table as plain text: a grid of trainees × rules, then each trainee's readiness.

    Every name and path is shown in the notebooks' notation (:func:`_shown`), so no file can print a line of its own.
    """
    names = [_shown(t.name, NAME_SHOWN) for t in cohort.trainees]
    width = max([len("rule"), *(len(r.id) for r in cohort.rules)])
    cols = [max(display_width(n), 11) for n in names]
    lines = [
        "Progress files re-graded from their attempts: nothing self-reported is trusted.",
        "  ".join(["rule".ljust(width), *(_pad(n, c) for n, c in zip(names, cols, strict=True))]),
    ]
    for rule in cohort.rules:
        cells = [_pad(_mark(t.status(rule.id)), c) for t, c in zip(cohort.trainees, cols, strict=True)]
        lines.append("  ".join([rule.id.ljust(width), *cells]).rstrip())
    lines.append("✓ mastered · not started  n/3 a streak under way")
    lines.append("")
    lines.append(
        "trainee: readiness; completion; cases worked (hints, reveals); last practised; content hash (version)"
    )
    for t, name in zip(cohort.trainees, names, strict=True):
        lines.append(
            f"{name}: {'ready' if t.ready else 'not ready'}; {t.completion()}; {t.step} cases "
            f"({t.hints} hints, {t.reveals} reveals); "
            f"last {_shown(t.last_practised())}; {_shown(t.content_hash or '-')} (v{t.version})"
        )
        lines += [f"  not ready: {_shown(reason, 300, notated=True)}" for reason in t.not_ready]
        lines.append(f"  check-out: {t.checkout_line()}")
        bound = _certified(t)
        if bound is not None:
            lines.append(f"  check-out certifies: {bound.text}")
        lines += [f"  problem: {_shown(p, 300, notated=True)}" for p in t.problems]
    hardest = cohort.hardest()
    if hardest:
        lines.append("")
        lines.append("hardest rules (misses of attempts; trainees not yet mastered):")
        for rule, misses, attempts, waiting in hardest:
            lines.append(f"  {rule.id}: {misses} of {attempts}; {waiting} not yet mastered")
    for path, reason in cohort.unreadable:
        lines.append(f"not read: {_shown(path)}: {_shown(reason, 300, notated=True)}")
    return "\n".join(lines) + "\n"


def _csv_rows(cohort: Cohort) -> Iterable[list[Any]]:
    for t in cohort.trainees:
        problems = " | ".join(t.problems)
        bound = _certified(t)
        certified = [bound.text, bound.to_data()["lower_bound"]] if bound is not None else ["", ""]
        for rule in cohort.rules:
            state = t.states.get(rule.id) or RuleState(rule.id)
            yield [
                t.name,
                t.file,
                rule.id,
                t.status(rule.id),
                state.streak,
                state.attempts,
                state.correct,
                state.last_practised or "",
                state.mastered_on or "",
                t.content_hash,
                t.version,
                str(t.ready).lower(),
                " | ".join(t.not_ready),
                problems,
                *certified,
                t.checkout_line(),
            ]
    for path, reason in cohort.unreadable:
        yield ["", path, "", "not read", *[""] * 7, "false", "the file was not read", reason, "", "", ""]


def cohort_csv(cohort: Cohort) -> str:
    """The same table for a spreadsheet: one row per trainee and rule, then one per file not read.

    Every cell is in the notebooks' notation (:func:`_shown`) and goes through the formula guard
    (:func:`helpers.trainee.cases.filled.spreadsheet_safe`).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    quote_all = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(CSV_FIELDS)
    for row in _csv_rows(cohort):
        # neutralised like every other surface: no control or format character, no lone surrogate
        # (which UTF-8 cannot write), then the formula guard
        cells = [
            spreadsheet_safe(_shown(str(cell), notated=field in _NOTATED_FIELDS))
            for field, cell in zip(CSV_FIELDS, row, strict=True)
        ]
        (quote_all if any("\r" in cell for cell in cells) else writer).writerow(cells)
    return buffer.getvalue()


def cohort_json_lines(cohort: Cohort) -> str:
    """One JSON object per trainee (and per file not read): ``trainee``, ``file``, ``ready``, ``problems``, …

    What ``python -m helpers cohort --json`` prints. Taught in ``06_trainer.ipynb``.
    """
    lines = []
    for t in cohort.trainees:
        checkout = None
        bound = _certified(t)
        if t.checkout is not None:
            checkout = {
                k: t.checkout.get(k)
                for k in (
                    "paper_id",
                    "passed",
                    "fully_correct",
                    "cases_total",
                    "verified",
                    "practice",
                    "proctored",
                )
                if k in t.checkout
            }
            checkout["sat"] = t.checkout_kind()
        lines.append(
            {
                "trainee": t.name,
                "file": t.file,
                "ready": t.ready,
                "not_ready_because": list(t.not_ready),
                "problems": list(t.problems),
                "version": t.version,
                "content_hash": t.content_hash,
                "attempt_id": t.attempt_id,
                "cases_worked": t.step,
                "hints": t.hints,
                "reveals": t.reveals,
                "mastered": t.mastered,
                "completion": t.completion(),
                "checkout": checkout,
                "certified": bound.to_data() if bound is not None else None,
            }
        )
    for path, reason in cohort.unreadable:
        lines.append(
            {
                "trainee": None,
                "file": path,
                "ready": False,
                "not_ready_because": ["the file was not read"],
                "problems": [reason],
            }
        )
    return "".join(json.dumps(line, ensure_ascii=True) + "\n" for line in lines)


def cohort_table(cohort: Cohort) -> HtmlBlock:
    """Trainees × rules as an HTML table, readiness and problems under it, and every file not read."""
    head = html_join(
        html('<th scope="col">{}</th>', esc(_shown(t.name, NAME_SHOWN))) for t in cohort.trainees
    )
    body = []
    for rule in cohort.rules:
        cells = []
        for t in cohort.trainees:
            status = t.status(rule.id)
            state = t.states.get(rule.id)
            tries = f"{state.attempts} tried" if state and state.attempts else ""
            mark = _MARK.get(status)
            shown_status = f"{mark} {status}" if mark else f"streak {status}"
            cells.append(
                html(
                    '<td class="eic-cohort-{}">{}<br><small>{}</small></td>',
                    esc(status.replace("/", "-of-").replace(" ", "-")),
                    esc(shown_status),
                    esc(tries),
                )
            )
        body.append(html('<tr><th scope="row"><code>{}</code></th>{}</tr>', esc(rule.id), html_join(cells)))
    foot = html_join(
        html(
            "<td>{}<br><small>hash <code>{}</code> (v{})</small></td>",
            esc(t.completion()),
            esc(t.content_hash or "-"),
            t.version,
        )
        for t in cohort.trainees
    )
    ready = html_join(
        html(
            "<td><b>{}</b>{}</td>",
            "✓ ready" if t.ready else "✗ not ready",
            html_join(
                html("<br><small>{}</small>", esc(_shown(reason, notated=True))) for reason in t.not_ready
            ),
        )
        for t in cohort.trainees
    )
    bounds = [_certified(t) for t in cohort.trainees]
    certified = html_join(
        html(
            "<td>{}</td>", esc(b.text) if b is not None else Html("–<br><small>no verified check-out</small>")
        )
        for b in bounds
    )
    sat = html_join(html("<td>{}</td>", esc(t.checkout_line())) for t in cohort.trainees)
    problems = html_join(
        html(
            "<li><b>{}</b> (<code>{}</code>): {}{}</li>",
            esc(_shown(t.name, NAME_SHOWN)),
            esc(_shown(t.file)),
            esc(_shown(_readiness(t), notated=True)),
            html(
                "<ul>{}</ul>",
                html_join(html("<li>{}</li>", esc(_shown(p, notated=True))) for p in t.problems),
            )
            if t.problems
            else Html(""),
        )
        for t in cohort.trainees
    )
    unread = html_join(
        html("<li><code>{}</code>: {}</li>", esc(_shown(path)), esc(_shown(reason, notated=True)))
        for path, reason in cohort.unreadable
    )
    table = html(
        '<table class="eic-results eic-cohort"><caption>Progress re-graded from each file\'s attempts: '
        "nothing self-reported is trusted</caption>"
        '<thead><tr><th scope="col">Rule</th>{}</tr></thead><tbody>{}</tbody>'
        '<tfoot><tr><th scope="row">Completion</th>{}</tr>'
        '<tr><th scope="row">Readiness</th>{}</tr>'
        '<tr><th scope="row">Check-out</th>{}</tr>'
        '<tr><th scope="row">Check-out certifies</th>{}</tr></tfoot></table>'
        '<p><b>Readiness and problems</b></p><ul class="eic-cohort-problems">{}</ul>{}',
        head,
        html_join(body),
        foot,
        ready,
        sat,
        certified,
        problems,
        html('<p><b>Files not read</b></p><ul class="eic-cohort-unread">{}</ul>', unread)
        if unread
        else Html(""),
    )
    return HtmlBlock(table, cohort_text(cohort).rstrip("\n"))


def item_table(cohort: Cohort) -> HtmlBlock:
    """Item analysis over the cohort's first attempts as a table; flagged items say so in words."""
    stats = cohort.items()

    def number(value: float | None) -> str:
        return "–" if value is None else f"{value:.2f}"

    rows = html_join(
        html(
            '<tr><th scope="row"><code>{}</code></th><td>{:.0%} of {}</td>'
            "<td>{}</td><td>{}</td><td>{}</td><td>{}{}</td></tr>",
            esc(s.rule),
            s.facility,
            s.trainees,
            number(s.discrimination),
            number(s.point_biserial),
            "⚑ under 0.2" if s.flagged else "ok",
            esc(s.common_wrong_reason or "–"),
            f" ({s.wrong_reason_count})" if s.common_wrong_reason else "",
        )
        for s in stats
    )
    table = html(
        '<table class="eic-results"><caption>First attempts only: facility, discrimination, wrong reasons'
        '</caption><thead><tr><th scope="col">Rule</th><th scope="col">Facility</th>'
        '<th scope="col">Discrimination (upper–lower 27%)</th><th scope="col">Point-biserial</th>'
        '<th scope="col">Discriminates</th><th scope="col">Most common wrong reason</th></tr></thead>'
        "<tbody>{}</tbody></table>",
        rows,
    )
    return HtmlBlock(table, item_table_text(stats))


def item_chart(cohort: Cohort) -> Any:
    """A bar per rule: its facility at the first attempt; its numbers and a message without matplotlib."""
    from helpers.trainee.views.chart import NO_MATPLOTLIB, Chart

    stats = cohort.items()
    text = "\n".join(f"{s.rule}: facility {s.facility:.0%}{' (flag)' if s.flagged else ''}" for s in stats)
    try:
        from matplotlib.figure import Figure
    except ImportError:  # no matplotlib, as in the browser edition: the numbers instead
        return Chart(b"", f"{NO_MATPLOTLIB}\n{text}")
    fig = Figure(figsize=(7, 4.2), dpi=80, layout="constrained")
    ax = fig.subplots()
    positions = list(range(len(stats)))
    ax.barh(
        positions,
        [s.facility * 100 for s in stats],
        color=["#d9d9d9" if s.flagged else "#4a78a8" for s in stats],
        hatch=["//" if s.flagged else "" for s in stats],
    )
    ax.set_yticks(positions, labels=[s.rule + (" ⚑" if s.flagged else "") for s in stats], parse_math=False)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("right at the first attempt (%); hatched ⚑: discrimination under 0.2", parse_math=False)
    ax.set_title("Facility of each rule", fontsize=10, parse_math=False)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return Chart(buffer.getvalue(), text)


def hardest_table(cohort: Cohort, limit: int = 5) -> HtmlBlock:
    """The rules the cohort finds hardest, with the section that teaches each."""
    rows = cohort.hardest(limit)
    if not rows:
        return HtmlBlock(Html("<p>No rule has been missed yet.</p>"), "No rule has been missed yet.")
    body = html_join(
        html(
            "<tr><td><code>{}</code><br>{}</td><td>{} of {}</td><td>{}</td><td>{}</td></tr>",
            esc(rule.id),
            esc(rule.statement),
            misses,
            attempts,
            waiting,
            esc(rule.pointer),
        )
        for rule, misses, attempts, waiting in rows
    )
    text = [
        f"{rule.id}: missed {misses} of {attempts}; {waiting} not yet mastered; taught in {rule.pointer}"
        for rule, misses, attempts, waiting in rows
    ]
    return HtmlBlock(
        html(
            '<table class="eic-results"><thead><tr><th>Rule</th><th>Missed</th><th>Not yet mastered</th>'
            "<th>Taught in</th></tr></thead><tbody>{}</tbody></table>",
            body,
        ),
        "\n".join(text),
    )


def mastery_numbers(cohort: Cohort) -> list[tuple[str, int, int]]:
    """For each rule: (rule id, trainees who mastered it, trainees who have not)."""
    rows = []
    for rule in cohort.rules:
        done = sum(1 for t in cohort.trainees if t.status(rule.id) == "mastered")
        rows.append((rule.id, done, len(cohort.trainees) - done))
    return rows


def cohort_chart(cohort: Cohort) -> Any:
    """A bar per rule: how many trainees mastered it; its numbers and a message without matplotlib."""
    from helpers.trainee.views.chart import NO_MATPLOTLIB, Chart

    numbers = mastery_numbers(cohort)
    text = "\n".join(f"{rule}: {done} mastered, {rest} not yet" for rule, done, rest in numbers)
    try:
        from matplotlib.figure import Figure
    except ImportError:  # no matplotlib, as in the browser edition: the numbers instead
        return Chart(b"", f"{NO_MATPLOTLIB}\n{text}")
    fig = Figure(figsize=(7, 4.2), dpi=80, layout="constrained")
    ax = fig.subplots()
    positions = list(range(len(numbers)))
    ax.barh(positions, [done for _, done, _ in numbers], color="#4a78a8", label="mastered")
    ax.barh(
        positions,
        [rest for _, _, rest in numbers],
        left=[done for _, done, _ in numbers],
        color="#d9d9d9",
        hatch="//",
        label="not yet",
    )
    ax.set_yticks(positions, labels=[rule for rule, _, _ in numbers], parse_math=False)
    ax.invert_yaxis()
    ax.set_xlabel("trainees", parse_math=False)
    ax.set_title("Trainees who mastered each rule", fontsize=10, parse_math=False)
    ax.legend(loc="lower right", fontsize=8)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return Chart(buffer.getvalue(), text)
