"""The drill's one progress line and its estimate of cases to go (:mod:`helpers.trainee.drill.to_go`),
measured against simulated trainees driving the real drill engine."""

from __future__ import annotations

import re

import pytest
from mastery_trainees import SEEDS, perfect, slipping
from trainees import Clock

from helpers.trainee.drill import sequential
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.to_go import cases_to_go, progress_line, record_to_go


def _walk(strategy, seed: int, limit: int) -> tuple[list[int], list[str], DrillSession]:
    """The estimate before each case and after the last, each case's outcome, and the session."""
    session = DrillSession.start(seed=seed, clock=Clock())
    estimates, outcomes = [cases_to_go(session.mastery)], []
    for _ in range(limit):
        view = session.next_case()
        session.check(strategy(session, view))
        outcomes.append(session.mastery.attempts[-1].outcome)
        estimates.append(cases_to_go(session.mastery))
        if session.complete:
            break
    return estimates, outcomes, session


@pytest.mark.parametrize("seed", SEEDS)
def test_for_a_trainee_who_answers_every_case_right_the_estimate_is_within_a_few_cases(seed):
    estimates, _outcomes, session = _walk(perfect, 7 + seed, 120)
    assert session.complete
    worked = session.mastery.step
    for done, estimate in enumerate(estimates):
        assert abs(estimate - (worked - done)) <= 5, (done, estimate, worked)


@pytest.mark.parametrize("seed", SEEDS)
def test_it_says_zero_only_when_complete_and_a_miss_never_brings_it_down(seed):
    estimates, outcomes, session = _walk(slipping(0.9, seed), 11 + seed, 250)
    for n, estimate in enumerate(estimates):
        assert (estimate == 0) == (session.complete and n == len(estimates) - 1)
    for n, outcome in enumerate(outcomes):
        if outcome != "correct":
            assert estimates[n + 1] >= estimates[n], n


def test_the_line_says_what_mastered_means_so_an_early_zero_reads_true():
    session = DrillSession.start(seed=21, clock=Clock())
    strategy = slipping(0.9, 3)
    for _ in range(30):
        view = session.next_case()
        session.check(strategy(session, view))
    line = progress_line(session.mastery)
    found = re.fullmatch(
        r"(\d+) of 19 rules mastered(?:, (\d+) under way)?, about (\d+) cases to go "
        r"\(a rule is mastered after 3 right first tries in a row, unaided\)\.",
        line,
    )
    assert found, line
    assert int(found.group(1)) == len(session.mastery.mastered)
    assert int(found.group(3)) == cases_to_go(session.mastery)


def test_the_record_alone_can_leave_cases_to_go():
    """Before any case the streaks of one rule need 3, but the whole record needs the sequential bar:
    the estimate counts the right cases the record still needs, and never says 0 before complete."""
    mastery = Mastery.start(["ts-lost"], seed=1)
    needed = sequential.right_answers_needed(0, 0)
    assert record_to_go(mastery) == needed > 3
    assert cases_to_go(mastery) == needed
