#!/usr/bin/env python3
"""Runnable example: the sentinels check on its filled cases.

Needs Python 3.11 or newer and nothing beyond the standard library:

    python sentinels_example.py

It runs the check on every filled case, asserts that each gives its expected
output exactly (as compact JSON), and prints a one-line summary. Add a case
to CASES, or edit one, to try an input of your own.

The check below is the project's own code, copied from its helpers; the cases
come from fixtures/filled_cases.json. The check is taught in
notebooks/03_sentinel_answer_key.ipynb.
Regenerate this file with:
    python -m helpers export-example --check sentinels -o sentinels_example.py
"""

from __future__ import annotations

import itertools
import json
import re
import reprlib
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast


# ---- copied from helpers/core/error_root.py ----


class HelpersError(Exception):
    """The root of every error these helpers raise: catch it to catch them all."""


# ---- copied from helpers/core/jsonwalk.py ----


class NotJsonShaped(HelpersError, ValueError):
    """Raised by :func:`json_pieces` for a part that is not a mapping, list, tuple or scalar
    (as ``style.scalar`` decides), or a container that holds itself."""


@dataclass(frozen=True)
class JsonStyle:
    """How :func:`json_pieces` writes: separators, and a writer for keys and for scalars.

    ``scalar`` gets every value that is not a container and may raise
    :class:`NotJsonShaped`; ``key`` gets each mapping key.
    """

    item_sep: str
    key_sep: str
    scalar: Callable[[Any], str]
    key: Callable[[Any], str]
    mappings: type | tuple[type, ...] = Mapping
    sequences: tuple[type, ...] = (list, tuple)


def _container_pieces(value: Any, style: JsonStyle) -> Iterator[str | tuple[Any]]:
    """The pieces of one container: text as ``str``, a value still to write as ``(value,)``."""
    if isinstance(value, style.mappings):
        mapping = cast("Mapping[Any, Any]", value)
        yield "{"
        for index, (key, item) in enumerate(mapping.items()):
            yield (style.item_sep if index else "") + style.key(key) + style.key_sep
            yield (item,)
        yield "}"
    else:
        yield "["
        for index, item in enumerate(value):
            if index:
                yield style.item_sep
            yield (item,)
        yield "]"


def json_pieces(value: Any, style: JsonStyle) -> Iterator[str]:
    """Yield ``value`` written as JSON in ``style``, a piece at a time, at any depth.

    Lazy, so a caller that needs only the start of a large value stops early.

    >>> style = JsonStyle(", ", ": ", scalar=repr, key=repr)
    >>> "".join(json_pieces({"a": [1, (2, 3)], "b": {}}, style))
    "{'a': [1, [2, 3]], 'b': {}}"
    """
    containers = (style.mappings, *style.sequences)
    open_now: set[int] = set()  # the containers being written, to refuse one that holds itself
    # Each frame: the pieces still to write, and the id of the container they belong to (the
    # outermost frame belongs to none; ``open_now`` itself is never part of a value).
    stack: list[tuple[Iterator[str | tuple[Any]], int]] = [(iter([(value,)]), id(open_now))]
    while stack:
        pieces, owner = stack[-1]
        piece = next(pieces, None)
        if piece is None:
            stack.pop()
            open_now.discard(owner)
        elif isinstance(piece, str):
            yield piece
        else:
            (item,) = piece
            if not isinstance(item, containers):
                yield style.scalar(item)
            elif id(item) in open_now:
                raise NotJsonShaped("a container holds itself")
            else:
                open_now.add(id(item))
                stack.append((_container_pieces(item, style), id(item)))


# ---- copied from helpers/core/errors.py ----


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


# ---- copied from helpers/core/ordering.py ----


def utf16_key(text: str) -> bytes:
    """Sort key comparing strings by UTF-16 code units, as JavaScript does."""
    return text.encode("utf-16-be", "surrogatepass")


def sorted_ids(ids: Iterable[str]) -> list[str]:
    """Return ``ids`` sorted in JavaScript's default string order."""
    ids = list(ids)
    # Code-point order equals UTF-16 order when no ID holds a character at or
    # above U+D800; that common case skips encoding every ID.
    joined = "".join(ids)
    if joined.isascii() or max(joined, default="") < "\ud800":
        return sorted(ids)
    return sorted(ids, key=utf16_key)


# ---- copied from helpers/core/validation.py ----


def _kind(value: Any) -> str:
    return describe_value(value)


def require_answer_key(value: Any, field: str) -> dict[str, str]:
    """Return ``value`` if it maps non-empty string IDs to string answers, else raise."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            f"{field} is {_kind(value)}, expected an object mapping IDs to answers",
            field=field,
        )
    for key, answer in value.items():
        if not isinstance(key, str):
            raise InvalidInputError(f"{field} has the key {_kind(key)}, expected a string ID", field=field)
        if not key:
            raise InvalidInputError(f"{field} has an empty ID, expected a non-empty ID", field=f'{field}[""]')
        if not isinstance(answer, str):
            where = f"{field}[{describe_value(key)}]"
            raise InvalidInputError(f"{where} is {_kind(answer)}, expected a string answer", field=where)
    return dict(value)


def require_record(
    value: Any,
    *,
    required: tuple[str, ...],
    optional: tuple[str, ...] = (),
    field: str = "input",
) -> Mapping[str, Any]:
    """Check that ``value`` is an object with exactly the allowed fields."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            f"{field} is {_kind(value)}, expected an object with the fields "
            + ", ".join(f'"{name}"' for name in required),
            field=field,
        )
    for name in required:
        if name not in value:
            raise InvalidInputError(f'{field} has no "{name}" field', field=name)
    allowed = set(required) | set(optional)
    for name in value:
        if name not in allowed:
            raise InvalidInputError(
                f"{field} has an unknown field {describe_value(name)} (allowed: "
                + ", ".join(f'"{n}"' for n in (*required, *optional))
                + ")",
                field=str(name),
            )
    return value


# ---- copied from helpers/core/jsonio.py ----


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


# ---- copied from helpers/core/sentinels.py ----


SENTINEL_FIELDS: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("baseline", "proposed"),
    ("id",),
)


@dataclass(frozen=True)
class SentinelResult:
    """Outcome of comparing a proposed key with the sentinel baseline.

    Taught in ``03_sentinel_answer_key.ipynb``.
    """

    missing: tuple[str, ...]
    changed: tuple[str, ...]

    @property
    def intact(self) -> bool:
        """True only when every sentinel is present with its literal answer."""
        return not self.missing and not self.changed

    @property
    def passed(self) -> bool:
        """Same as :attr:`intact`; shared with the other result types."""
        return self.intact

    @property
    def outcome(self) -> Literal["intact", "hold before scoring"]:
        """A short label for summaries."""
        return "intact" if self.intact else "hold before scoring"

    def as_dict(self) -> dict[str, Any]:
        """The seeds' output object: ``{"missing", "changed", "intact"}`` in that order."""
        return {
            "missing": list(self.missing),
            "changed": list(self.changed),
            "intact": self.intact,
        }


def check_sentinels(baseline: Mapping[str, str], proposed: Mapping[str, str]) -> SentinelResult:
    """Which baseline sentinels the proposed key lost or answers differently: each ID, each literal answer.

    Raises :class:`~helpers.core.errors.InvalidInputError` naming the field when a
    key is not an object of string IDs to string answers, and
    :class:`~helpers.core.errors.EmptyBaselineError` for an empty baseline.
    Taught in ``03_sentinel_answer_key.ipynb``.

    >>> check_sentinels({"S1": "R"}, {"S1": "S"}).as_dict()
    {'missing': [], 'changed': ['S1'], 'intact': False}
    """
    baseline = require_answer_key(baseline, "baseline")
    proposed = require_answer_key(proposed, "proposed")
    if not baseline:
        raise EmptyBaselineError(
            "baseline has no sentinel IDs, so the check would verify nothing; "
            "supply the fixed sentinel baseline",
            field="baseline",
        )
    missing: list[str] = []
    changed: list[str] = []
    for sentinel in sorted_ids(baseline):
        if sentinel not in proposed:
            missing.append(sentinel)
        elif proposed[sentinel] != baseline[sentinel]:
            changed.append(sentinel)
    return SentinelResult(missing=tuple(missing), changed=tuple(changed))


def check_sentinels_input(record: Mapping[str, Any]) -> SentinelResult:
    """Check one input object ``{"baseline": {...}, "proposed": {...}}``.

    Taught in ``03_sentinel_answer_key.ipynb``.
    """
    required, optional = SENTINEL_FIELDS
    record = require_record(record, required=required, optional=optional)
    return check_sentinels(record["baseline"], record["proposed"])


# ---- the filled cases ----

CASES: list[dict[str, Any]] = [{'id': 'sentinel-mutated',
  'title': "A sentinel's answer is edited",
  'input': {'baseline': {'S1': 'R'}, 'proposed': {'S1': 'S'}},
  'expected': {'missing': [], 'changed': ['S1'], 'intact': False},
  'decision': 'Hold the key before scoring',
  'reason': 'The literal answer for S1 went from R to S, and no approved new baseline '
            'explains the change.'},
 {'id': 'new-case-only',
  'title': 'A new, non-sentinel case joins the key',
  'input': {'baseline': {'S1': 'R'}, 'proposed': {'S1': 'R', 'C2': 'A'}},
  'expected': {'missing': [], 'changed': [], 'intact': True},
  'decision': 'Key intact: scoring may go ahead',
  'reason': 'C2 is not a sentinel, so adding it is allowed, and S1 still carries its '
            'answer R.'},
 {'id': 'sentinel-missing',
  'title': 'A sentinel is left out of the key',
  'input': {'baseline': {'S1': 'R', 'S2': 'A'}, 'proposed': {'S1': 'R'}},
  'expected': {'missing': ['S2'], 'changed': [], 'intact': False},
  'decision': 'Hold the key before scoring',
  'reason': 'S2 is absent from the proposed key. That is a hole in the key itself, not '
            'a wrong answer from a model.'}]


def actual_output(record: Mapping[str, Any]) -> dict[str, Any]:
    """The check's output object for one input; a refused input gives {"error": message}."""
    try:
        return check_sentinels_input(record).as_dict()
    except CheckInputError as exc:
        return {"error": exc.message}


def main() -> int:
    """Assert every case's expected output, then print a one-line summary."""
    for case in CASES:
        expected = dumps_compact(case["expected"])
        actual = dumps_compact(actual_output(case["input"]))
        if actual != expected:
            raise AssertionError(
                f"case {case['id']}: expected {expected}, the check gives {actual}"
            )
    names = ", ".join(case["id"] for case in CASES)
    print(f"sentinels: all {len(CASES)} cases give their expected output ({names})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
