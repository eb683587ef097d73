"""The outcome protocol: exit codes, their severity order, and result → code.

Every layer that turns results into an exit status takes it from here: the
batch runner, the reports and the command line.

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

from typing import Any

from .target_scope import NeedsStaffLabels

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
