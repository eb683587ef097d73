"""JSON read and written fast with ``orjson`` (:mod:`helpers.team.fast_json`): the exact reader's values, or a decline."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import CheckInputError
from helpers.core.jsonio import MAX_NESTING, dumps_compact, loads_strict
from helpers.team import fast_json

pytest.importorskip("orjson")

KEYS = st.sampled_from(["a", "b", "a:b", "a\\u003a", "a\\u003Ab", "\\u0061", ":"])
VALUES = st.sampled_from(['"x"', '"x:y"', "1", "[]", '{"a":1}', '{"a":1,"a":2}', '"\\u003a"', "null"])
MEMBERS = st.lists(st.tuples(KEYS, VALUES), max_size=4)


def _exact(text: bytes):
    try:
        return loads_strict(text.decode())
    except CheckInputError:
        return None


@given(members=MEMBERS, spaced=st.booleans())
def test_a_value_read_fast_is_the_exact_reader_s_or_it_declines(members, spaced):
    colon = ": " if spaced else ":"
    text = ("{" + ",".join(f'"{key}"{colon}{value}' for key, value in members) + "}").encode()
    fast = fast_json.loads_fast(text)
    if fast is not None:
        assert fast == _exact(text)
    elif _exact(text) is None:
        pass  # a repeated key, which the exact reader refuses too
    else:
        assert b"\\u003" in text or b"\\u0061" in text, text  # declined only where a key may hide


def test_a_repeated_key_or_invalid_text_declines():
    assert fast_json.loads_fast(b'{"a":1,"a":2}') is None
    assert fast_json.loads_fast(b'{"b":{"a":1,"a":2}}') is None
    assert fast_json.loads_fast(b"{") is None
    assert fast_json.loads_fast(b'{"a:b":"c"}') == {"a:b": "c"}


def test_text_that_may_nest_too_deep_declines_though_orjson_reads_it():
    deep = b"[" * (MAX_NESTING + 1) + b"]" * (MAX_NESTING + 1)
    assert fast_json.may_nest_too_deep(deep) and fast_json.loads_fast(deep) is None
    wide = b"[" + b",".join([b"[]"] * MAX_NESTING) + b"]"  # many brackets, shallow: still declined
    assert fast_json.may_nest_too_deep(wide)
    assert not fast_json.may_nest_too_deep(b"[" * 10 + b"]" * 10)


def test_members_and_colons_counts_members_and_colons_in_every_string():
    assert fast_json.members_and_colons({"a:b": ["c:", {"d": "e:"}]}) == 5
    assert fast_json.members_and_colons(["a:", 1, None]) == 1
    assert fast_json.members_and_colons(7) == 0


@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
        max_leaves=8,
    )
)
def test_dumps_line_writes_the_bytes_dumps_compact_writes(value):
    fast_json._fast_json()  # orjson writes once something has imported it
    assert fast_json.dumps_line(value) == dumps_compact(value).encode("utf-8")


def test_fast_json_says_whether_orjson_is_there():
    assert fast_json.FAST_JSON is True
    with pytest.raises(AttributeError, match="has no attribute 'SLOW_JSON'"):
        fast_json.SLOW_JSON  # noqa: B018
