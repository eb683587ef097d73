"""Target-scope rewrites from a Parquet table with list columns, one row at a time.

The columns are those of a JSON Lines record: ``original`` and ``rewritten``
(lists of strings), and optionally ``id``, ``query``, ``rewritten_query`` and
``unresolved``. Each row becomes the record ``{column: value}`` and is checked
exactly as that JSON Lines line would be, so results and errors are the same: a
null list or a null ID in a list is refused as JSON ``null`` is, and a null
``unresolved`` cell is refused rather than read as "none". Rows are numbered
from 1. Needs the ``parquet`` extra (pyarrow). Taught in
``05_check_your_data.ipynb`` ("Answer keys in the formats teams already have").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from helpers.core.errors import describe_value
from helpers.core.jsonio import JsonLine
from helpers.team.inputs import SourceFormatError
from helpers.team.parquet_tables import column_names, iter_rows, open_parquet, unreadable_from

__all__ = ["SCOPE_TABLE_REQUIRED", "SCOPE_TABLE_OPTIONAL", "iter_scope_parquet"]

SCOPE_TABLE_REQUIRED: tuple[str, ...] = ("original", "rewritten")
SCOPE_TABLE_OPTIONAL: tuple[str, ...] = ("id", "query", "rewritten_query", "unresolved")


def _columns(names: list[str], source: str) -> list[str]:
    allowed = SCOPE_TABLE_REQUIRED + SCOPE_TABLE_OPTIONAL
    for name in names:
        if name not in allowed:
            raise SourceFormatError(
                f"unknown column {describe_value(name)} (allowed: " + ", ".join(allowed) + ")",
                source=source,
                field=name,
            )
    for name in SCOPE_TABLE_REQUIRED:
        if name not in names:
            raise SourceFormatError(
                f"has no {name!r} column (needed: " + ", ".join(SCOPE_TABLE_REQUIRED) + ")",
                source=source,
                field=name,
            )
    return names


def iter_scope_parquet(stream: IO[bytes] | Any, *, source: str) -> Iterator[JsonLine]:
    """Yield each row of a Parquet table as a target-scope record, numbered from 1.

    A column other than the record's fields, or a missing ``original`` or
    ``rewritten`` column, raises :class:`SourceFormatError` (a misspelt
    ``unresolved`` column must not silently drop a hold). A file that stops being
    readable part-way is reported at the next row, and reading ends there.
    Taught in ``05_check_your_data.ipynb``.
    """
    table = open_parquet(stream, source=source)  # first: without pyarrow, it names the extra
    import pyarrow as pa

    columns = _columns(column_names(table), source)
    row = 0
    rows = iter_rows(table, columns)
    try:
        for row, values in enumerate(rows, 1):
            yield JsonLine(row, value=values)
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        yield JsonLine(row + 1, error=unreadable_from(exc, source=source, row=row + 1))
    finally:
        rows.close()  # a reader left part-way lets its threads go now, not at the process's exit
