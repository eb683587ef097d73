"""A large regular JSON Lines file checked on two cores: split at the newline after its middle, the
second part checked by a forked worker, its output and summary joined after this process's so the
bytes are exactly the serial ones (see :func:`helpers.team.batch.check_records`). Taught in
``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from typing import Any

from helpers.team.line_blocks import BLOCK_SIZE, _blocks
from helpers.team.record_blocks import check_blocks
from helpers.team.summary import BatchSummary, merge_summaries

#: A regular file at least this big is checked by two processes (see :func:`helpers.team.batch.check_records`).
PARALLEL_MIN_BYTES = 8 << 20


class _Range:
    """Reads bytes ``start`` to ``end`` of an open file with ``pread``, leaving its offset alone."""

    def __init__(self, fd: int, start: int, end: int) -> None:
        self.fd, self.pos, self.end = fd, start, end

    def read(self, size: int = -1) -> bytes:
        left = self.end - self.pos
        if size < 0 or size > left:
            size = left
        if size <= 0:
            return b""
        data = os.pread(self.fd, size, self.pos)
        self.pos += len(data)
        return data


def _count_lines(fd: int, end: int) -> int:
    """How many ``\\n`` bytes the first ``end`` bytes of a file hold."""
    reader, total = _Range(fd, 0, end), 0
    while chunk := reader.read(BLOCK_SIZE * 4):
        total += chunk.count(b"\n")
    return total


def _split_point(fd: int, size: int) -> int | None:
    """The offset just after the first newline at or after the middle of the file, if any."""
    pos = size // 2
    while pos < size:
        chunk = os.pread(fd, 1 << 16, pos)
        if not chunk:
            return None
        found = chunk.find(b"\n")
        if found >= 0:
            return pos + found + 1 if pos + found + 1 < size else None
        pos += len(chunk)
    return None


def _min_bytes() -> int:
    """:data:`PARALLEL_MIN_BYTES`, or ``$EIC_PARALLEL_MIN_BYTES`` (``$HELPERS_PARALLEL_MIN_BYTES``, deprecated)."""
    value = os.environ.get("EIC_PARALLEL_MIN_BYTES") or os.environ.get("HELPERS_PARALLEL_MIN_BYTES")
    return int(value) if value else PARALLEL_MIN_BYTES


def _parallel_split(stream: Any, min_bytes: int | None) -> tuple[int, int, int] | None:
    """``(fd, split, size)`` when ``stream`` is a large regular file read from its start, else ``None``."""
    try:
        fd = stream.fileno()
        info = os.fstat(fd)
        # A file that grows while it is read is checked as far as it went at the start:
        # a snapshot (helpers.team.inputs.open_snapshot) knows how far; else its size now.
        # (No snapshot exists unless its module was imported, so standard input imports nothing.)
        inputs = sys.modules.get(f"{__package__}.inputs")
        size = stream.size if inputs is not None and isinstance(stream, inputs.Snapshot) else info.st_size
        if min_bytes is None:
            min_bytes = _min_bytes()
        if (
            hasattr(os, "fork")
            and (os.cpu_count() or 1) > 1
            and stat.S_ISREG(info.st_mode)
            and size >= max(min_bytes, 1)
            and stream.tell() == 0
        ):
            split = _split_point(fd, size)
            return None if split is None else (fd, split, size)
    except (OSError, ValueError, AttributeError):
        return None
    return None


def _check_on_two_cores(
    fd: int,
    split: int,
    size: int,
    summary: BatchSummary,
    write: Callable[[bytes], Any] | None,
    carry: bool,
) -> BatchSummary:
    """The file's first part checked here and the rest by a forked worker; see :func:`helpers.team.batch.check_records`."""
    import pickle
    import signal
    import tempfile

    def part(
        start: int, end: int, into: BatchSummary, out: Callable[[bytes], Any] | None, first: int
    ) -> None:
        check_blocks(_blocks(_Range(fd, start, end)), into, write=out, carry=carry, first_line=first)

    spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    read_end, write_end = os.pipe()
    # SIGINT (Ctrl-C) is blocked across the fork, so neither process meets it half set up:
    # then the worker dies of it quietly, and this process stops the worker and cleans up.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for end in (read_end, write_end):
            os.close(end)
        spool.close()
        raise
    if pid == 0:  # the worker: check the second part, then report its summary
        status = 70
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(read_end)
            second = BatchSummary(
                check=summary.check,
                source=summary.source,
                max_failures=summary.max_failures,
                unit=summary.unit,
            )
            part(split, size, second, None if write is None else spool.write, _count_lines(fd, split) + 1)
            spool.flush()
            data = pickle.dumps(second)
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        finally:
            os._exit(status)
    chunks: list[bytes] = []
    try:
        os.close(write_end)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        part(0, split, summary, write, 1)
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        pid = 0
    except BaseException:  # Ctrl-C or a failed write: stop the worker, leave nothing behind
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        spool.close()
        raise
    finally:
        os.close(read_end)
    try:
        if status != 0 or not chunks:  # the worker failed: check the second part here
            part(split, size, summary, write, summary.records + 1)
            return summary
        spool.seek(0)
        while write is not None and (chunk := spool.read(BLOCK_SIZE)):
            write(chunk)
    finally:
        spool.close()
    return merge_summaries(summary, pickle.loads(b"".join(chunks)))
