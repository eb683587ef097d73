"""A large JSON Lines file split over two cores (:mod:`helpers.team.two_cores`): where it is cut and when."""

from __future__ import annotations

import io
import os

import pytest

from helpers.team import two_cores


@pytest.fixture
def opened(tmp_path):
    def open_with(data: bytes):
        path = tmp_path / f"in{len(opened.streams)}.jsonl"
        path.write_bytes(data)
        stream = open(path, "rb")  # noqa: SIM115 - closed by the finalizer below
        opened.streams.append(stream)
        return stream

    opened.streams = []
    yield open_with
    for stream in opened.streams:
        stream.close()


def test_a_range_reads_its_bytes_and_leaves_the_file_offset_alone(opened):
    stream = opened(b"0123456789")
    reader = two_cores._Range(stream.fileno(), 2, 7)
    assert [reader.read(2), reader.read(), reader.read(4)] == [b"23", b"456", b""]
    assert stream.tell() == 0
    assert two_cores._count_lines(opened(b"a\nb\nc\nd").fileno(), 4) == 2


@pytest.mark.parametrize(
    ("data", "split"),
    [
        (b"aaaa\nbbbb\ncccc\n", 10),  # the newline after the middle (7) is at 9
        (b"ab\n" + b"c" * 10, None),  # no newline after the middle: nothing to cut
        (b"a" * 10 + b"\n", None),  # the only newline ends the file: the second part would be empty
        (b"ab\ncd\nef", 6),
    ],
)
def test_the_file_is_cut_just_after_the_first_newline_at_or_after_its_middle(opened, data, split):
    assert two_cores._split_point(opened(data).fileno(), len(data)) == split


def test_only_a_large_enough_regular_file_read_from_its_start_is_split(opened, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    data = b'{"original":["a"],"rewritten":["a"]}\n' * 4
    stream = opened(data)
    # the middle (74) starts line 3, so the cut comes after it, at 111
    assert two_cores._parallel_split(stream, 1) == (stream.fileno(), 3 * 37, 4 * 37)
    assert two_cores._parallel_split(stream, len(data) + 1) is None  # too small
    stream.readline()
    assert two_cores._parallel_split(stream, 1) is None  # not read from its start
    assert two_cores._parallel_split(io.BytesIO(data), 1) is None  # no descriptor
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert two_cores._parallel_split(opened(data), 1) is None  # one core


def test_the_two_core_threshold_reads_the_environment(monkeypatch):
    """``EIC_PARALLEL_MIN_BYTES`` sets it; the old ``HELPERS_PARALLEL_MIN_BYTES`` still works for now."""
    from helpers.team import two_cores as batch

    monkeypatch.delenv("EIC_PARALLEL_MIN_BYTES", raising=False)
    monkeypatch.delenv("HELPERS_PARALLEL_MIN_BYTES", raising=False)
    assert batch._min_bytes() == batch.PARALLEL_MIN_BYTES
    monkeypatch.setenv("HELPERS_PARALLEL_MIN_BYTES", "5")
    assert batch._min_bytes() == 5
    monkeypatch.setenv("EIC_PARALLEL_MIN_BYTES", "7")
    assert batch._min_bytes() == 7
