"""The fast path of a target-scope record (:mod:`helpers.team.fastpath`) sorts and agrees as the exact route does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import helpers

PRINTABLE_WIDE = ["a", "é", "！", "～", "😀", "𝒜"]  # printable, inside and beyond the BMP


def test_the_fast_path_sorts_astral_ids_as_javascript_does():
    """U+1F600 sorts before U+FF01 in UTF-16 order, though its code point is higher."""
    from helpers.team.fastpath import fast_target_scope

    result = fast_target_scope({"original": ["！", "😀"], "rewritten": []})
    assert result.missing == ("😀", "！")


@given(
    original=st.lists(st.sampled_from(PRINTABLE_WIDE), max_size=5),
    rewritten=st.lists(st.sampled_from(PRINTABLE_WIDE), max_size=5),
)
def test_the_fast_path_agrees_with_the_exact_route_on_wide_ids(original, rewritten, js_sorted):
    from helpers.team.fastpath import fast_target_scope

    record = {"original": original, "rewritten": rewritten}
    fast = fast_target_scope(record)
    exact = helpers.check_target_scope_input(record)
    assert fast is not None and fast.as_dict() == exact.as_dict()
    assert list(fast.missing) == js_sorted(set(original) - set(rewritten))
