"""Practice beyond the filled cases, gathered as ``helpers.trainee.practice``.

The names come from :mod:`~helpers.trainee.cases.rules` (the rules),
:mod:`~helpers.trainee.cases.practice_cases` (the cases and their rules),
:mod:`~helpers.trainee.drill.course` (order, attempts, scores),
:mod:`~helpers.trainee.progress.version1` (saving and loading) and
:mod:`~helpers.trainee.views.practice_tables` (the HTML tables). No widgets here:
:class:`helpers.trainee.widgets.PracticeDrill` calls these functions.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from helpers.trainee.cases.practice_cases import (
    PracticeCase,
    load_practice_cases,
    practice_cases,
    practice_cases_from_data,
    practice_cases_json,
)
from helpers.trainee.cases.rules import (
    GRADED_RULES,
    Rule,
    load_rules,
    project_rules,
    rules_from_data,
    rules_json,
)
from helpers.trainee.drill.course import (
    DEFAULT_DRILL_SEED,
    PROGRESS_FORMAT,
    PROGRESS_VERSION,
    Attempt,
    Progress,
    RuleScore,
    drill_order,
    rule_scores,
    rules_missed,
)
from helpers.trainee.progress.paths import DEFAULT_PROGRESS_FILE
from helpers.trainee.progress.version1 import load_progress, progress_from_data
from helpers.trainee.views.practice_tables import coverage, coverage_table, rules_table, summary

__all__ = [
    "Rule",
    "PracticeCase",
    "Attempt",
    "Progress",
    "RuleScore",
    "GRADED_RULES",
    "DEFAULT_DRILL_SEED",
    "DEFAULT_PROGRESS_FILE",
    "PROGRESS_FORMAT",
    "PROGRESS_VERSION",
    "rules_json",
    "practice_cases_json",
    "load_rules",
    "rules_from_data",
    "project_rules",
    "load_practice_cases",
    "practice_cases_from_data",
    "practice_cases",
    "coverage",
    "coverage_table",
    "rules_table",
    "drill_order",
    "rules_missed",
    "rule_scores",
    "summary",
    "load_progress",
    "progress_from_data",
]
