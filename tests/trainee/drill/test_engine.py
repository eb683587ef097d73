"""The drill engine: only unaided first tries count, mastery can be lost, review is spaced in days."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import itertools
from collections.abc import Mapping
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from trainees import Clock, _blind_answer

from helpers.core.errors import InvalidInputError, ProgressFileError
from helpers.trainee.cases.deciding_rule import keyed_rule
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.model import (
    FACET_STREAK,
    FACET_STREAK_MAX,
    FACET_STREAKS,
    MASTERY_STREAK,
    OUTCOMES,
)
from helpers.trainee.drill.times import now_text
from helpers.trainee.grading import Answer
from helpers.trainee.progress.files import (
    TraineeProgress,
    load_trainee_progress,
    save_trainee_progress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)

T0 = "2026-12-01T09:00:00Z"


def attempt(number: int, rule: str, outcome: str, *, when: str = T0, facets: tuple[str, ...] = ()):
    return MasteryAttempt(
        number=number,
        rule=rule,
        seed=number,
        facet=None,
        facets=facets,
        options=(),
        answer=None,
        outcome=outcome,
        correct=outcome in ("correct", "helped"),
        hints=1 if outcome == "helped" else 0,
        revealed=outcome == "revealed",
        served=when,
        answered=when,
    )


def feed(mastery: Mastery, *items: tuple[str, str]) -> None:
    for rule, outcome in items:
        mastery.record(attempt(mastery.step + 1, rule, outcome))


def test_three_unaided_correct_first_tries_master_a_rule() -> None:
    m = Mastery.start(["a", "b"], seed=1)
    feed(m, ("a", "correct"), ("a", "correct"))
    assert m.mastered == []
    feed(m, ("a", "correct"))
    assert m.mastered == ["a"] and m.states["a"].times_mastered == 1


@pytest.mark.parametrize("slip", ["helped", "missed", "revealed", "skipped"])
def test_only_an_unaided_correct_try_counts_and_any_other_outcome_ends_the_streak(slip: str) -> None:
    m = Mastery.start(["a"], seed=1)
    feed(m, ("a", "correct"), ("a", "correct"), ("a", slip), ("a", "correct"), ("a", "correct"))
    assert m.states["a"].streak == 2 and not m.states["a"].mastered


def test_a_miss_after_mastery_takes_the_mastery_away_and_it_can_be_regained() -> None:
    m = Mastery.start(["a"], seed=1)
    feed(m, *[("a", "correct")] * 3, ("a", "missed"), ("a", "missed"))
    state = m.states["a"]
    assert not state.mastered and state.times_lost == 1 and state.streak == 0
    feed(m, *[("a", "correct")] * MASTERY_STREAK)
    assert m.states["a"].mastered and m.states["a"].times_mastered == 2


@pytest.mark.parametrize("kind", ["nfd", "homoglyph"])
def test_a_facet_is_secured_by_unaided_cases_in_a_row_and_lost_by_a_slip_on_one(kind) -> None:
    m = Mastery.start(["a"], seed=1, facets=[kind])
    run = FACET_STREAKS.get(kind, FACET_STREAK)
    assert run == (3 if kind == "homoglyph" else 1)  # the kind of many letters needs three in a row
    for number in range(1, run + 1):
        assert m.secured == []
        m.record(attempt(number, "a", "correct", facets=(kind,)))
    assert m.secured == [kind]
    m.record(attempt(m.step + 1, "a", "missed", facets=(kind,)))
    assert m.secured == [] and not m.complete
    # each miss on the kind asks for one more unaided case in a row, up to FACET_STREAK_MAX
    assert m.facet_states[kind].needed == run + 1
    for _ in range(run):
        m.record(attempt(m.step + 1, "a", "correct", facets=(kind,)))
    assert m.secured == []
    m.record(attempt(m.step + 1, "a", "correct", facets=(kind,)))
    assert m.secured == [kind]
    for _ in range(10):
        m.record(attempt(m.step + 1, "a", "missed", facets=(kind,)))
    assert m.facet_states[kind].needed == FACET_STREAK_MAX


def test_the_drill_is_complete_only_when_every_case_so_far_clears_the_sequential_test() -> None:
    m = Mastery.start(["a", "b"], seed=1)
    feed(m, *[("a", "correct"), ("b", "correct")] * MASTERY_STREAK)
    assert m.mastered == ["a", "b"] and not m.complete  # 6 of 6 right is far from the bar
    assert m.fewest_cases_left() == 27 - 6
    while m.step < 26:
        feed(m, ("a" if m.step % 2 else "b", "correct"))
    assert not m.complete and m.fewest_cases_left() == 1
    feed(m, ("a" if m.step % 2 else "b", "correct"))
    assert m.complete and m.fewest_cases_left() == 0  # 27 of 27: (19/17)**27 >= 20
    feed(m, ("a" if m.step % 2 else "b", "missed"))
    assert not m.complete  # a miss takes the rule's mastery, and the evidence below the bar


def test_attempts_must_arrive_in_order() -> None:
    m = Mastery.start(["a"], seed=1)
    with pytest.raises(InvalidInputError, match="case number 3"):
        m.record(attempt(3, "a", "correct"))
    with pytest.raises(InvalidInputError, match="not a rule"):
        m.record(attempt(1, "zz", "correct"))


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(OUTCOMES)), max_size=40))
def test_the_state_is_a_function_of_the_attempts_alone(items: list[tuple[str, str]]) -> None:
    m = Mastery.start(["a", "b", "c"], seed=3)
    feed(m, *items)
    again = Mastery.replay(["a", "b", "c"], seed=3, facets=[], attempts=m.attempts)
    assert again.states == m.states
    for rule in "abc":
        outcomes = [o for r, o in items if r == rule]
        tail = 0
        for outcome in reversed(outcomes):
            if outcome != "correct":
                break
            tail += 1
        assert m.states[rule].streak == tail
        assert m.states[rule].mastered == (tail >= MASTERY_STREAK)


def test_a_missed_rule_comes_back_after_two_other_cases_and_never_twice_running() -> None:
    m = Mastery.start(["a", "b", "c", "d", "e", "f"], seed=2)
    first = m.next_rule(T0)
    feed(m, (first, "missed"))
    served = []
    for _ in range(3):
        rule = m.next_rule(T0)
        served.append(rule)
        feed(m, (rule, "correct"))
    assert first not in served[:2] and served[2] == first
    assert all(x != y for x, y in itertools.pairwise(served))


def test_review_is_spaced_in_days_and_a_due_rule_is_served_first() -> None:
    m = Mastery.start(["a", "b"], seed=1)
    feed(m, *[("a", "correct")] * 3)
    assert m.due(T0) == []
    due_on = m.states["a"].review_due()
    assert due_on is not None and due_on > "2026-12-02"
    feed(m, ("b", "missed"))
    later = "2027-03-01T09:00:00Z"
    assert m.due(later) == ["a"]
    assert m.next_rule(later) == "a"  # before "b", which is open and was missed


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("abc"), st.sampled_from(OUTCOMES), st.integers(min_value=0, max_value=3 * 86_400)
        ),
        max_size=30,
    ),
    st.integers(min_value=0, max_value=60 * 86_400),
)
def test_due_names_every_mastered_rule_whose_card_is_due_and_no_other(steps, later) -> None:
    m = Mastery.start(["a", "b", "c"], seed=3)
    asked = Mastery.start(["a", "b", "c"], seed=3)  # asked after every case: what it keeps is kept up to date
    moment = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)
    for number, (rule, outcome, gap) in enumerate(steps, 1):
        moment += dt.timedelta(seconds=gap)
        m.record(dataclasses.replace(attempt(number, rule, outcome, when=now_text(moment))))
        asked.record(dataclasses.replace(attempt(number, rule, outcome, when=now_text(moment))))
        now = moment + dt.timedelta(seconds=later)
        assert asked.due(now_text(now)) == _due_from_cards(asked, now)
    now = moment + dt.timedelta(seconds=later)
    assert m.due(now_text(now)) == _due_from_cards(m, now)


def test_due_follows_each_case_recorded_after_it_was_asked() -> None:
    m = Mastery.start(["a", "b"], seed=1)
    later = "2027-03-01T09:00:00Z"
    assert m.due(later) == []  # asked before any rule is mastered
    feed(m, *[("a", "correct")] * 3)
    assert m.due(later) == ["a"]
    feed(m, *[("b", "correct")] * 3)
    assert sorted(m.due(later)) == ["a", "b"]
    feed(m, ("a", "missed"))  # mastery lost: no review due
    assert m.due(later) == ["b"] == _due_from_cards(m, dt.datetime(2027, 3, 1, 9, tzinfo=dt.UTC))


def _due_from_cards(m: Mastery, now: dt.datetime) -> list[str]:
    """The mastered rules whose card is due at ``now``, earliest first, every card asked."""
    cards = {r: s.card for r, s in m.states.items() if s.mastered and s.card is not None}
    return [r for _due, r in sorted((c.due, r) for r, c in cards.items() if c.due <= now)]


# --- the session ---------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def test_only_the_first_check_scores_and_the_rule_is_named_only_after_it() -> None:
    s = DrillSession.start(seed=3, clock=Clock())
    view = s.next_case()
    wrong = Answer(view.check, flag=None)
    first = s.check(wrong)
    assert first.scored and first.outcome == "missed" and not first.correct
    assert "This case was about" in first.text
    right = s.check(_blind_answer(view, None))
    assert right.correct and not right.scored and right.outcome is None
    assert s.attempts[-1].outcome == "missed"


def test_a_hinted_answer_is_recorded_as_helped_and_hints_never_check_the_answer() -> None:
    s = DrillSession.start(seed=4, clock=Clock())
    view = s.next_case()
    rungs = []
    while s.hints_left:
        rungs.append(s.hint())
    assert len(rungs) == 3
    for rung in rungs:
        assert "already right" not in rung and "Tick " not in rung and "Untick " not in rung
    result = s.check(_blind_answer(view, None))
    assert result.correct and result.outcome == "helped"
    assert s.attempts[-1].hints == 3 and not s.attempts[-1].unaided


def test_revealing_before_a_check_and_skipping_both_count_as_misses() -> None:
    s = DrillSession.start(seed=5, clock=Clock())
    s.next_case()
    assert "Expected output" in s.reveal()
    assert s.attempts[-1].outcome == "revealed"
    s.next_case()
    s.next_case()  # the second case is skipped
    assert [a.outcome for a in s.attempts] == ["revealed", "skipped"]


def test_cases_are_interleaved_and_never_announce_their_rule() -> None:
    s = DrillSession.start(seed=6, clock=Clock())
    checks, rules = [], []
    for _ in range(30):
        view = s.next_case()
        checks.append(view.check)
        s.check(_blind_answer(view, None))
        rules.append(s.attempts[-1].rule)
    assert len(set(checks[:10])) == 2
    assert all(a != b for a, b in itertools.pairwise(rules))


def test_a_deep_copy_is_an_independent_session() -> None:
    s = DrillSession.start(seed=8, clock=Clock())
    view = s.next_case()
    twin = copy.deepcopy(s)
    s.check(_blind_answer(view, None))
    assert len(s.attempts) == 1 and twin.attempts == [] and twin.current == view
    twin.reveal()
    assert s.attempts[-1].outcome == "correct" and twin.attempts[-1].outcome == "revealed"


def test_the_keyed_reason_is_always_offered() -> None:
    s = DrillSession.start(seed=9, clock=Clock())
    for _ in range(60):
        view = s.next_case()
        record = {k: v for k, v in _plain(view.input).items() if k not in ("earlier_key", "rubric_revision")}
        context = {k: v for k, v in _plain(view.input).items() if k in ("earlier_key", "rubric_revision")}
        assert keyed_rule(view.check, record, context) in [r for _t, r in view.reason_options]
        s.check(_blind_answer(view, None))


# --- progress files, version 3 ---------------------------------------------------------------------


class DayClock(Clock):
    def jump(self, days: int) -> None:
        self.now += dt.timedelta(days=days)


def _worked(seed: int, cases: int, clock: Clock) -> DrillSession:
    s = DrillSession.start(seed=seed, trainee="Asha", clock=clock)
    for _ in range(cases):
        view = s.next_case()
        s.check(_blind_answer(view, None))
    return s


def test_a_saved_drill_reloads_exactly_and_says_which_rules_are_due_days_later(tmp_path) -> None:
    clock = DayClock()
    s = _worked(1, 80, clock)
    assert s.complete
    path = tmp_path / "progress.json"
    save_trainee_progress(TraineeProgress(s.record()), path)
    loaded = load_trainee_progress(path)
    assert loaded.mastery.states == s.mastery.states and loaded.mastery.attempts == s.mastery.attempts
    reopened = DrillSession.resume(loaded.drill, clock=clock)  # reopened a month later
    clock.jump(30)
    due = reopened.due()
    assert due and set(due) <= set(s.mastered)
    view = reopened.next_case()
    assert reopened._open is not None and reopened._open.rule == due[0]
    assert view.number == s.mastery.step + 1


def test_claimed_states_are_rebuilt_from_the_attempts(tmp_path) -> None:
    s = _worked(2, 12, Clock())
    data = trainee_progress_to_data(TraineeProgress(s.record()))
    for state in data["mastery"]["states"]:
        state.update(streak=9, mastered_on=T0, times_mastered=1)
    loaded = trainee_progress_from_data(data)
    assert loaded.mastery.states == s.mastery.states


def test_a_file_whose_attempts_cannot_be_replayed_is_refused() -> None:
    s = _worked(2, 3, Clock())
    data = trainee_progress_to_data(TraineeProgress(s.record()))
    data["mastery"]["attempts"][1]["number"] = 7
    with pytest.raises(ProgressFileError, match="cannot be replayed"):
        trainee_progress_from_data(data)


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("attempt_id", "0123456789abcdef\n"),
        ("saved", "٢٠٢٦-12-01T09:00:00Z"),
        ("saved", "2026-12-01T09:00:00Z\n"),
    ],
)
def test_the_schema_is_anchored_and_takes_ascii_digits_only(where: str, value: str) -> None:
    data = trainee_progress_to_data(TraineeProgress(DrillSession.start(seed=1).record()))
    data[where] = value
    with pytest.raises(ProgressFileError, match="schema"):
        trainee_progress_from_data(data)


def test_version_2_practice_is_kept_as_earlier_and_mastery_starts_afresh() -> None:
    v2 = {
        "format": "eval-integrity-practice-progress",
        "version": 2,
        "trainee": "Ben",
        "attempt_id": "0123456789abcdef",
        "content_hash": "377a81a79e73181d",
        "saved": T0,
        "mastery": {
            "seed": 4,
            "started": T0,
            "rules": ["ts-lost"],
            "states": [],
            "attempts": [{"rule": "ts-lost"}],
        },
        "course": None,
    }
    loaded = trainee_progress_from_data(v2)
    assert loaded.migrated_from == 2 and loaded.mastery.step == 0 and loaded.trainee == "Ben"
    assert loaded.earlier == {
        "version": 2,
        "content_hash": "377a81a79e73181d",
        "attempts": [{"rule": "ts-lost"}],
    }
    again = trainee_progress_from_data(trainee_progress_to_data(loaded))
    assert again.earlier == loaded.earlier


def test_a_newer_version_is_refused() -> None:
    with pytest.raises(ProgressFileError, match="newer version"):
        trainee_progress_from_data({"format": "eval-integrity-practice-progress", "version": 4})


def test_a_progress_file_reads_into_plain_records_without_building_a_drill(tmp_path, monkeypatch) -> None:
    """The saved record is plain data: reading a file builds no engine; resuming one gives the same drill."""
    s = _worked(3, 12, DayClock())
    path = tmp_path / "progress.json"
    save_trainee_progress(TraineeProgress(s.record()), path)

    def no_engine(*args, **kwargs):
        raise AssertionError("a drill was built to read a file")

    monkeypatch.setattr(DrillSession, "__init__", no_engine)
    loaded = load_trainee_progress(path)
    monkeypatch.undo()
    assert loaded.drill == s.record()
    again = DrillSession.resume(loaded.drill)
    assert again.record() == loaded.drill and again.mastery.step == s.mastery.step
