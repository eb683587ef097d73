"""IDs sorted as JavaScript sorts strings (:mod:`helpers.core.ordering`): by UTF-16 code units."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from helpers.core.ordering import sorted_ids, utf16_key


def test_an_astral_character_sorts_before_the_top_of_the_basic_plane():
    # U+1F600 is the surrogate pair D83D DE00, below U+FF01 in UTF-16 though above it as a code point.
    assert sorted_ids(["！", "😀", "a"]) == ["a", "😀", "！"]
    assert sorted(["！", "😀", "a"]) == ["a", "！", "😀"]


def test_the_key_is_the_big_endian_utf16_bytes_and_takes_lone_surrogates():
    assert utf16_key("a😀") == b"\x00a\xd8\x3d\xde\x00"
    assert utf16_key("\udc00") == b"\xdc\x00"


def test_nothing_sorts_to_nothing_and_an_iterator_is_read_once():
    assert sorted_ids([]) == []
    assert sorted_ids(iter(["b", "a", "b"])) == ["a", "b", "b"]


@given(ids=st.lists(st.text(max_size=4)))
def test_any_ids_sort_as_javascript_sorts_them(ids, js_sorted):
    assert sorted_ids(ids) == js_sorted(ids)
