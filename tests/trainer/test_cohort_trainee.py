"""The cohort's trainees: every reason one is not ready, how the check-out was sat, and the rules missed most."""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.state import RuleState
from helpers.trainer.cohort_trainee import Cohort, Trainee

PASSED = {"passed": True, "verified": True, "proctored": True}


def _state(rule: str, *, mastered: str | None = None, streak: int = 0, attempts: int = 0, unaided: int = 0):
    return RuleState(
        rule, streak=streak, mastered_on=mastered, attempts=attempts, unaided=unaided, last_practised=mastered
    )


def _trainee(**kw) -> Trainee:
    states = {
        "r1": _state("r1", mastered="2026-11-29T10:00:00Z", streak=3, attempts=3, unaided=3),
        "r2": _state("r2", mastered="2026-11-30T11:00:00Z", streak=3, attempts=5, unaided=3),
    }
    base = Trainee(
        name="Asha",
        file="asha.json",
        version=3,
        content_hash="h",
        attempt_id="a",
        rules=("r1", "r2"),
        states=states,
        step=8,
        hints=0,
        reveals=0,
        checkout=PASSED,
        complete=True,
    )
    return replace(base, **kw)


def test_clean_evidence_every_rule_mastered_and_a_proctored_pass_is_ready() -> None:
    asha = _trainee()
    assert asha.ready and asha.not_ready == () and asha.mastered == ["r1", "r2"]
    assert asha.completion() == "complete on 2026-11-30" and asha.last_practised() == "2026-11-30T11:00:00Z"
    assert (asha.checkout_kind(), asha.checkout_line()) == ("proctored", "passed, proctored")


def test_every_reason_not_ready_is_given_in_order() -> None:
    states = {"r1": _state("r1", streak=2, attempts=2, unaided=2), "r2": _state("r2")}
    ben = _trainee(problems=("a", "b"), states=states, checkout=None)
    assert ben.not_ready == (
        "2 problems in the practice evidence",
        "practice: 0 of 2 rules mastered",
        "no graded check-out",
    )
    assert [ben.status(r) for r in ("r1", "r2", "r9")] == ["2/3", "not started", "not started"]
    assert ben.completion() == "0 of 2 rules mastered" and ben.last_practised() == "-"
    assert _trainee(problems=("a",)).not_ready == ("1 problem in the practice evidence",)


def test_a_drill_with_no_cases_or_not_complete_is_named_for_it() -> None:
    empty = _trainee(step=0, course=(4, 5), states={"r1": _state("r1"), "r2": _state("r2")})
    assert empty.not_ready == ("no practice: the drill holds no cases",)
    assert empty.completion() == "set course only: 4 of 5 correct"
    incomplete = _trainee(complete=False)
    assert incomplete.not_ready[0].startswith("practice: every rule mastered, but the drill is not complete")
    assert incomplete.completion() == "every rule mastered; the drill is not yet complete"


@pytest.mark.parametrize(
    ("require", "line", "counted"),
    [(True, "passed, own machine, not counted", False), (False, "passed, own machine", True)],
)
def test_a_check_out_on_the_trainees_own_machine_counts_only_when_accepted(require, line, counted) -> None:
    own = _trainee(checkout={**PASSED, "proctored": False}, require_proctored=require)
    assert own.checkout_kind() == "own machine" and own.checkout_line() == line and own.ready is counted
    failed = _trainee(checkout={**PASSED, "passed": False})
    assert failed.checkout_line() == "not passed, proctored" and failed.not_ready == (
        "the check-out did not pass",
    )


def test_the_hardest_rules_are_those_missed_most_often() -> None:
    rules = tuple(load_rules()[:3])
    a, b, c = (r.id for r in rules)
    one = _trainee(
        rules=(a, b, c), states={a: _state(a, attempts=4, unaided=1), b: _state(b, attempts=2, unaided=1)}
    )
    two = _trainee(
        rules=(a, b, c), states={a: _state(a, attempts=4, unaided=4), b: _state(b, attempts=2, unaided=0)}
    )
    cohort = Cohort((one, two), rules)
    assert [(rule.id, misses, attempts, open_) for rule, misses, attempts, open_ in cohort.hardest()] == [
        (b, 3, 4, 2),
        (a, 3, 8, 2),
    ]
    assert cohort.hardest(limit=1)[0][0].id == b and cohort.items() == []
