"""Evaluation-integrity checks, taught in the notebooks under ``notebooks/``.

* :func:`check_target_scope`: does a rewritten query keep exactly the
  original canonical target IDs? (``02_target_scope.ipynb``)
* :func:`check_sentinels`: does a proposed answer key keep every baseline
  sentinel with its literal answer? (``03_sentinel_answer_key.ipynb``)

The package is layered, imports flowing one way:
``core`` (the checks, standard library only) ← ``data`` (reading real data) ←
``teach`` (cases, grading, practice, HTML) ← ``widgets`` and ``publish`` ← ``cli``.

Every public name is loaded on first use (PEP 562), so ``import helpers`` is
cheap and a command-line run never loads the teaching code. Widgets live in
:mod:`helpers.trainee.widgets`, the only subpackage that imports ipywidgets.
"""

from __future__ import annotations

import importlib

# ``typing`` is not imported at run time, to keep ``import helpers`` cheap;
# mypy is told this constant is true (``always_true`` in pyproject.toml).
TYPE_CHECKING = False

#: Public name → (module, attribute); an attribute of ``None`` means the module itself.
_EXPORTS: dict[str, tuple[str, str | None]] = {
    # modules
    "batch": ("helpers.team.batch", None),
    "chardiff": ("helpers.core.chardiff", None),
    "chart": ("helpers.team.views.batch_chart", None),
    "checkout": ("helpers.trainer.checkout", None),
    "cohort": ("helpers.trainer.cohort", None),
    "cohort_views": ("helpers.trainer.views.cohort_views", None),
    "engine_runs": ("helpers.team.views.engine_runs", None),
    "gallery": ("helpers.trainee.views.gallery", None),
    "generators": ("helpers.trainee.cases.generators", None),
    "mastery": ("helpers.trainee.drill.mastery", None),
    "grading": ("helpers.trainee.grading", None),
    "key_formats": ("helpers.team.key_formats", None),
    "key_subset": ("helpers.team.key_subset", None),
    "item_analysis": ("helpers.trainer.item_analysis", None),
    "mistakes": ("helpers.trainee.views.mistakes", None),
    "practice": ("helpers.trainee.practice", None),
    "render": ("helpers.trainee.views.case_html", None),
    "report_html": ("helpers.team.views.batch_html", None),
    "reports": ("helpers.team.reports", None),
    "rule_walks": ("helpers.trainer.views.rule_walks", None),
    "sources": ("helpers.team.sources", None),
    "worked_answers": ("helpers.trainee.worked_answers", None),
    # names
    "Baseline": ("helpers.core.baselines", "Baseline"),
    "BaselineError": ("helpers.core.errors", "BaselineError"),
    "Case": ("helpers.trainee.cases.filled", "Case"),
    "CheckInputError": ("helpers.core.errors", "CheckInputError"),
    "DuplicateKeyError": ("helpers.core.errors", "DuplicateKeyError"),
    "EmptyBaselineError": ("helpers.core.errors", "EmptyBaselineError"),
    "HelpersError": ("helpers.core.errors", "HelpersError"),
    "InvalidInputError": ("helpers.core.errors", "InvalidInputError"),
    "JSONLoadError": ("helpers.core.errors", "JSONLoadError"),
    "NeedsStaffLabels": ("helpers.core.target_scope", "NeedsStaffLabels"),
    "SentinelResult": ("helpers.core.sentinels", "SentinelResult"),
    "TargetScopeResult": ("helpers.core.target_scope", "TargetScopeResult"),
    "check_sentinels": ("helpers.core.sentinels", "check_sentinels"),
    "check_sentinels_input": ("helpers.core.sentinels", "check_sentinels_input"),
    "check_target_scope": ("helpers.core.target_scope", "check_target_scope"),
    "check_target_scope_input": ("helpers.core.target_scope", "check_target_scope_input"),
    "dumps_compact": ("helpers.core.jsonio", "dumps_compact"),
    "filled_cases": ("helpers.trainee.cases.filled", "filled_cases"),
    "get_case": ("helpers.trainee.cases.filled", "get_case"),
    "load_baseline": ("helpers.core.baselines", "load_baseline"),
    "load_cases": ("helpers.trainee.cases.filled", "load_cases"),
    "load_json_file": ("helpers.core.jsonio", "load_json_file"),
    "loads_strict": ("helpers.core.jsonio", "loads_strict"),
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

    from helpers.core import chardiff as chardiff
    from helpers.core.baselines import Baseline as Baseline
    from helpers.core.baselines import load_baseline as load_baseline
    from helpers.core.baselines import revise_baseline as revise_baseline
    from helpers.core.errors import BaselineError as BaselineError
    from helpers.core.errors import CheckInputError as CheckInputError
    from helpers.core.errors import DuplicateKeyError as DuplicateKeyError
    from helpers.core.errors import EmptyBaselineError as EmptyBaselineError
    from helpers.core.errors import HelpersError as HelpersError
    from helpers.core.errors import InvalidInputError as InvalidInputError
    from helpers.core.errors import JSONLoadError as JSONLoadError
    from helpers.core.jsonio import dumps_compact as dumps_compact
    from helpers.core.jsonio import load_json_file as load_json_file
    from helpers.core.jsonio import loads_strict as loads_strict
    from helpers.core.sentinels import SentinelResult as SentinelResult
    from helpers.core.sentinels import check_sentinels as check_sentinels
    from helpers.core.sentinels import check_sentinels_input as check_sentinels_input
    from helpers.core.target_scope import NeedsStaffLabels as NeedsStaffLabels
    from helpers.core.target_scope import TargetScopeResult as TargetScopeResult
    from helpers.core.target_scope import check_target_scope as check_target_scope
    from helpers.core.target_scope import check_target_scope_input as check_target_scope_input
    from helpers.team import batch as batch
    from helpers.team import key_formats as key_formats
    from helpers.team import key_subset as key_subset
    from helpers.team import reports as reports
    from helpers.team import sources as sources
    from helpers.trainee import grading as grading
    from helpers.trainee import practice as practice
    from helpers.trainee import worked_answers as worked_answers
    from helpers.trainee.cases import generators as generators
    from helpers.trainee.cases.filled import Case as Case
    from helpers.trainee.cases.filled import filled_cases as filled_cases
    from helpers.trainee.cases.filled import get_case as get_case
    from helpers.trainee.cases.filled import load_cases as load_cases
    from helpers.trainee.drill import mastery as mastery
    from helpers.trainee.views import batch_chart as chart  # noqa: F401 - the public name predates the module's
    from helpers.trainee.views import batch_html as report_html  # noqa: F401 - the public name predates the module's
    from helpers.trainee.views import case_html as render  # noqa: F401 - the public name predates the module's
    from helpers.trainee.views import cohort_views as cohort_views
    from helpers.trainee.views import engine_runs as engine_runs
    from helpers.trainee.views import gallery as gallery
    from helpers.trainee.views import mistakes as mistakes
    from helpers.trainee.views import rule_walks as rule_walks
    from helpers.trainer import checkout as checkout
    from helpers.trainer import cohort as cohort
    from helpers.trainer import item_analysis as item_analysis
