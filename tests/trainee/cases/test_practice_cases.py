"""Practice cases (``helpers/trainee/cases/practice_cases.py``): filled-case records tagged with their rules."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from helpers.core.errors import CheckInputError, InvalidInputError
from helpers.trainee.cases.filled import filled_cases
from helpers.trainee.cases.practice_cases import (
    load_practice_cases,
    practice_cases,
    practice_cases_from_data,
    practice_cases_json,
)
from helpers.trainee.cases.rules import load_rules

RULES = load_rules()
CASES = practice_cases()


def test_each_case_carries_its_keyed_rule_first_and_only_its_checks_rules() -> None:
    checks = {rule.id: rule.check for rule in RULES}
    assert CASES and len({case.key for case in CASES}) == len(CASES)
    assert not {case.id for case in CASES} & {case.id for case in filled_cases()}
    for case in CASES:
        assert case.key == f"{case.check}/{case.id}"
        assert case.rules and all(checks[rule_id] == case.check for rule_id in case.rules)
        assert case.agrees_with(case.actual()), case.id


def test_cases_round_trip_through_their_stored_form(tmp_path: Path) -> None:
    path = tmp_path / "practice.json"
    path.write_text(json.dumps({"cases": [case.to_data() for case in CASES]}), encoding="utf-8")
    assert load_practice_cases(path, rules=RULES) == CASES
    with_context = next(case for case in CASES if case.context)
    assert with_context.to_data()["context"] == dict(with_context.context)
    assert "context" not in next(case for case in CASES if not case.context).to_data()


def test_one_checks_cases_and_an_unknown_check_is_refused() -> None:
    assert practice_cases("sentinels") == [case for case in CASES if case.check == "sentinels"]
    with pytest.raises(CheckInputError):
        practice_cases("spelling")


def _stored() -> dict:
    return json.loads(practice_cases_json().read_text(encoding="utf-8"))


def _first(change) -> dict:
    data = _stored()
    data["cases"] = data["cases"][:1]
    change(data["cases"][0])
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.pop("rules"), 'cases[0] has no "rules" field'),
        (lambda c: c.update(rules=[]), "cases[0].rules must be a non-empty list of rule ids"),
        (lambda c: c.update(rules=["ts-lost", "ts-lost"]), "cases[0].rules lists a rule twice"),
        (lambda c: c.update(rules=["sk-changed"]), '"sk-changed", which is not a rule of "target-scope"'),
        (lambda c: c.update(context=[]), "cases[0].context must be an object"),
        (lambda c: c.update(context={"note": "x"}), 'cases[0].context has an unknown field "note"'),
        (
            lambda c: c.update(context={"earlier_key": {"S1": 1}}),
            "earlier_key must be an object of string IDs",
        ),
        (
            lambda c: c.update(context={"rubric_revision": {"id": "S1"}}),
            "rubric_revision must have the fields ['id', 'from', 'to', 'approved', 'new_baseline_written']",
        ),
    ],
)
def test_a_malformed_case_is_refused_naming_the_place(change, message) -> None:
    with pytest.raises(InvalidInputError) as caught:
        practice_cases_from_data(_first(change), rules=RULES, source="p.json")
    assert message in str(caught.value) and str(caught.value).startswith("p.json: ")


def test_a_file_without_a_cases_list_is_refused() -> None:
    for data in ([], {"cases": {}}, {}):
        with pytest.raises(InvalidInputError, match='expected an object with a "cases" list'):
            practice_cases_from_data(copy.deepcopy(data), rules=RULES)
