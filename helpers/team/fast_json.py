"""Strict JSON, fast: :func:`loads_fast` reads a line with ``orjson`` (imported on first use) and
refuses what the exact parser would refuse, duplicate keys by counting colons (see
:mod:`helpers.team.fastpath`); :func:`dumps_line` writes a value as the exact writer does.
Taught in ``05_check_your_data.ipynb`` ("How it stays fast and small").
"""

from __future__ import annotations

from helpers.core.jsonio import MAX_NESTING, dumps_compact

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


def __getattr__(name: str) -> Any:
    """``FAST_JSON``: whether the ``orjson`` fast path is available (importing it to know)."""
    if name == "FAST_JSON":
        return _fast_json() is not None
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
