"""Records read in blocks (:mod:`helpers.team.line_blocks`): whole lines of a byte stream, or parsed records."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from helpers.core.jsonio import JsonLine
from helpers.team import line_blocks
from helpers.team.inputs import SourceFormatError


@given(st.binary(max_size=40).map(lambda raw: raw.replace(b"x", b"\n")), st.integers(1, 9))
def test_a_stream_read_in_blocks_gives_its_lines_once_each(data, size):
    from helpers.team import batch

    blocks = list(batch._blocks(io.BytesIO(data), size))
    want = data.split(b"\n")
    if want[-1] == b"":
        want.pop()  # a final newline makes no extra line
    assert [line for block in blocks for line in block] == want
    assert all(blocks)


def test_an_iterable_of_raw_lines_is_cut_into_blocks_of_records(monkeypatch):
    monkeypatch.setattr(line_blocks, "BLOCK_RECORDS", 3)
    raw = [b"a\n", b"b", b"c\r\n", b"\n", b"e\n"]
    assert list(line_blocks._blocks(iter(raw))) == [[b"a", b"b", b"c\r"], [b"", b"e"]]
    assert list(line_blocks._blocks([])) == []


def test_a_line_longer_than_a_read_is_joined_once():
    data = b"x" * 25 + b"\n" + b"y" * 3
    assert list(line_blocks._blocks(io.BytesIO(data), 4)) == [[b"x" * 25], [b"y" * 3]]


def test_parsed_records_come_in_blocks_and_a_bad_header_is_one_bad_record(monkeypatch):
    monkeypatch.setattr(line_blocks, "BLOCK_RECORDS", 2)
    records = [JsonLine(n, {"n": n}) for n in (2, 3, 4)]
    blocks = list(line_blocks._record_blocks(iter(records)))
    assert [[r.number for r in block] for block in blocks] == [[2, 3], [4]]

    def bad_header():
        yield JsonLine(2, {"n": 2})
        raise SourceFormatError('no "id" column', source="rows.csv", line=None)

    (block,) = line_blocks._record_blocks(bad_header())
    assert [r.number for r in block] == [2, 1]
    assert block[1].value is None and block[1].error.detail == 'no "id" column'
