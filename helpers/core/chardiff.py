"""Character-level diffs of literal answers, with invisible changes made visible.

A sentinel answer is compared literally, so a trailing space, a changed case
or a zero-width character is a change. These functions show exactly which
characters differ. Taught in ``03_sentinel_answer_key.ipynb`` ("Seeing a
changed answer").
"""

from __future__ import annotations

import difflib
import re
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
    "BLANK_LOOKING",
    "shows_blank",
    "diff_text",
    "describe_change",
]

_SHOWN_AS = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}


@dataclass(frozen=True)
class DiffPiece:
    """A run of characters that is equal in both, only in the old, or only in the new."""

    kind: Literal["equal", "delete", "insert"]
    text: str


#: Letters and symbols that print as nothing or as a blank. The standard library has no
#: Default_Ignorable_Code_Point or White_Space property, so the notation codes every separator (Z*),
#: other (C*) and mark (M*) character by its category (which covers every White_Space character and
#: every default-ignorable one but these), and lists here the default-ignorable letters the categories
#: miss (the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0) and the blank-looking symbols (the braille
#: blank U+2800 and the null notehead U+1D159). ``tests/core/test_blank_characters.py`` checks the
#: list against Unicode's own Default_Ignorable_Code_Point ranges.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")


def shows_blank(char: str) -> bool:
    """Whether ``char`` prints as nothing or as a blank: a separator, an other (control, format,
    unassigned, private-use, surrogate) or mark character, or one of :data:`BLANK_LOOKING`.

    >>> shows_blank(chr(0x3164)), shows_blank(chr(0x3000)), shows_blank(chr(0x34F)), shows_blank("a")
    (True, True, True, False)
    """
    return unicodedata.category(char)[0] in "ZCM" or char in BLANK_LOOKING


def _is_plain(char: str) -> bool:
    return char not in _SHOWN_AS and not shows_blank(char)


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

    Spaces become ``·``, tabs ``→``, newlines ``↵``; any other character that
    :func:`shows_blank` becomes ``⟨U+XXXX⟩``.
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
#: The one notation character prose writes as a code point: every ``⟨`` a reader sees opens an escape
#: (a space stays a space in prose, and a ``⟩`` with no ``⟨`` before it cannot be read as one).
_OPENS_ESCAPE = "⟨"
#: An escape already in text given as ``notated``: a code point (or the placeholder a hint names the
#: notation by, ``⟨U+XXXX⟩``), or a byte that is not UTF-8.
_ESCAPE = re.compile("⟨(?:U\\+(?:[0-9A-F]{4,6}|XXXX)|byte [0-9A-F]{2})⟩")
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
        return prose and char != _OPENS_ESCAPE
    if shows_blank(char):
        return False
    category = unicodedata.category(char)
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


def visible_text(text: str, *, notated: bool = False) -> str:
    """Prose (a title, a reason, a JSON string) with the same notation, spaces kept as spaces.

    A literal ``⟨`` is written ``⟨U+27E8⟩``, so every ``⟨…⟩`` shown is an escape and the shown
    text reads back as the text. ``notated`` text (a message whose IDs are already in the
    notation) keeps its escapes as they are; only its other characters are shown so.

    >>> visible_text("Both read pay" + chr(0x200B) + "roll, twice"), visible_text("⟨U+200B⟩")
    ('Both read pay⟨U+200B⟩roll, twice', '⟨U+27E8⟩U+200B⟩')
    >>> visible_text("⟨U+200B⟩ or " + chr(0x200B), notated=True)
    '⟨U+200B⟩ or ⟨U+200B⟩'
    """
    if text.isascii() and text.isprintable():  # printable ASCII, the space included, shows as itself
        return text
    if notated:
        pieces, end = [], 0
        for escape in _ESCAPE.finditer(text):
            pieces += [visible_text(text[end : escape.start()]), escape.group()]
            end = escape.end()
        return "".join(pieces) + visible_text(text[end:])
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
