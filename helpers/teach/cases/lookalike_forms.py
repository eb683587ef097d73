"""Look-alike forms of a word, one kind at a time, for the case generators.

For each kind of :data:`~helpers.teach.cases.deciding_rule.FACETS` (case, outer
and no-break spaces, decomposed Unicode, zero-width, full-width and other-script
letters), the strings that differ from a word by that kind alone, checked with
:func:`~helpers.teach.cases.deciding_rule.lookalike_kinds`. Standard library only.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import random
import unicodedata

from . import deciding_rule as keyed
from .deciding_rule import CONFUSABLES

__all__ = ["HOW", "forms", "can_form", "formable", "lookalike"]

_ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")
_NO_BREAK = "\u00a0"
#: Each Latin letter and the Cyrillic or Greek letters that look like it.
_HOMOGLYPHS: dict[str, list[str]] = {}
for _other, _latin in CONFUSABLES.items():
    _HOMOGLYPHS.setdefault(_latin, []).append(_other)

#: How each kind of look-alike is described in a reason.
HOW = {
    "case": "a change of case",
    "outer-space": "a space at one end",
    "no-break-space": "a no-break space (U+00A0)",
    "nfd": "the same letters in decomposed Unicode form",
    "zero-width": "an invisible zero-width character",
    "full-width": "a full-width character",
    "homoglyph": "a look-alike letter from another script",
}


@functools.lru_cache(maxsize=8192)
def forms(word: str, facet: str) -> tuple[str, ...]:
    """Strings that differ from ``word`` by ``facet`` alone (may be empty); kept, as cases ask again and again."""
    found: list[str] = []
    if facet == "case":
        parts = word.split("-")
        found = [
            word.capitalize(),
            word.upper(),
            word.lower(),
            word.swapcase(),
            "-".join(p.capitalize() for p in parts),
        ]
    elif facet == "outer-space":
        found = [word + " ", " " + word, word + "  "]
    elif facet == "no-break-space":
        inner = [i for i, c in enumerate(word) if c == " "]
        found = [word[:i] + _NO_BREAK + word[i + 1 :] for i in inner] or [word + _NO_BREAK, _NO_BREAK + word]
    elif facet == "nfd":
        found = [unicodedata.normalize("NFD", word)]
    elif facet == "zero-width":
        found = [word[:i] + z + word[i:] for i in range(1, len(word)) for z in _ZERO_WIDTH]
    elif facet == "full-width":
        spots = [i for i, c in enumerate(word) if "!" <= c <= "~"]
        found = [word[:i] + chr(ord(word[i]) + 0xFEE0) + word[i + 1 :] for i in spots]
        if spots:
            found.append("".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in word))
    elif facet == "homoglyph":
        found = [word[:i] + h + word[i + 1 :] for i, c in enumerate(word) for h in _HOMOGLYPHS.get(c, [])]
    return tuple(f for f in dict.fromkeys(found) if f != word and keyed.lookalike_kinds(word, f) == (facet,))


def can_form(word: str, facet: str) -> bool:
    """Whether ``word`` has a look-alike of kind ``facet``."""
    return bool(forms(word, facet))


@functools.lru_cache(maxsize=256)
def formable(words: tuple[str, ...], facet: str) -> tuple[str, ...]:
    """The words that have a look-alike of kind ``facet``, in their order (kept: every such case asks)."""
    return tuple(w for w in words if can_form(w, facet))


def lookalike(word: str, facet: str, rng: random.Random) -> str:
    """One of :func:`forms`, drawn with ``rng``."""
    return rng.choice(forms(word, facet))
