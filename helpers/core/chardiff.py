"""Character-level diffs of literal answers, with invisible changes made visible.

A sentinel answer is compared literally, so a trailing space, a changed case
or a zero-width character is a change. These functions show exactly which
characters differ. Taught in ``03_sentinel_answer_key.ipynb`` ("Seeing a
changed answer").
"""

from __future__ import annotations

import difflib
import html
import unicodedata
from dataclasses import dataclass
from typing import Literal

__all__ = ["DiffPiece", "char_diff", "visible", "diff_text", "diff_html", "describe_change"]

_SHOWN_AS = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}


@dataclass(frozen=True)
class DiffPiece:
    """A run of characters that is equal in both, only in the old, or only in the new."""

    kind: Literal["equal", "delete", "insert"]
    text: str


def _is_plain(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LNPS" and char not in _SHOWN_AS


def _name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


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
                notes.append(f"{_name(char)} {verb}")
    return notes


def diff_html(old: str, new: str) -> str:
    """The diff as escaped HTML with ``<del>`` and ``<ins>`` runs."""
    tags = {"equal": ("", ""), "delete": ("<del>", "</del>"), "insert": ("<ins>", "</ins>")}
    parts = []
    for piece in char_diff(old, new):
        start, end = tags[piece.kind]
        parts.append(f"{start}{html.escape(visible(piece.text))}{end}")
    return f'<code class="chardiff">{"".join(parts)}</code>'
