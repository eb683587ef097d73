"""A chart that shows as a PNG in Jupyter and as its numbers in plain text, with accessible alt text.

Shared by the team's batch chart and the trainer's cohort charts. matplotlib is imported only when a
chart is drawn. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from helpers.trainee.html import Html, html

__all__ = ["NO_MATPLOTLIB", "Chart", "bars", "chart_img_html", "plain_label"]

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
            plain_label(chart.text),
        )
    alt = "Bar chart. " + "; ".join(line.strip() for line in chart.text.splitlines() if line.strip())
    data = base64.b64encode(chart.png).decode("ascii")
    return html(
        '<img class="eic-chart" src="data:image/png;base64,{}" alt="{}" style="max-width:100%">',
        data,
        plain_label(alt),
    )


def plain_label(text: str) -> str:
    """``text`` as a chart label: each lone surrogate (which no font can draw) shown as its ``\\udXXX`` escape."""
    return "".join(f"\\u{ord(char):04x}" if "\ud800" <= char <= "\udfff" else char for char in text)


def bars(ax: Any, labels: Sequence[str], values: Sequence[int], colours: Sequence[str], title: str) -> None:
    """Horizontal bars on matplotlib axes ``ax``, each labelled with its value; IDs drawn as written."""
    positions = list(range(len(labels)))
    ax.barh(positions, values, color=list(colours), height=0.7)
    # parse_math=False: a label is an ID, drawn exactly as written, never read as $mathtext$.
    ax.set_yticks(positions, labels=[plain_label(label) for label in labels], parse_math=False)
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
