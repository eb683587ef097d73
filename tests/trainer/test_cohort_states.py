"""The cohort's states are the re-grade's, never the file's own claims (``06_trainer.ipynb``).

A trainee's file rebuilds its states from the verdicts it claims; the cohort must show the
states the re-graded verdicts give. So flipping any verdicts in a genuine file, with its
claimed states made to agree (as a careful forger does), leaves every state the cohort shows
as the genuine file's, and the file's own states differ from them.
"""

from __future__ import annotations

import json
from pathlib import Path

from budget import examples
from forgers import at_rate, consistent, drill
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainer.cohort import load_cohort, read_progress_data

GENUINE = drill(301, 60, at_rate(0.6, 301), name="Honest", stop_when_complete=False)
MISSES = [i for i, a in enumerate(GENUINE["mastery"]["attempts"]) if a["outcome"] != "correct"]


def _claimed_right(indices: set[int]) -> dict:
    """The genuine file with the attempts at ``indices`` claimed right, answers left as they were."""
    data = json.loads(json.dumps(GENUINE))
    for index in indices:
        data["mastery"]["attempts"][index].update(
            outcome="correct", correct=True, hints=0, revealed=False, fields_wrong=[], rules_missed=[]
        )
    data = consistent(data)
    data["trainee"] = "Claimer"
    return data


def _states(folder: Path, data: dict) -> tuple[dict, dict]:
    """The states the cohort shows for ``data``, and the ones the file itself rebuilds."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "trainee.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    (trainee,) = load_cohort([path], workers=1).trainees
    return trainee.states, dict(read_progress_data(path)[0].mastery.states)


def test_the_genuine_file_and_the_cohort_agree(tmp_path):
    shown, own = _states(tmp_path, GENUINE)
    assert MISSES and shown == own


def test_every_miss_claimed_right_still_shows_the_regraded_states(tmp_path):
    honest, _ = _states(tmp_path / "honest", GENUINE)
    shown, own = _states(tmp_path / "claimer", _claimed_right(set(MISSES)))
    assert own != honest  # the file's own word: more right answers, longer streaks
    assert shown == honest
    assert [rule for rule, s in shown.items() if s.mastered] == [r for r, s in honest.items() if s.mastered]


@settings(max_examples=examples(8), deadline=None)
@given(flipped=st.sets(st.sampled_from(MISSES), min_size=1))
def test_any_verdicts_claimed_right_leave_the_regraded_states(tmp_path_factory, flipped):
    folder = tmp_path_factory.mktemp("flipped")
    honest, _ = _states(folder / "honest", GENUINE)
    shown, own = _states(folder / "claimer", _claimed_right(flipped))
    assert shown == honest
    assert own != honest
