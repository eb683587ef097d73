"""What every widget shares (``helpers/trainee/widgets/base.py``): frames, labels, markup kept literal."""

from __future__ import annotations

import ipywidgets as w
import pytest

from helpers.trainee.html import STYLE, Html
from helpers.trainee.widgets.base import (
    NO_HTML,
    TextPicture,
    button,
    frame,
    html,
    id_checkbox,
    progress_path_box,
    view_markup,
    wrap_html,
    wrap_row,
)


def test_markup_is_framed_against_maths_and_empty_stays_empty() -> None:
    assert wrap_html(Html("<b>$x^2$</b>")) == '<div class="mathjax_ignore tex2jax_ignore"><b>$x^2$</b></div>'
    assert wrap_html(NO_HTML) == ""
    shown = html(Html("<p>x</p>"), css="eic-result")
    assert shown.value == '<div class="mathjax_ignore tex2jax_ignore"><p>x</p></div>'
    assert "eic-result" in shown._dom_classes and html().value == ""


def test_a_view_must_hand_over_markup_built_as_html() -> None:
    assert view_markup(Html("<p>ok</p>")) == "<p>ok</p>"
    with pytest.raises(TypeError, match="a view returned str, not Html: build it with html"):
        view_markup("<p>made some other way</p>")  # type: ignore[arg-type]


def test_an_id_checkbox_is_labelled_as_text_unless_maths_would_eat_it() -> None:
    plain = id_checkbox("pay\u200broll", "missing")
    assert plain.description == "missing: pay⟨U+200B⟩roll" and not plain.description_allow_html
    assert not plain.value and "eic-missing" in plain._dom_classes
    hostile = id_checkbox("<b>x</b>", "added")
    assert hostile.description == "added: <b>x</b>" and not hostile.description_allow_html
    maths = id_checkbox("$x^2$", "added")
    assert maths.description_allow_html
    assert maths.description == (
        '<span class="mathjax_ignore tex2jax_ignore">added: <span class="eic-id-label">$x^2$</span></span>'
    )
    assert id_checkbox("a\udcffb", "missing").description == "missing: a⟨U+DCFF⟩b"


def test_a_widget_root_carries_the_style_sheet_and_its_classes() -> None:
    child = w.Label("x")
    root = frame([child], "eic-sandbox")
    assert root.children[0].value == STYLE and root.children[1] is child
    assert {"eic-w", "eic-sandbox"} <= set(root._dom_classes)
    row = wrap_row([child], width="20em")
    assert row.layout.flex_flow == "row wrap" and row.layout.width == "20em"


def test_buttons_and_the_path_box_are_never_cut_short() -> None:
    made = button("Check", "eic-check", tooltip="Grade it")
    assert made.description == "Check" and made.tooltip == "Grade it"
    assert made.layout.min_width == "max-content" and "eic-check" in made._dom_classes
    box = progress_path_box("progress.json")
    assert box.value == "progress.json" and box.style.description_width == "initial"
    assert "eic-progress-path" in box._dom_classes


def test_the_text_picture_replaces_the_widgets_cut_text() -> None:
    class Picture(TextPicture):
        def __init__(self) -> None:
            self.widget = w.Label("x" * 200)

        def describe(self) -> str:
            return "a full picture \udcff"

    bundle = Picture()._repr_mimebundle_()
    assert bundle["text/plain"] == "a full picture \\udcff"
    assert "application/vnd.jupyter.widget-view+json" in bundle
    with pytest.raises(NotImplementedError):
        TextPicture().describe()
