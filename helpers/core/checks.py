"""The registry of checks by name, shared by the case loader and the CLI.

Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from .errors import InvalidInputError, describe_value
from .sentinels import SentinelResult, check_sentinels_input
from .target_scope import NeedsStaffLabels, TargetScopeResult, check_target_scope_input

__all__ = ["CheckName", "CheckResult", "CHECKS", "CHECK_TITLES", "run_check", "require_check_name"]

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
    if name not in CHECKS:
        known = ", ".join(f'"{n}"' for n in CHECKS)
        raise InvalidInputError(f"{field} is {describe_value(name)}, expected one of {known}", field=field)
    return name


def run_check(name: str, record: Mapping[str, Any]) -> CheckResult:
    """Run the check called ``name`` on one input object."""
    return CHECKS[require_check_name(name)](record)
