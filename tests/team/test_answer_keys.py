"""Answer keys read from ``.json`` and ``.jsonl`` bytes (:mod:`helpers.team.answer_keys`): every problem named by line."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.team.answer_keys import load_answer_key, read_answer_key_lines, read_answer_key_object
from helpers.team.inputs import DuplicateIDError, SourceFormatError


def _problems(key) -> list[str]:
    return [str(error) for error in key.errors]


@given(answers=st.dictionaries(st.text(min_size=1, max_size=4), st.text(max_size=4), max_size=6))
def test_a_key_written_either_way_reads_back_as_written(answers):
    as_object = read_answer_key_object(json.dumps(answers).encode(), source="k.json")
    lines = "".join(json.dumps({"id": k, "answer": v}) + "\n" for k, v in answers.items())
    as_lines = read_answer_key_lines(io.BytesIO(lines.encode()), source="k.jsonl")
    assert as_object.answers == as_lines.answers == answers
    assert as_object.ok and as_lines.ok
    assert list(as_object.answers) == list(answers)  # the file's order is kept


def test_a_repeated_id_is_refused_naming_both_lines_and_the_first_answer_kept():
    key = read_answer_key_object(b'{"S1":"R",\n"S1":"A"}', source="k.json")
    assert key.answers == {"S1": "R"} and isinstance(key.errors[0], DuplicateIDError)
    assert _problems(key) == [
        'k.json, line 2: duplicate ID "S1" (first given on line 1); each ID may appear only once'
    ]
    lines = read_answer_key_lines(
        io.BytesIO(b'{"id":"S1","answer":"R"}\n{"id":"S1","answer":"A"}\n'), source="k.jsonl"
    )
    assert _problems(lines) == [
        'k.jsonl, line 2: duplicate ID "S1" (first given on line 1); each ID may appear only once'
    ]


@pytest.mark.parametrize(
    ("data", "problems"),
    [
        (b"[1]", ["k.json, line 1: is [1], expected a JSON object mapping IDs to answers"]),
        (b"not json", ["k.json, line 1: not valid JSON: Expecting value (column 1)"]),
        (
            b'{"S1": 2,\n "": "x"}',
            [
                'k.json, line 1: the answer for "S1" is 2, expected a string answer',
                'k.json, line 2: ID is "", expected a non-empty string ID',
            ],
        ),
    ],
    ids=["not an object", "not JSON", "bad entries"],
)
def test_an_object_key_with_problems_names_each_by_line(data, problems):
    key = read_answer_key_object(data, source="k.json")
    assert (key.answers, _problems(key), key.ok) == ({}, problems, False)


def test_a_lines_key_names_every_bad_line():
    key = read_answer_key_lines(io.BytesIO(b'{"id":"S1"}\n\n[]\n'), source="k.jsonl")
    assert _problems(key) == [
        'k.jsonl, line 1: has no "answer" field',
        "k.jsonl, line 2: blank line, expected a JSON object",
        'k.jsonl, line 3: is [], expected an object {"id": ..., "answer": ...}',
    ]


def test_the_format_comes_from_the_name_unless_given():
    assert load_answer_key(io.BytesIO(b'{"S1":"R"}'), source="x.json").format == "json"
    named = load_answer_key(io.BytesIO(b'{"id":"S1","answer":"R"}\n'), source="x.json", format="jsonl")
    assert (named.format, named.answers) == ("jsonl", {"S1": "R"})
    with pytest.raises(SourceFormatError, match=r"^x\.txt: cannot tell an answer key's format from the name"):
        load_answer_key(io.BytesIO(b""), source="x.txt")
    with pytest.raises(ValueError, match="unknown answer-key format 'csv'"):
        load_answer_key(io.BytesIO(b""), source="x.json", format="csv")  # type: ignore[arg-type]
