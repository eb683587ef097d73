"""Mastery per rule with spaced review, and version 2 progress files that never lose work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError, ProgressFileError
from helpers.core.paths import fixtures_dir
from helpers.teach.mastery import BOX_INTERVALS, MASTERY_STREAK, Mastery
from helpers.teach.progress_v2 import (
    TraineeProgress,
    load_trainee_progress,
    new_attempt_path,
    save_trainee_progress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)
from helpers.teach.rules import load_rules

RULES = load_rules()
SAMPLES = fixtures_dir() / "sample_progress"


def fresh(seed: int = 1, trainee: str = "Test") -> Mastery:
    return Mastery.start(RULES, seed=seed, trainee=trainee)


def work(m: Mastery, correct: bool, **kwargs) -> str:
    case = m.next_case()
    rule = case.rules[0]
    m.record(rule, m.case_seed(rule), answer=dict(case.expected), correct=correct, **kwargs)
    return rule


# --- mastery ---------------------------------------------------------------------------------


def test_three_correct_first_tries_in_a_row_master_a_rule():
    m = Mastery.start(RULES[:1], seed=3)
    rule = RULES[0].id
    for n in range(MASTERY_STREAK - 1):
        work(m, True)
        assert not m.states[rule].mastered, n
    work(m, True)
    assert m.states[rule].mastered and m.complete
    assert m.completion()["cases_worked"] == MASTERY_STREAK


def test_a_miss_resets_the_streak_and_brings_the_rule_back_next():
    m = fresh()
    first = work(m, True)
    assert m.states[first].box == 1
    second = work(m, False)
    state = m.states[second]
    assert (state.box, state.streak, state.due) == (0, 0, m.step)
    work(m, True)
    again = work(m, True)
    assert m.next_rule() != again


def test_a_reveal_before_a_correct_check_scores_as_a_miss_and_hints_are_recorded():
    m = fresh()
    rule = work(m, True, revealed=True, hints=2)
    attempt = m.attempts[-1]
    assert (attempt.correct, attempt.revealed, attempt.hints) == (False, True, 2)
    assert m.states[rule].streak == 0


def test_the_drill_serves_the_rule_most_due():
    m = fresh()
    served = [work(m, True) for _ in RULES]
    assert served == [rule.id for rule in RULES]  # every rule due at first, in file order
    m2 = fresh()
    missed = work(m2, False)  # due again at the next step
    for _ in RULES[1:]:
        work(m2, True)  # each correct one comes round only two or more cases later
    assert m2.next_rule() == missed
    assert m2.states[missed].due < min(m2.states[r.id].due for r in RULES[1:])


def test_every_case_is_fresh():
    m = fresh()
    seen = set()
    for _ in range(60):
        case = m.next_case()
        assert (case.rules[0], m.case_seed(case.rules[0])) not in seen
        seen.add((case.rules[0], m.case_seed(case.rules[0])))
        work(m, True)


@given(outcomes=st.lists(st.booleans(), max_size=120), seed=st.integers(0, 50))
def test_mastery_follows_the_rule_on_any_history(outcomes, seed):
    m = fresh(seed)
    history: dict[str, list[bool]] = {}
    for correct in outcomes:
        rule = work(m, correct)
        history.setdefault(rule, []).append(correct)
    for rule, results in history.items():
        state = m.states[rule]
        run, best = 0, 0
        for ok in results:
            run = run + 1 if ok else 0
            best = max(best, run)
        assert state.mastered == (best >= MASTERY_STREAK)
        assert state.streak == run
        assert 0 <= state.box < len(BOX_INTERVALS)
        assert state.due > 0 and state.attempts == len(results)
    assert m.complete == all(m.states[r.id].mastered for r in RULES)


def test_completion_summary_counts_cases_hints_and_reveals():
    m = fresh()
    while not m.complete:
        work(m, True, hints=1)
    summary = m.completion()
    assert summary["cases_worked"] == m.step == MASTERY_STREAK * len(RULES)
    assert summary["hints_used"] == m.step and summary["reveals"] == 0
    assert summary["completed_on"].endswith("Z")


def test_a_bad_start_is_refused():
    with pytest.raises(InvalidInputError, match="seed is -1"):
        Mastery.start(RULES, seed=-1)
    with pytest.raises(InvalidInputError, match="distinct rules"):
        Mastery.start([RULES[0], RULES[0]], seed=1)
    with pytest.raises(InvalidInputError, match="not a rule of this drill"):
        fresh().record("nope", 1, answer={}, correct=True)


# --- progress files, version 2 ---------------------------------------------------------------


@given(outcomes=st.lists(st.booleans(), max_size=40), trainee=st.text(max_size=12))
def test_a_version_2_file_round_trips(outcomes, trainee):
    m = fresh(2, trainee)
    for correct in outcomes:
        work(m, correct, hints=int(not correct))
    progress = TraineeProgress(m)
    data = trainee_progress_to_data(progress)
    back = trainee_progress_from_data(json.loads(json.dumps(data)))
    assert trainee_progress_to_data(back, saved=data["saved"]) == data


def test_a_real_version_1_file_migrates_on_load():
    v1 = SAMPLES / "dana-v1.json"
    assert json.loads(v1.read_text("utf-8"))["version"] == 1
    progress = load_trainee_progress(v1)
    assert progress.migrated_from == 1
    assert progress.course is not None and progress.course.done == 12
    assert progress.mastery.step == 0 and not progress.mastery.mastered


def test_every_sample_progress_file_loads():
    for path in sorted(SAMPLES.glob("*.json")):
        progress = load_trainee_progress(path)
        assert progress.mastery.rules


def test_a_newer_version_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "p.json"
    data = json.loads((SAMPLES / "ben.json").read_text("utf-8"))
    path.write_text(json.dumps({**data, "version": 3}), encoding="utf-8")
    with pytest.raises(ProgressFileError, match=r"version 3; these helpers read versions 1 and 2; .*newer"):
        load_trainee_progress(path)


def test_a_file_breaking_the_schema_names_the_place(tmp_path):
    data = json.loads((SAMPLES / "ben.json").read_text("utf-8"))
    data["mastery"]["states"][2]["box"] = -1
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProgressFileError, match=r"mastery\.states\[2\]\.box is -1, below the minimum 0"):
        load_trainee_progress(path)


def test_after_start_again_save_refuses_the_earlier_drill_unless_told(tmp_path):
    path = tmp_path / "progress.json"
    first = TraineeProgress(fresh())
    work(first.mastery, True)
    save_trainee_progress(first, path)
    before = path.read_bytes()
    again = TraineeProgress(fresh(), file_digest=first.file_digest)  # Start again: a new drill
    with pytest.raises(ProgressFileError, match=r"another drill's progress .*save as a new attempt"):
        save_trainee_progress(again, path)
    assert path.read_bytes() == before
    other = new_attempt_path(path)
    assert other.name == "progress-2.json"
    save_trainee_progress(again, other)
    save_trainee_progress(again, path, overwrite=True)
    assert load_trainee_progress(path).attempt_id == again.attempt_id


def test_saving_over_a_foreign_file_is_refused_even_with_overwrite(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"mine": true}\n', encoding="utf-8")
    with pytest.raises(ProgressFileError, match=r"not a practice progress file.*not overwritten"):
        save_trainee_progress(TraineeProgress(fresh()), path, overwrite=True)
    assert path.read_text("utf-8") == '{"mine": true}\n'


def test_a_second_window_saving_the_same_drill_is_not_silently_lost(tmp_path):
    path = tmp_path / "progress.json"
    one = TraineeProgress(fresh())
    save_trainee_progress(one, path)
    two = load_trainee_progress(path)
    work(two.mastery, True)
    save_trainee_progress(two, path)
    work(one.mastery, False)
    with pytest.raises(ProgressFileError, match="saved from another window"):
        save_trainee_progress(one, path)
    assert load_trainee_progress(path).mastery.step == 1


_SAVER = """
import sys, time
from helpers.teach.mastery import Mastery
from helpers.teach.progress_v2 import TraineeProgress, save_trainee_progress
from helpers.teach.rules import load_rules
from helpers.core.errors import ProgressFileError
p = TraineeProgress(Mastery.start(load_rules(), seed=int(sys.argv[2]), trainee=sys.argv[2]))
while time.time() < float(sys.argv[3]):
    pass
try:
    save_trainee_progress(p, sys.argv[1])
    print("saved")
except ProgressFileError as exc:
    print("refused")
"""


def test_two_processes_saving_at_the_same_moment_never_both_report_saved(tmp_path):
    import time

    for trial in range(6):
        path = tmp_path / f"race-{trial}.json"
        go = str(time.time() + 1.0)
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", _SAVER, str(path), str(n), go],
                stdout=subprocess.PIPE,
                text=True,
                cwd=Path(__file__).resolve().parent.parent,
            )
            for n in (1, 2)
        ]
        said = sorted(run.communicate(timeout=60)[0].strip() for run in runs)
        assert said == ["refused", "saved"], said
        assert load_trainee_progress(path).trainee in {"1", "2"}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "progress.json"
    os.mkfifo(fifo)
    result: list[str] = []

    def attempt():
        for call in (
            lambda: load_trainee_progress(fifo),
            lambda: save_trainee_progress(TraineeProgress(fresh()), fifo),
        ):
            try:
                call()
            except ProgressFileError as exc:
                result.append(exc.message)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "a FIFO blocked the drill"
    assert len(result) == 2 and all("not a regular file" in message for message in result)


def test_saving_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    link = tmp_path / "link.json"
    save_trainee_progress(TraineeProgress(fresh()), real)
    link.symlink_to(real)
    progress = load_trainee_progress(link)
    work(progress.mastery, True)
    written = save_trainee_progress(progress, link)
    assert written == real.resolve() and link.is_symlink()
    assert load_trainee_progress(real).mastery.step == 1
