"""Character diffs (:mod:`helpers.core.chardiff`): long answers still get a minimal character diff."""

from __future__ import annotations

import re

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.chardiff import char_diff, diff_text, visible_id, visible_text


@settings(max_examples=examples(20))
@given(
    before=st.text("ab", min_size=150, max_size=400),
    after=st.text("ab", min_size=150, max_size=400),
)
def test_one_changed_character_in_a_long_answer_is_one_small_change(before, after):
    """200 characters or more must not switch difflib's junk heuristic on (autojunk=False)."""
    old, new = before + "x" + after, before + "y" + after
    assert diff_text(old, new) == f"{before}[-x-]{{+y+}}{after}"
    changed = [piece for piece in char_diff(old, new) if piece.kind != "equal"]
    assert [(piece.kind, piece.text) for piece in changed] == [("delete", "x"), ("insert", "y")]


_ESCAPED = re.compile("⟨U\\+([0-9A-F]{4,6})⟩")
#: Any text, lone surrogates and the notation's own characters included.
_ANY_TEXT = st.text(st.one_of(st.characters(codec=None, exclude_categories=()), st.sampled_from("⟨⟩·U+0")))


def _read_back(shown: str) -> str:
    """The text a reader takes from prose in the notation: each ``⟨U+XXXX⟩`` is its character."""
    assert "⟨" not in _ESCAPED.sub("", shown), shown  # every ⟨ a reader sees opens an escape
    return _ESCAPED.sub(lambda match: chr(int(match.group(1), 16)), shown)


@settings(max_examples=examples(200))
@given(_ANY_TEXT)
def test_prose_in_the_notation_reads_back_as_the_text(text):
    assert _read_back(visible_text(text)) == text


@settings(max_examples=examples(200))
@given(_ANY_TEXT)
def test_an_id_in_the_notation_reads_back_as_the_id(text):
    assert _read_back(visible_id(text).replace("·", " ")) == text


@settings(max_examples=examples(100))
@given(_ANY_TEXT, _ANY_TEXT.filter(lambda more: "⟨" not in more))
def test_notated_text_keeps_its_escapes_and_shows_the_rest(raw, more):
    shown = visible_text(raw)
    assert visible_text(shown, notated=True) == shown
    assert visible_text(shown + more, notated=True) == shown + visible_text(more)


def test_a_name_that_spells_an_escape_does_not_look_like_one():
    assert visible_text("⟨U+200B⟩") == "⟨U+27E8⟩U+200B⟩" != visible_text("\u200b")
    assert visible_text("a ⟨b⟩ · c") == "a ⟨U+27E8⟩b⟩ · c"
    assert visible_text("⟨U+200B⟩ and ⟨x", notated=True) == "⟨U+200B⟩ and ⟨U+27E8⟩x"
    assert (
        visible_text("the ⟨U+XXXX⟩ notation; caf⟨byte E9⟩", notated=True)
        == "the ⟨U+XXXX⟩ notation; caf⟨byte E9⟩"
    )
