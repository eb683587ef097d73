"""Strict JSON reading and compact JSON writing.

* Duplicate object keys are an error (the standard loader keeps the last one).
* ``NaN`` and ``Infinity`` are refused, as in JavaScript's ``JSON.parse``.
* Errors name the source and, where known, the line.
* :func:`dumps_compact` writes what ``JSON.stringify`` would write.

Taught in ``01_start_here.ipynb`` ("When the input is wrong").
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import IO, Any

from helpers.core.errors import (
    CheckInputError,
    DuplicateKeyError,
    HelpersError,
    JSONLoadError,
    escape_surrogates,
)
from helpers.core.jsonwalk import JsonStyle, NotJsonShaped, json_pieces

__all__ = [
    "MAX_NESTING",
    "STRICT_DECODER",
    "TOO_DEEP",
    "NestingTooDeep",
    "RepeatedKey",
    "LimitedText",
    "NO_STACK_LEFT",
    "nesting_cut",
    "nesting_depth",
    "skip_space",
    "same_on_every_python",
    "decode_utf8",
    "value_error_message",
    "parse_json_line",
    "loads_strict",
    "load_json_file",
    "loads_document",
    "iter_json_lines",
    "dumps_compact",
    "dumps_compact_deep",
    "JsonLine",
]


class RepeatedKey(HelpersError):
    """Raised inside :data:`STRICT_DECODER` when an object repeats a key; callers
    turn it into :class:`~helpers.core.errors.DuplicateKeyError` with the source and line."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


#: A decoder that raises :class:`RepeatedKey` on a repeated key and refuses NaN/Infinity.
STRICT_DECODER = json.JSONDecoder(object_pairs_hook=_pairs_to_dict, parse_constant=_refuse_constant)


#: What a reader says about an integer too long for Python to convert.
TOO_MANY_DIGITS = "a number has too many digits to read (more than 4300)"


def value_error_message(exc: ValueError) -> str:
    """The message for a ``ValueError`` raised while decoding: NaN/Infinity, or a number too long."""
    message = str(exc)
    return message if "is not valid JSON" in message else TOO_MANY_DIGITS


#: The deepest nesting of arrays and objects a reader accepts. Python's own parser gives up
#: at a depth that depends on the interpreter and on how deep the caller's stack already is
#: (about 1,000 levels less the caller's frames in CPython 3.11, some 3,000 in the browser's
#: Pyodide), so without a fixed limit the same line could be read from the command line and
#: refused in a notebook.
MAX_NESTING = 500

#: What a reader says about text nested more than :data:`MAX_NESTING` deep.
TOO_DEEP = f"arrays or objects are nested more than {MAX_NESTING} levels deep"


#: What a reader says when the caller's own stack leaves Python too little to read even
#: :data:`MAX_NESTING` levels (a call from hundreds of frames down); it fails closed.
NO_STACK_LEFT = "arrays or objects are nested too deeply to read from this point (Python ran out of stack)"


class NestingTooDeep(HelpersError):
    """Raised by :meth:`LimitedText.decode` for text nested more than :data:`MAX_NESTING` deep
    (``pos`` is where, ``message`` is :data:`TOO_DEEP`), or when the stack ran out first
    (``pos`` is ``None``, ``message`` :data:`NO_STACK_LEFT`); callers turn it into
    :class:`~helpers.core.errors.JSONLoadError` with the source and line."""

    def __init__(self, pos: int | None, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


# The nesting scan reads strings as JSON does: a quote opens one, a backslash escapes the character
# after it, the next quote closes it. Outside a string a backslash is never valid JSON, so a parser
# stops there; the scan lets it escape the next character there too, which lets it blank every
# escape first and then find strings as a quote, no quotes, a quote. Only single characters repeat
# in these patterns: CPython before 3.11.5 (Debian 12 has 3.11.2) matches possessive quantifiers
# wrongly (gh-100061), and a repeated group costs memory for each repetition.
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
# A complete string (escapes blanked) or a bracket: what nesting_cut steps through.
_TOKEN = re.compile(r'"[^"]*"|[\[\]{}]')
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SPACE = re.compile(r"[ \t\n\r]*")


def _blank_escapes(text: str) -> str:
    """``text`` with each backslash and the character after it as two spaces: as long as
    ``text``, so an index in it is an index in ``text``."""
    return _ESCAPE.sub("  ", text) if "\\" in text else text


def _outside_strings(plain: str) -> str:
    # Escapes blanked, strings run from a quote to the next: every other piece between quotes is
    # outside them (a last quote that opens no string leaves what follows it out too).
    return "".join(plain.split('"')[0::2])


def _depth_outside(outside: str) -> int:
    return max(accumulate(map(_STEP.__getitem__, _BRACKET.findall(outside))), default=0)


def _depth_blanked(plain: str) -> int:
    return _depth_outside(_outside_strings(plain))


#: How many brackets :func:`_surely_shallow` counts at a time (fewer than :data:`MAX_NESTING`, so a
#: text that stays shallow is told so piece by piece).
_PIECE = 256


#: Every byte but a quote and the brackets: what :func:`_marks_outside` drops.
_NOT_A_MARK = bytes(b for b in range(256) if b not in b'"[]{}')
_ESCAPE_BYTES = re.compile(rb"\\.", re.DOTALL)


def _marks_outside(text: str) -> str:
    """The brackets of ``text`` outside its strings, in order: what :func:`_outside_strings` of the
    escapes blanked holds, less everything else, told without a piece for every string.

    In UTF-8 no byte of a character past ASCII is a quote, a bracket or a backslash, so the
    encoded text has the same quotes and brackets in the same order, and a backslash dropped with
    the byte after it leaves only bytes that are dropped next. Two quotes side by side (a string
    with no bracket in it, or the end of one and the start of the next) are dropped as well: that
    moves no bracket in or out of a string. What is left is split at its quotes only when a
    bracket is inside a string.
    """
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        raw = _ESCAPE_BYTES.sub(b"", raw)
    marks = raw.translate(None, _NOT_A_MARK).replace(b'""', b"")
    if b'"' in marks:
        marks = b"".join(marks.split(b'"')[0::2])
    return marks.decode("ascii")


def _surely_shallow(outside: str) -> bool:
    """True when ``outside`` (a text's brackets outside strings, :func:`_marks_outside`) nests at most :data:`MAX_NESTING` deep,
    told by counting brackets piece by piece: within a piece the depth never passes its depth at the
    start plus the brackets opened in it. False leaves it to the exact count (:func:`_depth_outside`),
    which steps through every bracket."""
    depth = 0
    for start in range(0, len(outside), _PIECE):
        end = start + _PIECE
        opened = outside.count("[", start, end) + outside.count("{", start, end)
        if depth + opened > MAX_NESTING:
            return False
        depth += opened - outside.count("]", start, end) - outside.count("}", start, end)
    return True


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text``; brackets inside strings do not count.

    A quote that opens a string never closed ends the count: nothing after it counts. A
    backslash and the character after it never count, in a string or out of one (out of one,
    no parser reads past it).

    >>> nesting_depth('{"a": [[1], "]]]"]}')
    3
    """
    return _depth_blanked(_blank_escapes(text))


def nesting_cut(text: str) -> int | None:
    """Where ``text`` first nests more than :data:`MAX_NESTING` deep: the index of that
    bracket, or ``None``. Linear in the length of the text, and fast when it is ``None``.

    >>> nesting_cut("[" * 501), nesting_cut('["' + "[" * 501 + '"]')
    (500, None)
    """
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return None
    outside = _marks_outside(text)
    if _surely_shallow(outside) or _depth_outside(outside) <= MAX_NESTING:
        return None
    plain = _blank_escapes(text)
    # The depth passed the limit before any string that never closes, so this scan, which
    # skips only complete strings, passes it at the same bracket.
    depth = 0
    for match in _TOKEN.finditer(plain):
        depth += _STEP.get(match.group(), 0)
        if depth > MAX_NESTING:
            return match.start()
    raise AssertionError("nesting_depth and nesting_cut disagree")  # pragma: no cover


@dataclass(frozen=True)
class LimitedText:
    """A text and the part of it a parser may read: up to where it first nests too deep.

    Built once per text (:meth:`of`), then :meth:`decode` reads values from any position.
    """

    cut: int | None
    readable: str

    @classmethod
    def of(cls, text: str) -> LimitedText:
        """``text`` with its :func:`nesting_cut`."""
        cut = nesting_cut(text)
        return cls(cut, text if cut is None else text[:cut])

    def decode(self, pos: int) -> tuple[Any, int]:
        """``STRICT_DECODER.raw_decode`` from ``pos``, never past the cut.

        The parser never sees past the cut, so it never recurses more than one level
        beyond the limit: reading runs into the cut exactly when the value there is
        too deep (:class:`NestingTooDeep`), and an error met before it is reported as
        it is. The same text is thus read the same way by every interpreter and at
        every depth of the caller's stack.
        """
        try:
            return STRICT_DECODER.raw_decode(self.readable, pos)
        except json.JSONDecodeError as raised:
            exc = same_on_every_python(raised)
            if self.cut is not None and exc.pos >= self.cut:
                raise NestingTooDeep(self.cut, TOO_DEEP) from None
            raise exc from None
        except RecursionError:
            raise NestingTooDeep(None, NO_STACK_LEFT) from None


#: Python 3.13's own words for a trailing comma, and what 3.11 and 3.12 say (at the next token) instead.
_TRAILING_COMMA = {
    "Illegal trailing comma before end of array": "Expecting value",
    "Illegal trailing comma before end of object": "Expecting property name enclosed in double quotes",
}


def same_on_every_python(exc: json.JSONDecodeError) -> json.JSONDecodeError:
    """The error as Python 3.11 reports it, so a message reads the same on every supported Python.

    Python 3.13 names a trailing comma (``[1,]``) at the comma; 3.11 and 3.12 say what they
    expected at the bracket after it, which is what the notebooks show. Other errors are
    the same on all three and come back as they are.
    """
    said = _TRAILING_COMMA.get(exc.msg)
    if said is None:
        return exc
    return json.JSONDecodeError(said, exc.doc, skip_space(exc.doc, exc.pos + 1))


def skip_space(text: str, pos: int) -> int:
    """The position after any JSON whitespace at ``pos``."""
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


def _decode_document(text: str) -> Any:
    """``STRICT_DECODER.decode(text)``, with the fixed limit on nesting."""
    value, end = LimitedText.of(text).decode(skip_space(text, 0))
    end = skip_space(text, end)
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def loads_strict(text: str, *, source: str = "<input>", line: int | None = None) -> Any:
    """Parse one JSON document, refusing duplicate keys and non-JSON constants.

    ``line`` is the line number of ``text`` within its source, for JSON Lines;
    for a whole document the error's own line number is used.
    """
    try:
        return _decode_document(text)
    except NestingTooDeep as deep:
        if line is None and deep.pos is not None:
            line = text.count("\n", 0, deep.pos) + 1
        raise JSONLoadError(deep.message, source=source, line=line) from None
    except RepeatedKey as dup:
        raise DuplicateKeyError(dup.key, source=source, line=line) from None
    except json.JSONDecodeError as exc:
        raise JSONLoadError(
            f"not valid JSON: {exc.msg} (column {exc.colno})",
            source=source,
            line=line if line is not None else exc.lineno,
        ) from None
    except ValueError as exc:  # NaN/Infinity, or an integer too long to convert
        raise JSONLoadError(value_error_message(exc), source=source, line=line) from None


def decode_utf8(data: bytes, source: str) -> str:
    """Decode UTF-8 (a leading byte-order mark is dropped); errors name the source and line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise JSONLoadError(f"not UTF-8 text (byte {exc.start})", source=source, line=line) from None


def load_json_file(path: str | Path) -> Any:
    """Read a whole JSON file strictly; errors name the file and line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JSONLoadError(f"cannot be read ({exc.strerror})", source=str(path)) from None
    return loads_document(data, source=str(path))


def loads_document(data: bytes, *, source: str) -> Any:
    """Read the bytes of a whole JSON document strictly: UTF-8, one value; errors name ``source`` and the line.

    Taught in ``01_start_here.ipynb`` ("When the input is wrong").
    """
    return loads_strict(decode_utf8(data, source), source=source)


class JsonLine:
    """One line of a JSON Lines source: its number and either a value or an error."""

    __slots__ = ("error", "number", "value")

    def __init__(self, number: int, value: Any = None, error: CheckInputError | None = None) -> None:
        self.number = number
        self.value = value
        self.error = error


def _space_like(text: str) -> str:
    """Name the first character after any spaces and tabs, e.g. ``U+001C``.

    Only called for a line that is not blank, so one such character is always there.
    """
    first = text.lstrip(" \t")[0]
    return f"U+{ord(first):04X}"


def parse_json_line(raw: bytes, number: int, source: str) -> JsonLine:
    r"""Parse one raw line of a JSON Lines source (line ``number``); never raises for bad input.

    The first line may start with a byte-order mark. A line that is empty or
    only JSON whitespace is "blank"; one of other space-like characters (such
    as U+001C) is named as such. Taught in ``05_check_your_data.ipynb``.

    >>> parse_json_line(b'{"a":1}\n', 1, "f.jsonl").value
    {'a': 1}
    >>> parse_json_line(b'\n', 2, "f.jsonl").error.detail
    'blank line, expected a JSON object'
    """
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        return JsonLine(
            number,
            error=JSONLoadError(f"not UTF-8 text (byte {exc.start})", source=source, line=number),
        )
    text = text.rstrip("\r\n")
    if not text.strip(" \t\r\n"):
        problem = "blank line, expected a JSON object"
        return JsonLine(number, error=JSONLoadError(problem, source=source, line=number))
    if not text.strip():
        problem = (
            f"only space-like characters ({len(text)}, starting with {_space_like(text)}), "
            "expected a JSON object"
        )
        return JsonLine(number, error=JSONLoadError(problem, source=source, line=number))
    try:
        return JsonLine(number, value=loads_strict(text, source=source, line=number))
    except JSONLoadError as exc:
        return JsonLine(number, error=exc)


def iter_json_lines(stream: IO[bytes] | Iterable[bytes], *, source: str) -> Iterator[JsonLine]:
    """Yield each line of a JSON Lines byte stream, parsed, without reading it all.

    A bad line yields a :class:`JsonLine` carrying the error, and reading goes on.
    A final newline does not make an extra line; any other blank line is an error.
    """
    for number, raw in enumerate(stream, 1):
        yield parse_json_line(raw, number, source)


def dumps_compact(value: Any) -> str:
    """Serialise ``value`` as JavaScript's ``JSON.stringify`` would.

    No spaces, no ASCII escaping; lone surrogates are escaped as ``\\udXXX``
    (as ``JSON.stringify`` does), so the result always encodes as UTF-8. Strings,
    booleans, null, lists, objects and integers below 2**53 (everything the
    checks write) come out identical; a float carried through from input is
    written as Python writes it (``1.0`` where JavaScript writes ``1``).
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return escape_surrogates(text)


def _compact_scalar(value: Any) -> str:
    """One scalar as ``JSON.stringify`` writes it; a non-finite number is ``null``, as there."""
    if isinstance(value, float) and not math.isfinite(value):
        return "null"
    if value is None or isinstance(value, (str, int, float)):
        return json.dumps(value, ensure_ascii=False)
    raise NotJsonShaped(f"{type(value).__name__} is not JSON-shaped")


def _compact_key(key: Any) -> str:
    if isinstance(key, str):
        return json.dumps(key, ensure_ascii=False)
    raise NotJsonShaped(f"an object key must be a string, not {type(key).__name__}")


_COMPACT_STYLE = JsonStyle(",", ":", scalar=_compact_scalar, key=_compact_key, mappings=dict)


def dumps_compact_deep(value: Any) -> str:
    """:func:`dumps_compact` at any depth: written piece by piece, without recursion.

    For values carried from input as given (``--carry``'s ``id`` and ``query``), which may
    be nested up to :data:`MAX_NESTING` levels: Python's own writer recurses once per
    level, on top of the caller's stack. A non-finite number is written as ``null``, as
    ``JSON.stringify`` writes it; a value that is not JSON-shaped raises
    :class:`~helpers.core.jsonwalk.NotJsonShaped` (a ``ValueError``).

    >>> dumps_compact_deep({"id": "r", "query": [[["é"]], 1e400, True]})
    '{"id":"r","query":[[["é"]],null,true]}'
    """
    return escape_surrogates("".join(json_pieces(value, _COMPACT_STYLE)))
