"""The error classes and how a value is described in a message (:mod:`helpers.core.errors`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import (
    BuildError,
    CheckInputError,
    DuplicateKeyError,
    InvalidInputError,
    JSONLoadError,
    ProgressFileError,
    describe_value,
    error_object,
    printable,
)

TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=25)  # lone surrogates: see below
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=10,
)


@given(value=JSON_VALUES)
def test_a_json_value_is_described_as_json_dumps_writes_it_cut_at_60(value):
    full = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    shown = describe_value(value)
    assert shown == full if len(full) <= 60 else shown == full[:59] + "…"


def test_any_value_is_described_short_however_deep_or_odd():
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    assert describe_value(deep) == "[" * 59 + "…"
    assert describe_value({1: True}) == '{"1": true}'
    assert describe_value({"a": {1, 2}}) == "{'a': {1, 2}}"
    assert describe_value(10**5000) == "<int of 16,610 bits>"
    assert describe_value("\ud800x") == '"\\ud800x"'


def test_printable_escapes_what_could_rewrite_a_terminal():
    assert printable("plain café.json") == "plain café.json"
    assert printable("a\x1b[2Kb\u202ec\udcff") == "a\\x1b[2Kb\\u202ec\\udcff"


def test_a_load_error_names_its_source_and_line_and_error_object_drops_them():
    error = JSONLoadError("not JSON", source="in\x1b.jsonl", line=3, field="original")
    assert str(error) == "in\\x1b.jsonl, line 3: not JSON"
    assert error_object(7, error) == {"line": 7, "field": "original", "error": "not JSON"}
    assert str(JSONLoadError("empty", source="k.json")) == "k.json: empty"
    plain = InvalidInputError("rewritten[2] is 7, expected a string ID", field="rewritten[2]")
    assert error_object(2, plain) == {
        "line": 2,
        "field": "rewritten[2]",
        "error": "rewritten[2] is 7, expected a string ID",
    }


def test_a_duplicate_key_is_a_load_error_naming_the_key():
    error = DuplicateKeyError("S1", source="key.json", line=4)
    assert isinstance(error, JSONLoadError) and isinstance(error, CheckInputError)
    assert (
        str(error) == 'key.json, line 4: duplicate key "S1" in a JSON object (each key may appear only once)'
    )
    assert (error.key, error.field) == ("S1", "S1")


def test_file_errors_put_the_printable_path_first():
    assert str(ProgressFileError("corrupt", path="p\n.json")) == "p\\n.json: corrupt"
    assert str(BuildError("stale")) == "stale"
    assert str(BuildError("stale", path="site/index.html")) == "site/index.html: stale"
    with pytest.raises(ValueError):  # every input error is a ValueError too
        raise InvalidInputError("x")
