"""A chart (``helpers/trainee/views/chart.py``): a PNG with every number in its alt text, or the numbers as text."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.views.chart import NO_MATPLOTLIB, Chart, chart_img_html, plain_label

PNG = b"\x89PNG\r\n\x1a\nfake"


def test_a_drawn_chart_is_an_image_whose_alt_text_holds_every_number() -> None:
    chart = Chart(PNG, "Records\n  missing: 3\n\n  changed: <4>\n")
    assert chart.drawn and chart._repr_png_() == PNG and repr(chart) == chart.text
    shown = chart_img_html(chart)
    assert shown == (
        f'<img class="eic-chart" src="data:image/png;base64,{base64.b64encode(PNG).decode()}" '
        'alt="Bar chart. Records; missing: 3; changed: &lt;4&gt;" style="max-width:100%">'
    )
    assert chart._repr_html_() == shown


def test_without_matplotlib_the_numbers_show_as_text() -> None:
    chart = Chart(b"", "missing: 3\nbad\udcff: 1")
    assert not chart.drawn and chart._repr_png_() is None
    assert chart_img_html(chart) == (
        f'<div class="eic-chart-missing"><p role="note">{NO_MATPLOTLIB}</p>'
        "<pre>missing: 3\nbad\\udcff: 1</pre></div>"
    )


@given(st.text(max_size=20))
def test_a_label_escapes_only_lone_surrogates(text: str) -> None:
    label = plain_label(text)
    label.encode("utf-8")  # every lone surrogate is gone
    if not any("\ud800" <= char <= "\udfff" for char in text):
        assert label == text


def test_bars_draw_one_labelled_bar_per_value() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from helpers.trainee.views.chart import bars

    ax = Figure().subplots()
    bars(ax, ["$x^2$", "b\udcff"], [3, 5], ["#000000", "#111111"], "Title $y$")
    assert [patch.get_width() for patch in ax.patches] == [3, 5]
    assert [tick.get_text() for tick in ax.get_yticklabels()] == ["$x^2$", "b\\udcff"]
    assert [text.get_text() for text in ax.texts] == ["3", "5"] and ax.get_title() == "Title $y$"
