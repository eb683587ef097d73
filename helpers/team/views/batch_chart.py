"""The chart of a batch run: outcomes and, for target scope, the most often lost targets.

matplotlib is imported only when a chart is drawn. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import io
from typing import Any

from helpers.team.batch import BatchSummary
from helpers.team.reports import TOP_LOST, summary_rows
from helpers.trainee.views.chart import NO_MATPLOTLIB, Chart, bars, plain_label

__all__ = ["chart_numbers", "outcome_chart"]


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
        lines += [f"  {plain_label(target)}: {count}" for target, count in top] or ["  (none)"]
    return "\n".join(lines)


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
    bars(axes[0], labels, values, colours, "Records by outcome")
    if lost:
        bars(
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
