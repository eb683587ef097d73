"""What every widget of the project shares: the text picture, the style, and the layout of its controls.

ipywidgets' own text repr is cut at 110 characters, so each widget shows a full
plain-text picture of its controls instead (:meth:`TextPicture.describe`); strict
nbval compares it, and a static page shows it. Every widget root carries the
``eic-w`` class and the project's one style sheet (:data:`helpers.trainee.views.case_html.STYLE`):
readable tables, a visible focus ring, and the static reveal hidden while the
widget is live. Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from helpers.core.chardiff import visible_id
from helpers.core.errors import escape_surrogates
from helpers.trainee.html import STYLE, Html, esc, esc_id
from helpers.trainee.html import html as markup

__all__ = [
    "TextPicture",
    "auto_layout",
    "button",
    "frame",
    "id_checkbox",
    "wrap_row",
    "html",
    "wide_style",
    "progress_path_box",
    "view_markup",
    "NO_HTML",
]

_IGNORE_MATHS = "mathjax_ignore tex2jax_ignore"

#: No markup: what an empty area shows.
NO_HTML = Html("")


def auto_layout() -> w.Layout:
    """A layout as wide as its content, so no label is cut short."""
    return w.Layout(width="auto")


def wide_style() -> dict[str, str]:
    """A description as wide as its text (ipywidgets cuts descriptions at about 8 characters)."""
    return {"description_width": "initial"}


def progress_path_box(path: str) -> w.Text:
    """The progress-file path box both drills show: wide enough to read, never cut short."""
    box = w.Text(
        value=path,
        description="Progress file",
        style=wide_style(),
        layout=w.Layout(flex="1 1 26em", min_width="22em", max_width="40em"),
    )
    box.add_class("eic-progress-path")
    return box


def button(description: str, css: str, **kwargs: Any) -> w.Button:
    """A button whose label is never cut short, with a CSS class for sturdy selectors."""
    layout = kwargs.pop("layout", None) or w.Layout(width="auto", min_width="max-content")
    made = w.Button(description=description, layout=layout, **kwargs)
    made.add_class(css)
    return made


def html(value: Html = NO_HTML, css: str | None = None) -> w.HTML:
    """An HTML widget whose content is never typeset as maths (an ID like ``$x^2$`` stays literal)."""
    made = w.HTML(value=wrap_html(value))
    if css:
        made.add_class(css)
    return made


def wrap_html(value: Html) -> Html:
    """``value`` framed so MathJax leaves it alone; empty stays empty."""
    return markup('<div class="{}">{}</div>', _IGNORE_MATHS, value) if value else NO_HTML


def view_markup(value: Html) -> Html:
    """A view's output (a block's ``html``, a case view's markup) as markup; used by every widget.

    The views in ``helpers.trainee.views`` build their markup through :func:`helpers.trainee.html.html`
    and return :class:`~helpers.trainee.html.Html`; a plain ``str`` here would be markup made some
    other way, so it is refused rather than trusted.
    """
    if not isinstance(value, Html):
        raise TypeError(f"a view returned {type(value).__name__}, not Html: build it with html()")
    return value


#: Text MathJax would read as maths in a plain widget label.
_MATHS_DELIMITERS = ("$", "\\(", "\\[")


def id_checkbox(case_id: str, field: str) -> w.Checkbox:
    """A checkbox labelled "field: ID", the ID in the visible notation: a name that makes sense alone.

    The label is plain text (it is also the checkbox's accessible name and tooltip). An ID
    that MathJax would read as maths (``$x^2$``) gets an HTML label marked ``mathjax_ignore``
    instead, so it still shows literally.
    """
    name = escape_surrogates(f"{field}: {visible_id(case_id)}")
    if any(mark in name for mark in _MATHS_DELIMITERS):
        description: str = markup(
            '<span class="{}">{}: <span class="eic-id-label">{}</span></span>',
            _IGNORE_MATHS,
            esc(field),
            esc_id(case_id),
        )
        allow_html = True
    else:
        description, allow_html = name, False
    box = w.Checkbox(
        value=False,
        description=description,
        description_allow_html=allow_html,
        indent=False,
        layout=auto_layout(),
    )
    box.add_class(f"eic-{field}")
    return box


def wrap_row(children: Sequence[w.Widget], **layout: str) -> w.HBox:
    """A row that wraps onto the next line rather than cut anything off at narrow widths."""
    return w.HBox(list(children), layout=w.Layout(flex_flow="row wrap", align_items="center", **layout))


def frame(children: Sequence[w.Widget], css: str) -> w.VBox:
    """A widget root: the project's style sheet first, then ``children``; classes ``eic-w`` and ``css``."""
    root = w.VBox([w.HTML(STYLE), *children])
    root.add_class("eic-w")
    root.add_class(css)
    return root


class TextPicture:
    """A widget of the project: ``self.widget`` is what shows, :meth:`describe` its text picture."""

    widget: w.Widget

    def describe(self) -> str:
        """A plain-text picture of the controls, read from the live widgets."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = escape_surrogates(self.describe())
        return bundle
