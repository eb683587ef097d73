"""The checks' fast paths: :func:`fast_target_scope`, :func:`fast_sentinels` and their kin each
return exactly what the exact check of :mod:`helpers.core` would, or ``None`` when they cannot
vouch for the input (see :mod:`helpers.team.fastpath`). Taught in ``05_check_your_data.ipynb``
("How it stays fast and small").
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from itertools import compress

from helpers.core.ordering import sorted_ids
from helpers.core.sentinels import SentinelResult
from helpers.core.target_scope import NeedsStaffLabels, TargetScopeResult
from helpers.team import process_end
from helpers.team.fast_json import _more_than
from helpers.team.key_windows import WINDOW, first_difference

# ``typing`` is not imported at run time (a one-line run does without it); mypy is told this
# constant is true (``always_true`` in pyproject.toml).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    #: ``(line, code, result, error, record)``: one record's outcome (see :mod:`helpers.team.batch`).
    Outcome = tuple[int, int, Any, Any, Any]


#: The result of every preserved rewrite (results are immutable, so one object serves all).
PRESERVED = TargetScopeResult(missing=(), added=())


_TARGET_SCOPE_FIELDS = frozenset(("original", "rewritten", "unresolved", "id", "query", "rewritten_query"))


_SENTINEL_FIELDS = frozenset(("baseline", "proposed", "id"))


def _sorted(ids: Any) -> tuple[str, ...]:
    """:func:`~helpers.core.ordering.sorted_ids` as a tuple; plain ``sorted`` for ASCII-only IDs.

    For ASCII strings code-point order and JavaScript's UTF-16 order agree.
    """
    ids = list(ids)
    if len(ids) < 2:
        return tuple(ids)
    if all(map(str.isascii, ids)):
        ids.sort()
        return tuple(ids)
    return tuple(sorted_ids(ids))


def _valid_ids(ids: Any) -> bool:
    """True when ``ids`` is a list of non-empty strings (what ``require_id_list`` accepts)."""
    if type(ids) is not list:
        return False
    try:
        "".join(ids)
    except TypeError:
        return False
    return "" not in ids


def fast_target_scope(record: Any) -> TargetScopeResult | NeedsStaffLabels | None:
    """:func:`~helpers.core.target_scope.check_target_scope_input` for a well-formed record, else ``None``.

    Accepts only a ``dict`` with list-of-string fields and, when present, a
    string ``id`` and ``query``, so the record is one the exact parser reads the same way.

    Taught in ``05_check_your_data.ipynb``.
    """
    if type(record) is not dict:
        return None
    original = record.get("original")
    rewritten = record.get("rewritten")
    if type(original) is not list or type(rewritten) is not list:
        return None
    extra = len(record) > 2  # (two keys that are both of these are exactly the required fields)
    if extra and not _TARGET_SCOPE_FIELDS.issuperset(record):
        return None
    if original == rewritten:
        try:  # strings only (joining a list is faster than walking it in Python)
            "".join(original)
        except TypeError:
            return None
        if "" in original:
            return None
        return _held(record) if extra else PRESERVED
    try:
        "".join(original)
        "".join(rewritten)
    except TypeError:
        return None
    before, after = set(original), set(rewritten)
    if "" in before or "" in after:
        return None
    if extra:
        held = _held(record)
        if held is not PRESERVED:
            return held
    if before == after:
        return PRESERVED
    # Usually one ID or none on a side: a list that short is sorted already.
    missing, added = before - after, after - before
    return _result(
        tuple(missing) if len(missing) < 2 else _sorted(missing),
        tuple(added) if len(added) < 2 else _sorted(added),
    )


def _held(record: dict[str, Any]) -> TargetScopeResult | NeedsStaffLabels | None:
    """What a record's optional fields decide once its lists are valid: ``None`` (the exact
    check decides), its unresolved targets held for staff, or :data:`PRESERVED` (go on)."""
    if type(record.get("id", "")) is not str or type(record.get("query", "")) is not str:
        return None
    if "unresolved" in record:
        pending = record["unresolved"]
        if not _valid_ids(pending):
            return None  # including null: the exact check decides what that means
        if pending:
            return NeedsStaffLabels(unresolved=_sorted(set(pending)))
    return PRESERVED


#: Results met before, by their lists: results are immutable, so one object serves every equal one.
_RESULTS: dict[tuple[tuple[str, ...], tuple[str, ...]], TargetScopeResult] = {}


_RESULTS_MAX = 4096


def _result(missing: tuple[str, ...], added: tuple[str, ...]) -> TargetScopeResult:
    """``TargetScopeResult(missing, added)``, shared among equal ones (the same few changes recur
    across a file, and building a frozen dataclass costs about a microsecond)."""
    key = (missing, added)
    found = _RESULTS.get(key)
    if found is None:
        found = TargetScopeResult(missing=missing, added=added)
        if len(_RESULTS) < _RESULTS_MAX:
            _RESULTS[key] = found
    return found


_STRINGS = frozenset((str,))


def fast_answer_key(key: Any, *, json_keys: bool = False) -> bool:
    """True when ``key`` is a ``dict`` of non-empty string IDs to string answers.

    ``json_keys`` says the dict came from parsing JSON, whose object keys are
    always strings, so only the answers need looking at.

    Taught in ``05_check_your_data.ipynb``.
    """
    if type(key) is not dict or not _STRINGS.issuperset(map(type, key.values())):
        return False
    if not json_keys and not _STRINGS.issuperset(map(type, key)):
        return False
    return "" not in key


#: A baseline at least this long is compared by :func:`_differing_in_order`.
_WALK_MIN = 4096


def _looked_up(proposed: dict[str, str], ids: Iterable[str], answers: Iterable[str]) -> list[str]:
    """Those of ``ids`` (baseline IDs, with their ``answers``) whose answer ``proposed`` lacks or changes."""
    # An absent ID reads as None, which never equals a string answer.
    return list(compress(ids, map(operator.ne, map(proposed.get, ids), answers)))


def _differing_in_order(
    baseline: dict[str, str], proposed: dict[str, str], *, window: int = WINDOW
) -> list[str]:
    """The baseline IDs, in the baseline's order, whose answer ``proposed`` lacks or changes.

    Both keys are walked side by side in their own order, ``window`` IDs and answers
    compared at a time as lists. A proposed key is mostly the baseline in the same order
    with a few answers changed, IDs dropped or cases added, and comparing neighbours in
    memory costs a fraction of a hash lookup per ID, which in two million-entry dicts
    is mostly waiting on memory. Where the walk loses step, one lookup each side tells an
    ID dropped from one that was added; if both IDs are in the other key (the order
    differs), or it loses step too often, the rest is looked up ID by ID.
    """
    ids, answers = list(baseline), list(baseline.values())
    theirs, their_answers = list(proposed), list(proposed.values())
    if process_end._linger:
        process_end._lingering["walk"] = (ids, answers, theirs, their_answers)
    ours_left, theirs_left = len(ids), len(theirs)
    differs: list[str] = []
    i = j = 0
    steps = 64 + ours_left // 256  # out-of-step places allowed before the walk gives up
    while i < ours_left:
        if j >= theirs_left or steps <= 0:
            if i:
                ids, answers = ids[i:], answers[i:]
            return differs + _looked_up(proposed, ids, answers)
        i, j = first_difference(ids, answers, theirs, their_answers, i, j, window)
        if i >= ours_left or j >= theirs_left:
            continue
        sentinel = ids[i]
        steps -= 1
        if sentinel == theirs[j]:  # the same ID, another answer
            differs.append(sentinel)
            i += 1
            j += 1
        elif sentinel not in proposed:  # dropped from the proposed key
            differs.append(sentinel)
            i += 1
        elif theirs[j] not in baseline:  # a case the proposed key added
            j += 1
        else:  # the two keys are in different orders here
            steps = 0
    return differs


def fast_sentinels(baseline: Any, proposed: Any, *, strings: bool = False) -> SentinelResult | None:
    """:func:`~helpers.core.sentinels.check_sentinels` for two well-formed, non-empty keys, else ``None``.

    Only the IDs that differ are sorted; walking the whole baseline in sorted
    order, as the exact function does, yields the same two lists. Long keys are
    compared in their own order first (:func:`_differing_in_order`). ``strings``
    says both are dicts whose IDs and answers are already proved strings
    (:func:`answers_are_strings`), so only an empty ID is looked for.

    Taught in ``05_check_your_data.ipynb``.
    """
    if strings:
        if not baseline or "" in baseline or "" in proposed:
            return None
    elif not baseline or not fast_answer_key(baseline) or not fast_answer_key(proposed):
        return None
    if len(baseline) < _WALK_MIN:
        differs = _looked_up(proposed, baseline, baseline.values())
    else:
        differs = _differing_in_order(baseline, proposed)
    if not differs:
        return SentinelResult(missing=(), changed=())
    missing = [sentinel for sentinel in differs if sentinel not in proposed]
    changed = [sentinel for sentinel in differs if sentinel in proposed] if missing else differs
    return SentinelResult(missing=_sorted(missing), changed=_sorted(changed))


def fast_sentinels_input(record: Any) -> SentinelResult | None:
    """:func:`~helpers.core.sentinels.check_sentinels_input` for a well-formed record, else ``None``.

    Taught in ``05_check_your_data.ipynb``.
    """
    return fast_sentinels_text(record, None)


def fast_sentinels_text(record: Any, text: bytes | None) -> SentinelResult | None:
    """:func:`fast_sentinels_input` for a record parsed (strictly: no key repeated) from the JSON
    ``text``, whose bytes may prove every ID and answer a string at once (:func:`answers_are_strings`).
    """
    if type(record) is not dict or not _SENTINEL_FIELDS.issuperset(record):
        return None
    if "id" in record and type(record["id"]) is not str:
        return None
    if "baseline" not in record or "proposed" not in record:
        return None
    baseline, proposed = record["baseline"], record["proposed"]
    strings = (
        text is not None
        and type(baseline) is dict
        and type(proposed) is dict
        and len(text) >= _PROOF_MIN
        and answers_are_strings(text, record)
    )
    return fast_sentinels(baseline, proposed, strings=strings)


#: A sentinel record's text at least this long is proved all strings by :func:`answers_are_strings`
#: (shorter ones are looked at value by value, which costs less than the scans of the text).
_PROOF_MIN = 1 << 16


def answers_are_strings(text: bytes, record: dict[str, Any]) -> bool:
    """True when the JSON ``text`` of ``record`` (parsed strictly: no key repeated) proves every
    value of the objects in it a string, from its bytes alone.

    With no backslash and no ``[`` in the text, and exactly one ``{`` for the record and for each
    object in it, nothing in those objects is an array or an object, and every ``"`` opens or
    closes a string. Each string of the text is one key or one value of the record (none was
    dropped), so when the text holds two quotes for every key, every string value of the record
    and every value of its objects, none of those values is a number, ``true``, ``false`` or
    ``null``. Object keys are always strings. Scans of the bytes (three at ``memchr``'s speed and
    a count of the quotes) stand in for a look at each of millions of values.
    ``tests/team/test_batch.py`` tries it on every kind of value.
    """
    if b"\\" in text or b"[" in text:
        return False
    objects = [value for value in record.values() if type(value) is dict]
    # Parsing found 1 + len(objects) objects, so the text holds at least that many braces.
    if _more_than(text, (b"{",), 1 + len(objects)):
        return False
    strings = len(record) + sum(type(value) is str for value in record.values()) + 2 * sum(map(len, objects))
    return text.count(b'"') == 2 * strings


#: Each check's fast path, by the check's name (as :data:`helpers.core.checks.CHECKS`).
FAST_CHECKS: dict[str, Callable[[Any], Any]] = {
    "target-scope": fast_target_scope,
    "sentinels": fast_sentinels_input,
}
