"""Target-scope rewrites read from CSV (:mod:`helpers.team.scope_csv`): a record or an error per row, numbered by line."""

from __future__ import annotations

import io

import pytest

from helpers.team.inputs import SourceFormatError
from helpers.team.scope_csv import csv_rows, iter_scope_csv


def _read(text: bytes, **options) -> list[tuple[int, object, str | None]]:
    return [
        (line.number, line.value, None if line.error is None else str(line.error))
        for line in iter_scope_csv(io.BytesIO(text), source="r.csv", **options)
    ]


def test_rows_become_records_with_json_lists_and_an_empty_unresolved_cell_meaning_none():
    text = (
        b"\xef\xbb\xbfid,query,original,rewritten,unresolved\r\n"
        b'r1,"Which, then?","[""a"",""b""]",[],\r\n'
        b'r2,q,[],"[""a""]","[""the spring course""]"\n'
    )
    assert _read(text) == [
        (2, {"id": "r1", "query": "Which, then?", "original": ["a", "b"], "rewritten": []}, None),
        (
            3,
            {
                "id": "r2",
                "query": "q",
                "original": [],
                "rewritten": ["a"],
                "unresolved": ["the spring course"],
            },
            None,
        ),
    ]


def test_a_list_separator_splits_cells_and_an_empty_cell_is_no_ids():
    assert _read(b"id,original,rewritten\nr1,a;b,\n", list_separator=";") == [
        (2, {"id": "r1", "original": ["a", "b"], "rewritten": []}, None)
    ]
    with pytest.raises(ValueError, match="list_separator must not be empty"):
        _read(b"id,original,rewritten\n", list_separator="")


def test_a_row_with_a_quoted_newline_is_numbered_by_its_first_line_and_the_next_row_after_it():
    rows = _read(b'id,original,rewritten\nr1,"[""a\n""]",[]\nr2,[],[]\n')
    assert [(number, value["id"]) for number, value, _ in rows] == [(2, "r1"), (4, "r2")]


def test_each_bad_row_is_an_error_naming_its_line_and_the_reading_goes_on():
    text = b"id,original,rewritten\n,[],[]\nr2,[],[],extra\nr3,[,[]\n\nr5,\xff,[]\nr6,[],[]\n"
    rows = _read(text)
    assert [(number, error) for number, _, error in rows] == [
        (2, "r.csv, line 2: id is an empty cell, expected a record ID"),
        (3, "r.csv, line 3: has 4 cells, expected 3 (id, original, rewritten)"),
        (4, "r.csv, line 4: the original cell: not valid JSON: Expecting value (column 2)"),
        (5, "r.csv, line 5: blank line, expected a CSV row"),
        (6, "r.csv, line 6: not UTF-8 text"),
        (7, None),
    ]
    assert rows[1][1] == {"id": "r2"}  # a bad row keeps its id for the reports


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (b"", "r.csv, line 1: is empty, expected a header row naming the columns id, original, rewritten"),
        (
            b"id,original,rewriten\n",
            'r.csv, line 1: unknown column "rewriten" (allowed: id, original, rewritten, query, rewritten_query, unresolved)',
        ),
        (b"id,original,original,rewritten\n", 'r.csv, line 1: column "original" appears twice'),
        (b"id,original\n", "r.csv, line 1: has no 'rewritten' column (needed: id, original, rewritten)"),
        (b"id,orig\xffinal,rewritten\n", "r.csv, line 1: header row is not UTF-8 text"),
    ],
    ids=["empty", "misspelt", "twice", "missing", "not UTF-8"],
)
def test_a_bad_header_is_refused_whole(header, message):
    with pytest.raises(SourceFormatError) as refused:
        _read(header)
    assert str(refused.value) == message


def test_rows_after_a_header_read_elsewhere_are_read_alike():
    body = b'r1,[],[]\nr2,"[""a""]",[]\n'
    reader, records = csv_rows(
        io.BytesIO(body), ["id", "original", "rewritten"], source="r.csv", list_separator=None, first=2
    )
    got = [(line.number, line.value) for line in records]
    assert got == [(n, v) for n, v, _ in _read(b"id,original,rewritten\n" + body)]
    assert reader.line_num == 2
