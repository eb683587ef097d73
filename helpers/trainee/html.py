"""The project's HTML primitives: markup escaped by construction, the one style sheet, output blocks and JSON.

Markup is made only by :func:`html`, :func:`html_join` and the escapers here. Each returns
:class:`Html`, text already safe to show; every value put into a template that is not
:class:`Html` is escaped on the way in, so forgetting to escape cannot inject an element or
an attribute. Every HTML output sits in :func:`block_html`'s frame. Used by every view, the
drill and the trainer's view; taught in ``01_start_here.ipynb``.

Why not ``markupsafe.Markup``, which does the same: the browser edition is built offline from
PyPI and npm, where MarkupSafe exists only as compiled wheels (Pyodide's own wasm build is on its
CDN alone), so this small builder keeps the edition self-contained.
"""

from __future__ import annotations

import html as _html
import string
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, LiteralString

from helpers.core.chardiff import visible_id, visible_text
from helpers.core.errors import escape_surrogates
from helpers.core.jsonio import dumps_compact
from helpers.core.jsonwalk import JsonStyle, json_pieces

__all__ = [
    "Html",
    "html",
    "html_join",
    "STYLE",
    "esc",
    "esc_id",
    "prose",
    "block_html",
    "scroll_region",
    "HtmlBlock",
    "display_json",
    "json_html",
]


class Html(str):
    """Markup that is safe to show as it is: made by :func:`html`, :func:`html_join` or an escaper.

    Adding a plain string to it escapes that string, as ``markupsafe.Markup`` does.
    """

    __slots__ = ()

    def __html__(self) -> Html:
        return self

    def __add__(self, other: str) -> Html:
        return Html(str.__add__(self, _escaped(other)))

    def __radd__(self, other: str) -> Html:
        return Html(str.__add__(_escaped(other), self))


def _escaped(value: object) -> str:
    """``value`` as it goes into markup: :class:`Html` as it is, anything else escaped."""
    if isinstance(value, Html):
        return value
    return _html.escape(escape_surrogates(str(value)), quote=True)


#: Text colours used on white, each at least 4.5:1 (WCAG 2.1 AA).
_TEXT = "#1f1f1f"
_RIGHT = "#0b6b2b"
_WRONG = "#a00000"

#: The one style sheet of the project's HTML and widgets (outputs carry ``eic-block``,
#: widgets ``eic-w``): left-aligned readable tables, JSON that wraps between tokens,
#: IDs that never break, a visible focus ring, visually hidden screen-reader text, and
#: the static ``<details>`` reveal hidden wherever a live widget shows the same case.
STYLE = Html(
    "<style>"
    ".eic-block,.eic-w{color:" + _TEXT + "}"
    ".eic-block table{border-collapse:collapse;width:auto;max-width:100%;table-layout:auto;margin:0.4em 0}"
    ".eic-block th,.eic-block td,.eic-w th,.eic-w td,"
    ".jp-RenderedHTMLCommon .eic-block th,.jp-RenderedHTMLCommon .eic-block td"
    "{text-align:left;vertical-align:top;padding:0.3em 0.7em;border-bottom:1px solid #d0d0d0}"
    ".eic-block code,.eic-w code{white-space:pre-wrap}"
    ".eic-block code.eic-id,.eic-w code.eic-id{white-space:nowrap}"
    ".eic-block pre.eic-json,.eic-w pre.eic-json{white-space:pre-wrap;word-break:normal;"
    "overflow-wrap:normal;margin:0.2em 0;padding:0.2em 0.4em;background:#f5f5f5;color:" + _TEXT + "}"
    ".eic-block td.eic-reason{min-width:16em}"
    ".eic-scroll{overflow-x:auto;max-width:100%}"
    ".eic-block td.eic-json-cell{min-width:14em}"
    ".eic-sr{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
    "clip:rect(0 0 0 0);white-space:nowrap;border:0}"
    ".eic-w :focus-visible,.eic-block :focus-visible,.eic-w .jupyter-button:focus-visible,"
    ".eic-w input:focus-visible,.eic-w textarea:focus-visible,.eic-block summary:focus-visible"
    "{outline:3px solid #1a5fb4!important;outline-offset:2px!important;box-shadow:0 0 0 5px #fff!important}"
    ".eic-correct{color:" + _RIGHT + ";border-left:4px solid " + _RIGHT + ";padding-left:0.5em}"
    ".eic-wrong{color:" + _WRONG + ";border-left:4px solid " + _WRONG + ";padding-left:0.5em}"
    ".eic-error{color:" + _WRONG + "}"
    ".eic-w .eic-reason,.eic-w .eic-reason .widget-radio-box,.eic-w .eic-action,"
    ".eic-w .eic-action .widget-radio-box{height:auto}"
    ".eic-w .eic-reason .widget-radio-box label,.eic-w .eic-action .widget-radio-box label"
    "{height:auto!important;line-height:1.35!important;"
    "white-space:normal;margin:0.25em 0;max-width:48em;display:flex!important;align-items:flex-start;gap:0.4em}"
    ".eic-w .eic-reason .widget-radio-box input,.eic-w .eic-action .widget-radio-box input"
    "{flex:none;margin-top:0.2em;order:-1}"
    ".eic-sides{display:flex;flex-wrap:wrap;gap:0.3em 2.5em;align-items:flex-start}"
    ".eic-sides table.eic-key{margin:0.2em 0}"
    ".eic-sides caption{text-align:left;font-weight:bold;padding:0.2em 0}"
    ".eic-sides ol.eic-id-list{margin:0.2em 0;padding-left:2.2em}"
    ".eic-as-json{margin:0.3em 0}"
    ".eic-w .eic-hold,.eic-w .eic-hold .widget-label-basic{height:auto}"
    ".eic-w .eic-hold .widget-label-basic{white-space:normal;overflow:visible;line-height:1.35}"
    ".eic-w .eic-reason-notes{margin:0.2em 0 0.4em 0;max-width:48em}"
    ".eic-w .eic-reason-notes li{margin:0.2em 0}"
    ".jp-Notebook:has(.eic-exercise) .eic-static-reveal,"
    "body[data-voila]:has(.eic-exercise) .eic-static-reveal{display:none}"
    "</style>"
)

_IGNORE_MATHS = "mathjax_ignore tex2jax_ignore"


class _EscapingFormatter(string.Formatter):
    """``str.format`` that escapes each field's value unless it is :class:`Html`."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Html) and not format_spec:
            return value
        return _escaped(format(value, format_spec))


_FORMATTER = _EscapingFormatter()


def html(template: LiteralString, /, *args: object, **kwargs: object) -> Html:
    """Fill ``template`` (``str.format`` syntax), escaping every value that is not :class:`Html`.

    The template is the only markup taken as it is, and it must be a literal in the code.
    """
    return Html(_FORMATTER.vformat(template, args, kwargs))


def html_join(parts: Iterable[object], sep: LiteralString = "") -> Html:
    """``parts`` one after another, each escaped unless it is :class:`Html`."""
    return Html(sep.join(_escaped(part) for part in parts))


def esc(text: Any) -> Html:
    """Escape ``text`` for HTML, quotes included."""
    return Html(_escaped(str(text)))


def esc_id(text: str) -> Html:
    """An ID for HTML: in the visible notation (:func:`~helpers.core.chardiff.visible_id`), escaped."""
    return Html(_html.escape(visible_id(text), quote=True))


def prose(text: Any, *, notated: bool = False) -> Html:
    """A title, decision or reason for HTML: invisible characters shown, escaped.

    ``notated`` text (a message with IDs already in the notation) keeps its escapes
    (:func:`~helpers.core.chardiff.visible_text`).
    """
    return Html(_html.escape(visible_text(str(text), notated=notated), quote=True))


def block_html(inner: Html) -> Html:
    """``inner`` in the project's output frame: its style sheet, and never typeset as maths.

    Used for every HTML output, so an ID such as ``$x^2$`` shows literally.
    """
    return html('{}<div class="eic-block {}">{}</div>', STYLE, _IGNORE_MATHS, inner)


def scroll_region(inner: Html, label: str) -> Html:
    """A wide table in its own keyboard-scrollable region, so nothing is cut off or unreachable."""
    return html('<div class="eic-scroll" role="region" tabindex="0" aria-label="{}">{}</div>', label, inner)


@dataclass(frozen=True)
class HtmlBlock:
    """A block that shows as HTML in Jupyter and as ``text`` in plain contexts.

    Both are safe to send: a lone surrogate shows as its ``\\udXXX`` escape.
    """

    html: Html
    text: str

    def _repr_html_(self) -> str:
        return block_html(Html(escape_surrogates(self.html)))

    def __repr__(self) -> str:
        return escape_surrogates(self.text)


def display_json(value: Any) -> str:
    """Compact JSON as the notebooks show it: invisible and look-alike characters as ``⟨U+XXXX⟩``."""
    return visible_text(dumps_compact(value))


_HTML_STYLE = JsonStyle(
    Html(",<wbr>"),
    ":",
    scalar=lambda value: esc(display_json(value)),
    key=lambda key: esc(display_json(str(key))),
)


def _json_inner(value: Any) -> Html:
    """:func:`display_json` as escaped HTML that may wrap after a comma, never inside a token.

    Written without recursion, so a value nested as deep as the readers allow still shows. The
    pieces are already escaped by :data:`_HTML_STYLE`'s writers, or are its separators.
    """
    return Html("".join(json_pieces(value, _HTML_STYLE)))


def json_html(value: Any) -> Html:
    """Compact JSON in a ``<pre>`` block, escaped, in the visible notation; wraps between items."""
    return html('<pre class="eic-json">{}</pre>', _json_inner(value))
