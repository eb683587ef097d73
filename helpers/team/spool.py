"""Standard input made ready for the checks: its first bytes looked at (:class:`Prefixed`), and a
large pipe copied to an unnamed temporary file (:func:`spool_if_large`), so that the Python route
splits it over two cores as it splits a named file. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from typing import Any

from helpers.team.batch import BLOCK_SIZE, _min_bytes

__all__ = ["Prefixed", "SPOOL_FROM", "read_at_least", "spool_if_large"]


class Prefixed:
    """A byte stream whose first bytes were already read (``prefix``): they are read again first."""

    def __init__(self, prefix: bytes, stream: Any) -> None:
        self.prefix, self.at, self.stream = prefix, 0, stream

    def read(self, size: int = -1) -> bytes:
        left = len(self.prefix) - self.at
        if left > 0:
            take = left if size < 0 or size >= left else size
            data = self.prefix[self.at : self.at + take] if take < len(self.prefix) else self.prefix
            self.at += take
            if self.at >= len(self.prefix):
                self.prefix, self.at = b"", 0
            return data
        return self.stream.read(size)

    def __iter__(self) -> Iterator[bytes]:
        """The lines (each with its newline), as iterating a binary file gives them: a line the
        prefix cuts short goes on in the stream."""
        import io

        prefix = self.prefix[self.at :]
        self.prefix, self.at = b"", 0
        last = b""
        for line in io.BytesIO(prefix):
            if last:
                yield last
            last = line
        rest = iter(self.stream)
        if last and not last.endswith(b"\n"):
            last += next(rest, b"")
        if last:
            yield last
        yield from rest

    def fileno(self) -> int:
        return int(self.stream.fileno())

    def close(self) -> None:
        self.stream.close()


def read_at_least(stream: Any, size: int) -> bytes:
    """Up to ``size`` bytes from ``stream``: fewer only when it ends first."""
    parts, got = [], 0
    while got < size:
        data = stream.read(size - got)
        if not data:
            break
        parts.append(data)
        got += len(data)
    return b"".join(parts)


#: A pipe longer than this is copied to a temporary file (see :func:`spool_if_large`).
SPOOL_FROM = 1 << 20


def spool_if_large(stream: Any, min_bytes: int | None = None) -> Any:
    """A pipe (such as standard input) that may reach ``min_bytes`` (default
    :data:`~helpers.team.batch.PARALLEL_MIN_BYTES`) copied to an unnamed temporary file, so
    :func:`~helpers.team.batch.check_records` can split it over two cores; one that ends within
    :data:`SPOOL_FROM` (or ``min_bytes``) as a :class:`Prefixed` stream. The copy goes a block at a
    time, so memory stays flat. A regular file, a terminal, or anything without a descriptor is
    returned as it is."""
    try:
        fd = stream.fileno()
        if stat.S_ISREG(os.fstat(fd).st_mode) or os.isatty(fd):  # a terminal is read as it is typed
            return stream
    except (OSError, ValueError, AttributeError):
        return stream
    if min_bytes is None:
        min_bytes = _min_bytes()
    look = max(1, min(min_bytes, SPOOL_FROM))
    prefix = read_at_least(stream, look)
    if len(prefix) < look:
        return Prefixed(prefix, stream)
    import tempfile

    spool = tempfile.TemporaryFile()  # noqa: SIM115 - the caller closes it
    try:
        spool.write(prefix)
        del prefix
        while data := stream.read(BLOCK_SIZE * 4):
            spool.write(data)
        spool.flush()
        spool.seek(0)
    except BaseException:
        spool.close()
        raise
    return spool
