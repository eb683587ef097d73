"""The batch loop: :func:`check_blocks` checks records a block at a time into a
:class:`~helpers.team.summary.BatchSummary`, each block read, checked and written by
:class:`helpers.team.fastpath.Records`; the blocks come from the readers below it
(:mod:`helpers.team.line_blocks`, or an engine's). Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any

from helpers.core.errors import error_object
from helpers.core.jsonio import JsonLine
from helpers.core.target_scope import TargetScopeResult
from helpers.team.fastpath import PRESERVED_LINE, Records
from helpers.team.summary import BatchSummary, Written


class EngineBlock(list[Any]):
    """A block an engine hands the loop (:mod:`helpers.team.duckdb_lines`): raw JSON lines
    (``bytes``) for the Python route between the engine's :class:`Written` runs and counts, in order."""

    __slots__ = ()


#: What a record reader hands the loop: raw JSON lines (``bytes``, read here), records another
#: reader already parsed (:class:`~helpers.core.jsonio.JsonLine`, e.g. CSV rows), a count
#: (``int``) of consecutive rewrites an engine has proved valid and preserved
#: (:mod:`helpers.team.duckdb_scope`), each written as the preserved line without a carry, or
#: rewrites an engine checked and wrote (:class:`Written`).
Item = bytes | JsonLine | int | Written


def check_blocks(
    blocks: Iterable[Sequence[Item]],
    summary: BatchSummary,
    *,
    write: Callable[[bytes], Any] | None = None,
    carry: bool = False,
    bad_lines: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    first_line: int = 1,
) -> BatchSummary:
    """The batch loop: check every record of ``blocks`` into ``summary``, in order.

    Each block goes to :class:`helpers.team.fastpath.Records`, where each record is read,
    checked and written in one place: first its check's fast path
    (:data:`~helpers.team.fastpath.FAST_CHECKS`), and what that cannot vouch for the exact
    way, so results and errors are exactly those of :func:`helpers.team.batch.outcomes_jsonl` and
    :func:`helpers.team.batch.outcomes`. What comes back is counted here. ``write`` gets each block's output
    lines (:func:`helpers.team.fastpath.output_line`) as one ``bytes``, so writing costs no system call per line;
    ``bad_lines`` gets each bad record as ``SOURCE, line N: message``; ``progress`` the number
    of records so far after each block. ``first_line`` numbers the first raw line (for a part
    of a file; see :func:`helpers.team.batch.check_records`). A count ``n`` stands for the next ``n`` records,
    each preserved (never given with ``carry``), and a :class:`Written` for rewrites an engine
    wrote. A preserved rewrite builds no outcome, and neither does a failed one once the
    summary's failures are full. Taught in ``05_check_your_data.ipynb``.
    """
    source, unit = summary.source, summary.unit
    # Every record is read, checked and written in one place (fastpath.Records); what comes
    # back is counted here. Once the failures are full, a failed rewrite is only counted.
    records = Records(
        summary.check,
        source,
        carry=carry,
        emit=write is not None,
        keep=summary.max_failures - len(summary.failures),
    )
    read = records.block
    add = summary.add
    count_failure = summary.add_not_preserved
    preserved = PRESERVED_LINE
    emit = write is not None
    passes = 0
    number = first_line - 1
    for block in blocks:
        parts: list[bytes] = []
        failed: list[Any] = []
        if block and type(block[0]) is bytes and type(block) is not EngineBlock:  # raw JSON lines, all
            number, passed = read(block, number, parts, failed)
            passes += passed
        else:  # parsed records, with what an engine vouched for between them
            run: list[JsonLine | bytes] = []
            for item in block:
                if type(item) is JsonLine or type(item) is bytes:
                    run.append(item)
                    continue
                if run:
                    number, passed = read(run, number, parts, failed)
                    passes += passed
                    run = []
                if isinstance(item, Written):  # rewrites an engine checked and wrote
                    number += item.rows
                    summary.add_written(item)
                    if emit:
                        parts.append(item.text)
                elif isinstance(item, int):  # that many preserved rewrites, vouched for by an engine
                    number += item
                    passes += item
                    if emit:
                        parts.append(preserved * item)
            if run:
                number, passed = read(run, number, parts, failed)
                passes += passed
        for done in failed:
            if type(done) is TargetScopeResult:  # counted only: the summary keeps no more failures
                count_failure(done.missing, done.added)
                continue
            add(done)
            if bad_lines is not None and done[3] is not None:
                bad_lines.write(f"{source}, {unit} {done[0]}: {error_object(0, done[3])['error']}\n")
        if emit and parts:
            write(b"".join(parts))  # type: ignore[misc]
        if progress is not None:
            progress(summary.records + passes)
    summary.add_passes(passes)
    return summary
