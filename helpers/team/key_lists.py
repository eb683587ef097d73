"""Big ``.json`` answer keys compared as lists of IDs and answers, without a dict of either key.

Reading a million-entry JSON object into a ``dict`` costs most of the check: hashing and
inserting each ID, and one string object per answer. When the bytes of a key prove it a
flat object of string answers (:func:`flat_key_lists`), the object is parsed instead as a
flat JSON array, which the standard library's parser reads several times faster and with
one shared object for each one-character answer. The proposed key is then walked beside
the baseline in their own order (:func:`compare_key_lists`), with one set of the baseline's
IDs for the places where they part. Two files are checked so by :mod:`helpers.team.json_keys`,
and one long sentinel record by :func:`check_sentinel_record_text`. Anything these proofs
cannot vouch for (an escape, a nested value, a repeated ID, keys in different orders) returns
``None``, and the caller reads the keys the exact way (:mod:`helpers.team.answer_keys`), which
names what is wrong.

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import json

from helpers.core.errors import CheckInputError
from helpers.core.jsonio import loads_strict
from helpers.core.ordering import sorted_ids
from helpers.core.sentinels import SentinelResult
from helpers.team.key_windows import WINDOW, first_difference

__all__ = [
    "KEY_LISTS_MIN",
    "KeyComparison",
    "check_sentinel_record_text",
    "compare_key_lists",
    "flat_key_lists",
]

#: A key text at least this long is tried as lists (shorter ones cost little either way).
KEY_LISTS_MIN = 1 << 16

_BOM = b"\xef\xbb\xbf"
_AS_ARRAY = bytes.maketrans(b"{}:", b"[],")


def flat_key_lists(data: bytes) -> tuple[list[str], list[str]] | None:
    """The IDs and the answers, in the key's order, of the JSON object ``data`` (UTF-8, a BOM
    allowed), when its bytes prove it a flat object of string answers; else ``None``.

    The proof: with no backslash, no ``[`` or ``]``, one ``{``, one ``}``, ``m`` colons and
    ``m - 1`` commas, the text is rewritten ``{`` → ``[``, ``}`` → ``]``, ``,`` → ``,null,`` and
    ``:`` → ``,``, and parsed strictly. If that gives a flat array of ``3m - 1`` items whose every
    third item is ``null``, and ``data`` holds ``4m`` quotes (``2m`` strings, each an item, so the
    other items are strings), then every comma of the rewritten text
    separates items (there are exactly as many as the items need), so no colon, comma or brace
    of ``data`` was inside a string and no string changed; each ``null`` sits between the two
    commas its own comma became, so the colons and commas of ``data`` alternate: ``data`` is the
    object ``{id: answer, ...}`` of those strings, in that order. Repeated IDs are not looked for
    here. ``tests/team/test_key_lists.py`` checks this against the exact reader on random keys.
    """
    if data[:3] == _BOM:
        data = data[3:]
    if b"\\" in data or b"[" in data or b"]" in data:
        return None
    opening, closing = data.find(b"{"), data.find(b"}")
    if opening < 0 or closing < 0 or data.find(b"{", opening + 1) >= 0 or data.find(b"}", closing + 1) >= 0:
        return None
    colons = data.count(b":")
    if colons == 0 or data.count(b",") != colons - 1 or data.count(b'"') != 4 * colons:
        return None
    try:
        text = data.replace(b",", b",null,").translate(_AS_ARRAY).decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        items = json.loads(text)
    except ValueError:  # not JSON, or a number too long to read
        return None
    del text
    if type(items) is not list or len(items) != 3 * colons - 1:
        return None
    gaps = items[2::3]
    if gaps.count(None) != len(gaps):
        return None
    del gaps
    # The items are 2m strings and m - 1 nulls: the text's 4m quotes make 2m strings, each an item.
    ids, answers = items[0::3], items[1::3]
    return ids, answers


class KeyComparison:
    """What :func:`compare_key_lists` found: the result, how many proposed IDs are new, and the
    two answers of each changed sentinel. Taught in ``05_check_your_data.ipynb``."""

    __slots__ = ("changed_answers", "new_ids", "result")

    def __init__(self, result: SentinelResult, new_ids: int, changed_answers: dict[str, tuple[str, str]]):
        self.result = result
        self.new_ids = new_ids
        self.changed_answers = changed_answers


def compare_key_lists(
    ids: list[str],
    answers: list[str],
    their_ids: list[str],
    their_answers: list[str],
    *,
    window: int = WINDOW,
) -> KeyComparison | None:
    """The sentinel check of a baseline (``ids`` with their ``answers``) against a proposed key
    (``their_ids``, ``their_answers``), each in its own order; ``None`` unless the baseline's IDs
    are distinct and non-empty, the proposed key's are distinct and non-empty, and the two keys
    keep one order wherever they share IDs (or lose step rarely).

    Both are walked side by side, ``window`` IDs and answers compared at a time. Where they part,
    a proposed ID the baseline lacks is new; the same ID is a changed answer; otherwise the
    baseline's ID is taken as missing. Each proposed ID is thus either matched to a baseline ID
    further on than the last, or proved absent from the baseline; so the matched ones are
    distinct (the baseline's are), and a baseline ID taken as missing cannot be in the proposed
    key (it would have been matched to it). The new IDs are checked distinct among themselves.
    A tail of proposed IDs past the baseline's end must all be new. Taught in
    ``05_check_your_data.ipynb``.
    """
    baseline = set(ids)
    if not ids or len(baseline) != len(ids) or "" in baseline:
        return None
    ours_left, theirs_left = len(ids), len(their_ids)
    missing: list[str] = []
    changed: list[str] = []
    added: list[str] = []
    found: dict[str, tuple[str, str]] = {}
    i = j = 0
    steps = 64 + ours_left // 256  # out-of-step places allowed before the walk gives up
    while i < ours_left and j < theirs_left:
        if steps <= 0:
            return None
        i, j = first_difference(ids, answers, their_ids, their_answers, i, j, window)
        if i >= ours_left or j >= theirs_left:
            break
        sentinel, theirs = ids[i], their_ids[j]
        steps -= 1
        if sentinel == theirs:  # the same ID, another answer
            changed.append(sentinel)
            found[sentinel] = (answers[i], their_answers[j])
            i += 1
            j += 1
        elif theirs not in baseline:  # a case the proposed key added
            added.append(theirs)
            j += 1
        else:  # the baseline's ID is not here: missing, if the keys keep one order
            missing.append(sentinel)
            i += 1
    if i < ours_left:
        missing += ids[i:]
    elif j < theirs_left:
        tail = their_ids[j:]
        if not baseline.isdisjoint(tail):
            return None
        added += tail
    new = set(added)
    if len(new) != len(added) or "" in new:
        return None
    result = SentinelResult(missing=tuple(sorted_ids(missing)), changed=tuple(sorted_ids(changed)))
    return KeyComparison(result, len(added), found)


def check_sentinel_record_text(text: bytes) -> tuple[dict[str, str], SentinelResult] | None:
    """The sentinel check of one JSON Lines record ``{"baseline": {...}, "proposed": {...}}``
    given as its bytes, as lists (:func:`flat_key_lists`, :func:`compare_key_lists`): the record's
    carried fields (its ``id``, if it has one) and the result; ``None`` when the bytes do not
    prove the record two flat keys, or the walk cannot vouch for them (the caller reads the
    record the exact way).

    The proof: with no ``[``, ``]`` or backslash and exactly three ``{`` and three ``}``, in the
    order ``{ { } { } }``, the two inner spans are each proved a flat key, and the text with each
    span cut to ``{}`` is parsed strictly. That parse needs three objects, so every brace is
    structural and each ``{}`` stands where a value does: putting the spans back gives the
    record, with those keys as the values of its fields. Taught in ``05_check_your_data.ipynb``.
    """
    if b"\\" in text or b"[" in text or b"]" in text:
        return None
    opens = _three(text, b"{")
    closes = _three(text, b"}")
    if opens is None or closes is None:
        return None
    (_, first, second), (first_end, second_end, _) = opens, closes
    if not first < first_end < second < second_end:
        return None
    skeleton = text[:first] + b"{}" + text[first_end + 1 : second] + b"{}" + text[second_end + 1 :]
    try:
        record = loads_strict(skeleton.decode("utf-8"))
    except (UnicodeDecodeError, CheckInputError):
        return None
    if type(record) is not dict or not _RECORD_FIELDS.issuperset(record):
        return None
    if "baseline" not in record or "proposed" not in record or type(record.get("id", "")) is not str:
        return None
    if record["baseline"] != {} or record["proposed"] != {}:
        return None
    spans = (text[first : first_end + 1], text[second : second_end + 1])
    if next(name for name in record if name != "id") == "proposed":
        spans = spans[::-1]
    ours = flat_key_lists(spans[0])
    theirs = flat_key_lists(spans[1]) if ours is not None else None
    del spans
    if ours is None or theirs is None:
        return None
    compared = compare_key_lists(*ours, *theirs)
    if compared is None:
        return None
    carried = {"id": record["id"]} if "id" in record else {}
    return carried, compared.result


_RECORD_FIELDS = frozenset(("baseline", "proposed", "id"))


def _three(text: bytes, mark: bytes) -> tuple[int, int, int] | None:
    """The places of ``mark`` in ``text`` when it occurs exactly three times; else ``None``."""
    one = text.find(mark)
    two = text.find(mark, one + 1) if one >= 0 else -1
    three = text.find(mark, two + 1) if two >= 0 else -1
    if three < 0 or text.find(mark, three + 1) >= 0:
        return None
    return one, two, three
