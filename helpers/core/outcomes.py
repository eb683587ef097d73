"""The outcome protocol: exit codes, their severity order, result → code, and outcome →
output object.

Every layer that turns results into an exit status or an output object takes it from
here: the batch runner, the fast path, the reports and the command line.

>>> from helpers.core.target_scope import check_target_scope
>>> code_for(check_target_scope(["a"], ["a"]))
0
>>> code_for(check_target_scope(["a"], []))
1
>>> worst_code(EXIT_FAILED, EXIT_HELD)
3
>>> worst_code(EXIT_BAD_INPUT, EXIT_HELD)
4

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from helpers.core.errors import error_object
from helpers.core.target_scope import NeedsStaffLabels

__all__ = [
    "EXIT_PASS",
    "EXIT_FAILED",
    "EXIT_USAGE",
    "EXIT_HELD",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "SEVERITY",
    "EXIT_MEANINGS",
    "worst_code",
    "code_for",
    "CARRIED",
    "json_safe",
    "output_object",
]

#: Every record passed.
EXIT_PASS = 0
#: A check failed: targets lost or added, a sentinel missing or changed.
EXIT_FAILED = 1
#: A usage error, an unreadable input, or output that could not be written.
EXIT_USAGE = 2
#: Held: a rewrite needs staff labels.
EXIT_HELD = 3
#: Bad input: a record could not be checked, or there were no records.
EXIT_BAD_INPUT = 4
#: Interrupted (Ctrl-C): 128 + SIGINT, as a shell reports a process that SIGINT ended.
EXIT_INTERRUPTED = 130

#: The verdict codes from least to most serious; the most serious wins.
SEVERITY: tuple[int, ...] = (EXIT_PASS, EXIT_FAILED, EXIT_HELD, EXIT_BAD_INPUT)

#: What each verdict code means, in a summary's last line.
EXIT_MEANINGS: dict[int, str] = {
    EXIT_PASS: "every record passed",
    EXIT_FAILED: "a check failed",
    EXIT_HELD: "held: a rewrite needs staff labels",
    EXIT_BAD_INPUT: "bad input: something could not be checked",
}


def worst_code(first: int, second: int) -> int:
    """The more serious of two verdict codes.

    Taught in ``05_check_your_data.ipynb``.
    """
    return first if SEVERITY.index(first) >= SEVERITY.index(second) else second


def code_for(result: Any) -> int:
    """The exit code one check result gives on its own: pass 0, held 3, else failed 1.

    Taught in ``05_check_your_data.ipynb``.
    """
    if result.passed:
        return EXIT_PASS
    if isinstance(result, NeedsStaffLabels):
        return EXIT_HELD
    return EXIT_FAILED


#: The fields a record's output object carries with ``--carry``, after ``"line"``.
CARRIED = ("id", "query")


def _finite_or_none(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def json_safe(value: Any) -> Any:
    """``value`` with non-finite numbers as ``None``, as ``JSON.stringify`` writes them.

    Python reads ``1e400`` as infinity; a carried id like that must still be writable.
    A value as read from JSON (lists, dicts and scalars) is copied with a stack of its
    own, not by recursion, so any depth the readers accept works in any caller.

    Taught in ``05_check_your_data.ipynb``.
    """
    if not isinstance(value, (list, dict)):
        return _finite_or_none(value)
    top: list[Any] = [None]
    pending: list[tuple[Any, Any]] = [([value], top)]
    while pending:
        source, target = pending.pop()
        for key, item in source.items() if isinstance(source, dict) else enumerate(source):
            if isinstance(item, list):
                copy: Any = [None] * len(item)
            elif isinstance(item, dict):
                copy = dict.fromkeys(item)
            else:
                target[key] = _finite_or_none(item)
                continue
            target[key] = copy
            pending.append((item, copy))
    return top[0]


def output_object(outcome: tuple[int, int, Any, Any, Any], *, carry: bool = False) -> dict[str, Any]:
    """The output object of one outcome ``(line, code, result, error, record)``, as the command line writes it.

    With ``carry``, the object starts with ``"line"``, then the input's ``"id"``
    and ``"query"`` when it has them, so results can be joined back to inputs.
    Taught in ``05_check_your_data.ipynb``.
    """
    line, _, result, error, record = outcome
    body = result.as_dict() if error is None else error_object(line, error)
    if not carry:
        return body
    head: dict[str, Any] = {"line": line}
    if isinstance(record, Mapping):
        for name in CARRIED:
            if name in record:
                head[name] = json_safe(record[name])
    body.pop("line", None)
    head.update(body)
    return head
