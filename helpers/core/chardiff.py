"""Character-level diffs of literal answers, with invisible changes made visible.

A sentinel answer is compared literally, so a trailing space, a changed case
or a zero-width character is a change. These functions show exactly which
characters differ. Taught in ``03_sentinel_answer_key.ipynb`` ("Seeing a
changed answer").
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "char_name",
    "DiffPiece",
    "char_diff",
    "visible",
    "visible_id",
    "visible_text",
    "diff_text",
    "describe_change",
]

_SHOWN_AS = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}


@dataclass(frozen=True)
class DiffPiece:
    """A run of characters that is equal in both, only in the old, or only in the new."""

    kind: Literal["equal", "delete", "insert"]
    text: str


def _is_plain(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LNPS" and char not in _SHOWN_AS


#: What to call a character Unicode gives no name, by its category.
_UNNAMED = {"Cc": "a control character", "Cs": "a lone surrogate", "Co": "a private-use character"}


def char_name(char: str) -> str:
    """``U+000A`` and the character's Unicode name, or what it is when it has none.

    >>> char_name(chr(0x200B)), char_name(chr(10))
    ('U+200B ZERO WIDTH SPACE', 'U+000A a control character')
    """
    name = unicodedata.name(char, "") or _UNNAMED.get(unicodedata.category(char), "an unnamed character")
    return f"U+{ord(char):04X} {name}"


def visible(text: str) -> str:
    """Render ``text`` so spaces, tabs, newlines and invisible characters show.

    Spaces become ``·``, tabs ``→``, newlines ``↵``; any other character that is
    not a letter, digit, punctuation or symbol becomes ``⟨U+XXXX⟩``.
    """
    out = []
    for char in text:
        if char in _SHOWN_AS:
            out.append(_SHOWN_AS[char])
        elif _is_plain(char):
            out.append(char)
        else:
            out.append(f"⟨U+{ord(char):04X}⟩")
    return "".join(out)


#: Characters of the notation itself, written as code points inside an ID so the notation stays unambiguous.
_NOTATION = frozenset("·⟨⟩")
#: Scripts whose letters look like Latin ones (``а`` U+0430 is not ``a``).
_CONFUSABLE_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "LISU", "VAI")


def _code_point(char: str) -> str:
    return f"⟨U+{ord(char):04X}⟩"


def _shows_as_itself(char: str, *, prose: bool) -> bool:
    """Whether ``char`` can be shown as itself without looking like another character."""
    point = ord(char)
    if 0x21 <= point <= 0x7E:
        return True
    if char in _NOTATION:
        return prose
    category = unicodedata.category(char)
    if category[0] not in "LNPS":
        return False
    # In prose "…" or "™" is fine; a full-width or compatibility letter never is.
    prose_symbol = prose and category[0] in "PS" and not 0xFF00 <= point <= 0xFFEF
    if unicodedata.normalize("NFKC", char) != char and not prose_symbol:
        return False
    name = unicodedata.name(char, "")
    if name.startswith(_CONFUSABLE_SCRIPTS):
        return False
    if category[0] == "P":
        return prose  # a non-ASCII hyphen or quote in an ID looks like the ASCII one
    if name.startswith("LATIN"):
        # é (one precomposed character) is fine; ı or ꞵ look like ASCII letters
        return len(unicodedata.normalize("NFD", char)) > 1
    return True


def visible_id(text: str) -> str:
    """An ID as one visible, unambiguous string: two different IDs never look the same.

    Spaces become ``·``; invisible, space-like, combining and look-alike characters
    (and lone surrogates) become ``⟨U+XXXX⟩``. Taught in ``03_sentinel_answer_key.ipynb``
    ("Seeing a changed answer") and used for every ID the notebooks show.

    >>> visible_id("pay" + chr(0x200B) + "roll"), visible_id("cafe" + chr(0x301) + "-1"), visible_id("café-1")
    ('pay⟨U+200B⟩roll', 'cafe⟨U+0301⟩-1', 'café-1')
    >>> visible_id("refresher "), visible_id(chr(0xFF50) + "ayroll"), visible_id(chr(0xD800))
    ('refresher·', '⟨U+FF50⟩ayroll', '⟨U+D800⟩')
    """
    if text.isascii() and text.isprintable():  # printable ASCII shows as itself, but for the space
        return text.replace(" ", "·")
    return "".join(
        "·" if char == " " else char if _shows_as_itself(char, prose=False) else _code_point(char)
        for char in text
    )


def visible_text(text: str) -> str:
    """Prose (a title, a reason, a JSON string) with the same notation, spaces kept as spaces.

    >>> visible_text("Both read pay" + chr(0x200B) + "roll, twice")
    'Both read pay⟨U+200B⟩roll, twice'
    """
    if text.isascii() and text.isprintable():  # printable ASCII, the space included, shows as itself
        return text
    return "".join(
        char if char == " " or _shows_as_itself(char, prose=True) else _code_point(char) for char in text
    )


def char_diff(old: str, new: str) -> list[DiffPiece]:
    """Split ``old`` → ``new`` into equal, deleted and inserted runs of characters."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    pieces: list[DiffPiece] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pieces.append(DiffPiece("equal", old[i1:i2]))
            continue
        if i2 > i1:
            pieces.append(DiffPiece("delete", old[i1:i2]))
        if j2 > j1:
            pieces.append(DiffPiece("insert", new[j1:j2]))
    return pieces


def diff_text(old: str, new: str) -> str:
    """A one-line plain-text diff: ``[-removed-]{+added+}``, characters made visible.

    >>> diff_text("R", "S")
    '[-R-]{+S+}'
    >>> diff_text("yes", "yes ")
    'yes{+·+}'
    """
    marks = {"equal": "{}", "delete": "[-{}-]", "insert": "{{+{}+}}"}
    return "".join(marks[p.kind].format(visible(p.text)) for p in char_diff(old, new))


def describe_change(old: str, new: str) -> list[str]:
    """Name each changed character that would be hard to see, e.g. a zero-width space."""
    notes = []
    for piece in char_diff(old, new):
        if piece.kind == "equal":
            continue
        verb = "removed" if piece.kind == "delete" else "added"
        for char in piece.text:
            if not _is_plain(char):
                notes.append(f"{char_name(char)} {verb}")
    return notes
