"""Look-alike forms of a word, one kind at a time, for the case generators.

For each kind of :data:`~helpers.trainee.cases.deciding_rule.FACETS` (case, outer
and no-break spaces, decomposed Unicode, zero-width, full-width and other-script
letters), the strings that differ from a word by that kind alone, checked with
:func:`~helpers.trainee.cases.deciding_rule.lookalike_kinds`. Standard library only.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import random
import unicodedata
from collections.abc import Mapping

from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.deciding_rule import CONFUSABLES

__all__ = ["HOW", "HOMOGLYPH_WEIGHTS", "forms", "can_form", "formable", "lookalike"]

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


#: How often each look-alike letter is drawn, as real spoofed text has them: the lower-case Cyrillic
#: letters that match Latin ones exactly (а е о р с у х і) far most often, then the other common
#: Cyrillic and Greek ones, and every other letter of :data:`CONFUSABLES` still now and then.
HOMOGLYPH_WEIGHTS: Mapping[str, int] = {
    **{letter: 1 for letter in CONFUSABLES},
    **{letter: 4 for letter in "\u0410\u0415\u041e\u0420\u0421\u0425\u0458\u0455\u03bf\u03b9\u0391\u039f"},
    **{letter: 24 for letter in "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456"},
}


@functools.lru_cache(maxsize=4096)
def _form_weights(word: str, facet: str) -> tuple[int, ...] | None:
    """Each of ``forms(word, facet)``'s weight (the letter it puts in), or None to draw them evenly."""
    if facet != "homoglyph":
        return None
    return tuple(
        HOMOGLYPH_WEIGHTS[next(c for c, d in zip(form, word, strict=True) if c != d)]
        for form in forms(word, facet)
    )


def lookalike(word: str, facet: str, rng: random.Random) -> str:
    """One of :func:`forms`, drawn with ``rng``: look-alike letters by :data:`HOMOGLYPH_WEIGHTS`, others evenly."""
    weights = _form_weights(word, facet)
    if weights is None:
        return rng.choice(forms(word, facet))
    return rng.choices(forms(word, facet), weights=weights)[0]
