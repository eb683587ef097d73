"""Practice cases beyond the filled ones, from ``fixtures/practice_cases.json``, each tagged with its rules.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers.core.checks import require_check_name
from helpers.core.errors import InvalidInputError, describe_value
from helpers.core.jsonio import load_json_file
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.deciding_rule import facets as keyed_facets
from helpers.trainee.cases.filled import CSV_COLUMNS, Case, cases_from_data, filled_cases
from helpers.trainee.cases.rules import Rule, load_rules

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

    ``rules`` starts with the keyed rule (the one that decides the case), then
    tags. ``facets`` are the look-alike kinds that decide it
    (:func:`helpers.trainee.cases.deciding_rule.facets`). ``context`` is what the trainee must
    see beside the input but the check never reads (``earlier_key``: the last
    accepted key; ``rubric_revision``: an approved rubric change); it is
    JSON-ready. It is a :class:`~helpers.trainee.cases.filled.Case`, so grading and the
    work-it-yourself widget take it as they are. Taught in ``04_practice.ipynb``.
    """

    rules: tuple[str, ...] = ()
    facets: tuple[str, ...] = ()
    context: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """``check/id``: unique across both checks, as in the worked-answer baseline."""
        return f"{self.check}/{self.id}"

    def to_data(self) -> dict[str, Any]:
        """The case as stored in ``fixtures/practice_cases.json``: filled-case fields, rules, then any context."""
        context = {"context": dict(self.context)} if self.context else {}
        return {**super().to_data(), "rules": list(self.rules), **context}


def practice_cases_from_data(
    data: Any, *, rules: Sequence[Rule], source: str = "<data>"
) -> list[PracticeCase]:
    """Build practice cases from ``{"cases": [...]}``, each case with a ``"rules"`` list.

    A case may also carry a ``"context"`` object (an ``earlier_key`` answer key,
    a ``rubric_revision`` record). The other fields are read exactly as filled
    cases are. Each rule id must be a rule of the case's own check, listed once.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list):
        raise InvalidInputError(f'{source}: expected an object with a "cases" list', field="cases")
    known = {rule.id: rule.check for rule in rules}
    plain: list[Any] = []
    tags: list[tuple[str, ...]] = []
    contexts: list[dict[str, Any]] = []
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
        contexts.append(_context(raw.get("context", {}), f"{where}.context"))
        plain.append({name: value for name, value in raw.items() if name not in ("rules", "context")})
        tags.append(tuple(ids))
    cases = cases_from_data({"cases": plain}, source=source)
    return [
        PracticeCase(
            **{name: getattr(case, name) for name in CSV_COLUMNS},
            rules=ids,
            facets=keyed_facets(case.check, case.input, context),
            context=context,
        )
        for case, ids, context in zip(cases, tags, contexts, strict=True)
    ]


#: What a case's context may hold, and the fields of a rubric revision record.
_CONTEXT_KEYS = ("earlier_key", "rubric_revision")
_REVISION_FIELDS = ("id", "from", "to", "approved", "new_baseline_written")


def _context(raw: Any, where: str) -> dict[str, Any]:
    """A case's context, read strictly: only known keys, each of its own shape."""
    if not isinstance(raw, Mapping):
        raise InvalidInputError(f"{where} must be an object", field=where)
    unknown = [name for name in raw if name not in _CONTEXT_KEYS]
    if unknown:
        raise InvalidInputError(f"{where} has an unknown field {describe_value(unknown[0])}", field=where)
    if "earlier_key" in raw:
        key = raw["earlier_key"]
        if not isinstance(key, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in key.items()
        ):
            raise InvalidInputError(
                f"{where}.earlier_key must be an object of string IDs to string answers",
                field=f"{where}.earlier_key",
            )
    if "rubric_revision" in raw:
        revision = raw["rubric_revision"]
        if not isinstance(revision, Mapping) or list(revision) != list(_REVISION_FIELDS):
            raise InvalidInputError(
                f"{where}.rubric_revision must have the fields {list(_REVISION_FIELDS)}, in that order",
                field=f"{where}.rubric_revision",
            )
        if not all(isinstance(revision[name], str) for name in _REVISION_FIELDS[:4]) or not isinstance(
            revision["new_baseline_written"], bool
        ):
            raise InvalidInputError(
                f"{where}.rubric_revision needs strings for id, from, to and approved, and "
                "true or false for new_baseline_written",
                field=f"{where}.rubric_revision",
            )
    return {name: raw[name] for name in raw}


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
