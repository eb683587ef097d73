"""The registry of checks by name, shared by the case loader and the CLI, and :func:`check_lines`,
the plain reference run over JSON lines that the batch runner must match.

Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from helpers.core.errors import CheckInputError, InvalidInputError, describe_value, error_object
from helpers.core.outcomes import EXIT_BAD_INPUT, code_for
from helpers.core.sentinels import SentinelResult, check_sentinels_input
from helpers.core.target_scope import NeedsStaffLabels, TargetScopeResult, check_target_scope_input

if TYPE_CHECKING:
    from helpers.core.jsonio import JsonLine

__all__ = [
    "CheckName",
    "CheckResult",
    "CHECKS",
    "CHECK_TITLES",
    "run_check",
    "require_check_name",
    "check_lines",
]

CheckName = Literal["target-scope", "sentinels"]
CheckResult = TargetScopeResult | NeedsStaffLabels | SentinelResult

#: Each check's input-object runner, by the name the CLI and fixtures use.
CHECKS: dict[str, Callable[[Mapping[str, Any]], CheckResult]] = {
    "target-scope": check_target_scope_input,
    "sentinels": check_sentinels_input,
}

#: A human title for each check.
CHECK_TITLES: dict[str, str] = {
    "target-scope": "Target scope",
    "sentinels": "Sentinel answer key",
}


def require_check_name(name: Any, field: str = "check") -> str:
    """Return ``name`` if it names a known check, else raise naming ``field``."""
    if not isinstance(name, str) or name not in CHECKS:
        known = ", ".join(f'"{n}"' for n in CHECKS)
        raise InvalidInputError(f"{field} is {describe_value(name)}, expected one of {known}", field=field)
    return name


def run_check(name: str, record: Mapping[str, Any]) -> CheckResult:
    """Run the check called ``name`` on one input object."""
    return CHECKS[require_check_name(name)](record)


def check_lines(check: str, lines: Iterable[JsonLine]) -> Iterable[tuple[dict[str, Any], int]]:
    """Yield ``(output object, exit code)`` for each parsed JSON line.

    The reference the command line never calls: :mod:`helpers.team.batch` streams the same
    results faster, and its tests compare the two.
    """
    for line in lines:
        if line.error is not None:
            yield error_object(line.number, line.error), EXIT_BAD_INPUT
            continue
        try:
            result = run_check(check, line.value)
        except CheckInputError as exc:
            yield error_object(line.number, exc), EXIT_BAD_INPUT
            continue
        yield result.as_dict(), code_for(result)
