"""JSON-shaped values written out piece by piece, without recursion.

Python's own writers (``json.dumps``, ``repr``) recurse once per level of
nesting, so how deep a value they can write depends on the interpreter and on
how deep the caller's stack already is; in the browser (Pyodide) running out of
stack stops the whole kernel. The readers refuse nesting beyond
:data:`helpers.core.jsonio.MAX_NESTING`, and what shows a value (error messages,
the notebooks' JSON) walks it here with a stack of its own, so it never runs out.

Taught in ``01_start_here.ipynb`` ("When the input is wrong").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from helpers.core.error_root import HelpersError

__all__ = ["JsonStyle", "NotJsonShaped", "json_pieces"]


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
