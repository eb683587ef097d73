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

from collections.abc import Callable, Sequence

from helpers.core.checks import CHECKS
from helpers.core.errors import CheckInputError
from helpers.core.jsonio import dumps_compact_deep, parse_json_line
from helpers.core.outcomes import CARRIED, EXIT_BAD_INPUT, EXIT_PASS, code_for, output_object
from helpers.core.target_scope import TargetScopeResult
from helpers.team import fast_json as fast_json_module
from helpers.team import process_end
from helpers.team.fast_checks import (
    FAST_CHECKS,
    PRESERVED,
    answers_are_strings,
    fast_answer_key,
    fast_sentinels,
    fast_sentinels_input,
    fast_sentinels_text,
    fast_target_scope,
)
from helpers.team.fast_json import (
    DEEP_TEXT_MIN,
    _fast_json,
    dumps_line,
    loads_fast,
    may_nest_too_deep,
    members_and_colons,
    verified,
)
from helpers.team.key_lists import check_sentinel_record_text
from helpers.team.process_end import end_with_process

# ``typing`` is not imported at run time (a one-line run does without it); mypy is told this
# constant is true (``always_true`` in pyproject.toml).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    #: ``(line, code, result, error, record)``: one record's outcome (see :mod:`helpers.team.batch`).
    Outcome = tuple[int, int, Any, Any, Any]

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
        fast_json = fast_json_module._orjson
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
                listed = by_text and len(item) >= _LISTS_MIN and check_sentinel_record_text(item)
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
        if process_end._linger and items:
            process_end._lingering["record"] = value  # the block's last record, left to the process's end
        return number, passes


def __getattr__(name: str) -> Any:
    """``FAST_JSON``: whether the ``orjson`` fast path is available (importing it to know)."""
    if name == "FAST_JSON":
        return _fast_json() is not None
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
