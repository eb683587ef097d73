"""The rules of both checks, from ``fixtures/rules.json``: id, short name, statement, teaching section.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.errors import InvalidInputError, describe_value
from helpers.core.jsonio import load_json_file
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.fixture_fields import text_field as _text

__all__ = ["Rule", "GRADED_RULES", "rules_json", "load_rules", "rules_from_data", "project_rules"]

#: Rule ids that :func:`helpers.trainee.grading.grade` can name in its feedback. The
#: other rules in ``fixtures/rules.json`` are about context no widget mistake
#: can show (the query's wording, a non-sentinel's history, a rubric change):
#: a wrong answer on a case that exercises one of them counts as missing it.
GRADED_RULES: frozenset[str] = frozenset(
    {
        "ts-lost",
        "ts-added",
        "ts-order",
        "ts-duplicates",
        "ts-exact-ids",
        "ts-empty",
        "ts-several",
        "ts-unresolved",
        "sk-changed",
        "sk-whitespace-case",
        "sk-invisible",
        "sk-missing",
        "sk-all-missing",
        "sk-new-case",
        "sk-empty-baseline",
        "sk-several",
    }
)

_RULE_FIELDS = ("id", "name", "statement", "section")
#: The longest a rule's short name may be: it labels a radio button and must read at a glance.
NAME_LENGTH = 40
_OPTIONAL_FIELDS = ("not_here",)


def rules_json() -> Path:
    """``fixtures/rules.json``: every rule of both checks."""
    return fixtures_dir() / "rules.json"


@dataclass(frozen=True)
class Rule:
    """One rule: its check, stable id, short plain name, one-line statement and teaching section.

    ``name`` (``"A target lost"``) is what a reason option shows first, the id after it.

    ``section`` reads ``"02_target_scope.ipynb#Order and duplicates"``: a
    notebook, then the heading of the section that teaches the rule.
    ``not_here`` is one sentence on why the rule does not decide a case it was
    wrongly picked for (the reason picker's feedback).
    Taught in ``04_practice.ipynb``.
    """

    check: str
    id: str
    name: str
    statement: str
    section: str
    not_here: str = ""

    @property
    def label(self) -> str:
        """A reason option's text: the short name, then the id, e.g. ``A target lost (ts-lost)``."""
        return f"{self.name} ({self.id})"

    @property
    def notebook(self) -> str:
        """The notebook that teaches the rule, e.g. ``02_target_scope.ipynb``."""
        return self.section.partition("#")[0]

    @property
    def heading(self) -> str:
        """The heading of the teaching section, e.g. ``Order and duplicates``."""
        return self.section.partition("#")[2]

    @property
    def href(self) -> str:
        """A link to the section from a notebook in the same folder (JupyterLab's anchors)."""
        return f"{self.notebook}#{self.heading.replace(' ', '-')}"

    @property
    def pointer(self) -> str:
        """The section as plain text: ``02_target_scope.ipynb › Order and duplicates``."""
        return f"{self.notebook} › {self.heading}"


def _rule_from_mapping(check: str, raw: Any, where: str) -> Rule:
    if (
        not isinstance(raw, Mapping)
        or not set(_RULE_FIELDS) <= set(raw)
        or not set(raw) <= {*_RULE_FIELDS, *_OPTIONAL_FIELDS}
    ):
        found = list(raw) if isinstance(raw, Mapping) else type(raw).__name__
        raise InvalidInputError(
            f"{where} must have the fields {list(_RULE_FIELDS)} (and may have {list(_OPTIONAL_FIELDS)}), "
            f"found {found}",
            field=where,
        )
    extra = {name: _text(raw, name, where) for name in _OPTIONAL_FIELDS if name in raw}
    rule = Rule(check, *(_text(raw, name, where) for name in _RULE_FIELDS), **extra)
    if len(rule.name) > NAME_LENGTH or rule.name != " ".join(rule.name.split()):
        raise InvalidInputError(
            f"{where}.name is {describe_value(rule.name)}, expected one line of at most {NAME_LENGTH} "
            "characters with single spaces",
            field=f"{where}.name",
        )
    notebook, hash_, heading = rule.section.partition("#")
    if not hash_ or not notebook.endswith(".ipynb") or not heading.strip():
        raise InvalidInputError(
            f'{where}.section is {describe_value(rule.section)}, expected "NOTEBOOK.ipynb#Section heading"',
            field=f"{where}.section",
        )
    return rule


def _require_check_name(name: Any, field: str = "check") -> str:
    """:func:`helpers.core.checks.require_check_name`, its registry of checks loaded only when rules are read.

    Importing this module (the work-it-yourself widget of ``02_target_scope.ipynb`` does) loads no check.
    """
    from helpers.core.checks import require_check_name

    return require_check_name(name, field)


def rules_from_data(data: Any, *, source: str = "<data>") -> list[Rule]:
    """Build rules from a parsed ``{"rules": {check: [rule, ...]}}`` object; ids are unique."""
    if not isinstance(data, Mapping) or set(data) != {"rules"} or not isinstance(data["rules"], Mapping):
        raise InvalidInputError(f'{source}: expected an object {{"rules": {{check: [...]}}}}', field="rules")
    rules: list[Rule] = []
    seen: set[str] = set()
    names: set[str] = set()
    for check, items in data["rules"].items():
        _require_check_name(check, f"{source}: rules key")
        if not isinstance(items, list) or not items:
            raise InvalidInputError(
                f"{source}: rules[{describe_value(check)}] must be a non-empty list", field=check
            )
        for index, raw in enumerate(items):
            rule = _rule_from_mapping(check, raw, f"{source}: rules[{describe_value(check)}][{index}]")
            if rule.id in seen:
                raise InvalidInputError(
                    f"{source}: the rule id {describe_value(rule.id)} appears twice", field="id"
                )
            if rule.name.casefold() in names:
                raise InvalidInputError(
                    f"{source}: the rule name {describe_value(rule.name)} appears twice", field="name"
                )
            seen.add(rule.id)
            names.add(rule.name.casefold())
            rules.append(rule)
    return rules


def load_rules(path: str | Path | None = None) -> list[Rule]:
    """Load the rule list (default ``fixtures/rules.json``). Taught in ``04_practice.ipynb``."""
    path = Path(path) if path is not None else rules_json()
    return rules_from_data(load_json_file(path), source=str(path))


def project_rules(check: str | None = None) -> list[Rule]:
    """The project's rules, optionally only those of one check."""
    rules = load_rules()
    if check is None:
        return rules
    _require_check_name(check)
    return [rule for rule in rules if rule.check == check]
