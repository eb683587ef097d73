"""Evaluation-integrity checks, taught in the notebooks under ``notebooks/``.

* :func:`check_target_scope`: does a rewritten query keep exactly the
  original canonical target IDs? (``02_target_scope.ipynb``)
* :func:`check_sentinels`: does a proposed answer key keep every baseline
  sentinel with its literal answer? (``03_sentinel_answer_key.ipynb``)

The face is these few names; the rest lives in a package per audience, over the checks:
``helpers.core`` (the checks, standard library only) ← ``helpers.trainee`` (what notebooks 01–04
use) ← ``helpers.trainer`` (check-out, proctoring, cohort) and ``helpers.team`` (formats, batch,
engines), ← ``helpers.cli``. docs/architecture.md draws it.

Every public name is loaded on first use (PEP 562), so ``import helpers`` is
cheap and a command-line run never loads the teaching code.
"""

from __future__ import annotations

import importlib

# ``typing`` is not imported at run time, to keep ``import helpers`` cheap;
# mypy is told this constant is true (``always_true`` in pyproject.toml).
TYPE_CHECKING = False

#: Public name → (module, attribute).
_EXPORTS: dict[str, tuple[str, str | None]] = {
    "Baseline": ("helpers.core.baselines", "Baseline"),
    "Case": ("helpers.trainee.cases.filled", "Case"),
    "CheckInputError": ("helpers.core.errors", "CheckInputError"),
    "HelpersError": ("helpers.core.errors", "HelpersError"),
    "NeedsStaffLabels": ("helpers.core.target_scope", "NeedsStaffLabels"),
    "SentinelResult": ("helpers.core.sentinels", "SentinelResult"),
    "TargetScopeResult": ("helpers.core.target_scope", "TargetScopeResult"),
    "check_sentinels": ("helpers.core.sentinels", "check_sentinels"),
    "check_sentinels_input": ("helpers.core.sentinels", "check_sentinels_input"),
    "check_target_scope": ("helpers.core.target_scope", "check_target_scope"),
    "check_target_scope_input": ("helpers.core.target_scope", "check_target_scope_input"),
    "filled_cases": ("helpers.trainee.cases.filled", "filled_cases"),
    "load_baseline": ("helpers.core.baselines", "load_baseline"),
    "load_json_file": ("helpers.core.jsonio", "load_json_file"),
    "revise_baseline": ("helpers.core.baselines", "revise_baseline"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module_name, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'helpers' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from typing import Any

    from helpers.core.baselines import Baseline as Baseline
    from helpers.core.baselines import load_baseline as load_baseline
    from helpers.core.baselines import revise_baseline as revise_baseline
    from helpers.core.errors import CheckInputError as CheckInputError
    from helpers.core.errors import HelpersError as HelpersError
    from helpers.core.jsonio import load_json_file as load_json_file
    from helpers.core.sentinels import SentinelResult as SentinelResult
    from helpers.core.sentinels import check_sentinels as check_sentinels
    from helpers.core.sentinels import check_sentinels_input as check_sentinels_input
    from helpers.core.target_scope import NeedsStaffLabels as NeedsStaffLabels
    from helpers.core.target_scope import TargetScopeResult as TargetScopeResult
    from helpers.core.target_scope import check_target_scope as check_target_scope
    from helpers.core.target_scope import check_target_scope_input as check_target_scope_input
    from helpers.trainee.cases.filled import Case as Case
    from helpers.trainee.cases.filled import filled_cases as filled_cases
