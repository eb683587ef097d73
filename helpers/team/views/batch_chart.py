"""The chart of a batch run: outcomes and, for target scope, the most often lost targets.

matplotlib is imported only when a chart is drawn. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from helpers.team.batch import BatchSummary
from helpers.team.reports import TOP_LOST, summary_rows
from helpers.trainee.html import Html, html

__all__ = ["NO_MATPLOTLIB", "Chart", "chart_numbers", "chart_img_html", "outcome_chart"]

#: What shows instead of a chart when matplotlib is not installed (e.g. in the browser edition).
NO_MATPLOTLIB = (
    "The chart needs matplotlib, which is not installed here (the browser edition has none); "
    "these are the numbers it would draw."
)


@dataclass(frozen=True)
class Chart:
    """A PNG chart that shows as an image in Jupyter and as its numbers in plain text.

    Taught in ``05_check_your_data.ipynb``.
    """

    png: bytes
    text: str

    @property
    def drawn(self) -> bool:
        """False when matplotlib is missing (the browser edition): the numbers show as text."""
        return bool(self.png)

    def _repr_png_(self) -> bytes | None:
        return self.png or None

    def _repr_html_(self) -> Html:
        return chart_img_html(self)

    def __repr__(self) -> str:
        return self.text


def chart_img_html(chart: Chart) -> Html:
    """The chart as an ``<img>`` whose alt text is every number it draws (WCAG 1.1.1).

    Taught in ``05_check_your_data.ipynb``.
    """
    if not chart.drawn:
        return html(
            '<div class="eic-chart-missing"><p role="note">{}</p><pre>{}</pre></div>',
            NO_MATPLOTLIB,
            _plain_label(chart.text),
        )
    alt = "Bar chart. " + "; ".join(line.strip() for line in chart.text.splitlines() if line.strip())
    data = base64.b64encode(chart.png).decode("ascii")
    return html(
        '<img class="eic-chart" src="data:image/png;base64,{}" alt="{}" style="max-width:100%">',
        data,
        _plain_label(alt),
    )


def chart_numbers(summary: BatchSummary) -> str:
    """The numbers behind :func:`outcome_chart`, one per line (what the bars show).

    Taught in ``05_check_your_data.ipynb``.
    """
    lines = ["outcomes:"]
    lines += [
        f"    ↳ {label}: {count}" if indented else f"  {label}: {count}"
        for label, count, indented in summary_rows(summary)
    ]
    if summary.check == "target-scope":
        lines.append("most often lost:")
        top = summary.lost_targets.most_common(TOP_LOST)
        lines += [f"  {_plain_label(target)}: {count}" for target, count in top] or ["  (none)"]
    return "\n".join(lines)


def _plain_label(text: str) -> str:
    """``text`` as a chart label: each lone surrogate (which no font can draw) shown as its ``\\udXXX`` escape."""
    return "".join(f"\\u{ord(char):04x}" if "\ud800" <= char <= "\udfff" else char for char in text)


def _bars(ax: Any, labels: Sequence[str], values: Sequence[int], colours: Sequence[str], title: str) -> None:
    positions = list(range(len(labels)))
    ax.barh(positions, values, color=list(colours), height=0.7)
    # parse_math=False: a label is an ID, drawn exactly as written, never read as $mathtext$.
    ax.set_yticks(positions, labels=[_plain_label(label) for label in labels], parse_math=False)
    ax.set_ylim(max(len(labels), 4) - 0.5, -0.5)
    ax.set_title(title, fontsize=10, parse_math=False)
    ax.set_xlabel("records", parse_math=False)
    for pos, value in zip(positions, values, strict=False):
        ax.annotate(
            str(value),
            (value, pos),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
            parse_math=False,
        )
    ax.margins(x=0.15)


def _outcome_figure(summary: BatchSummary) -> Any:
    """The matplotlib Figure :func:`outcome_chart` draws: outcome bars, and for target scope the lost targets."""
    from matplotlib.figure import Figure

    rows = summary_rows(summary)
    labels = [f"↳ {label}" if indented else label for label, _, indented in rows]
    values = [count for _, count, _ in rows]
    colours = ["#9db7d5" if indented else "#4a78a8" for _, _, indented in rows]
    lost = summary.lost_targets.most_common(TOP_LOST) if summary.check == "target-scope" else []
    fig = Figure(figsize=(9, 3.2) if lost else (5, 3.2), dpi=80, layout="constrained")
    axes = fig.subplots(1, 2) if lost else [fig.subplots(1, 1)]
    _bars(axes[0], labels, values, colours, "Records by outcome")
    if lost:
        _bars(
            axes[1],
            [t for t, _ in lost],
            [c for _, c in lost],
            ["#c0504d"] * len(lost),
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
    try:
        fig = _outcome_figure(summary)
    except ImportError:  # no matplotlib, as in the browser edition: the numbers instead
        return Chart(b"", f"{NO_MATPLOTLIB}\n{chart_numbers(summary)}")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return Chart(buffer.getvalue(), chart_numbers(summary))
