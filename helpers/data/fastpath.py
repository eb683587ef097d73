"""Fast paths for well-formed input, each one equal to the exact function it stands in for.

The exact functions are the definition: :func:`helpers.core.jsonio.loads_strict`,
:func:`helpers.core.target_scope.check_target_scope_input` and
:func:`helpers.core.sentinels.check_sentinels`. Checking a million records through
them spends most of its time on Python-level loops, so the batch runner first
tries the functions here. Each one either returns exactly what the exact
function would return, or ``None`` ("cannot vouch for this input"), and the
caller then uses the exact function. Bad input therefore always gets the exact
error message, and a fast path can never turn bad input into a pass.
``tests/data/test_batch.py`` compares both routes on random input.

Strict JSON, fast. ``orjson`` parses about four times faster than the standard
library, but silently keeps the last of two equal keys in an object.
:func:`loads_fast` still refuses duplicate keys, by counting. In JSON text
every ``:`` outside a string separates one key from its value, so::

    colons in the text = members written in the text + colons inside strings

Walking the parsed value gives the members that survived parsing plus the
colons in the strings that survived. A duplicate key drops at least one
member, so the two counts agree exactly when no key was repeated, provided no
string spells a colon as the escape ``\\u003a`` (such text is left to the
exact parser). Most records need no walk at all: when the text holds exactly
as many colons as the top-level object has keys, no member can be missing.

Numbers are the one place ``orjson`` differs from the standard library (it
reads integers beyond 64 bits as floats). Valid check input holds only
strings, so callers use a fast value only when the fast check accepts it, and
re-read anything else with the exact parser.

Taught in ``05_check_your_data.ipynb`` ("How it stays fast and small").
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from itertools import compress, count
from typing import Any

from ..core.jsonio import MAX_NESTING, dumps_compact
from ..core.ordering import sorted_ids
from ..core.sentinels import SentinelResult
from ..core.target_scope import NeedsStaffLabels, TargetScopeResult

_orjson: Any
try:  # orjson is pinned in requirements.txt; without it every input takes the exact route.
    import orjson as _orjson
except ImportError:  # pragma: no cover - exercised by forcing FAST_JSON off in the tests
    _orjson = None

__all__ = [
    "FAST_JSON",
    "FAST_CHECKS",
    "ORJSON_LOADS",
    "ORJSON_ERROR",
    "verified",
    "PRESERVED",
    "loads_fast",
    "DEEP_TEXT_MIN",
    "may_nest_too_deep",
    "members_and_colons",
    "fast_target_scope",
    "fast_sentinels",
    "fast_sentinels_input",
    "fast_answer_key",
    "dumps_line",
]

#: Whether the ``orjson`` fast path is available.
FAST_JSON: bool = _orjson is not None

#: ``orjson.loads`` and the error it raises, or ``None`` and ``ValueError`` without it
#: (for a loop that inlines :func:`loads_fast`; it must call :func:`verified` after).
ORJSON_LOADS: Callable[[bytes], Any] | None = _orjson.loads if _orjson is not None else None
ORJSON_ERROR: type[Exception] = _orjson.JSONDecodeError if _orjson is not None else ValueError

#: The result of every preserved rewrite (results are immutable, so one object serves all).
PRESERVED = TargetScopeResult(missing=(), added=())

_TARGET_SCOPE_FIELDS = frozenset(("original", "rewritten", "unresolved", "id", "query", "rewritten_query"))
_SENTINEL_FIELDS = frozenset(("baseline", "proposed", "id"))


def members_and_colons(value: Any) -> int:
    """Object members plus ``:`` characters in every string (keys included) within ``value``.

    Taught in ``05_check_your_data.ipynb``.
    """
    kind = type(value)
    if kind is str:
        return value.count(":")
    if kind is dict:
        total = len(value) + "".join(value).count(":")
        try:
            return total + "".join(value.values()).count(":")
        except TypeError:
            return total + sum(map(members_and_colons, value.values()))
    if kind is list:
        try:
            return "".join(value).count(":")
        except TypeError:
            return sum(map(members_and_colons, value))
    return 0


#: Valid JSON nested more than :data:`~helpers.core.jsonio.MAX_NESTING` deep is longer than this.
DEEP_TEXT_MIN = 2 * MAX_NESTING


def may_nest_too_deep(data: bytes) -> bool:
    """True when ``data`` is long enough and holds enough brackets to nest more than
    ``MAX_NESTING`` deep.

    The exact reader refuses such text, and ``orjson`` (whose own limit is 1,024 levels)
    would read it, so every fast route declines it. Almost every line is shorter than
    :data:`DEEP_TEXT_MIN`, so the batch writer's inlined reader tests that first itself.
    """
    return len(data) > DEEP_TEXT_MIN and data.count(b"[") + data.count(b"{") > MAX_NESTING


def loads_fast(data: bytes) -> Any | None:
    """Parse JSON ``data`` with ``orjson``; ``None`` unless it is valid and repeats no key.

    ``None`` means "use :func:`helpers.core.jsonio.loads_strict`": for invalid text,
    a repeated key, a colon written as ``\\u003a``, text with more than
    :data:`~helpers.core.jsonio.MAX_NESTING` brackets, or when ``orjson`` is not
    installed. Numbers beyond 64 bits come back as floats (see the module notes).

    Taught in ``05_check_your_data.ipynb``.
    """
    if _orjson is None:
        return None
    if may_nest_too_deep(data):
        return None
    try:
        value = _orjson.loads(data)
    except _orjson.JSONDecodeError:
        return None
    colons = data.count(b":")
    if colons == 0 or (type(value) is dict and colons == len(value)):
        return value
    return verified(data, value, colons)


def verified(data: bytes, value: Any, colons: int) -> Any | None:
    """``value``, which ``orjson`` parsed from ``data`` (holding ``colons`` colons), if no key
    was repeated; else ``None``. The second half of :func:`loads_fast`, which needs no second parse.

    Any count ``L`` of parsed members is at most the members written, which are at most the
    colons: so ``colons == L`` proves no member was lost, and no string holds a colon. The
    members of the object and of the objects directly in it are counted first, without
    looking at a string (a sentinel record of two million-ID keys is cleared this way).
    """
    if type(value) is dict:
        members = len(value)
        for item in value.values():
            if type(item) is dict:
                members += len(item)
        if members == colons:
            return value
    if b"\\" in data and (b"\\u003a" in data or b"\\u003A" in data):
        return None
    try:
        counted = members_and_colons(value)
    except RecursionError:
        return None
    return value if counted == colons else None


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

#: How many IDs :func:`_differing_in_order` compares at a time.
_WINDOW = 1024


def _looked_up(proposed: dict[str, str], ids: Iterable[str], answers: Iterable[str]) -> list[str]:
    """Those of ``ids`` (baseline IDs, with their ``answers``) whose answer ``proposed`` lacks or changes."""
    # An absent ID reads as None, which never equals a string answer.
    return list(compress(ids, map(operator.ne, map(proposed.get, ids), answers)))


def _differing_in_order(
    baseline: dict[str, str], proposed: dict[str, str], *, window: int = _WINDOW
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
    ours_left, theirs_left = len(ids), len(theirs)
    differs: list[str] = []
    i = j = 0
    steps = 64 + ours_left // 256  # out-of-step places allowed before the walk gives up
    while i < ours_left:
        if j >= theirs_left or steps <= 0:
            if i:
                ids, answers = ids[i:], answers[i:]
            return differs + _looked_up(proposed, ids, answers)
        size = min(window, ours_left - i, theirs_left - j)
        mine, other = ids[i : i + size], theirs[j : j + size]
        said, told = answers[i : i + size], their_answers[j : j + size]
        if mine == other and said == told:
            i += size
            j += size
            continue
        # The first place in this window where the IDs or the answers differ.
        first = next(
            compress(count(), map(operator.or_, map(operator.ne, mine, other), map(operator.ne, said, told)))
        )
        i += first
        j += first
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


def fast_sentinels(baseline: Any, proposed: Any) -> SentinelResult | None:
    """:func:`~helpers.core.sentinels.check_sentinels` for two well-formed, non-empty keys, else ``None``.

    Only the IDs that differ are sorted; walking the whole baseline in sorted
    order, as the exact function does, yields the same two lists. Long keys are
    compared in their own order first (:func:`_differing_in_order`).

    Taught in ``05_check_your_data.ipynb``.
    """
    if not baseline or not fast_answer_key(baseline) or not fast_answer_key(proposed):
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
    if type(record) is not dict or not _SENTINEL_FIELDS.issuperset(record):
        return None
    if "id" in record and type(record["id"]) is not str:
        return None
    if "baseline" not in record or "proposed" not in record:
        return None
    return fast_sentinels(record["baseline"], record["proposed"])


def _dumps_orjson(value: Any) -> bytes | None:
    try:
        return _orjson.dumps(value)
    except TypeError:  # a lone surrogate cannot be encoded as UTF-8
        return None


def dumps_line(value: Any) -> bytes:
    """:func:`~helpers.core.jsonio.dumps_compact` encoded as UTF-8, faster with ``orjson``.

    For what results and error objects are made of (dicts, lists, strings,
    booleans, integers, ``None``) ``orjson`` writes the same bytes; callers
    never pass floats. A lone surrogate or a huge integer goes the exact way.

    Taught in ``05_check_your_data.ipynb``.
    """
    if _orjson is not None:
        data = _dumps_orjson(value)
        if data is not None:
            return data
    return dumps_compact(value).encode("utf-8")


#: Each check's fast path, by the check's name (as :data:`helpers.core.checks.CHECKS`).
FAST_CHECKS: dict[str, Callable[[Any], Any]] = {
    "target-scope": fast_target_scope,
    "sentinels": fast_sentinels_input,
}
