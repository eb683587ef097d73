"""Reading real data files: JSON Lines, CSV and answer keys, each error naming its line.

* Target scope: JSON Lines of ``{"original": [...], "rewritten": [...]}`` (optionally with
  ``"id"``, ``"query"`` and ``"unresolved"``), or CSV with the columns ``id``, ``original``,
  ``rewritten`` and optionally ``query`` and ``unresolved``. A CSV list cell holds a JSON
  array of IDs, as in ``fixtures/filled_cases.csv``, or, with a list separator, the IDs
  joined by it.
* Sentinel answer keys: a JSON object ``{id: answer}`` (``.json``) or JSON Lines of
  ``{"id": ..., "answer": ...}`` (``.jsonl``). An ID given twice is an error naming the
  ID and both lines, in either form.

JSON Lines and CSV are read one record at a time, never whole. An answer key is
held in memory, because the check needs all of it. Every problem is reported with
its source and line, and reading goes on past it.

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from .errors import (
    CheckInputError,
    DuplicateKeyError,
    JSONLoadError,
    describe_value,
)
from .fastpath import fast_answer_key, loads_fast
from .jsonio import STRICT_DECODER, JsonLine, RepeatedKey, decode_utf8, loads_strict
from .paths import fixtures_dir, project_root

__all__ = [
    "Upload",
    "InputFile",
    "sample_data",
    "resolve_input",
    "display_name",
    "open_input",
    "KeyFormat",
    "ScopeFormat",
    "DuplicateIDError",
    "SourceFormatError",
    "AnswerKey",
    "scope_format_for",
    "key_format_for",
    "parse_line",
    "iter_scope_csv",
    "SCOPE_CSV_REQUIRED",
    "SCOPE_CSV_OPTIONAL",
    "load_answer_key",
    "read_answer_key_object",
    "read_answer_key_lines",
]

ScopeFormat = Literal["jsonl", "csv"]
KeyFormat = Literal["json", "jsonl"]

SCOPE_CSV_REQUIRED: tuple[str, ...] = ("id", "original", "rewritten")
SCOPE_CSV_OPTIONAL: tuple[str, ...] = ("query", "unresolved")

_JSONL_SUFFIXES = (".jsonl", ".ndjson")
_CSV_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)


class SourceFormatError(JSONLoadError):
    """A file's format cannot be told from its name, or its layout (e.g. a CSV header) is wrong.

    Taught in ``05_check_your_data.ipynb``.
    """


class DuplicateIDError(JSONLoadError):
    """An answer key gives the same ID twice; which answer counts would be a guess.

    Taught in ``05_check_your_data.ipynb``.
    """

    def __init__(self, key: str, *, source: str, line: int | None, first_line: int | None) -> None:
        earlier = f" (first given on line {first_line})" if first_line is not None else ""
        super().__init__(
            f"duplicate ID {describe_value(key)}{earlier}; each ID may appear only once",
            source=source,
            line=line,
            field=key,
        )
        self.key = key
        self.first_line = first_line


def scope_format_for(name: str) -> ScopeFormat:
    """``"csv"`` for a ``.csv`` name, ``"jsonl"`` for ``.jsonl``/``.ndjson``; else raise.

    Taught in ``05_check_your_data.ipynb``.
    """
    suffix = Path(name).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in _JSONL_SUFFIXES:
        return "jsonl"
    raise SourceFormatError(
        "cannot tell the format from the name; use .jsonl or .csv, or name the format",
        source=name,
    )


def key_format_for(name: str) -> KeyFormat:
    """``"json"`` for a ``.json`` name, ``"jsonl"`` for ``.jsonl``/``.ndjson``; else raise.

    Taught in ``05_check_your_data.ipynb``.
    """
    suffix = Path(name).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in _JSONL_SUFFIXES:
        return "jsonl"
    raise SourceFormatError(
        "cannot tell an answer key's format from the name; use .json (one object) or "
        ".jsonl (one {\"id\",\"answer\"} per line), or name the format",
        source=name,
    )


@dataclass(frozen=True)
class Upload:
    """A file's name and bytes, e.g. from a notebook's upload button.

    Taught in ``05_check_your_data.ipynb``.
    """

    name: str
    data: bytes


def sample_data(name: str) -> Path:
    """A file of the shipped sample dataset in ``fixtures/sample_data/``, e.g. ``"rewrites.jsonl"``.

    Taught in ``05_check_your_data.ipynb``.
    """
    path = fixtures_dir() / "sample_data" / name
    if not path.is_file():
        raise FileNotFoundError(f"no sample file {name!r} in {path.parent}")
    return path


#: A file to read: a path, or an :class:`Upload`.
InputFile = str | Path | Upload


def resolve_input(path: str | Path) -> Path:
    """``path`` as given; a relative path missing from the working folder is tried from the project root.

    So ``fixtures/sample_data/rewrites.jsonl`` works from ``notebooks/`` too.

    Taught in ``05_check_your_data.ipynb``.
    """
    path = Path(path).expanduser()
    if path.is_absolute() or path.exists():
        return path
    candidate = project_root() / path
    return candidate if candidate.exists() else path


def display_name(item: InputFile) -> str:
    """How reports name an input: an upload's name, or a path relative to the project if inside it.

    Taught in ``05_check_your_data.ipynb``.
    """
    if isinstance(item, Upload):
        return item.name
    path = Path(item)
    try:
        return path.resolve().relative_to(project_root()).as_posix()
    except ValueError:
        return str(item)


def open_input(item: InputFile) -> tuple[IO[bytes], str, int]:
    """Open a path (see :func:`resolve_input`) or an upload: ``(binary stream, name, size in bytes)``.

    A file that cannot be opened raises :class:`~helpers.errors.JSONLoadError` naming it.

    Taught in ``05_check_your_data.ipynb``.
    """
    if isinstance(item, Upload):
        return io.BytesIO(item.data), item.name, len(item.data)
    path = resolve_input(item)
    name = display_name(path)
    try:
        stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
        size = os.fstat(stream.fileno()).st_size
    except OSError as exc:
        raise JSONLoadError(f"cannot be read ({exc.strerror})", source=str(item)) from None
    return stream, name, size


# --- JSON Lines -------------------------------------------------------------------------


def parse_line(raw: bytes, number: int, source: str) -> JsonLine:
    """Parse one raw JSON Lines line exactly as :func:`helpers.jsonio.iter_json_lines` does.

    Taught in ``05_check_your_data.ipynb``.
    """
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        return JsonLine(
            number,
            error=JSONLoadError(f"not UTF-8 text (byte {exc.start})", source=source, line=number),
        )
    text = text.rstrip("\r\n")
    if not text.strip():
        return JsonLine(
            number,
            error=JSONLoadError("blank line, expected a JSON object", source=source, line=number),
        )
    try:
        return JsonLine(number, value=loads_strict(text, source=source, line=number))
    except JSONLoadError as exc:
        return JsonLine(number, error=exc)


# --- CSV --------------------------------------------------------------------------------


def _decoded(stream: Iterable[bytes], bad: list[int]) -> Iterator[str]:
    """Decode physical lines one by one, noting lines that are not UTF-8 in ``bad``."""
    for number, raw in enumerate(stream, 1):
        try:
            yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            bad.append(number)
            yield raw.decode("utf-8", "replace")


def _read_header(reader: Any, bad: list[int], source: str) -> list[str]:
    try:
        header = next(reader)
    except StopIteration:
        raise SourceFormatError(
            "is empty, expected a header row naming the columns "
            + ", ".join(SCOPE_CSV_REQUIRED),
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
                f"unknown column {describe_value(name)} (allowed: "
                + ", ".join(allowed)
                + ")",
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


def _parse_list_cell(
    text: str, name: str, separator: str | None, source: str, line: int
) -> Any:
    """A list cell: a JSON array of IDs, or IDs joined by ``separator`` (empty cell: no IDs)."""
    if separator is not None:
        return text.split(separator) if text else []
    value = loads_fast(text.encode("utf-8"))
    if type(value) is list and all(type(item) is str for item in value):
        return value  # strings only, so the exact parser reads the same list
    try:
        return loads_strict(text, source=source, line=line)
    except JSONLoadError as exc:
        raise JSONLoadError(
            f"the {name} cell: {exc.detail}", source=source, line=line, field=name
        ) from None


def _record_from_row(
    header: list[str], row: list[str], separator: str | None, source: str, line: int
) -> dict[str, Any]:
    if len(row) != len(header):
        raise JSONLoadError(
            f"has {len(row)} cells, expected {len(header)} ({', '.join(header)})",
            source=source,
            line=line,
        )
    cells = dict(zip(header, row))
    if not cells["id"]:
        raise JSONLoadError("id is an empty cell, expected a record ID", source=source, line=line, field="id")
    record: dict[str, Any] = {"id": cells["id"]}
    if "query" in cells:
        record["query"] = cells["query"]
    for name in ("original", "rewritten"):
        record[name] = _parse_list_cell(cells[name], name, separator, source, line)
    if cells.get("unresolved"):
        record["unresolved"] = _parse_list_cell(
            cells["unresolved"], "unresolved", separator, source, line
        )
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
    header = _read_header(reader, bad, source)
    while True:
        start = reader.line_num + 1
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
            yield JsonLine(
                start, error=JSONLoadError("not UTF-8 text", source=source, line=first)
            )
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
            known = {name: cell for name, cell in zip(header, row) if name in ("id", "query")}
            yield JsonLine(start, value=known or None, error=exc)


# --- Answer keys ----------------------------------------------------------------------


@dataclass
class AnswerKey:
    """An answer key read from a file: its answers, and every problem found, by line.

    ``errors`` is empty when the key is usable. Taught in ``05_check_your_data.ipynb``.
    """

    source: str
    format: KeyFormat
    answers: dict[str, str] = field(default_factory=dict)
    errors: list[CheckInputError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the key had no problems."""
        return not self.errors


_WHITESPACE = re.compile(r"[ \t\n\r]*")


class _Lines:
    """Line numbers of positions in a text, counted incrementally."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1

    def at(self, pos: int) -> int:
        if pos < self.pos:
            return self.text.count("\n", 0, pos) + 1
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def _members(text: str, source: str) -> Iterator[tuple[str, Any, int]]:
    """Yield ``(key, value, line)`` for each member of the top-level JSON object in ``text``.

    Values are read by the standard library's parser (duplicate keys refused), so
    they are exactly what :func:`~helpers.jsonio.loads_strict` would give.
    """
    lines = _Lines(text)

    def fail(message: str, pos: int, key: str | None = None) -> JSONLoadError:
        return JSONLoadError(message, source=source, line=lines.at(pos), field=key)

    pos = _WHITESPACE.match(text, 0).end()
    if text[pos : pos + 1] != "{":
        value = loads_strict(text, source=source)  # the precise syntax error, if any
        raise fail(
            f"is {describe_value(value)}, expected a JSON object mapping IDs to answers", pos
        )
    pos = _WHITESPACE.match(text, pos + 1).end()
    if text[pos : pos + 1] == "}":
        pos += 1
    else:
        while True:
            if text[pos : pos + 1] != '"':
                raise fail("not valid JSON: expected a quoted ID", pos)
            line = lines.at(pos)
            try:
                key, pos = json.decoder.scanstring(text, pos + 1, True)
            except json.JSONDecodeError as exc:
                raise fail(f"not valid JSON: {exc.msg}", exc.pos) from None
            pos = _WHITESPACE.match(text, pos).end()
            if text[pos : pos + 1] != ":":
                raise fail("not valid JSON: expected ':' after an ID", pos, key)
            pos = _WHITESPACE.match(text, pos + 1).end()
            try:
                value, pos = STRICT_DECODER.raw_decode(text, pos)
            except RepeatedKey as dup:
                raise DuplicateKeyError(dup.key, source=source, line=line) from None
            except json.JSONDecodeError as exc:
                raise fail(f"not valid JSON: {exc.msg}", exc.pos, key) from None
            except ValueError as exc:
                raise fail(str(exc), pos, key) from None
            except RecursionError:
                raise fail("arrays or objects are nested too deeply to check", pos, key) from None
            yield key, value, line
            pos = _WHITESPACE.match(text, pos).end()
            mark = text[pos : pos + 1]
            if mark == "}":
                pos += 1
                break
            if mark != ",":
                raise fail("not valid JSON: expected ',' or '}' after a value", pos, key)
            pos = _WHITESPACE.match(text, pos + 1).end()
    pos = _WHITESPACE.match(text, pos).end()
    if pos != len(text):
        raise fail("not valid JSON: extra data after the object", pos)


def read_answer_key_object(data: bytes, *, source: str) -> AnswerKey:
    """Read an answer key written as one JSON object ``{id: answer}``.

    Reports every repeated ID (with both lines), every empty ID and every answer
    that is not a string, each with its line; a JSON syntax error ends reading.

    Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="json")
    fast = loads_fast(data[3:] if data.startswith(b"\xef\xbb\xbf") else data)
    if fast_answer_key(fast, json_keys=True):
        key.answers = fast
        return key
    try:
        text = decode_utf8(data, source)
    except JSONLoadError as exc:
        key.errors.append(exc)
        return key
    first_lines: dict[str, int] = {}
    try:
        for name, answer, line in _members(text, source):
            if name in first_lines:
                key.errors.append(
                    DuplicateIDError(name, source=source, line=line, first_line=first_lines[name])
                )
                continue
            first_lines[name] = line
            problem = _key_entry_problem(name, answer, source, line)
            if problem is not None:
                key.errors.append(problem)
            else:
                key.answers[name] = answer
    except JSONLoadError as exc:
        key.errors.append(exc)
    return key


def _key_entry_problem(name: Any, answer: Any, source: str, line: int) -> CheckInputError | None:
    if not isinstance(name, str) or not name:
        return JSONLoadError(
            f"ID is {describe_value(name)}, expected a non-empty string ID",
            source=source,
            line=line,
            field="id",
        )
    if not isinstance(answer, str):
        return JSONLoadError(
            f"the answer for {describe_value(name)} is {describe_value(answer)}, "
            "expected a string answer",
            source=source,
            line=line,
            field=name,
        )
    return None


_KEY_LINE_FIELDS = frozenset(("id", "answer"))


def _key_line_problem(value: Any, source: str, line: int) -> CheckInputError | None:
    if not isinstance(value, dict):
        return JSONLoadError(
            f'is {describe_value(value)}, expected an object {{"id": ..., "answer": ...}}',
            source=source,
            line=line,
        )
    for name in ("id", "answer"):
        if name not in value:
            return JSONLoadError(f'has no "{name}" field', source=source, line=line, field=name)
    for name in value:
        if name not in _KEY_LINE_FIELDS:
            return JSONLoadError(
                f'has an unknown field {describe_value(name)} (allowed: "id", "answer")',
                source=source,
                line=line,
                field=name,
            )
    ident, answer = value["id"], value["answer"]
    if not isinstance(ident, str) or not ident:
        return JSONLoadError(
            f"id is {describe_value(ident)}, expected a non-empty string ID",
            source=source,
            line=line,
            field="id",
        )
    if not isinstance(answer, str):
        return JSONLoadError(
            f"answer is {describe_value(answer)}, expected a string answer",
            source=source,
            line=line,
            field="answer",
        )
    return None


def read_answer_key_lines(stream: Iterable[bytes], *, source: str) -> AnswerKey:
    """Read an answer key written as JSON Lines of ``{"id": ..., "answer": ...}``, line by line.

    Every bad line and every repeated ID (naming both lines) is reported.

    Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="jsonl")
    answers = key.answers
    lines = array("Q")  # the line of each ID, in insertion order
    repeats: list[tuple[str, int]] = []
    problems: list[CheckInputError] = []
    for number, raw in enumerate(stream, 1):
        value = loads_fast(raw) if number > 1 else None
        if (
            type(value) is dict
            and len(value) == 2
            and type(value.get("id")) is str
            and type(value.get("answer")) is str
            and value["id"]
        ):
            ident, answer = value["id"], value["answer"]
        else:
            parsed = parse_line(raw, number, source)
            problem = parsed.error or _key_line_problem(parsed.value, source, number)
            if problem is not None:
                problems.append(problem)
                continue
            ident, answer = parsed.value["id"], parsed.value["answer"]
        if ident in answers:
            repeats.append((ident, number))
            continue
        answers[ident] = answer
        lines.append(number)
    if repeats:
        wanted = {ident for ident, _ in repeats}
        first = {ident: lines[index] for index, ident in enumerate(answers) if ident in wanted}
        problems += [
            DuplicateIDError(ident, source=source, line=number, first_line=first[ident])
            for ident, number in repeats
        ]
        problems.sort(key=lambda exc: exc.line or 0)
    key.errors = problems
    return key


def load_answer_key(
    stream: IO[bytes], *, source: str, format: KeyFormat | None = None
) -> AnswerKey:
    """Read an answer key from a binary stream; ``format`` defaults to the one ``source`` names.

    Taught in ``05_check_your_data.ipynb``.
    """
    fmt = format or key_format_for(source)
    if fmt == "json":
        return read_answer_key_object(stream.read(), source=source)
    if fmt == "jsonl":
        return read_answer_key_lines(stream, source=source)
    raise ValueError(f"unknown answer-key format {fmt!r}; expected 'json' or 'jsonl'")
