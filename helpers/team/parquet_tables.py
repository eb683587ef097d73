"""Parquet through pyarrow, an optional extra: opening a file, its columns, and errors that name rows.

pyarrow is imported only when a Parquet file is read, so ``import helpers`` and
every other format stay free of it; without it, :func:`require_pyarrow` says which
extra to install. Rows are numbered from 1, as lines are. Taught in
``05_check_your_data.ipynb`` ("Answer keys in the formats teams already have").
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Generator, Sequence
from typing import IO, Any

from helpers.core.chardiff import visible_text
from helpers.core.errors import CheckInputError, JSONLoadError, describe_value
from helpers.team.inputs import SourceFormatError

__all__ = [
    "PARQUET_EXTRA",
    "MissingExtraError",
    "RowError",
    "DuplicateRowError",
    "unreadable_from",
    "require_pyarrow",
    "pyarrow_missing",
    "open_parquet",
    "column_names",
    "BATCH_ROWS",
    "iter_rows",
]

#: The extra that brings pyarrow: ``pip install 'eval-integrity-helpers[parquet]'``.
PARQUET_EXTRA = "parquet"


class MissingExtraError(CheckInputError):
    """An optional library a format needs is not installed; names the extra that brings it.

    The command line exits with status 2 (a usage problem, not a verdict on the data).
    """

    def __init__(self, library: str, extra: str, what: str) -> None:
        super().__init__(
            f"{what} needs {library}, which is not installed; "
            f"install the {extra!r} extra: pip install 'eval-integrity-helpers[{extra}]'"
        )
        self.library = library
        self.extra = extra


class RowError(JSONLoadError):
    """A problem in one row of a table: ``SOURCE, row N: message`` (``line`` holds the row number)."""

    def __init__(self, message: str, *, source: str, row: int, field: str | None = None) -> None:
        CheckInputError.__init__(self, f"{source}, row {row}: {message}", field=field)
        self.source = source
        self.line = row
        self.detail = message


class DuplicateRowError(RowError):
    """A table gives the same ID in two rows; names both, look-alike characters shown as ``⟨U+XXXX⟩``."""

    def __init__(self, key: str, *, source: str, row: int, first_row: int) -> None:
        super().__init__(
            f"duplicate ID {visible_text(describe_value(key))} (first given in row {first_row}); "
            "each ID may appear only once",
            source=source,
            row=row,
            field=key,
        )
        self.key = key
        self.first_line = first_row


def unreadable_from(exc: BaseException, *, source: str, row: int, tidy: bool = False) -> RowError:
    """The error for a table that cannot be read from ``row`` on, with the read error as its reason.

    Text that is not UTF-8 is named as such (pyarrow's own message names codec internals).
    Any other error is shown as its text, or with ``tidy`` on one line (its type if empty).
    """
    if isinstance(exc, UnicodeDecodeError):
        reason = "a string that is not UTF-8 text"
    elif tidy:
        reason = " ".join(str(exc).split()) or type(exc).__name__
    else:
        reason = str(exc)
    return RowError(f"the table cannot be read from here on ({reason})", source=source, row=row)


def pyarrow_missing() -> MissingExtraError | None:
    """The error naming the ``parquet`` extra when pyarrow is not installed, found without importing it.

    The engine route never needs ``pyarrow.parquet`` (about 0.2 s to import with numpy), so a
    command checks for it this way and the Python route imports it when it reads.
    """
    import importlib.util

    try:
        found = importlib.util.find_spec("pyarrow") is not None
    except (ImportError, ValueError):
        found = False
    return None if found else MissingExtraError("pyarrow", PARQUET_EXTRA, "reading Parquet")


def require_pyarrow() -> Any:
    """``pyarrow.parquet``, or :class:`MissingExtraError` naming the ``parquet`` extra."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingExtraError("pyarrow", PARQUET_EXTRA, "reading Parquet") from None
    return pq


def open_parquet(stream: IO[bytes] | Any, *, source: str) -> Any:
    """A ``pyarrow.parquet.ParquetFile`` over ``stream``; a file that is not Parquet names itself.

    A stream that cannot seek (standard input) is copied to an unnamed temporary file first,
    since a Parquet file's index is at its end. Arrow allocates through the system allocator from
    here on: its default (mimalloc) keeps the pages of the batches read, so a long table's peak
    grew with its length (docs/performance.md).
    """
    pq = require_pyarrow()
    import pyarrow as pa

    pa.set_memory_pool(pa.system_memory_pool())
    spooled = None
    seekable = getattr(stream, "seekable", None)
    if seekable is None or not seekable():
        spooled = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the ParquetFile; unnamed
        shutil.copyfileobj(stream, spooled, 1 << 20)
        spooled.seek(0)
        stream = spooled
    try:
        parquet = pq.ParquetFile(stream)
    except (pa.ArrowException, OSError) as exc:
        if spooled is not None:
            spooled.close()
        raise SourceFormatError(f"is not a readable Parquet file ({exc})", source=source) from None
    if spooled is not None:
        weakref.finalize(parquet, spooled.close)  # the copy goes when the file is done with
    return parquet


def column_names(parquet: Any) -> list[str]:
    """The top-level column names of a Parquet file, in order."""
    return list(parquet.schema_arrow.names)


#: Rows decoded at a time: a batch's Python records are the route's working set, and small
#: batches also spare the garbage collector (docs/performance.md, "peak memory").
BATCH_ROWS = 4_096


def iter_rows(
    parquet: Any, columns: Sequence[str], *, batch_rows: int = BATCH_ROWS
) -> Generator[dict[str, Any], None, None]:
    """Each row as a dict of Python values (``None`` for a null), a batch at a time."""
    for batch in parquet.iter_batches(batch_size=batch_rows, columns=list(columns)):
        yield from batch.to_pylist()
