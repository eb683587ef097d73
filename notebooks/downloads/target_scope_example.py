#!/usr/bin/env python3
"""Runnable example: the target-scope check on its filled cases.

Needs Python 3.11 or newer and nothing beyond the standard library:

    python target_scope_example.py

It runs the check on every filled case, asserts that each gives its expected
output exactly (as compact JSON), and prints a one-line summary. Add a case
to CASES, or edit one, to try an input of your own.

The check below is the project's own code, copied from its helpers; the cases
come from fixtures/filled_cases.json. The check is taught in
notebooks/02_target_scope.ipynb.
Regenerate this file with:
    python -m helpers export-example --check target-scope -o target_scope_example.py
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


def require_id_list(value: Any, field: str) -> list[str]:
    """Return ``value`` if it is a list of non-empty strings, else raise.

    >>> require_id_list(["a", 7], "rewritten")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InvalidInputError: rewritten[1] is 7, expected a string ID
    """
    if not isinstance(value, (list, tuple)):
        raise InvalidInputError(f"{field} is {_kind(value)}, expected a list of string IDs", field=field)
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidInputError(
                f"{field}[{index}] is {_kind(item)}, expected a string ID",
                field=f"{field}[{index}]",
            )
        if not item:
            raise InvalidInputError(
                f"{field}[{index}] is an empty string, expected a non-empty ID",
                field=f"{field}[{index}]",
            )
    return list(value)


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


# ---- copied from helpers/core/target_scope.py ----


TARGET_SCOPE_FIELDS: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("original", "rewritten"),
    ("unresolved", "id", "query", "rewritten_query"),
)


@dataclass(frozen=True)
class TargetScopeResult:
    """Outcome of comparing two target sets. Taught in ``02_target_scope.ipynb``."""

    missing: tuple[str, ...]
    added: tuple[str, ...]

    @property
    def preserved(self) -> bool:
        """True only when no target is missing and none was added."""
        return not self.missing and not self.added

    @property
    def passed(self) -> bool:
        """Same as :attr:`preserved`; shared with the other result types."""
        return self.preserved

    @property
    def outcome(self) -> Literal["preserved", "not preserved"]:
        """A short label for summaries."""
        return "preserved" if self.preserved else "not preserved"

    def as_dict(self) -> dict[str, Any]:
        """The seeds' output object: ``{"missing", "added", "preserved"}`` in that order."""
        return {
            "missing": list(self.missing),
            "added": list(self.added),
            "preserved": self.preserved,
        }


@dataclass(frozen=True)
class NeedsStaffLabels:
    """The check was not run: some targets still need staff labels.

    Never preserved. Taught in ``02_target_scope.ipynb`` ("Unresolved targets need staff labels").
    """

    unresolved: tuple[str, ...]

    @property
    def preserved(self) -> Literal[False]:
        """Always false: a held input is never preserved."""
        return False

    @property
    def passed(self) -> Literal[False]:
        """Always false."""
        return False

    @property
    def outcome(self) -> Literal["needs staff labels"]:
        """A short label for summaries."""
        return "needs staff labels"

    def as_dict(self) -> dict[str, Any]:
        """``{"held": "needs staff labels", "unresolved": [...], "preserved": false}``."""
        return {
            "held": self.outcome,
            "unresolved": list(self.unresolved),
            "preserved": False,
        }


def _compare(original: Sequence[str], rewritten: Sequence[str]) -> TargetScopeResult:
    before, after = set(original), set(rewritten)
    return TargetScopeResult(
        missing=tuple(sorted_ids(before - after)),
        added=tuple(sorted_ids(after - before)),
    )


def check_target_scope(
    original: Sequence[str],
    rewritten: Sequence[str],
    *,
    unresolved: Sequence[str] | None = None,
) -> TargetScopeResult | NeedsStaffLabels:
    """Compare the rewrite's target IDs with the original's, as sets.

    Raises :class:`~helpers.core.errors.InvalidInputError` (a ``ValueError``) naming
    the field and item when a list is not a list of non-empty strings. A
    non-empty ``unresolved`` list returns :class:`NeedsStaffLabels` instead.
    Taught in ``02_target_scope.ipynb``.

    >>> check_target_scope(["induction", "refresher"], ["induction"]).as_dict()
    {'missing': ['refresher'], 'added': [], 'preserved': False}
    """
    original = require_id_list(original, "original")
    rewritten = require_id_list(rewritten, "rewritten")
    if unresolved is not None:
        pending = require_id_list(unresolved, "unresolved")
        if pending:
            return NeedsStaffLabels(unresolved=tuple(sorted_ids(set(pending))))
    return _compare(original, rewritten)


def check_target_scope_input(record: Mapping[str, Any]) -> TargetScopeResult | NeedsStaffLabels:
    """Check one input object ``{"original": [...], "rewritten": [...]}``.

    Optional fields: ``"unresolved"`` (mentions awaiting staff labels),
    ``"id"``, ``"query"`` and ``"rewritten_query"`` (carried by callers, not checked here).
    Taught in ``02_target_scope.ipynb``.
    """
    required, optional = TARGET_SCOPE_FIELDS
    record = require_record(record, required=required, optional=optional)
    # A present "unresolved" field must be a list: null is refused, never read as "none".
    unresolved = require_id_list(record["unresolved"], "unresolved") if "unresolved" in record else ()
    return check_target_scope(record["original"], record["rewritten"], unresolved=unresolved)


# ---- the filled cases ----

CASES: list[dict[str, Any]] = [{'id': 'lost-comparison',
  'title': 'A comparison target drops out',
  'input': {'original': ['induction', 'refresher'], 'rewritten': ['induction']},
  'expected': {'missing': ['refresher'], 'added': [], 'preserved': False},
  'decision': 'Reject the rewrite: scope not preserved',
  'reason': 'The rewrite asks only about induction, so refresher, one of the two '
            'things being compared, is no longer searched for.'},
 {'id': 'reordered-targets',
  'title': 'The same targets in a different order',
  'input': {'original': ['induction', 'refresher'],
            'rewritten': ['refresher', 'induction']},
  'expected': {'missing': [], 'added': [], 'preserved': True},
  'decision': 'Accept the rewrite: scope preserved',
  'reason': 'Targets are a set, so a new order changes nothing: induction and '
            'refresher are both still there and nothing else joined them.'},
 {'id': 'new-target',
  'title': 'An unrelated target slips in',
  'input': {'original': ['induction'], 'rewritten': ['induction', 'payroll']},
  'expected': {'missing': [], 'added': ['payroll'], 'preserved': False},
  'decision': 'Reject the rewrite: scope not preserved',
  'reason': 'Induction survives, but payroll was never part of the question; adding it '
            'widens what the search retrieves.'}]


def actual_output(record: Mapping[str, Any]) -> dict[str, Any]:
    """The check's output object for one input; a refused input gives {"error": message}."""
    try:
        return check_target_scope_input(record).as_dict()
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
    print(f"target-scope: all {len(CASES)} cases give their expected output ({names})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
