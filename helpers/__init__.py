"""Evaluation-integrity checks, taught in the notebooks under ``notebooks/``.

* :func:`check_target_scope`: does a rewritten query keep exactly the
  original canonical target IDs? (``02_target_scope.ipynb``)
* :func:`check_sentinels`: does a proposed answer key keep every baseline
  sentinel with its literal answer? (``03_sentinel_answer_key.ipynb``)

Widgets live in :mod:`helpers.widgets` and are imported only on request.
"""

from . import chardiff, practice, render, worked_answers
from .baselines import Baseline, load_baseline, revise_baseline
from .cases import Case, filled_cases, get_case, load_cases
from .errors import (
    BaselineError,
    CheckInputError,
    DuplicateKeyError,
    EmptyBaselineError,
    InvalidInputError,
    JSONLoadError,
)
from .jsonio import dumps_compact, load_json_file, loads_strict
from .sentinels import SentinelResult, check_sentinels, check_sentinels_input
from .target_scope import (
    NeedsStaffLabels,
    TargetScopeResult,
    check_target_scope,
    check_target_scope_input,
)

__all__ = [
    "chardiff",
    "practice",
    "render",
    "worked_answers",
    "Baseline",
    "BaselineError",
    "Case",
    "CheckInputError",
    "DuplicateKeyError",
    "EmptyBaselineError",
    "InvalidInputError",
    "JSONLoadError",
    "NeedsStaffLabels",
    "SentinelResult",
    "TargetScopeResult",
    "check_sentinels",
    "check_sentinels_input",
    "check_target_scope",
    "check_target_scope_input",
    "dumps_compact",
    "filled_cases",
    "get_case",
    "load_baseline",
    "load_cases",
    "load_json_file",
    "loads_strict",
    "revise_baseline",
]
