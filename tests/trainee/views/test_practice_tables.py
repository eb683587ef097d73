"""The practice notebook's tables (``helpers/trainee/views/practice_tables.py``): coverage, rules, summary."""

from __future__ import annotations

import pytest

from helpers.core.errors import CheckInputError
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.course import Attempt, Progress
from helpers.trainee.views.practice_tables import coverage, coverage_table, rules_table, summary

CASES = practice_cases()
RULES = load_rules()


def test_coverage_lists_every_rule_in_order_with_the_cases_that_exercise_it() -> None:
    table = coverage(RULES, CASES)
    assert list(table) == [rule.id for rule in RULES]
    for rule_id, cases in table.items():
        assert cases == [case for case in CASES if rule_id in case.rules]
    assert coverage(RULES[:1], []) == {RULES[0].id: []}


def test_a_coverage_table_is_one_checks_rules_by_its_cases() -> None:
    block = coverage_table(RULES, CASES, "sentinels")
    sentinel_cases = [case for case in CASES if case.check == "sentinels"]
    sentinel_rules = [rule for rule in RULES if rule.check == "sentinels"]
    lines = block.text.splitlines()
    assert (
        lines[0] == f"Sentinel answer key: {len(sentinel_cases)} practice cases, {len(sentinel_rules)} rules"
    )
    assert [line.split(" ")[0] for line in lines[1:]] == [rule.id for rule in sentinel_rules]
    assert block.html.count("●") == sum(len(case.rules) for case in sentinel_cases)
    assert 'role="region"' in block.html and "ts-lost" not in block.html
    with pytest.raises(CheckInputError):
        coverage_table(RULES, CASES, "spelling")


def test_the_rules_table_names_each_rule_and_where_it_is_taught() -> None:
    lost = next(rule for rule in RULES if rule.id == "ts-lost")
    block = rules_table([lost])
    assert block.text == f"A target lost (ts-lost): {lost.statement}\n  taught in {lost.pointer}"
    assert f'<a href="{lost.href}">' in block.html and "<b>A target lost</b>" in block.html


def test_the_summary_scores_the_drill_and_says_where_each_rule_was_missed() -> None:
    progress = Progress.start(CASES, seed=2, size=3)
    by_key = {case.key: case for case in CASES}
    first, second = (by_key[key] for key in progress.order[:2])
    missed_rule = next(rule for rule in RULES if rule.check == second.check)
    progress.attempts[first.key] = Attempt(first.key, True, (), "correct")
    progress.attempts[second.key] = Attempt(second.key, False, (missed_rule.id,), "missed")
    text = summary(progress, CASES, RULES).text.splitlines()
    assert text[:4] == [
        "Drill so far: 1 of 2 correct (50%).",
        "Rules missed:",
        f"- {missed_rule.id}: {missed_rule.statement}",
        f"    missed in {second.id}: {second.title}",
    ]
    assert text[4] == f"    taught in {missed_rule.pointer}"
    assert text[5] == "Every rule (cases, right, missed):" and len(text) == 6 + len(RULES)


def test_a_summary_with_nothing_missed_says_so() -> None:
    progress = Progress.start(CASES, seed=2, size=1)
    (key,) = progress.order
    progress.attempts[key] = Attempt(key, True, (), "correct")
    block = summary(progress, CASES, RULES)
    assert block.text.splitlines()[:2] == ["Drill finished: 1 of 1 correct (100%).", "No rule missed."]
    assert "<p>No rule missed.</p>" in block.html
