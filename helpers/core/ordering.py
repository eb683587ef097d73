"""Sorting IDs the way the reference evaluators do.

JavaScript's ``Array.prototype.sort`` compares strings by UTF-16 code units,
which differs from Python's code-point order once IDs hold characters beyond
the Basic Multilingual Plane (emoji, for instance). Every list the checks
report is sorted with :func:`sorted_ids`, so results match the reference order.
Taught in ``02_target_scope.ipynb`` ("Order and duplicates").
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["utf16_key", "sorted_ids"]


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
