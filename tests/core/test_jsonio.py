"""Strict JSON reading and JSON.stringify-compatible writing."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import load_json_file
from helpers.core.errors import DuplicateKeyError, JSONLoadError
from helpers.core.jsonio import dumps_compact, iter_json_lines, loads_document, loads_strict, parse_json_line


def lines_of(data: bytes):
    """Parse a JSON Lines byte string into (number, value or error message) pairs."""
    return [
        (line.number, line.value if line.error is None else line.error.detail)
        for line in iter_json_lines(data.splitlines(keepends=True), source="<test>")
    ]


# --- loading --------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"S1": "R", "S1": "R"}',
        '{"baseline": {"S1": "R"}, "proposed": {"S1": "R", "S2": "A", "S1": "S"}}',
        '[{"a": 1}, {"b": 1, "b": 2}]',
    ],
    ids=["same-value-repeated", "nested", "inside-a-list"],
)
def test_duplicate_keys_are_refused_even_with_equal_values(text):
    """A repeated key anywhere is an error naming that key, never last-one-wins."""
    with pytest.raises(DuplicateKeyError) as info:
        loads_strict(text, source="key.json")
    assert info.value.key in ("S1", "b")
    assert f'duplicate key "{info.value.key}"' in str(info.value)
    assert str(info.value).startswith("key.json: ")


def test_duplicate_key_in_a_file_names_the_file(tmp_path):
    """Loading a file with a repeated key names both the key and the file."""
    path = tmp_path / "answers.json"
    path.write_text('{"S1": "R",\n "S1": "S"}', encoding="utf-8")
    with pytest.raises(DuplicateKeyError) as info:
        load_json_file(path)
    assert str(path) in str(info.value) and '"S1"' in str(info.value)


def test_keys_differing_only_by_escape_are_duplicates():
    """ "S1" written with a \\u escape is still the same key."""
    with pytest.raises(DuplicateKeyError):
        loads_strict('{"S1": "R", "\\u00531": "S"}')


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_json_constants_are_refused(constant):
    """NaN and Infinity are not JSON, as in JavaScript's JSON.parse."""
    with pytest.raises(JSONLoadError) as info:
        loads_strict(f'{{"a": [1, {constant}]}}', source="x.json")
    assert str(info.value) == f"x.json: {constant} is not valid JSON"


def test_malformed_json_names_the_line(tmp_path):
    """A syntax error in a multi-line file names the file and its line."""
    path = tmp_path / "cases.json"
    path.write_text('{\n  "cases": [\n    {"id": "x",}\n  ]\n}\n', encoding="utf-8")
    with pytest.raises(JSONLoadError) as info:
        load_json_file(path)
    assert info.value.source == str(path)
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}, line 3: not valid JSON: ")


def test_utf8_with_bom_loads(tmp_path):
    """A UTF-8 byte-order mark at the start of a file is accepted."""
    path = tmp_path / "bom.json"
    path.write_bytes(b'\xef\xbb\xbf{"S1": "caf\xc3\xa9"}')
    assert load_json_file(path) == {"S1": "café"}


def test_non_utf8_file_names_file_line_and_byte(tmp_path):
    """Latin-1 bytes are refused with the line and byte offset of the first bad byte."""
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{\n"a": "x",\n"b": "caf\xe9"}')
    with pytest.raises(JSONLoadError) as info:
        load_json_file(path)
    assert info.value.line == 3
    assert str(info.value) == f"{path}, line 3: not UTF-8 text (byte 21)"


def test_loads_keeps_strings_exactly():
    """No normalisation or trimming happens while loading."""
    text = '{"a": " e\\u0301 ", "b": "\\u200b", "c": "\\ud83d\\ude00"}'
    assert loads_strict(text) == {"a": " e\u0301 ", "b": "\u200b", "c": "😀"}


# --- JSON Lines -----------------------------------------------------------


def test_json_lines_keep_going_after_a_bad_line():
    """Each line is parsed on its own; bad lines carry their error and numbering continues."""
    data = b'{"a":1}\n{"a":\n\n{"a":1,"a":2}\n\xff\n[2]\n'
    assert lines_of(data) == [
        (1, {"a": 1}),
        (2, "not valid JSON: Expecting value (column 6)"),
        (3, "blank line, expected a JSON object"),
        (4, 'duplicate key "a" in a JSON object (each key may appear only once)'),
        (5, "not UTF-8 text (byte 0)"),
        (6, [2]),
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"a":1}', [(1, {"a": 1})]),
        (b'{"a":1}\n', [(1, {"a": 1})]),
        (b'{"a":1}\r\n{"b":2}\r\n', [(1, {"a": 1}), (2, {"b": 2})]),
        (b'\xef\xbb\xbf{"a":1}\n', [(1, {"a": 1})]),
        (b"", []),
    ],
    ids=["no-final-newline", "final-newline", "crlf", "bom", "empty"],
)
def test_json_lines_framing(data, expected):
    """A final newline adds no line; CRLF and a leading BOM are fine."""
    assert lines_of(data) == expected


def test_a_bom_after_the_first_line_is_an_error():
    """Only the first line may start with a byte-order mark."""
    [_, (number, message)] = lines_of(b'{"a":1}\n\xef\xbb\xbf{"a":1}\n')
    assert number == 2 and message.startswith("not valid JSON")


# --- writing --------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (
            {"missing": ["S2"], "changed": [], "intact": False},
            '{"missing":["S2"],"changed":[],"intact":false}',
        ),
        ({"a": None, "b": True, "c": 1, "d": 1.5}, '{"a":null,"b":true,"c":1,"d":1.5}'),
        (["é", "😀", "\u2028", "\x7f"], '["é","😀","\u2028","\x7f"]'),
        (['"', "\\", "\n", "\t", "\b", "\f", "\r"], r'["\"","\\","\n","\t","\b","\f","\r"]'),
        (["\x00", "\x1f"], r'["\u0000","\u001f"]'),
        (["\ud800", "a\udfffb"], r'["\ud800","a\udfffb"]'),
    ],
    ids=["result", "scalars", "non-ascii-raw", "short-escapes", "control-chars", "lone-surrogates"],
)
def test_dumps_compact_matches_json_stringify(value, expected):
    """The exact text JSON.stringify gives: no spaces, no ASCII escaping, lowercase \\u escapes."""
    assert dumps_compact(value) == expected


def test_dumps_compact_keeps_key_order():
    """Keys come out in insertion order, as JSON.stringify writes them."""
    assert dumps_compact({"b": 1, "a": 2}) == '{"b":1,"a":2}'


@pytest.mark.parametrize("value", [float("nan"), float("inf"), [float("-inf")]])
def test_dumps_compact_refuses_non_json_numbers(value):
    """NaN and Infinity cannot be written as JSON."""
    with pytest.raises(ValueError):
        dumps_compact(value)


json_text = st.text(st.characters(codec=None), max_size=6)  # includes lone surrogates
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | json_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(json_text, inner, max_size=3),
    max_leaves=8,
)


@given(value=json_values)
def test_dumps_compact_round_trips_and_is_always_utf8(value):
    """Every JSON value, lone surrogates included, writes as encodable UTF-8 and reads back equal."""
    text = dumps_compact(value)
    text.encode("utf-8")  # raises if a lone surrogate slipped through unescaped
    assert loads_strict(text) == value
    assert "\n" not in text


def test_a_bad_byte_after_a_blank_first_line_is_on_line_2():
    with pytest.raises(JSONLoadError) as raised:
        loads_document(b'\n{"S1": "caf\xe9"}\n', source="key.json")
    assert str(raised.value) == "key.json, line 2: not UTF-8 text (byte 12)"
    with pytest.raises(JSONLoadError) as raised:
        loads_document(b'\xe9\n{"S1": "x"}\n', source="key.json")
    assert str(raised.value) == "key.json, line 1: not UTF-8 text (byte 0)"


def test_a_space_like_line_is_named_by_its_first_character_after_blanks():
    error = parse_json_line(b" \t\x1c\n", 3, "f.jsonl").error
    assert error is not None
    assert error.detail == "only space-like characters (3, starting with U+001C), expected a JSON object"
    assert parse_json_line("\u00a0\n".encode(), 1, "f.jsonl").error.detail.endswith(
        "starting with U+00A0), expected a JSON object"
    )


def test_loads_document_is_what_load_json_file_reads(tmp_path):
    path = tmp_path / "key.json"
    for data in (b'\xef\xbb\xbf{"S1": "R"}', b'{"S1": "R",}', b'{"S1": "R"}\n{"S2": "S"}'):
        path.write_bytes(data)
        try:
            expected = loads_document(data, source=str(path))
        except JSONLoadError as exc:
            with pytest.raises(JSONLoadError, match=re.escape(str(exc))):
                load_json_file(path)
        else:
            assert load_json_file(path) == expected
