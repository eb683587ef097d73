"""JSON-shaped values written piece by piece without recursion (:mod:`helpers.core.jsonwalk`)."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.jsonwalk import JsonStyle, NotJsonShaped, json_pieces


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


COMPACT = JsonStyle(",", ":", scalar=_dumps, key=_dumps)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=12,
)


@given(value=JSON_VALUES)
def test_the_pieces_join_to_what_json_dumps_writes(value):
    assert "".join(json_pieces(value, COMPACT)) == json.dumps(
        value, ensure_ascii=False, separators=(",", ":")
    )


def test_a_value_deeper_than_the_recursion_limit_is_written():
    depth = sys.getrecursionlimit() * 3
    deep: list = []
    for _ in range(depth):
        deep = [deep]
    text = "".join(json_pieces(deep, COMPACT))
    assert text == "[" * (depth + 1) + "]" * (depth + 1)


def test_the_pieces_are_lazy_so_the_start_of_a_huge_value_is_cheap():
    pieces = json_pieces(list(range(10**6)), COMPACT)
    assert [next(pieces) for _ in range(4)] == ["[", "0", ",", "1"]


def test_a_container_that_holds_itself_is_refused_but_a_shared_one_is_written():
    loop: list = []
    loop.append(loop)
    with pytest.raises(NotJsonShaped, match="a container holds itself"):
        "".join(json_pieces(loop, COMPACT))
    shared = [1]
    assert "".join(json_pieces([shared, {"a": shared}], COMPACT)) == '[[1],{"a":[1]}]'


def test_the_style_decides_separators_containers_and_what_is_refused():
    def strings_only(value):
        if not isinstance(value, str):
            raise NotJsonShaped
        return repr(value)

    style = JsonStyle(" | ", "=", scalar=strings_only, key=str, mappings=dict, sequences=(list,))
    assert "".join(json_pieces({"a": ["x", "y"], "b": {}}, style)) == "{a=['x' | 'y'] | b={}}"
    with pytest.raises(NotJsonShaped):
        "".join(json_pieces(["x", ("y",)], style))  # a tuple is not a sequence in this style
