"""Reports of a batch run: plain text for people, JSON for pipelines, HTML and a chart for notebooks.

Every failure is explained in one line; a changed sentinel answer is shown as a
character-level diff (:func:`helpers.chardiff.diff_text`), so a trailing space
or a zero-width character is visible. Long ID lists are cut to a few IDs and
"and N more". Every string placed in HTML is escaped.

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .batch import BAD_INPUT, BatchSummary, Failure, KeyCheck, Outcome
from .chardiff import diff_text
from .checks import CHECK_TITLES
from .cli import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_HELD, EXIT_PASS
from .errors import CheckInputError, JSONLoadError, describe_value
from .render import HtmlBlock, esc
from .sentinels import SentinelResult
from .target_scope import NeedsStaffLabels, TargetScopeResult

__all__ = [
    "IDS_SHOWN",
    "TOP_LOST",
    "EXIT_MEANINGS",
    "explain_outcome",
    "summary_text",
    "summary_json",
    "key_check_text",
    "key_check_json",
    "key_error_object",
    "summary_table",
    "failures_table",
    "key_check_table",
    "Chart",
    "chart_numbers",
    "outcome_chart",
]

#: How many IDs an explanation names before "and N more".
IDS_SHOWN = 5
#: How many of the most often lost targets a summary lists.
TOP_LOST = 10

#: What each exit status means, in a summary's last line.
EXIT_MEANINGS: dict[int, str] = {
    EXIT_PASS: "every record passed",
    EXIT_FAILED: "a check failed",
    EXIT_HELD: "held: a rewrite needs staff labels",
    EXIT_BAD_INPUT: "bad input: something could not be checked",
}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _ids(ids: Sequence[str], limit: int = IDS_SHOWN) -> str:
    shown = ", ".join(describe_value(i) for i in ids[:limit])
    more = len(ids) - limit
    return f"{shown} and {more} more" if more > 0 else shown


def _error_message(exc: CheckInputError) -> str:
    return exc.detail if isinstance(exc, JSONLoadError) else exc.message


def _changed_answer(sentinel: str, old: str, new: str) -> str:
    return f"{describe_value(sentinel)} {diff_text(old, new)}"


def explain_outcome(check: str, outcome: Outcome) -> str:
    """One line saying why a record passed, failed, was held or could not be checked.

    >>> from helpers.target_scope import check_target_scope
    >>> explain_outcome("target-scope", (1, 1, check_target_scope(["a", "b"], ["a"]), None, None))
    'lost "b"'

    Taught in ``05_check_your_data.ipynb``.
    """
    _line, _code, result, error, record = outcome
    if error is not None:
        return _error_message(error)
    if isinstance(result, NeedsStaffLabels):
        return f"unresolved, not yet labelled by staff: {_ids(result.unresolved)}"
    if isinstance(result, TargetScopeResult):
        parts = []
        if result.missing:
            parts.append(f"lost {_ids(result.missing)}")
        if result.added:
            parts.append(f"added {_ids(result.added)}")
        return "; ".join(parts) or "preserved"
    if isinstance(result, SentinelResult):
        parts = []
        if result.missing:
            parts.append(f"missing {_ids(result.missing)}")
        if result.changed:
            baseline, proposed = record["baseline"], record["proposed"]
            shown = [
                _changed_answer(s, baseline[s], proposed[s]) for s in result.changed[:IDS_SHOWN]
            ]
            more = len(result.changed) - IDS_SHOWN
            parts.append("changed " + ", ".join(shown) + (f" and {more} more" if more > 0 else ""))
        return "; ".join(parts) or "intact"
    raise TypeError(f"not a check result: {result!r}")


# --- record files ------------------------------------------------------------------------


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _rows(summary: BatchSummary) -> list[tuple[str, int, bool]]:
    """(label, count, indented) rows of the summary table, in a fixed order."""
    rows = []
    for label, count in summary.counts.items():
        rows.append((label, count, False))
        if label == "not preserved":
            rows += [
                ("lost targets", summary.lost, True),
                ("added targets", summary.added, True),
                ("lost and added", summary.lost_and_added, True),
            ]
    return rows


def _failure_where(failure: Failure) -> str:
    where = f"line {failure.line}"
    if failure.id is not None:
        where += f" (id {describe_value(failure.id)})"
    return where


def _counts_text(summary: BatchSummary) -> list[str]:
    out = [f"{CHECK_TITLES[summary.check]}: {summary.source}", f"records checked: {summary.records}"]
    for label, count, indented in _rows(summary):
        pad = "    " if indented else "  "
        share = "" if indented else f"  {_percent(count, summary.records):>6}"
        out.append(f"{pad}{label:<{22 - len(pad)}}{count:>10}{share}")
    return out


def summary_text(summary: BatchSummary) -> str:
    """A plain-text summary: counts by outcome, the most often lost targets, the first failures.

    Taught in ``05_check_your_data.ipynb``.
    """
    out = _counts_text(summary)
    if summary.check == "target-scope" and summary.lost_targets.counts:
        top = ", ".join(
            f"{describe_value(t)} ×{c}" for t, c in summary.lost_targets.most_common(TOP_LOST)
        )
        note = "" if summary.lost_targets.exact else (
            f" (counts may be low by up to {summary.lost_targets.undercount})"
        )
        out.append(f"most often lost: {top}{note}")
    if summary.failures:
        shown = len(summary.failures)
        out.append(
            f"first {shown} of {summary.failures_total} records that did not pass:"
            if shown < summary.failures_total
            else f"records that did not pass ({shown}):"
        )
        out += [f"  {_failure_where(f)}: {f.outcome}: {f.explanation}" for f in summary.failures]
    code = summary.exit_code
    meaning = "no records to check" if summary.records == 0 else EXIT_MEANINGS[code]
    out.append(f"exit status {code}: {meaning}")
    return "\n".join(out) + "\n"


def _failure_json(failure: Failure) -> dict[str, Any]:
    data: dict[str, Any] = {"line": failure.line}
    if failure.id is not None:
        data["id"] = failure.id
    if failure.query is not None:
        data["query"] = failure.query
    data["outcome"] = failure.outcome
    data["explanation"] = failure.explanation
    data["output"] = failure.output
    return data


def summary_json(summary: BatchSummary) -> dict[str, Any]:
    """The summary as a JSON-ready object for pipelines (shape documented in ``--help``).

    Taught in ``05_check_your_data.ipynb``.
    """
    data: dict[str, Any] = {
        "check": summary.check,
        "source": summary.source,
        "records": summary.records,
        "outcomes": dict(summary.counts),
    }
    if summary.check == "target-scope":
        data["changes"] = {
            "lost": summary.lost,
            "added": summary.added,
            "lost and added": summary.lost_and_added,
        }
        data["most_often_lost"] = [
            {"id": target, "count": count}
            for target, count in summary.lost_targets.most_common(TOP_LOST)
        ]
        data["most_often_lost_undercount"] = summary.lost_targets.undercount
    data["failures_total"] = summary.failures_total
    data["failures"] = [_failure_json(f) for f in summary.failures]
    data["exit_status"] = summary.exit_code
    return data


# --- answer keys -------------------------------------------------------------------------


def key_error_object(exc: CheckInputError) -> dict[str, Any]:
    """``{"source", "line", "field", "error"}`` for a problem in an answer-key file.

    Taught in ``05_check_your_data.ipynb``.
    """
    if isinstance(exc, JSONLoadError):
        return {"source": exc.source, "line": exc.line, "field": exc.field, "error": exc.detail}
    return {"source": None, "line": None, "field": exc.field, "error": exc.message}


def _changed_entries(check: KeyCheck, limit: int) -> list[dict[str, str]]:
    assert check.result is not None
    base, prop = check.baseline.answers, check.proposed.answers
    return [
        {"id": s, "baseline": base[s], "proposed": prop[s], "diff": diff_text(base[s], prop[s])}
        for s in check.result.changed[:limit]
    ]


def _outcome_label(check: KeyCheck) -> str:
    if check.result is None:
        return BAD_INPUT
    return check.result.outcome


def key_check_json(check: KeyCheck, *, limit: int = 20) -> dict[str, Any]:
    """The two-file sentinel check as a JSON-ready object for pipelines.

    Taught in ``05_check_your_data.ipynb``.
    """
    data: dict[str, Any] = {
        "check": "sentinels",
        "baseline": {
            "source": check.baseline.source,
            "format": check.baseline.format,
            "ids": len(check.baseline.answers),
        },
        "proposed": {
            "source": check.proposed.source,
            "format": check.proposed.format,
            "ids": len(check.proposed.answers),
            "new_ids": check.new_ids,
        },
        "outcome": _outcome_label(check),
    }
    if check.result is None:
        data["missing"] = None
        data["changed"] = None
    else:
        data["missing"] = {
            "count": len(check.result.missing),
            "first": list(check.result.missing[:limit]),
        }
        data["changed"] = {
            "count": len(check.result.changed),
            "first": _changed_entries(check, limit),
        }
    data["errors_total"] = len(check.errors)
    data["errors"] = [key_error_object(e) for e in check.errors[:limit]]
    data["exit_status"] = check.exit_code
    return data


def key_check_text(check: KeyCheck, *, limit: int = 20) -> str:
    """A plain-text report of the two-file sentinel check, with a diff per changed answer.

    Taught in ``05_check_your_data.ipynb``.
    """
    b, p = check.baseline, check.proposed
    out = [
        f"Sentinel answer key: baseline {b.source} ({_count(len(b.answers), 'ID')}), "
        f"proposed {p.source} ({_count(len(p.answers), 'ID')}, {check.new_ids} not sentinels)"
    ]
    if check.result is None:
        out.append(f"not checked: {_count(len(check.errors), 'problem')} in the answer keys")
        out += [f"  {e}" for e in check.errors[:limit]]
        if len(check.errors) > limit:
            out.append(f"  … and {len(check.errors) - limit} more")
    else:
        r = check.result
        out.append(f"outcome: {r.outcome}")
        out.append(f"  missing sentinels  {len(r.missing):>10}")
        out.append(f"  changed answers    {len(r.changed):>10}")
        if r.missing:
            out.append(f"missing: {_ids(r.missing, limit)}")
        for entry in _changed_entries(check, limit):
            out.append(f"changed {describe_value(entry['id'])}: {entry['diff']}")
        if len(r.changed) > limit:
            out.append(f"… and {len(r.changed) - limit} more changed")
    out.append(f"exit status {check.exit_code}: {EXIT_MEANINGS[check.exit_code]}")
    return "\n".join(out) + "\n"


# --- HTML for the notebook ---------------------------------------------------------------


def summary_table(summary: BatchSummary) -> HtmlBlock:
    """The counts by outcome as an HTML table; plain text shows :func:`summary_text`'s counts.

    Taught in ``05_check_your_data.ipynb``.
    """
    indent = ' style="padding-left:2em"'
    rows = "".join(
        f"<tr><td{indent if indented else ''}>{esc(label)}</td>"
        f'<td style="text-align:right">{count}</td>'
        f'<td style="text-align:right">{"" if indented else _percent(count, summary.records)}</td></tr>'
        for label, count, indented in _rows(summary)
    )
    title = f"{CHECK_TITLES[summary.check]}: {summary.source}"
    code = summary.exit_code
    html = (
        f'<div class="eic-summary"><p><b>{esc(title)}</b>: {summary.records} records checked</p>'
        '<table class="eic-results"><thead><tr><th>Outcome</th><th>Records</th><th>Share</th>'
        f"</tr></thead><tbody>{rows}</tbody></table>"
        f"<p>Exit status <b>{code}</b>: {esc(EXIT_MEANINGS[code])}</p></div>"
    )
    text = [*_counts_text(summary), f"exit status {code}: {EXIT_MEANINGS[code]}"]
    return HtmlBlock(html, "\n".join(text))


def failures_table(summary: BatchSummary) -> HtmlBlock:
    """The first failures, each with its line, id and explanation, as an HTML table.

    Taught in ``05_check_your_data.ipynb``.
    """
    if not summary.failures:
        return HtmlBlock("<p>Every record passed.</p>", "Every record passed.")
    rows, text = [], []
    for f in summary.failures:
        ident = "" if f.id is None else esc(f.id if isinstance(f.id, str) else describe_value(f.id))
        left = ' style="text-align:left"'
        rows.append(
            f"<tr><td>{f.line}</td><td{left}><code>{ident}</code></td><td{left}>{esc(f.outcome)}</td>"
            f"<td{left}><code>{esc(f.explanation)}</code></td></tr>"
        )
        text.append(f"{_failure_where(f)}: {f.outcome}: {f.explanation}")
    shown = len(summary.failures)
    caption = (
        f"The first {shown} of {summary.failures_total} records that did not pass"
        if shown < summary.failures_total
        else f"The {shown} records that did not pass"
    )
    html = (
        f"<p>{esc(caption)}:</p>"
        '<table class="eic-results"><thead><tr><th>Line</th><th>id</th><th>Outcome</th>'
        f'<th>Why</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )
    return HtmlBlock(html, "\n".join([caption + ":", *text]))


def key_check_table(check: KeyCheck, *, limit: int = 20) -> HtmlBlock:
    """The two-file sentinel check as HTML, each changed answer shown as a diff.

    Taught in ``05_check_your_data.ipynb``.
    """
    text = key_check_text(check, limit=limit)
    lines = text.rstrip("\n").split("\n")
    items = "".join(f"<li><code>{esc(line)}</code></li>" for line in lines[1:])
    html = f'<div class="eic-summary"><p><b>{esc(lines[0])}</b></p><ul>{items}</ul></div>'
    return HtmlBlock(html, text.rstrip("\n"))


# --- the chart ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    """A PNG chart that shows as an image in Jupyter and as its numbers in plain text.

    Taught in ``05_check_your_data.ipynb``.
    """

    png: bytes
    text: str

    def _repr_png_(self) -> bytes:
        return self.png

    def __repr__(self) -> str:
        return self.text


def chart_numbers(summary: BatchSummary) -> str:
    """The numbers behind :func:`outcome_chart`, one per line (what the bars show).

    Taught in ``05_check_your_data.ipynb``.
    """
    lines = ["outcomes:"]
    lines += [
        f"    ↳ {label}: {count}" if indented else f"  {label}: {count}"
        for label, count, indented in _rows(summary)
    ]
    if summary.check == "target-scope":
        lines.append("most often lost:")
        top = summary.lost_targets.most_common(TOP_LOST)
        lines += [f"  {_plain_label(target)}: {count}" for target, count in top] or ["  (none)"]
    return "\n".join(lines)


def _plain_label(text: str) -> str:
    """``text`` as a chart label: each lone surrogate (which no font can draw) shown as its ``\\udXXX`` escape."""
    return "".join(f"\\u{ord(char):04x}" if "\ud800" <= char <= "\udfff" else char for char in text)


def _bars(
    ax: Any, labels: Sequence[str], values: Sequence[int], colours: Sequence[str], title: str
) -> None:
    positions = list(range(len(labels)))
    ax.barh(positions, values, color=list(colours), height=0.7)
    # parse_math=False: a label is an ID, drawn exactly as written, never read as $mathtext$.
    ax.set_yticks(positions, labels=[_plain_label(label) for label in labels], parse_math=False)
    ax.set_ylim(max(len(labels), 4) - 0.5, -0.5)
    ax.set_title(title, fontsize=10, parse_math=False)
    ax.set_xlabel("records", parse_math=False)
    for pos, value in zip(positions, values):
        ax.annotate(
            str(value), (value, pos), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8,
            parse_math=False,
        )
    ax.margins(x=0.15)


def _outcome_figure(summary: BatchSummary) -> Any:
    """The matplotlib Figure :func:`outcome_chart` draws: outcome bars, and for target scope the lost targets."""
    from matplotlib.figure import Figure

    rows = _rows(summary)
    labels = [f"↳ {label}" if indented else label for label, _, indented in rows]
    values = [count for _, count, _ in rows]
    colours = ["#9db7d5" if indented else "#4a78a8" for _, _, indented in rows]
    lost = summary.lost_targets.most_common(TOP_LOST) if summary.check == "target-scope" else []
    fig = Figure(figsize=(9, 3.2) if lost else (5, 3.2), dpi=80, layout="constrained")
    axes = fig.subplots(1, 2) if lost else [fig.subplots(1, 1)]
    _bars(axes[0], labels, values, colours, "Records by outcome")
    if lost:
        _bars(
            axes[1], [t for t, _ in lost], [c for _, c in lost], ["#c0504d"] * len(lost),
            "Most often lost targets",
        )
    return fig


def outcome_chart(summary: BatchSummary) -> Chart:
    """Bars of the outcomes and, for target scope, of the most often lost targets.

    Drawn with matplotlib's object interface (no global pyplot state) into PNG bytes.
    IDs are drawn as written: ``$...$`` is not read as math, and a lone
    surrogate shows as its ``\\udXXX`` escape.

    Taught in ``05_check_your_data.ipynb``.
    """
    fig = _outcome_figure(summary)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return Chart(buffer.getvalue(), chart_numbers(summary))

