"""Reading records in blocks: :func:`_blocks` cuts a byte stream (or any iterable of raw lines)
into blocks of whole JSON lines, and :func:`_record_blocks` parsed records (CSV or Parquet rows)
into blocks, for the batch loop (:func:`helpers.team.record_blocks.check_blocks`). Taught in
``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from helpers.core.jsonio import JsonLine

#: How many bytes a JSON Lines stream is read at a time.
BLOCK_SIZE = 1 << 18


#: How many parsed records (CSV or Parquet rows) make one block.
BLOCK_RECORDS = 4096


def _blocks(stream: Any, size: int | None = None) -> Iterator[list[bytes]]:
    """The lines of a byte stream, a block of whole lines at a time, without their newlines.

    Lines end at ``\\n`` only, as iterating a binary file splits them, and a final
    newline makes no extra line. An object without ``read`` is taken as an iterable
    of raw lines.
    """
    size = size or BLOCK_SIZE
    read = getattr(stream, "read", None)
    if read is None:  # any iterable of raw lines
        batch: list[bytes] = []
        for raw in stream:
            batch.append(raw[:-1] if raw.endswith(b"\n") else raw)
            if len(batch) >= BLOCK_RECORDS:
                yield batch
                batch = []
        if batch:
            yield batch
        return
    pending: list[bytes] = []  # the start of a line that the next read goes on with
    while True:
        data = read(size)
        if not data:
            break
        lines = data.split(b"\n")  # each line copied once, straight from what was read
        if len(lines) == 1:
            pending.append(data)
            continue
        if pending:
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending = []
        last = lines.pop()
        if last:
            pending.append(last)
        yield lines
    if pending:
        yield [b"".join(pending)]


def _record_blocks(records: Iterable[JsonLine]) -> Iterator[list[JsonLine]]:
    """Parsed records in blocks; a reader's :class:`~helpers.team.inputs.SourceFormatError` (a bad header) is one bad record."""
    from helpers.team.inputs import SourceFormatError

    batch: list[JsonLine] = []
    try:
        for record in records:
            batch.append(record)
            if len(batch) >= BLOCK_RECORDS:
                yield batch
                batch = []
    except SourceFormatError as exc:
        batch.append(JsonLine(exc.line or 1, None, exc))
    if batch:
        yield batch
