"""Character diffs (:mod:`helpers.core.chardiff`): long answers still get a minimal character diff."""

from __future__ import annotations

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.chardiff import char_diff, diff_text


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
