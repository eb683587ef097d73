"""The HTML primitives (``helpers/trainee/html.py``): markup escaped by construction, the frame, JSON."""

from __future__ import annotations

import html as std_html
import json

from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.html import (
    STYLE,
    Html,
    HtmlBlock,
    block_html,
    display_json,
    esc,
    esc_id,
    html,
    html_join,
    json_html,
    prose,
    scroll_region,
)


def test_a_template_escapes_every_value_that_is_not_already_html() -> None:
    assert html("<b>{}</b>{x}", "<i>", x=Html("<i>ok</i>")) == "<b>&lt;i&gt;</b><i>ok</i>"
    assert isinstance(html("<p>{}</p>", 1), Html)
    assert Html("<b>") + "<x>" == "<b>&lt;x&gt;" and "<x>" + Html("<b>") == "&lt;x&gt;<b>"
    assert html_join(["<a>", Html("<br>"), 3], ", ") == "&lt;a&gt;, <br>, 3"


@given(st.text())
def test_any_text_put_in_a_template_reads_back_as_itself(text: str) -> None:
    shown = html("<td>{}</td>", text)
    assert "<" not in shown[4:-5] and '"' not in shown[4:-5]
    if not any("\ud800" <= char <= "\udfff" for char in text):
        assert std_html.unescape(shown[4:-5]) == text


def test_ids_and_prose_show_invisible_characters_in_the_visible_notation() -> None:
    assert esc('"q"&') == "&quot;q&quot;&amp;"
    assert esc_id("pay\u200broll") == "pay⟨U+200B⟩roll"
    assert prose("a\u200bb <c>") == "a⟨U+200B⟩b &lt;c&gt;"


def test_every_output_sits_in_the_frame_with_the_style_sheet_and_no_maths() -> None:
    framed = block_html(Html("<p>$x^2$</p>"))
    assert framed == str(STYLE) + '<div class="eic-block mathjax_ignore tex2jax_ignore"><p>$x^2$</p></div>'
    assert scroll_region(Html("<table></table>"), 'Cases "1"') == (
        '<div class="eic-scroll" role="region" tabindex="0" aria-label="Cases &quot;1&quot;"><table></table></div>'
    )


def test_a_block_shows_html_in_jupyter_and_its_text_elsewhere_lone_surrogates_escaped() -> None:
    block = HtmlBlock(Html("<p>bad\udcff</p>"), "bad\udcff")
    assert repr(block) == "bad\\udcff"
    assert block._repr_html_().endswith('tex2jax_ignore"><p>bad\\udcff</p></div>')
    block._repr_html_().encode("utf-8")  # safe to send


def test_json_is_compact_visible_escaped_and_wraps_only_between_items() -> None:
    assert display_json({"a": ["p\u200by", 1]}) == '{"a":["p⟨U+200B⟩y",1]}'
    assert json_html({"a": ["<b>", 1], "k": None}) == (
        '<pre class="eic-json">{&quot;a&quot;:[&quot;&lt;b&gt;&quot;,<wbr>1],<wbr>&quot;k&quot;:null}</pre>'
    )


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=12,
    )
)
def test_json_html_unwrapped_is_display_json(value) -> None:
    inner = json_html(value).removeprefix('<pre class="eic-json">').removesuffix("</pre>")
    assert std_html.unescape(inner.replace("<wbr>", "")) == std_html.unescape(esc(display_json(value)))
    if display_json(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":")):
        assert "⟨U+" not in inner
