"""Target-scope rewrites from CSV, one record at a time, each error naming its line.

The columns are ``id``, ``original``, ``rewritten`` and optionally ``query`` and
``unresolved``. A list cell holds a JSON array of IDs, as in
``fixtures/filled_cases.csv``, or, with a list separator, the IDs joined by it.
Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from helpers.core.errors import CheckInputError, JSONLoadError, describe_value
from helpers.core.jsonio import JsonLine, loads_strict
from helpers.team.fastpath import loads_fast
from helpers.team.inputs import SCOPE_CSV_OPTIONAL, SCOPE_CSV_REQUIRED, SourceFormatError

__all__ = ["iter_scope_csv"]

_CSV_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)


def _decoded(stream: Iterable[bytes], bad: list[int], first: int = 1) -> Iterator[str]:
    """Decode physical lines one by one (the first numbered ``first``), noting lines that are
    not UTF-8 in ``bad``."""
    for number, raw in enumerate(stream, first):
        try:
            yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            bad.append(number)
            yield raw.decode("utf-8", "replace")


def read_header(reader: Any, bad: list[int], source: str) -> list[str]:
    """The header row of a :func:`csv.reader` over :func:`_decoded` lines, checked; a problem
    raises :class:`SourceFormatError`."""
    try:
        header = next(reader)
    except StopIteration:
        raise SourceFormatError(
            "is empty, expected a header row naming the columns " + ", ".join(SCOPE_CSV_REQUIRED),
            source=source,
            line=1,
        ) from None
    except csv.Error as exc:
        raise SourceFormatError(f"header row is not valid CSV ({exc})", source=source, line=1) from None
    if bad:
        raise SourceFormatError("header row is not UTF-8 text", source=source, line=1)
    allowed = SCOPE_CSV_REQUIRED + SCOPE_CSV_OPTIONAL
    for name in header:
        if name not in allowed:
            raise SourceFormatError(
                f"unknown column {describe_value(name)} (allowed: " + ", ".join(allowed) + ")",
                source=source,
                line=1,
                field=name,
            )
        if header.count(name) > 1:
            raise SourceFormatError(
                f"column {describe_value(name)} appears twice", source=source, line=1, field=name
            )
    for name in SCOPE_CSV_REQUIRED:
        if name not in header:
            raise SourceFormatError(
                f"has no {name!r} column (needed: " + ", ".join(SCOPE_CSV_REQUIRED) + ")",
                source=source,
                line=1,
                field=name,
            )
    return header


def _parse_list_cell(text: str, name: str, separator: str | None, source: str, line: int) -> Any:
    """A list cell: a JSON array of IDs, or IDs joined by ``separator`` (empty cell: no IDs)."""
    if separator is not None:
        return text.split(separator) if text else []
    value = loads_fast(text.encode("utf-8"))
    if type(value) is list and all(type(item) is str for item in value):
        return value  # strings only, so the exact parser reads the same list
    try:
        return loads_strict(text, source=source, line=line)
    except JSONLoadError as exc:
        raise JSONLoadError(f"the {name} cell: {exc.detail}", source=source, line=line, field=name) from None


def _record_from_row(
    header: list[str], row: list[str], separator: str | None, source: str, line: int
) -> dict[str, Any]:
    if len(row) != len(header):
        raise JSONLoadError(
            f"has {len(row)} cells, expected {len(header)} ({', '.join(header)})",
            source=source,
            line=line,
        )
    cells = dict(zip(header, row, strict=True))
    if not cells["id"]:
        raise JSONLoadError("id is an empty cell, expected a record ID", source=source, line=line, field="id")
    record: dict[str, Any] = {"id": cells["id"]}
    for wording in ("query", "rewritten_query"):
        if wording in cells:
            record[wording] = cells[wording]
    for name in ("original", "rewritten"):
        record[name] = _parse_list_cell(cells[name], name, separator, source, line)
    if cells.get("unresolved"):
        record["unresolved"] = _parse_list_cell(cells["unresolved"], "unresolved", separator, source, line)
    return record


def iter_scope_csv(
    stream: Iterable[bytes], *, source: str, list_separator: str | None = None
) -> Iterator[JsonLine]:
    """Yield each CSV row as a target-scope record (or its error), numbered by its first line.

    The header must name ``id``, ``original`` and ``rewritten``, and may name ``query``
    and ``unresolved``; any other column is an error (a misspelt ``unresolved`` column
    must not silently drop a hold). ``id`` must not be empty. An empty ``unresolved``
    cell means none. A header problem raises :class:`SourceFormatError`; a bad row is
    yielded as an error and reading goes on. Python's CSV field-size limit is raised
    so that a cell may hold a long list of IDs.

    Taught in ``05_check_your_data.ipynb``.
    """
    if list_separator == "":
        raise ValueError("list_separator must not be empty")
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)
    bad: list[int] = []
    reader = csv.reader(_decoded(stream, bad), strict=True)
    header = read_header(reader, bad, source)
    yield from _rows(reader, bad, header, list_separator, source, 0)


def csv_rows(
    lines: Iterable[bytes], header: list[str], *, source: str, list_separator: str | None, first: int
) -> tuple[Any, Iterator[JsonLine]]:
    """``(the reader, its records)`` for CSV lines that follow a header already read, the first
    of them numbered ``first``: what :func:`iter_scope_csv` yields from there, byte for byte.
    ``reader.line_num`` says how many lines the records so far took. Taught in
    ``05_check_your_data.ipynb``."""
    if csv.field_size_limit() < _CSV_FIELD_LIMIT:
        csv.field_size_limit(_CSV_FIELD_LIMIT)
    bad: list[int] = []
    reader = csv.reader(_decoded(lines, bad, first), strict=True)
    return reader, _rows(reader, bad, header, list_separator, source, first - 1)


def _rows(
    reader: Any, bad: list[int], header: list[str], list_separator: str | None, source: str, before: int
) -> Iterator[JsonLine]:
    """The records of ``reader`` after its header; ``before`` lines came before its first line."""
    while True:
        start = before + reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            bad.clear()
            yield JsonLine(
                start,
                error=JSONLoadError(f"not valid CSV ({exc})", source=source, line=start),
            )
            continue
        if bad:
            first = bad[0]
            bad.clear()
            yield JsonLine(start, error=JSONLoadError("not UTF-8 text", source=source, line=first))
            continue
        if not row:
            yield JsonLine(
                start,
                error=JSONLoadError("blank line, expected a CSV row", source=source, line=start),
            )
            continue
        try:
            yield JsonLine(start, value=_record_from_row(header, row, list_separator, source, start))
        except CheckInputError as exc:
            # Keep the row's id (and query) so reports can name the record.
            known = {name: cell for name, cell in zip(header, row, strict=False) if name in ("id", "query")}
            yield JsonLine(start, value=known or None, error=exc)
