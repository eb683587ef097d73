"""Standard input made ready for the checks (:mod:`helpers.team.spool`)."""

from __future__ import annotations

import io
import os
import threading

from hypothesis import given
from hypothesis import strategies as st

from helpers.team.spool import Prefixed, read_at_least, spool_if_large


class Trickle(io.RawIOBase):
    """A stream that gives at most ``step`` bytes a read, as a pipe may."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.step = data, step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        chunk, self.data = self.data[: min(self.step, len(buffer))], self.data[min(self.step, len(buffer)) :]
        buffer[: len(chunk)] = chunk
        return len(chunk)


@given(data=st.binary(max_size=30), step=st.integers(1, 7), size=st.integers(0, 40))
def test_read_at_least_gathers_short_reads_until_the_size_or_the_end(data, step, size):
    assert read_at_least(Trickle(data, step), size) == data[:size]


@given(
    prefix_lines=st.binary(max_size=20),
    rest=st.binary(max_size=20),
    sizes=st.lists(st.integers(-1, 6), max_size=8),
)
def test_a_prefixed_stream_reads_its_prefix_again_then_the_stream(prefix_lines, rest, sizes):
    """A read may come short (as a raw stream's may), never out of order; an empty read is the end."""
    stream = Prefixed(prefix_lines, io.BytesIO(rest))
    got = b"".join(stream.read(size) for size in sizes)
    while data := stream.read(-1):
        got += data
    assert got == prefix_lines + rest


@given(
    prefix=st.binary(max_size=20).map(lambda b: b.replace(b"x", b"\n")),
    rest=st.binary(max_size=20).map(lambda b: b.replace(b"x", b"\n")),
)
def test_a_prefixed_stream_gives_the_lines_a_binary_file_gives(prefix, rest):
    assert list(Prefixed(prefix, io.BytesIO(rest))) == list(io.BytesIO(prefix + rest))


def _pipe(data: bytes):
    read_end, write_end = os.pipe()

    def feed() -> None:
        with os.fdopen(write_end, "wb") as out:
            out.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return os.fdopen(read_end, "rb")


def test_a_short_pipe_is_read_again_from_memory_and_a_long_one_is_spooled():
    with _pipe(b"a\nb\n") as short:
        kept = spool_if_large(short, min_bytes=100)
        assert isinstance(kept, Prefixed) and kept.read() == b"a\nb\n"
    data = b"line\n" * 100
    with _pipe(data) as long:
        spooled = spool_if_large(long, min_bytes=64)
        try:
            assert not isinstance(spooled, Prefixed) and spooled.tell() == 0
            assert spooled.read() == data
        finally:
            spooled.close()


def test_a_regular_file_or_a_stream_without_a_descriptor_is_returned_as_it_is(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"x" * 200)
    with open(path, "rb") as regular:
        assert spool_if_large(regular, min_bytes=10) is regular
    memory = io.BytesIO(b"x" * 200)
    assert spool_if_large(memory, min_bytes=10) is memory
