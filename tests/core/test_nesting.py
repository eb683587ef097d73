"""Deep nesting: a fixed limit for every reader, and values shown at any depth without recursion.

Python's parser and writers recurse once per level, so what they manage depends on the
interpreter and on the caller's stack; in the browser a value nested 1,020 deep once
stopped the Pyodide kernel. These tests pin the fixed limit and the recursion-free writers.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import check_target_scope
from helpers.core.errors import InvalidInputError, JSONLoadError, describe_value, escape_surrogates
from helpers.core.jsonio import (
    _BRACKET,
    MAX_NESTING,
    NO_STACK_LEFT,
    TOO_DEEP,
    LimitedText,
    _blank_escapes,
    _marks_outside,
    _outside_strings,
    loads_document,
    loads_strict,
    nesting_cut,
    nesting_depth,
    parse_json_line,
    same_on_every_python,
)
from helpers.core.jsonwalk import JsonStyle, NotJsonShaped, json_pieces
from helpers.team.answer_keys import read_answer_key_object
from helpers.team.fastpath import FAST_JSON, loads_fast
from helpers.trainee.views.case_html import display_json, json_html


def nested(levels: int, inner: str = '"a"') -> str:
    """``levels`` arrays, one inside the other, around ``inner``."""
    return "[" * levels + inner + "]" * levels


def deep_value(levels: int, inner: Any = "a") -> Any:
    """The value :func:`nested` spells, built without recursion."""
    value = inner
    for _ in range(levels):
        value = [value]
    return value


def with_stack(frames: int, call: Callable[[], Any]) -> Any:
    """``call()`` from ``frames`` Python frames deeper than here, as from a notebook or a widget."""
    if frames:
        return with_stack(frames - 1, call)
    return call()


def outcome(text: str) -> str:
    try:
        loads_strict(text)
    except JSONLoadError as exc:
        return exc.detail
    return "read"


# --- one limit for every reader, wherever it runs ----------------------------------------


@pytest.mark.parametrize("frames", [0, 200, 400])
def test_the_limit_is_the_same_at_any_stack_depth(frames):
    """Python alone refuses a line 990 deep from 60 frames down but reads it at the top."""
    assert with_stack(frames, lambda: outcome(nested(MAX_NESTING))) == "read"
    assert with_stack(frames, lambda: outcome(nested(MAX_NESTING + 1))) == TOO_DEEP
    assert with_stack(frames, lambda: outcome(nested(990))) == TOO_DEEP


def test_objects_count_as_levels_too():
    text = '{"a":' * MAX_NESTING + "1" + "}" * MAX_NESTING
    assert outcome(text) == "read"
    assert outcome("[" + text + "]") == TOO_DEEP


@pytest.mark.parametrize("opening", ['"', '"x" "', '["'], ids=["first", "after-a-string", "inside"])
def test_brackets_in_a_string_never_closed_do_not_count(opening):
    text = opening + "[" * (MAX_NESTING + 100)
    assert nesting_depth(text) == opening.count("[")
    assert nesting_cut(text) is None
    assert outcome(text).startswith("not valid JSON")
    assert outcome(text) != TOO_DEEP


def test_brackets_inside_strings_do_not_count():
    assert loads_strict('["' + "[" * 2000 + '"]') == ["[" * 2000]
    assert loads_strict(r'["\"' + "{" * 2000 + '"]') == ['"' + "{" * 2000]


@pytest.mark.parametrize(
    "text",
    [
        "[" * (MAX_NESTING + 1),  # never closed
        "[" * 100_000,
        nested(MAX_NESTING + 1) + "x",  # bad text after the deep part
        "[" * (MAX_NESTING + 1) + "1,]" + "]" * MAX_NESTING,  # a syntax error at the bottom
        "[" * (MAX_NESTING + 1) + '{"k":1,"k":2}' + "]" * (MAX_NESTING + 1),  # a repeated key
        "[" * (MAX_NESTING + 1) + "NaN" + "]" * (MAX_NESTING + 1),
        "[" * (MAX_NESTING + 1) + '"never closed',
        '{"k":' * MAX_NESTING + "{",  # the last level is an object
    ],
    ids=[
        "unclosed",
        "unclosed-100000",
        "trailing-text",
        "syntax",
        "repeated-key",
        "nan",
        "open-string",
        "object",
    ],
)
def test_what_lies_beyond_the_limit_is_never_read(text):
    """Which error a parser meets first depends on how deep it can go; past the limit nothing is read."""
    assert outcome(text) == TOO_DEEP
    assert with_stack(400, lambda: outcome(text)) == TOO_DEEP


def test_errors_before_the_limit_are_reported_in_reading_order():
    assert outcome(nested(MAX_NESTING, "1,")).startswith("not valid JSON: Expecting value")
    assert outcome(nested(MAX_NESTING - 1, '{"k":1,"k":2}')).startswith('duplicate key "k"')
    assert outcome(nested(3) + " " + nested(MAX_NESTING + 1)).startswith("not valid JSON: Extra data")
    assert outcome("[1,,2," + nested(MAX_NESTING + 1) + "]").startswith("not valid JSON: Expecting value")
    assert outcome('[{"k":1,"k":2},' + nested(MAX_NESTING + 1) + "]").startswith('duplicate key "k"')


def test_an_unclosed_string_after_many_escaped_quotes_is_scanned_once():
    """The scan must stay linear on text built to make a string pattern retry at every quote."""
    text = "[" * (MAX_NESTING + 1) + '"' + '\\"' * 200_000
    assert outcome(text) == TOO_DEEP
    inside = '["' + '\\"' * 200_000 + "[" * (MAX_NESTING + 1)  # the brackets are inside the string
    assert nesting_depth(inside) == 1
    assert outcome(inside).startswith("not valid JSON: Unterminated string")


@pytest.mark.parametrize(
    ("text", "said", "column"),
    [
        ("[1, ]", "Expecting value", 5),
        ('{"a": 1 ,\n }', "Expecting property name enclosed in double quotes", 2),
        ("[1,,2]", "Expecting value", 4),
    ],
)
def test_a_trailing_comma_reads_as_python_3_11_says_it_on_every_python(text, said, column):
    """3.13 says "Illegal trailing comma before end of array" at the comma; the notebooks show 3.11's words."""
    with pytest.raises(JSONLoadError) as refused:
        loads_strict(text, source="x.json")
    assert str(refused.value).endswith(f"not valid JSON: {said} (column {column})")
    as_313 = json.JSONDecodeError("Illegal trailing comma before end of array", "[1, ]", 2)
    assert (same_on_every_python(as_313).msg, same_on_every_python(as_313).pos) == ("Expecting value", 4)
    other = json.JSONDecodeError("Expecting value", "[", 1)
    assert same_on_every_python(other) is other


def test_a_caller_deep_in_its_own_stack_gets_a_message_not_a_crash():
    """From hundreds of frames down, CPython 3.11 cannot read even 500 levels: it fails closed.

    From 3.12 on, the parser's own recursion counts against the C stack, not the caller's frames,
    so the same text is read from there too.
    """
    text = nested(MAX_NESTING)
    assert with_stack(400, lambda: outcome(text)) == "read"
    line = with_stack(800, lambda: parse_json_line(text.encode(), 7, "deep.jsonl"))
    if sys.version_info < (3, 12):
        assert with_stack(800, lambda: outcome(text)) == NO_STACK_LEFT
        assert str(line.error) == f"deep.jsonl, line 7: {NO_STACK_LEFT}"
    else:
        assert with_stack(800, lambda: outcome(text)) == "read"
        assert line.error is None and line.value == json.loads(text)


def test_a_whole_document_too_deep_names_the_line():
    with pytest.raises(JSONLoadError) as refused:
        loads_document(b'{\n"a": 1,\n"b": ' + nested(MAX_NESTING).encode() + b"}", source="doc.json")
    assert str(refused.value) == f"doc.json, line 3: {TOO_DEEP}"


def test_an_answer_key_value_counts_the_object_around_it():
    ok = read_answer_key_object(('{"S1":' + nested(MAX_NESTING - 1) + "}").encode(), source="key.json")
    deep = read_answer_key_object(
        ('{"S1":"A",\n"S2":' + nested(MAX_NESTING) + "}").encode(), source="key.json"
    )
    assert [str(error) for error in ok.errors] == [
        'key.json, line 1: the answer for "S1" is ' + "[" * 59 + "…, expected a string answer"
    ]
    assert [(str(error), error.field) for error in deep.errors] == [(f"key.json, line 2: {TOO_DEEP}", "S2")]
    assert deep.answers == {"S1": "A"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{}:,'),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='k"[{\\'), inner, max_size=3)
    ),
    max_leaves=12,
)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@given(json_values, st.integers(min_value=0, max_value=MAX_NESTING + 3))
def test_any_json_text_is_read_exactly_when_it_is_within_the_limit(value, extra):
    text = nested(extra, json.dumps(value))
    depth = _depth(value) + extra
    assert nesting_depth(text) == depth
    assert (nesting_cut(text) is None) == (depth <= MAX_NESTING)
    assert outcome(text) == ("read" if depth <= MAX_NESTING else TOO_DEEP)


@given(
    st.text(alphabet='[]{}"\\a', max_size=40), st.integers(min_value=MAX_NESTING - 2, max_value=MAX_NESTING)
)
def test_the_depth_and_the_cut_agree_on_any_text(tail, opened):
    """The quick depth and the scan that finds the cut read strings alike, valid JSON or not."""
    text = "[" * opened + tail
    cut = nesting_cut(text)
    assert (cut is not None) == (nesting_depth(text) > MAX_NESTING)
    if cut is not None:
        assert text[cut] in "[{"
        assert nesting_depth(text[:cut]) == MAX_NESTING
        assert nesting_depth(text[: cut + 1]) == MAX_NESTING + 1


def _depth_by_hand(text: str) -> int:
    """The depth one character at a time: a backslash escapes the next character (in a string
    or out of one, where no parser reads past it), a quote opens a string and the next quote
    closes it; after a string that never closes nothing counts. The deepest level after any
    bracket (0 with no bracket)."""
    depth, levels = 0, []
    index, inside = 0, False
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 1
        elif char == '"':
            inside = not inside
        elif char in "[]{}" and not inside:
            depth += 1 if char in "[{" else -1
            levels.append(depth)
        index += 1
    return max(levels, default=0)


@given(st.text(alphabet='[]{}"\\a\n', max_size=60))
def test_the_depth_reads_strings_as_a_character_by_character_scan_does(text):
    assert nesting_depth(text) == _depth_by_hand(text)


_PIECES = st.sampled_from(["[" * 120, "]" * 120, "{", "}", "a" * 900, '"]]]}}"', '"[[[{{"', "\\]", "\\["])


@given(st.lists(_PIECES, max_size=40), st.integers(min_value=0, max_value=MAX_NESTING + 2))
def test_the_cut_of_a_long_text_is_found_whatever_the_brackets_between_pieces(pieces, opened):
    """The count piece by piece that tells most long texts shallow never lets a too deep one through."""
    text = "[" * opened + "".join(pieces)
    depth = _depth_by_hand(text)
    cut = nesting_cut(text)
    assert (cut is None) == (depth <= MAX_NESTING)
    if cut is not None:
        assert nesting_depth(text[: cut + 1]) == MAX_NESTING + 1


@given(st.text(alphabet='[]{}"\\a\né⟨\ud800\U0001f600', max_size=80))
def test_the_brackets_outside_strings_are_told_from_the_encoded_text_as_from_the_text(text):
    """The bytes' marks (:func:`_marks_outside`) are the brackets the scan by characters finds."""
    by_characters = "".join(_BRACKET.findall(_outside_strings(_blank_escapes(text))))
    assert _marks_outside(text) == by_characters


_WIDE_PIECES = st.sampled_from(
    ["[" * 120, "]" * 120, "{", "}", "é" * 300, '"]]é}"', '"[⟨[{"', "\\é[", "\\\ud800]"]
)


@given(st.lists(_WIDE_PIECES, max_size=40), st.integers(min_value=0, max_value=MAX_NESTING + 2))
def test_the_cut_of_a_long_text_past_ascii_is_found_as_by_hand(pieces, opened):
    text = "[" * opened + "".join(pieces)
    cut = nesting_cut(text)
    assert (cut is None) == (_depth_by_hand(text) <= MAX_NESTING)
    if cut is not None:
        assert nesting_depth(text[: cut + 1]) == MAX_NESTING + 1


def test_a_depth_that_climbs_across_pieces_is_cut_where_it_passes_the_limit():
    text = "[" * 300 + "a" * 5000 + "[" * 201 + "]" * 501
    assert nesting_cut(text) == 5500
    assert nesting_cut("[" * 300 + "a" * 5000 + "[" * 200 + "]" * 500) is None
    assert nesting_cut(("[" * 400 + "]" * 400) * 6) is None  # many brackets, never deeper than 400


# --- showing a value at any depth ------------------------------------------------------------


def old_describe_value(value: Any) -> str:
    """``describe_value`` before it walked values itself: ``json.dumps``, cut short."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 60:
        text = text[:59] + "…"
    return escape_surrogates(text)


any_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(any_json)
def test_describe_value_writes_what_json_dumps_writes(value):
    assert describe_value(value) == old_describe_value(value)


@given(st.text(min_size=50, max_size=200))
def test_describe_value_cuts_long_strings_as_before(text):
    assert describe_value({"k": [text]}) == old_describe_value({"k": [text]})


@pytest.mark.parametrize("levels", [MAX_NESTING, 100_000])
def test_describe_value_shows_any_depth(levels):
    shown = describe_value(deep_value(levels))
    assert shown == "[" * 59 + "…"


def test_a_deep_value_given_to_a_check_is_refused_with_a_message():
    with pytest.raises(InvalidInputError) as refused:
        check_target_scope([deep_value(100_000)], [])
    assert refused.value.field == "original[0]"
    assert str(refused.value) == "original[0] is " + "[" * 59 + "…, expected a string ID"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ({1, 2}, "{1, 2}"),
        ([{1: "a"}, {None: True, 2.5: None}], '[{"1": "a"}, {"null": true, "2.5": null}]'),  # as json.dumps
        ({"b": {1}, "a": 2}, "{'b': {1}, 'a': 2}"),  # in the dict's own order
        (10**5000, "<int of 16,610 bits>"),
        ([10**5000], "[<int of 16,610 bits>]"),
        (deep_value(100_000, {1}), "[" * 59 + "…"),
    ],
    ids=["set", "number-keys", "key-order", "huge-int", "huge-int-in-list", "deep-set"],
)
def test_describe_value_shows_other_values_as_a_short_repr(value, shown):
    assert describe_value(value) == shown


def test_a_value_that_holds_itself_is_described_not_walked_for_ever():
    loop: list[Any] = []
    loop.append(loop)
    assert describe_value(loop) == "[" * 59 + "…"
    with pytest.raises(NotJsonShaped, match="holds itself"):
        json_html(loop)
    shared = ["x"]
    assert describe_value([shared, shared]) == '[["x"], ["x"]]'  # the same list twice is no loop


def test_a_string_subclass_is_described_by_its_characters():
    class Odd(str):
        def __getitem__(self, index: Any) -> str:
            raise TypeError("no slicing")

    assert describe_value([Odd("abc")]) == '["abc"]'


def test_json_html_shows_a_value_at_any_depth():
    """The notebooks' JSON for a record as deep as the readers allow, and far deeper."""
    for levels in (MAX_NESTING, 5 * sys.getrecursionlimit()):
        html = json_html(deep_value(levels, "<a>"))
        assert html == f'<pre class="eic-json">{"[" * levels}&quot;&lt;a&gt;&quot;{"]" * levels}</pre>'
    record = {"original": ["x", {"k": []}], "rewritten": []}
    inner = display_json(record).replace('"', "&quot;")
    assert json_html(record).replace(",<wbr>", ",") == f'<pre class="eic-json">{inner}</pre>'


def test_json_pieces_stops_at_a_part_that_is_not_json_shaped():
    def scalar(value: Any) -> str:
        if isinstance(value, int):
            return str(value)
        raise NotJsonShaped

    style = JsonStyle(",", ":", scalar=scalar, key=str)
    pieces = json_pieces([1, [2, object()], 3], style)
    assert [next(pieces) for _ in range(5)] == ["[", "1", ",", "[", "2"]
    with pytest.raises(NotJsonShaped):
        list(pieces)


#: As :data:`json_values`, with integers that fit in 64 bits: the fast reader reads larger ones
#: as floats, by design (the fast checks then decline, as valid input holds only strings).
json_values_64 = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.text(alphabet='ab"\\[]{}:,'),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='k"[{\\'), inner, max_size=3)
    ),
    max_leaves=12,
)


@pytest.mark.skipif(not FAST_JSON, reason="the fast reader needs orjson")
@given(json_values_64, st.integers(min_value=MAX_NESTING - 8, max_value=MAX_NESTING + 3))
def test_the_fast_reader_never_reads_what_the_exact_reader_refuses(value, extra):
    """``orjson`` reads 1,024 levels; the fast reader must still decline past the exact limit."""
    text = nested(extra, json.dumps(value))
    fast = loads_fast(text.encode())
    if outcome(text) == TOO_DEEP:
        assert fast is None
    elif fast is not None:
        assert fast == loads_strict(text)


@pytest.mark.parametrize("field", ["rewritten_query", "query", "id"])
def test_the_command_lines_fast_route_refuses_what_the_exact_route_refuses(tmp_path, field):
    """The batch writer inlines the fast reader; a deep value in a field no check reads is refused too."""
    import subprocess

    line = f'{{"original":["a"],"rewritten":["a"],"{field}":{nested(MAX_NESTING)}}}\n'
    data = tmp_path / "deep.jsonl"
    data.write_text(line + '{"original":["a"],"rewritten":["a"]}\n', encoding="utf-8")
    runs = [
        subprocess.run(
            [sys.executable, "-m", "helpers", "target-scope", *extra, str(data)],
            capture_output=True,
            text=True,
            check=False,
        )
        for extra in ([], ["--carry"])
    ]
    refusal = f'{{"line":1,"field":null,"error":"{TOO_DEEP}"}}'
    for run in runs:
        assert run.returncode == 4, run.stderr
        assert run.stdout.splitlines()[0].startswith(refusal[:-1]), run.stdout


def test_a_limited_text_is_a_fixed_record():
    limited = LimitedText.of(nested(MAX_NESTING + 1))
    assert (limited.cut, len(limited.readable)) == (MAX_NESTING, MAX_NESTING)
    with pytest.raises(dataclasses.FrozenInstanceError):
        limited.cut = None  # type: ignore[misc]


def test_a_json_style_is_a_fixed_record():
    style = JsonStyle(",", ":", scalar=str, key=str)
    with pytest.raises(dataclasses.FrozenInstanceError):
        style.item_sep = ";"  # type: ignore[misc]
