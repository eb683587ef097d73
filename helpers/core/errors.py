"""Typed errors raised by the checks and loaders.

Every refusal derives from one root, :class:`HelpersError`, so a caller can catch
all of them at once (``except helpers.HelpersError``). The refusals are also
:class:`ValueError` subclasses, as they always were, and each message names the
field (or the file and line) at fault, so bad input is never mistaken for a pass.
The tree is in ``docs/errors.md``. Taught in ``01_start_here.ipynb`` ("When the input is wrong").
"""

from __future__ import annotations

import itertools
import json
import re
import reprlib
from typing import Any

from helpers.core.error_root import HelpersError
from helpers.core.jsonwalk import JsonStyle, NotJsonShaped, json_pieces

__all__ = [
    "HelpersError",
    "CheckInputError",
    "InvalidInputError",
    "EmptyBaselineError",
    "JSONLoadError",
    "DuplicateKeyError",
    "BaselineError",
    "ProgressFileError",
    "CheckoutFileError",
    "BuildError",
    "describe_value",
    "escape_surrogates",
    "error_object",
]

_MAX_SHOWN = 60
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_one(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_surrogates(text: str) -> str:
    """Write each lone surrogate as ``\\udXXX`` (as ``JSON.stringify`` does), so text
    taken from JSON always encodes as UTF-8 in messages, HTML and output."""
    return _LONE_SURROGATE.sub(_escape_one, text)


def _json_text(value: Any) -> str:
    """A string as ``json.dumps`` writes it; only as much of it as a message can show."""
    if isinstance(value, str):
        return json.dumps(str.__getitem__(value, slice(_MAX_SHOWN + 1)), ensure_ascii=False)
    raise NotJsonShaped


def _json_scalar(value: Any) -> str:
    if isinstance(value, str):
        return _json_text(value)
    if value is None or isinstance(value, bool | int | float):
        try:
            return json.dumps(value)
        except ValueError:  # an integer too long to write
            raise NotJsonShaped from None
    raise NotJsonShaped


def _json_key(key: Any) -> str:
    """A key as ``json.dumps`` writes it: a number, ``true``, ``false`` or ``null`` in quotes."""
    if isinstance(key, str):
        return _json_text(key)
    return f'"{_json_scalar(key)}"'


_MESSAGE_STYLE = JsonStyle(", ", ": ", scalar=_json_scalar, key=_json_key, mappings=dict)


class _ShortRepr(reprlib.Repr):
    """``repr`` cut short at every level, so a deep or huge value costs nothing to describe."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = self.maxtuple = self.maxlist = self.maxarray = _MAX_SHOWN
        self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = _MAX_SHOWN
        self.maxstring = self.maxlong = self.maxother = 4 * _MAX_SHOWN

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        """As ``reprlib`` does, but in the dict's own order (``reprlib`` sorts the keys)."""
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        pieces = [
            f"{self.repr1(key, level - 1)}: {self.repr1(item, level - 1)}"
            for key, item in itertools.islice(x.items(), self.maxdict)
        ]
        if len(x) > self.maxdict:
            pieces.append("...")
        return "{" + ", ".join(pieces) + "}"

    def repr_int(self, x: int, level: int) -> str:
        try:
            return super().repr_int(x, level)
        except ValueError:  # more digits than Python converts
            return f"<int of {x.bit_length():,} bits>"


def describe_value(value: Any) -> str:
    """Return a short JSON-style rendering of ``value`` for error messages.

    The same text as ``json.dumps`` (cut to 60 characters), but written only as far as
    it is shown and without recursion, so any value, however deep or large, can be
    described; a value that is not JSON-shaped is shown as a shortened ``repr``.
    """
    pieces: list[str] = []
    size = 0
    try:
        for piece in json_pieces(value, _MESSAGE_STYLE):
            pieces.append(piece)
            size += len(piece)
            if size > _MAX_SHOWN:
                break
        text = "".join(pieces)
    except NotJsonShaped:
        text = _ShortRepr().repr(value)
    if len(text) > _MAX_SHOWN:
        text = text[: _MAX_SHOWN - 1] + "…"
    return escape_surrogates(text)


class CheckInputError(HelpersError, ValueError):
    """The input cannot be checked, so the check fails closed."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInputError(CheckInputError):
    """A field has the wrong shape, e.g. ``rewritten[2] is 7, expected a string ID``."""


class EmptyBaselineError(InvalidInputError):
    """A sentinel baseline with no IDs would check nothing, so it is refused."""


def printable(text: str) -> str:
    """``text`` safe for a terminal: every control or format character and lone surrogate escaped
    (``\\x1b``, ``\\u202e``, ``\\udcff``), the rest as it is. A file's name is shown through this
    wherever an error names it, so a name cannot clear a line or write over what is printed."""
    if text.isprintable():  # a lone surrogate is never printable
        return text
    return "".join(
        char if char.isprintable() and not "\ud800" <= char <= "\udfff" else ascii(char)[1:-1]
        for char in text
    )


class JSONLoadError(CheckInputError):
    """A JSON or JSON Lines source could not be read; names the source and line."""

    def __init__(
        self,
        message: str,
        *,
        source: str,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        where = printable(source) if line is None else f"{printable(source)}, line {line}"
        super().__init__(f"{where}: {message}", field=field)
        self.source = source
        self.line = line
        self.detail = message


class DuplicateKeyError(JSONLoadError):
    """A JSON object repeats a key; the default loader would silently keep the last."""

    def __init__(self, key: str, *, source: str, line: int | None = None) -> None:
        super().__init__(
            f"duplicate key {describe_value(key)} in a JSON object (each key may appear only once)",
            source=source,
            line=line,
            field=key,
        )
        self.key = key


class BaselineError(CheckInputError):
    """A baseline file is missing, malformed, or would overwrite retained evidence."""


class ProgressFileError(HelpersError, ValueError):
    """A practice progress file is corrupt, foreign, or cannot be read or written.

    The file is left exactly as it was. Taught in ``04_practice.ipynb``
    ("Keeping your progress").
    """

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(f"{printable(path)}: {message}")
        self.message = message
        self.path = path


class CheckoutFileError(HelpersError, ValueError):
    """A check-out paper, key, baseline or answers file is corrupt, foreign or does not match.

    Grading fails closed: nothing is graded. Taught in ``07_checkout.ipynb``.
    """

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(f"{printable(path)}: {message}")
        self.message = message
        self.path = path


class BuildError(HelpersError, ValueError):
    """A generated file (runnable example, download, static site page) cannot be built.

    Names what is wrong and, where it helps, the command that fixes it.
    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("Downloads").
    """

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message if path is None else f"{printable(path)}: {message}")
        self.message = message
        self.path = path


def error_object(line: int, exc: CheckInputError) -> dict[str, Any]:
    """The output object for a bad record: ``{"line": N, "field": ..., "error": ...}``.

    The message is the error's own, without the source and line a loader puts in front.
    Taught in ``05_check_your_data.ipynb``.
    """
    message = exc.detail if isinstance(exc, JSONLoadError) else exc.message
    return {"line": line, "field": exc.field, "error": message}
