"""Practice cases beyond the filled ones, from ``fixtures/practice_cases.json``, each tagged with its rules.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.checks import require_check_name
from ..core.errors import InvalidInputError, describe_value
from ..core.jsonio import load_json_file
from ..core.paths import fixtures_dir
from .cases import CSV_COLUMNS, Case, cases_from_data, filled_cases
from .rules import Rule, load_rules

__all__ = [
    "PracticeCase",
    "practice_cases_json",
    "load_practice_cases",
    "practice_cases_from_data",
    "practice_cases",
]


def practice_cases_json() -> Path:
    """``fixtures/practice_cases.json``: the practice cases with their rule ids."""
    return fixtures_dir() / "practice_cases.json"


@dataclass(frozen=True)
class PracticeCase(Case):
    """A case worked in the drill: a filled-case record plus the rule ids it exercises.

    It is a :class:`~helpers.cases.Case`, so grading and the work-it-yourself
    widget take it as they are. Taught in ``04_practice.ipynb``.
    """

    rules: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """``check/id``: unique across both checks, as in the worked-answer baseline."""
        return f"{self.check}/{self.id}"

    def to_data(self) -> dict[str, Any]:
        """The case as stored in ``fixtures/practice_cases.json``: filled-case fields, then rules."""
        return {**super().to_data(), "rules": list(self.rules)}


def practice_cases_from_data(
    data: Any, *, rules: Sequence[Rule], source: str = "<data>"
) -> list[PracticeCase]:
    """Build practice cases from ``{"cases": [...]}``, each case with a ``"rules"`` list.

    The other fields are read exactly as filled cases are. Each rule id must be
    a rule of the case's own check, listed once.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list):
        raise InvalidInputError(f'{source}: expected an object with a "cases" list', field="cases")
    known = {rule.id: rule.check for rule in rules}
    plain: list[Any] = []
    tags: list[tuple[str, ...]] = []
    for index, raw in enumerate(data["cases"]):
        where = f"{source}: cases[{index}]"
        if not isinstance(raw, Mapping):
            raise InvalidInputError(f"{where} is not an object", field=where)
        if "rules" not in raw:
            raise InvalidInputError(f'{where} has no "rules" field', field=f"{where}.rules")
        ids = raw["rules"]
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
            raise InvalidInputError(
                f"{where}.rules must be a non-empty list of rule ids", field=f"{where}.rules"
            )
        if len(set(ids)) != len(ids):
            raise InvalidInputError(f"{where}.rules lists a rule twice", field=f"{where}.rules")
        for rule_id in ids:
            if known.get(rule_id) != raw.get("check"):
                raise InvalidInputError(
                    f"{where}.rules has {describe_value(rule_id)}, which is not a rule of {describe_value(raw.get('check'))}",
                    field=f"{where}.rules",
                )
        plain.append({name: value for name, value in raw.items() if name != "rules"})
        tags.append(tuple(ids))
    cases = cases_from_data({"cases": plain}, source=source)
    return [
        PracticeCase(**{name: getattr(case, name) for name in CSV_COLUMNS}, rules=ids)
        for case, ids in zip(cases, tags, strict=False)
    ]


def load_practice_cases(
    path: str | Path | None = None, *, rules: Sequence[Rule] | None = None
) -> list[PracticeCase]:
    """Load practice cases (default ``fixtures/practice_cases.json``), checking their rule ids.

    Taught in ``04_practice.ipynb``.
    """
    path = Path(path) if path is not None else practice_cases_json()
    rules = list(rules) if rules is not None else load_rules()
    return practice_cases_from_data(load_json_file(path), rules=rules, source=str(path))


def practice_cases(check: str | None = None) -> list[PracticeCase]:
    """The project's practice cases, optionally only one check's.

    Their ids never repeat a filled case's id. Taught in ``04_practice.ipynb``.
    """
    cases = load_practice_cases()
    filled = {case.id for case in filled_cases()}
    for case in cases:
        if case.id in filled:
            raise InvalidInputError(
                f"{practice_cases_json()}: the practice case id {describe_value(case.id)} is also a filled case",
                field="id",
            )
    if check is None:
        return cases
    require_check_name(check)
    return [case for case in cases if case.check == check]
