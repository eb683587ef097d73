"""The rules of both checks (``helpers/trainee/cases/rules.py``): read strictly, each with its teaching section."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from helpers.core.errors import CheckInputError, InvalidInputError
from helpers.trainee.cases.rules import (
    GRADED_RULES,
    NAME_LENGTH,
    Rule,
    load_rules,
    project_rules,
    rules_from_data,
)

RULE = {
    "id": "ts-lost",
    "name": "A target lost",
    "statement": "A target the original has and the rewrite lacks is missing.",
    "section": "02_target_scope.ipynb#The filled cases",
}


def _data(**changes) -> dict:
    return {"rules": {"target-scope": [{**RULE, **changes}]}}


def test_a_rule_names_its_notebook_section_link_and_label() -> None:
    (rule,) = rules_from_data(_data())
    assert rule == Rule("target-scope", **RULE)
    assert rule.label == "A target lost (ts-lost)"
    assert (rule.notebook, rule.heading) == ("02_target_scope.ipynb", "The filled cases")
    assert rule.href == "02_target_scope.ipynb#The-filled-cases"
    assert rule.pointer == "02_target_scope.ipynb › The filled cases"


def test_the_projects_rules_are_unique_and_every_graded_rule_is_among_them() -> None:
    rules = load_rules()
    ids = [rule.id for rule in rules]
    assert len(ids) == len(set(ids)) and set(ids) >= GRADED_RULES
    assert all(rule.id.startswith("ts-") for rule in project_rules("target-scope"))
    assert all(rule.id.startswith("sk-") for rule in project_rules("sentinels"))
    assert len(project_rules("target-scope")) + len(project_rules("sentinels")) == len(rules)
    with pytest.raises(CheckInputError):
        project_rules("spelling")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], 'expected an object {"rules": {check: [...]}}'),
        ({"rules": {"target-scope": []}}, 'rules["target-scope"] must be a non-empty list'),
        (_data(extra="x"), "must have the fields ['id', 'name', 'statement', 'section']"),
        (_data(name="A  target lost"), "expected one line of at most 40 characters with single spaces"),
        (_data(name="x" * (NAME_LENGTH + 1)), ".name is "),
        (_data(section="02_target_scope.ipynb"), 'expected "NOTEBOOK.ipynb#Section heading"'),
        (_data(section="notes.md#Heading"), 'expected "NOTEBOOK.ipynb#Section heading"'),
        (_data(statement="  "), ".statement must be a non-empty string"),
    ],
)
def test_a_malformed_rule_file_is_refused_naming_the_place(data, message) -> None:
    with pytest.raises(InvalidInputError) as caught:
        rules_from_data(data, source="rules.json")
    assert message in str(caught.value)


def test_an_id_or_a_name_given_twice_is_refused() -> None:
    twice = _data()
    twice["rules"]["target-scope"].append(copy.deepcopy(RULE))
    with pytest.raises(InvalidInputError) as caught:
        rules_from_data(twice)
    assert str(caught.value) == '<data>: the rule id "ts-lost" appears twice'
    renamed = copy.deepcopy(twice)
    renamed["rules"]["target-scope"][1]["id"] = "ts-other"
    renamed["rules"]["target-scope"][1]["name"] = "a TARGET lost"
    with pytest.raises(InvalidInputError) as caught:
        rules_from_data(renamed)
    assert str(caught.value) == '<data>: the rule name "a TARGET lost" appears twice'


def test_an_unknown_check_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"rules": {"spelling": [RULE]}}), encoding="utf-8")
    with pytest.raises(CheckInputError):
        load_rules(path)
