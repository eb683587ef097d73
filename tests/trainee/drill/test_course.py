"""The set course's order and score (``helpers/trainee/drill/course.py``): seeded order, first checks, per-rule scores."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.trainee.answers import Answer, correct_answer
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.cases.rules import GRADED_RULES, load_rules
from helpers.trainee.drill.course import Attempt, Progress, drill_order, rule_scores, rules_missed
from helpers.trainee.feedback import Feedback, Grade
from helpers.trainee.grading import grade

CASES = practice_cases()
RULES = load_rules()


@given(st.integers(), st.randoms(use_true_random=False))
def test_the_order_depends_on_the_seed_alone_not_on_the_cases_order(seed: int, rnd: random.Random) -> None:
    shuffled = list(CASES)
    rnd.shuffle(shuffled)
    assert [c.key for c in drill_order(shuffled, seed)] == [c.key for c in drill_order(CASES, seed)]
    assert sorted(c.key for c in drill_order(CASES, seed)) == sorted(c.key for c in CASES)
    assert drill_order(CASES, seed, size=3) == drill_order(CASES, seed)[:3]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": True}, "seed is true, expected a whole number"),
        ({"seed": 1, "size": 0}, f"size is 0, expected a whole number from 1 to {len(CASES)}"),
        ({"seed": 1, "size": len(CASES) + 1}, "expected a whole number from 1 to"),
    ],
)
def test_a_bad_seed_or_size_is_refused(kwargs, message) -> None:
    with pytest.raises(InvalidInputError, match=message):
        drill_order(CASES, **kwargs)
    with pytest.raises(InvalidInputError, match="a drill cannot hold the same case twice"):
        drill_order([CASES[0], CASES[0]], 1)


def test_a_wrong_answer_misses_its_feedbacks_rules_then_the_cases_context_rules() -> None:
    context_case = next(case for case in CASES if any(rule not in GRADED_RULES for rule in case.rules))
    context_rules = tuple(rule for rule in context_case.rules if rule not in GRADED_RULES)
    wrong = Grade(False, (Feedback("missing", None, "m", "ts-lost"), Feedback("flag", None, "m", "ts-lost")))
    assert rules_missed(context_case, wrong) == ("ts-lost", *context_rules)
    assert rules_missed(context_case, Grade(True)) == ()


def test_only_the_first_check_of_a_case_is_scored() -> None:
    progress = Progress.start(CASES, seed=4, size=2)
    case = next(c for c in CASES if c.key == progress.order[0])
    first = progress.record(case, grade(case, Answer(case.check)))
    assert not first.correct and first.how == "missed" and first.rules_missed
    assert progress.record(case, grade(case, correct_answer(case))) is first
    assert progress.score_line() == "Score: 0 of 1 correct (0%) · 1 of 2 cases done"
    with pytest.raises(InvalidInputError, match="is not in this drill"):
        progress.record(next(c for c in CASES if c.key not in progress.order), Grade(True))


def test_the_percentage_rounds_half_up_and_the_stored_form_keeps_every_attempt() -> None:
    progress = Progress(1, ("a", "b", "c"))
    assert (
        progress.score_line() == "Score: nothing checked yet · 0 of 3 cases done" and progress.percent() == 0
    )
    progress.attempts = {
        "a": Attempt("a", True),
        "b": Attempt("b", True),
        "c": Attempt("c", False, ("ts-lost",)),
    }
    assert progress.percent() == 67 and progress.finished and progress.next_key() is None
    assert progress.to_data()["attempts"][2] == {
        "case": "c",
        "correct": False,
        "rules_missed": ["ts-lost"],
        "outcome": "missed",
        "hints": 0,
    }


def test_each_rule_counts_the_cases_that_exercised_or_missed_it() -> None:
    progress = Progress.start(CASES, seed=4, size=2)
    by_key = {case.key: case for case in CASES}
    first, second = (by_key[key] for key in progress.order)
    progress.record(first, grade(first, correct_answer(first), ask_reason=True))
    progress.record_outcome(second, "missed", [second.rules[0]])
    scores = {score.rule.id: score for score in rule_scores(progress, CASES, RULES)}
    assert [score.rule.id for score in rule_scores(progress, CASES, RULES)] == [rule.id for rule in RULES]
    for rule_id in first.rules:
        assert scores[rule_id].seen >= 1
    missed = scores[second.rules[0]]
    assert missed.missed_in == (second.key,) and missed.right == missed.seen - 1
    untouched = [s for s in scores.values() if s.rule.id not in {*first.rules, *second.rules}]
    assert all(s.seen == 0 and s.missed == 0 for s in untouched)
