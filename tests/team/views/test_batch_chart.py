"""The outcome chart of a batch run (:mod:`helpers.team.views.batch_chart`): its panels, its order, any target ID drawn as written."""

from __future__ import annotations

import io
import json

import pytest

from helpers.core.paths import fixtures_dir
from helpers.team.batch import BatchSummary, check_file, check_records
from helpers.team.reports import TOP_LOST
from helpers.team.sources import Upload
from helpers.team.views.batch_chart import _outcome_figure, chart_numbers, outcome_chart


def _losing(targets: list[str]) -> BatchSummary:
    """A target-scope run where each record loses one target (given as a raw, possibly odd, string)."""
    lines = [
        json.dumps({"id": f"r{n}", "query": "q", "original": [target, "kept"], "rewritten": ["kept"]})
        for n, target in enumerate(targets)
    ]
    return check_file(Upload("lost.jsonl", "\n".join(lines).encode("utf-8", "surrogatepass")))


def _bar_panel(ax) -> tuple[str, list[str], list[int]]:
    """An axes' title, its tick labels as drawn, and its bar lengths."""
    labels = [tick.get_text() for tick in ax.get_yticklabels()]
    return ax.get_title(), labels, [int(bar.get_width()) for bar in ax.patches]


def test_the_chart_has_the_most_often_lost_panel_with_its_targets_and_counts():
    summary = check_file(fixtures_dir() / "sample_data" / "rewrites.jsonl")
    top = summary.lost_targets.most_common(TOP_LOST)
    assert top, "the sample loses targets"
    figure = _outcome_figure(summary)
    assert len(figure.axes) == 2
    outcomes_title, outcome_labels, outcome_counts = _bar_panel(figure.axes[0])
    assert outcomes_title == "Records by outcome"
    assert outcome_labels[:2] == ["preserved", "not preserved"]
    assert outcome_counts[:2] == [summary.counts["preserved"], summary.counts["not preserved"]]
    assert _bar_panel(figure.axes[1]) == (
        "Most often lost targets",
        [target for target, _ in top],
        [count for _, count in top],
    )
    lost_lines = chart_numbers(summary).split("most often lost:\n")[1].splitlines()
    assert lost_lines == [f"  {target}: {count}" for target, count in top]


def test_the_chart_orders_lost_targets_by_count_and_stops_at_the_top_ones():
    targets = ["b"] * 3 + ["a"] * 2 + [f"t{n:02}" for n in range(TOP_LOST + 3)]
    figure = _outcome_figure(_losing(targets))
    _, labels, counts = _bar_panel(figure.axes[1])
    assert labels[:2] == ["b", "a"] and counts[:2] == [3, 2]
    assert len(labels) == len(counts) == TOP_LOST and set(counts[2:]) == {1}


def test_the_sentinel_chart_has_only_the_outcome_panel():
    summary = check_file(Upload("k.jsonl", b'{"id":"S1","answer":"R"}\n'), "sentinels")
    figure = _outcome_figure(summary)
    assert [ax.get_title() for ax in figure.axes] == ["Records by outcome"]


@pytest.mark.parametrize(
    ("target", "label"),
    [("$\\frac{$", "$\\frac{$"), ("$x_1$", "$x_1$"), ("\ud800", "\\ud800"), ("a$b$c\udfff", "a$b$c\\udfff")],
    ids=["broken mathtext", "mathtext", "lone surrogate", "both"],
)
def test_the_chart_draws_any_target_id_as_written(target, label):
    summary = _losing([target, target, "other"])
    figure = _outcome_figure(summary)
    title, labels, counts = _bar_panel(figure.axes[1])
    assert (title, labels, counts) == ("Most often lost targets", [label, "other"], [2, 1])
    assert not any(tick.get_parse_math() for ax in figure.axes for tick in ax.get_yticklabels())
    chart = outcome_chart(summary)  # renders: no mathtext error, no TypeError from the surrogate
    assert chart.png.startswith(b"\x89PNG")
    assert f"  {label}: 2" in chart.text.splitlines()


def test_without_matplotlib_the_chart_is_its_numbers_and_a_message(without_matplotlib):
    """The browser edition has no matplotlib: a clear message and the numbers, never a traceback."""
    from helpers.trainee.views.chart import NO_MATPLOTLIB, chart_img_html

    summary = check_records(
        io.BytesIO(b'{"original":["a"],"rewritten":[]}\n'), BatchSummary("target-scope", "s")
    )
    chart = outcome_chart(summary)
    assert not chart.drawn and chart._repr_png_() is None
    assert repr(chart).startswith(NO_MATPLOTLIB) and "not preserved: 1" in repr(chart)
    html = chart_img_html(chart)
    assert "<img" not in html and "matplotlib" in html and "not preserved: 1" in html
