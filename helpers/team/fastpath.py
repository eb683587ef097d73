"""Fast paths for well-formed input, each one equal to the exact function it stands in for.

The exact functions are the definition: :func:`helpers.core.jsonio.loads_strict`,
:func:`helpers.core.target_scope.check_target_scope_input` and
:func:`helpers.core.sentinels.check_sentinels`. Checking a million records through
them spends most of its time on Python-level loops, so the batch runner first
tries the functions here. Each one either returns exactly what the exact
function would return, or ``None`` ("cannot vouch for this input"), and the
caller then uses the exact function. Bad input therefore always gets the exact
error message, and a fast path can never turn bad input into a pass.
``tests/team/test_batch.py`` compares both routes on random input.

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

A record's walk from the command line passes through here once: the batch loop
(:func:`helpers.team.batch.check_blocks`) hands a block of raw lines or parsed records
to :class:`Records`, which reads each one (fast, or exactly by
:mod:`helpers.core.jsonio`), checks it (fast, or by the exact check) and writes its
output line (fast, or by :func:`helpers.core.jsonio.dumps_compact`), and hands back
only what the summary counts.

``orjson`` is imported on first use, and only for work that gains from it (a block of
many lines, or a long one), so a run of one short line never loads it.

Taught in ``05_check_your_data.ipynb`` ("How it stays fast and small").
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from itertools import compress, count

from helpers.core.checks import CHECKS
from helpers.core.errors import CheckInputError
from helpers.core.jsonio import MAX_NESTING, dumps_compact, dumps_compact_deep, parse_json_line
from helpers.core.ordering import sorted_ids
from helpers.core.outcomes import CARRIED, EXIT_BAD_INPUT, EXIT_PASS, code_for, output_object
from helpers.core.sentinels import SentinelResult
from helpers.core.target_scope import NeedsStaffLabels, TargetScopeResult

# ``typing`` is not imported at run time (a one-line run does without it); mypy is told this
# constant is true (``always_true`` in pyproject.toml).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    #: ``(line, code, result, error, record)``: one record's outcome (see :mod:`helpers.team.batch`).
    Outcome = tuple[int, int, Any, Any, Any]

#: The ``orjson`` module once imported; ``None`` when it is not installed (or turned off by a
#: test); ``False`` until first use. orjson is pinned in requirements.txt; without it every input
#: takes the exact route.
_orjson: Any = False

__all__ = [  # noqa: F822 - FAST_JSON comes from the module's __getattr__
    "FAST_JSON",
    "FAST_CHECKS",
    "verified",
    "PRESERVED",
    "PRESERVED_LINE",
    "loads_fast",
    "DEEP_TEXT_MIN",
    "may_nest_too_deep",
    "members_and_colons",
    "fast_target_scope",
    "fast_sentinels",
    "fast_sentinels_input",
    "fast_sentinels_text",
    "answers_are_strings",
    "fast_answer_key",
    "dumps_line",
    "exact_outcome",
    "output_line",
    "Records",
    "end_with_process",
]


def _fast_json() -> Any:
    """The ``orjson`` module, imported on first use; ``None`` without it."""
    global _orjson
    if _orjson is False:
        _orjson = _import_orjson()
    return _orjson


def _import_orjson() -> Any:
    """``import orjson`` with Ctrl-C held back until it is done, then handled as it would have been.

    orjson's set-up imports standard modules and assumes they load (ijl/orjson#310): a
    ``KeyboardInterrupt`` raised inside it crashes the process (a segmentation fault, not
    exit status 130). Outside the main thread no handler can be set, and none runs there.
    """
    import os
    import signal

    came: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    try:
        if previous is not None:
            signal.signal(signal.SIGINT, lambda number, _frame: came.append(number))
    except ValueError:  # not the main thread
        previous = None
    try:
        import orjson
    except ImportError:  # pragma: no cover - exercised by turning orjson off in the tests
        module = None
    else:
        module = orjson
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
            if came and callable(previous):
                previous(signal.SIGINT, None)  # the default handler raises KeyboardInterrupt
            elif came and previous == signal.SIG_DFL:
                os.kill(os.getpid(), signal.SIGINT)
    return module


#: True when the run is the process's last act (``python -m helpers``; see
#: :func:`helpers.cli.run.end_process`): the largest things a run made (the last record read, the
#: lists a long key pair was walked by) are then left for the process's end, which drops them
#: unfreed, instead of being taken apart object by object (two million-entry keys: about 0.1 s).
_linger = False
_lingering: dict[str, Any] = {}


def end_with_process() -> None:
    """Say the process ends once this run is done: its largest objects may be left to that end."""
    global _linger
    _linger = True


def __getattr__(name: str) -> Any:
    """``FAST_JSON``: whether the ``orjson`` fast path is available (importing it to know)."""
    if name == "FAST_JSON":
        return _fast_json() is not None
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    return len(data) > DEEP_TEXT_MIN and _more_than(data, (b"[", b"{"), MAX_NESTING)


def _more_than(data: bytes, marks: tuple[bytes, ...], limit: int) -> bool:
    """True when ``data`` holds more than ``limit`` of the bytes ``marks`` in all.

    Found one by one (``find`` runs at the speed of ``memchr``), stopping past the limit: for the
    few brackets of a long line, several times faster than ``bytes.count``.
    """
    found = 0
    for mark in marks:
        at = data.find(mark)
        while at >= 0:
            found += 1
            if found > limit:
                return True
            at = data.find(mark, at + 1)
    return False


def loads_fast(data: bytes) -> Any | None:
    """Parse JSON ``data`` with ``orjson``; ``None`` unless it is valid and repeats no key.

    ``None`` means "use :func:`helpers.core.jsonio.loads_strict`": for invalid text,
    a repeated key, a colon written as ``\\u003a``, text with more than
    :data:`~helpers.core.jsonio.MAX_NESTING` brackets, or when ``orjson`` is not
    installed. Numbers beyond 64 bits come back as floats (see the module notes).

    Taught in ``05_check_your_data.ipynb``.
    """
    fast_json = _orjson if _orjson is not False else _fast_json()
    if fast_json is None:
        return None
    if may_nest_too_deep(data):
        return None
    try:
        value = fast_json.loads(data)
    except fast_json.JSONDecodeError:
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
    if _linger:
        _lingering["walk"] = (ids, answers, theirs, their_answers)
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


def dumps_line(value: Any) -> bytes:
    """:func:`~helpers.core.jsonio.dumps_compact` encoded as UTF-8, faster with ``orjson``.

    For what results and error objects are made of (dicts, lists, strings,
    booleans, integers, ``None``) ``orjson`` writes the same bytes; callers
    never pass floats. A lone surrogate or a huge integer goes the exact way.
    ``orjson`` writes only once something has imported it (a short run writes the exact way).

    Taught in ``05_check_your_data.ipynb``.
    """
    if _orjson:
        try:
            return _orjson.dumps(value)
        except TypeError:  # a lone surrogate cannot be encoded as UTF-8
            pass
    return dumps_compact(value).encode("utf-8")


#: Each check's fast path, by the check's name (as :data:`helpers.core.checks.CHECKS`).
FAST_CHECKS: dict[str, Callable[[Any], Any]] = {
    "target-scope": fast_target_scope,
    "sentinels": fast_sentinels_input,
}


# --- a record's walk: read, checked and written in one place -----------------------------


#: The output line of every preserved rewrite.
PRESERVED_LINE = b'{"missing":[],"added":[],"preserved":true}\n'


def exact_outcome(number: int, raw: bytes, source: str, exact: Callable[[Any], Any]) -> Outcome:
    """The outcome of one line read and checked the exact way (the foundation's route)."""
    parsed = parse_json_line(raw, number, source)
    if parsed.error is not None:
        return (number, EXIT_BAD_INPUT, None, parsed.error, None)
    try:
        result = exact(parsed.value)
    except CheckInputError as exc:
        return (number, EXIT_BAD_INPUT, None, exc, parsed.value)
    return (number, code_for(result), result, None, parsed.value)


#: A sentinel record at least this long is first tried as lists (:mod:`helpers.team.key_lists`).
_LISTS_MIN = 1 << 17


def _record_as_lists(text: bytes) -> tuple[dict[str, str], SentinelResult] | None:
    from helpers.team.key_lists import check_sentinel_record_text

    return check_sentinel_record_text(text)


def output_line(outcome: Outcome, *, carry: bool = False) -> bytes:
    """One outcome's output object as the command line writes it: compact JSON and a newline.

    A carried ``id`` or ``query`` may be nested as deep as the readers allow, so one that
    is not a string is written without recursion. Taught in ``05_check_your_data.ipynb``.
    """
    obj = output_object(outcome, carry=carry)
    if carry and not all(type(obj.get(name, "")) is str for name in CARRIED):
        return dumps_compact_deep(obj).encode("utf-8") + b"\n"
    return dumps_line(obj) + b"\n"


#: How many distinct failed results' output lines :class:`Records` keeps for reuse.
_LINES_MAX = 4096

#: A block of raw lines is parsed by ``orjson`` from this many lines (or from :data:`_FAST_BYTES`):
#: below it, importing ``orjson`` costs more than the exact parser.
_FAST_LINES = 16
_FAST_BYTES = 1 << 14


def _worth_orjson(items: Sequence[Any]) -> bool:
    """True for raw lines enough to gain from ``orjson`` (see :data:`_FAST_LINES`)."""
    if not items or type(items[0]) is not bytes:
        return False
    return len(items) >= _FAST_LINES or sum(map(len, items)) >= _FAST_BYTES


class Records:
    """One run's records, each read, checked and written here: the whole walk of a record.

    :meth:`block` takes raw JSON lines (``bytes``) or records another reader parsed
    (:class:`~helpers.core.jsonio.JsonLine`); each is read (``orjson``, proved strict by
    :func:`verified`, or the exact parser), checked (:data:`FAST_CHECKS`, or the exact
    check) and, with ``emit``, its output line appended to the block's parts. What the
    summary counts comes back: how many passed, and each record that did not, as an
    outcome, or, once the summary keeps no more failures (``keep`` reaches 0, and no
    ``carry``), a failed rewrite as its bare result. Equal results are one object
    (:func:`fast_target_scope` shares them), so a failed rewrite's line is made once per
    distinct result.
    """

    def __init__(
        self, check: str, source: str, *, carry: bool = False, emit: bool = True, keep: int = 0
    ) -> None:
        self.check, self.source, self.carry, self.emit = check, source, carry, emit
        #: How many more non-passing records the summary will keep in full.
        self.keep = keep
        self._lines: dict[int, tuple[TargetScopeResult, bytes]] = {}

    def block(
        self, items: Sequence[Any], number: int, parts: list[bytes], failed: list[Any]
    ) -> tuple[int, int]:
        """Read, check and write ``items`` (raw lines numbered from ``number + 1``, or parsed records);
        appends output lines to ``parts`` and the records that did not pass to ``failed``.
        Returns ``(the last line number, how many passed)``."""
        check, source, carry = self.check, self.source, self.carry
        fast = FAST_CHECKS[check]
        exact = CHECKS[check]
        append = parts.append
        report = failed.append
        lines = self._lines
        keep = self.keep
        counted_only = not carry and keep <= 0
        fast_json = _orjson
        if fast_json is False and _worth_orjson(items):
            fast_json = _fast_json()
        loads = fast_json.loads if fast_json else None
        decode_error = fast_json.JSONDecodeError if fast_json else ValueError
        deep_min = DEEP_TEXT_MIN
        preserved = PRESERVED_LINE
        same_lists = check == "target-scope" and not carry
        by_text = check == "sentinels"
        emit = self.emit
        passes = 0
        outcome: Outcome
        for item in items:
            if type(item) is bytes:  # a raw JSON line: parse it here, strictly and fast
                number += 1
                value: Any = None
                listed = by_text and len(item) >= _LISTS_MIN and _record_as_lists(item)
                if listed:  # a long record of two flat keys, compared as lists
                    value = listed[0]
                elif loads is not None and not (len(item) > deep_min and may_nest_too_deep(item)):
                    try:
                        value = loads(item)
                    except decode_error:
                        value = None
                    else:  # what loads_fast decides, with its common case first
                        colons = item.count(b":")
                        if colons and not (type(value) is dict and colons == len(value)):
                            value = verified(item, value, colons)
                if same_lists and type(value) is dict and len(value) == 2:
                    # Most rewrites repeat their list: what fast_target_scope decides first, without a call.
                    original = value.get("original")
                    if type(original) is list and original == value.get("rewritten"):
                        try:
                            "".join(original)
                        except TypeError:
                            pass
                        else:
                            if "" not in original:
                                passes += 1
                                append(preserved)
                                continue
                if value is None:
                    result = None
                elif by_text:  # a sentinel record's text can prove its answers strings
                    result = listed[1] if listed else fast_sentinels_text(value, item)
                else:
                    result = fast(value)
                if result is PRESERVED and not carry:  # the common case first
                    passes += 1
                    append(preserved)
                    continue
                if result is None:
                    outcome = exact_outcome(number, item, source, exact)
            else:  # a record another reader parsed
                number, value = item.number, item.value
                if item.error is not None:
                    # A reader may keep what it could read of a bad record (e.g. a CSV row's id).
                    result, outcome = None, (number, EXIT_BAD_INPUT, None, item.error, value)
                else:
                    result = fast(value)
                    if result is None:
                        try:
                            checked = exact(value)
                        except CheckInputError as exc:
                            outcome = (number, EXIT_BAD_INPUT, None, exc, value)
                        else:
                            outcome = (number, code_for(checked), checked, None, value)
                    elif result is PRESERVED and not carry:
                        passes += 1
                        append(preserved)
                        continue
            if result is not None:
                if counted_only and type(result) is TargetScopeResult:  # counted, no outcome built
                    report(result)
                    if emit:
                        known = lines.get(id(result))
                        if known is None:
                            known = (result, dumps_line(result.as_dict()) + b"\n")
                            if len(lines) < _LINES_MAX:
                                lines[id(result)] = known  # holding the result keeps its id unique
                        append(known[1])
                    continue
                outcome = (number, code_for(result), result, None, value)
            if emit:
                append(output_line(outcome, carry=carry))
            if outcome[1] == EXIT_PASS:
                passes += 1
            else:
                report(outcome)
                keep -= 1
                counted_only = not carry and keep <= 0
        self.keep = keep
        if _linger and items:
            _lingering["record"] = value  # the block's last record, left to the process's end
        return number, passes
