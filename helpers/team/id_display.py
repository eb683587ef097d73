"""How an ID is shown in a report: the notebooks' visible notation in text, exact values in JSON.

Text summaries show every ID with :func:`helpers.core.chardiff.visible_id`, so a
Cyrillic ``Т`` reads ``⟨U+0422⟩`` and a trailing space ``·``: two different IDs
never look the same. A qrels judgement, whose ID is the pair ``["q1","d7"]``
(:func:`helpers.team.key_formats.pair_id`), reads as the team's file writes it:
``q1 d7`` in text, ``{"query": "q1", "doc": "d7"}`` in JSON. Taught in
``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers.core.chardiff import visible_id

__all__ = [
    "PAIR_FORMATS",
    "SHOWN_LENGTH",
    "split_pair",
    "id_text",
    "ids_text",
    "id_json",
    "ids_json",
]

#: Key formats whose every ID is a (query, document) pair; a Parquet key is one when given two ID columns.
PAIR_FORMATS = frozenset({"trec-qrels", "beir-tsv"})
#: How many characters of a long ID a text summary shows before ``…``.
SHOWN_LENGTH = 60


def split_pair(ident: str) -> tuple[str, str] | None:
    """``("q1", "d7")`` for the pair ID ``["q1","d7"]``; ``None`` for any other string.

    >>> split_pair('["q1","d7"]'), split_pair("d7")
    (('q1', 'd7'), None)
    """
    if not (ident.startswith('["') and ident.endswith('"]')):
        return None
    import json

    try:
        value = json.loads(ident)
    except ValueError:
        return None
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return value[0], value[1]
    return None


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 1] + "…"


def _quoted(ident: str) -> str:
    # inside quotes a space reads as itself (a literal "·" in an ID is already ⟨U+00B7⟩)
    inner = visible_id(ident).replace("·", " ").replace("\\", "\\\\").replace('"', '\\"')
    return f'"{_cut(inner)}"'


def id_text(ident: Any, *, pairs: bool = False) -> str:
    """An ID as a text summary shows it: quoted, in the notebooks' ``⟨U+XXXX⟩`` notation.

    Inside the quotes ``"`` and ``\\`` are escaped and a space is a space, so a trailing
    one shows before the closing quote. With ``pairs``, a qrels judgement reads
    ``q1 d7``, unquoted as in the team's file (a space inside either part shows as ``·``).

    >>> id_text("T04256"), id_text(chr(0x422) + "04256"), id_text("a "), id_text('say "hi"')
    ('"T04256"', '"⟨U+0422⟩04256"', '"a "', '"say \\\\"hi\\\\""')
    >>> id_text('["q1","d 7"]', pairs=True)
    'q1 d·7'
    """
    if not isinstance(ident, str):
        from helpers.core.errors import describe_value

        return describe_value(ident)
    pair = split_pair(ident) if pairs else None
    if pair is None:
        return _quoted(ident)
    return _cut(f"{visible_id(pair[0])} {visible_id(pair[1])}")


def ids_text(ids: Sequence[str], limit: int, *, pairs: bool = False) -> str:
    """The first ``limit`` IDs, comma-separated, then ``and N more``."""
    shown = ", ".join(id_text(i, pairs=pairs) for i in ids[:limit])
    more = len(ids) - limit
    return f"{shown} and {more} more" if more > 0 else shown


def id_json(ident: str, *, pairs: bool = False) -> Any:
    """An ID as JSON output gives it: the exact string, or ``{"query": ..., "doc": ...}`` for a pair.

    >>> id_json('["q1","d7"]', pairs=True), id_json('["q1","d7"]')
    ({'query': 'q1', 'doc': 'd7'}, '["q1","d7"]')
    """
    pair = split_pair(ident) if pairs else None
    return ident if pair is None else {"query": pair[0], "doc": pair[1]}


def ids_json(ids: Sequence[str], *, pairs: bool = False) -> list[Any]:
    """:func:`id_json` of each ID."""
    return [id_json(i, pairs=pairs) for i in ids] if pairs else list(ids)
