"""The scripted trainee notebooks 04, 06 and 07 drive the drill and the check-out with."""

from __future__ import annotations

import datetime as _dt

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.views.rule_walks import Clock, key_answer, right_answer, scored_line, slip
from helpers.trainer.marking import verdict_of
from helpers.trainer.sitting import issue_checkout


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), check=st.sampled_from([None, "target-scope", "sentinels"]))
def test_the_right_answer_scores_correct_and_a_slip_is_wrong_in_one_field(
    seed: int, check: str | None
) -> None:
    drill = DrillSession.start(seed=seed, check=check, clock=Clock())
    for number in range(1, 13):
        view = drill.next_case()
        if number % 3:
            result = drill.check(right_answer(view))
            assert (result.correct, result.outcome) == (True, "correct")
        else:
            result = drill.check(slip(right_answer(view)))
            assert (result.correct, result.outcome) == (False, "missed")
            assert len({field for field, _ in result.mistakes}) == 1


def test_the_key_answer_is_right_on_every_case_of_a_key_and_a_slip_is_not() -> None:
    issued = issue_checkout("Sample trainee", seed=3, issued="2026-12-01T09:00:00Z")
    for record in issued.key["cases"]:
        answer, action = key_answer(record)
        assert verdict_of(record, (answer, action)).correct
        assert not verdict_of(record, (slip(answer), action)).correct


def test_the_scored_line_says_the_streak_then_the_wait_for_review() -> None:
    drill = DrillSession.start(seed=5, check="target-scope", clock=Clock())
    lines = []
    while not drill.mastered:
        drill.check(right_answer(drill.next_case()))
        lines.append(scored_line(drill))
    assert lines[0] == "case  1 ts-empty             correct  streak 1/3"
    assert lines[-1] == "case 19 ts-empty             correct  mastered, next review in 20 cases"


def test_the_clock_moves_a_minute_a_reading_and_days_on_waiting() -> None:
    clock = Clock()
    first = clock()
    clock.wait(days=30)
    assert first == _dt.datetime(2026, 12, 1, 9, 1, tzinfo=_dt.UTC)
    assert clock() - first == _dt.timedelta(days=30, minutes=1)


def test_a_state_is_described_in_words_with_no_python_values() -> None:
    import re

    from helpers.trainee.drill.state import RuleState
    from helpers.trainee.views.rule_walks import described, word

    assert (word(True), word(False), word(None), word(3)) == ("yes", "no", "none", "3")
    drill = DrillSession.start(seed=5, check="target-scope", clock=Clock())
    state = next(iter(drill.mastery.states.values()))
    assert isinstance(state, RuleState)
    text = described(state)
    assert text.startswith(f"rule {state.rule}; streak {state.streak}")
    assert not re.search(r"\b(True|False|None)\b|object at 0x", text)


def test_an_earlier_drill_is_served_and_judged_by_its_model_and_carried_on_by_this_one() -> None:
    from helpers.trainee.drill.mastery import MASTERY_MODEL, replay_schedule
    from helpers.trainee.views.rule_walks import carried_on, earlier_drill

    old = earlier_drill(1, seed=5, check="target-scope", clock=Clock())
    assert old.mastery.model == 1 and old.seed_kind == "fixed"
    while not old.complete:
        answer = right_answer(old.next_case())
        old.check(slip(answer) if len(old.attempts) + 1 in (2, 5, 8, 11) else answer)
    m = old.mastery
    now = carried_on(old, m.step)
    assert now.mastery.model == MASTERY_MODEL and not now.complete  # this model asks more
    assert now.model_since == m.step + 1 and now.attempts == m.attempts
    file = carried_on(old, 40, clock=Clock())
    assert len(file.attempts) == 40 and file.model_since == 41
    while not file.complete:
        file.check(right_answer(file.next_case()))
    assert replay_schedule(m.seed, file.attempts, m.rules, model_since=41) == []
    assert replay_schedule(m.seed, file.attempts, m.rules, model_since=42)  # case 41 was this model's
    assert replay_schedule(m.seed, file.attempts, m.rules)  # cases 1-40 were model 1's
