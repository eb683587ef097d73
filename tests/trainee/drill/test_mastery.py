"""Progress files (version 3) that never lose work; the drill's own rules are in test_session.py."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from budget import examples, sampled
from hypothesis import given, settings
from hypothesis import strategies as st
from trainees import _blind_answer

from helpers.core.errors import ProgressFileError
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.grading import Answer
from helpers.trainee.progress.files import (
    TraineeProgress,
    _plain_attempt,
    _schema_problem,
    load_trainee_progress,
    new_attempt_path,
    save_trainee_progress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)

RULES = load_rules()
SAMPLES = fixtures_dir() / "sample_progress"


def fresh(seed: int = 1, trainee: str = "Test") -> DrillSession:
    return DrillSession.start(seed=seed, trainee=trainee, rules=RULES)


def work(s: DrillSession, correct: bool, hints: int = 0) -> None:
    """Serve a case and answer it right or wrong, after ``hints`` hints."""
    view = s.next_case()
    for _ in range(hints):
        s.hint()
    s.check(_blind_answer(view, None) if correct else Answer(view.check, flag=None))


# --- progress files ----------------------------------------------------------------------------


@settings(max_examples=examples(25), deadline=None)
@given(outcomes=st.lists(st.booleans(), max_size=30), trainee=st.text(max_size=12))
def test_a_version_3_file_round_trips(outcomes, trainee):
    s = fresh(2, trainee)
    for correct in outcomes:
        work(s, correct, hints=int(not correct))
    progress = TraineeProgress(s.record())
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
    path.write_text(json.dumps({**data, "version": 4}), encoding="utf-8")
    with pytest.raises(
        ProgressFileError, match=r"version 4; these helpers read versions 1, 2 and 3; .*newer"
    ):
        load_trainee_progress(path)


def test_a_file_breaking_the_schema_names_the_place(tmp_path):
    data = json.loads((SAMPLES / "ben.json").read_text("utf-8"))
    data["mastery"]["states"][2]["streak"] = -1
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(
        ProgressFileError, match=r"schema: mastery\.states\[2\]\.streak must be bigger than or equal to 0"
    ):
        load_trainee_progress(path)


def _places(node: object, here: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, as the keys and indexes that lead there."""
    found = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _places(value, (*here, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _places(value, (*here, index))
    return found


_CHEN = json.loads((SAMPLES / "chen.json").read_text("utf-8"))
_CHEN_PLACES = _places(_CHEN)[1:]
_ODD = [
    None,
    5,
    -1,
    1.5,
    True,
    "",
    "X",
    "a" * 50,
    "2026-11-02T13:30:00Z\n",
    [],
    {},
    ["x"],
    [5],
    "٢",
    "ts-order",
]


def _change(node: dict, changes: list[tuple[tuple, object]]) -> None:
    """Make each change in ``node``: at a place, a value, ``"drop"`` (the key goes) or ``"extra"`` (a key comes)."""
    for place, value in changes:
        parent = node
        try:
            for step in place[:-1]:
                parent = parent[step]
            if value == "drop":
                del parent[place[-1]]
            elif value == "extra" and isinstance(parent, dict):
                parent["extra"] = 1
            else:
                parent[place[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change took this place away


@functools.cache
def _plain_schema():
    """The schema file compiled as it stands."""
    import fastjsonschema

    from helpers.core.jsonio import load_json_file

    return fastjsonschema.compile(load_json_file(fixtures_dir() / "schemas" / "progress-v3.schema.json"))


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_CHEN_PLACES), st.sampled_from([*_ODD, "drop", "extra"])), max_size=3)
)
def test_the_compiled_schema_judges_every_file_as_the_schema_file_does(changes):
    import fastjsonschema

    from helpers.trainee.progress.files import schema_validator

    plain = _plain_schema()
    data = json.loads(json.dumps(_CHEN))
    _change(data, changes)
    verdicts = []
    for validate in (plain, schema_validator()):
        try:
            validate(data)
            verdicts.append(None)
        except fastjsonschema.JsonSchemaException as exc:
            verdicts.append(str(exc))
    assert verdicts[0] == verdicts[1]
    # The reader's check, which leaves out attempts it proves plain, says the same.
    said = _schema_problem(data)
    expected = verdicts[0] and verdicts[0].replace("data.", "", 1).replace("data ", "the file ", 1)
    assert said == expected


_ATTEMPT = _CHEN["mastery"]["attempts"][3]
_ATTEMPT_PLACES = _places(_ATTEMPT)[1:]
_ATTEMPT_ODD = [*_ODD, "drop", "extra", 0, 10**9, 2.0, False, "ts-lost\n", "T" * 41, "x" * 41, "sk-missing"]


def _changed_attempt(changes: list[tuple[tuple, object]]) -> tuple[dict, dict]:
    """A copy of chen.json whose fourth attempt has ``changes``; the file, and that attempt."""
    data = json.loads(json.dumps(_CHEN))
    attempt = data["mastery"]["attempts"][3]
    _change(attempt, changes)
    return data, attempt


def test_an_attempt_is_taken_as_plain_only_when_the_schema_accepts_it():
    """The fast check of an attempt never passes one the schema refuses (it may send a good one to
    the schema): every single change of every field to every odd value."""
    taken = 0
    for place in _ATTEMPT_PLACES:
        for value in _ATTEMPT_ODD:
            data, attempt = _changed_attempt([(place, value)])
            if _plain_attempt(attempt):
                taken += 1
                _plain_schema()(data)  # accepted by the schema file itself, or this raises
    assert taken  # some changes keep the attempt plain (a rule id for a rule id, say)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_ATTEMPT_PLACES), st.sampled_from(_ATTEMPT_ODD)), min_size=2, max_size=3
    )
)
def test_an_attempt_changed_in_several_places_is_plain_only_when_the_schema_accepts_it(changes):
    data, attempt = _changed_attempt(changes)
    if _plain_attempt(attempt):
        _plain_schema()(data)


def test_every_attempt_of_a_genuine_drill_is_taken_as_plain():
    for path in sorted(SAMPLES.glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        if data.get("version") == 3:
            assert all(_plain_attempt(a) for a in data["mastery"]["attempts"]), path.name


def test_after_start_again_save_refuses_the_earlier_drill_unless_told(tmp_path):
    path = tmp_path / "progress.json"
    first = TraineeProgress(fresh().record())
    work(DrillSession.resume(first.drill), True)
    save_trainee_progress(first, path)
    before = path.read_bytes()
    again = TraineeProgress(fresh().record(), file_digest=first.file_digest)  # Start again: a new drill
    with pytest.raises(ProgressFileError, match=r"your earlier progress .*save as a new attempt"):
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
        save_trainee_progress(TraineeProgress(fresh().record()), path, overwrite=True)
    assert path.read_text("utf-8") == '{"mine": true}\n'


def test_a_second_window_saving_the_same_drill_is_not_silently_lost(tmp_path):
    path = tmp_path / "progress.json"
    one = TraineeProgress(fresh().record())
    save_trainee_progress(one, path)
    two = load_trainee_progress(path)
    work(DrillSession.resume(two.drill), True)
    save_trainee_progress(two, path)
    work(DrillSession.resume(one.drill), False)
    with pytest.raises(ProgressFileError, match="saved from another window"):
        save_trainee_progress(one, path)
    assert load_trainee_progress(path).mastery.step == 1


_SAVER = """
import sys, time
from helpers.trainee.progress.files import TraineeProgress, save_trainee_progress
from helpers.trainee.drill.engine import DrillSession
from helpers.core.errors import ProgressFileError
p = TraineeProgress(DrillSession.start(seed=int(sys.argv[2]), trainee=sys.argv[2]).record())
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

    for trial in range(sampled(6, 2)):
        path = tmp_path / f"race-{trial}.json"
        go = str(time.time() + 1.0)
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", _SAVER, str(path), str(n), go],
                stdout=subprocess.PIPE,
                text=True,
                cwd=Path(__file__).resolve().parents[3],
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
            lambda: save_trainee_progress(TraineeProgress(fresh().record()), fifo),
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
    save_trainee_progress(TraineeProgress(fresh().record()), real)
    link.symlink_to(real)
    progress = load_trainee_progress(link)
    work(DrillSession.resume(progress.drill), True)
    written = save_trainee_progress(progress, link)
    assert written == real.resolve() and link.is_symlink()
    assert load_trainee_progress(real).mastery.step == 1


def test_the_saved_record_is_never_a_running_drill():
    """A DrillSession holds a clock and the cases' engine; a file holds only its record."""
    with pytest.raises(TypeError, match=r"DrillSession\.record\(\)"):
        TraineeProgress(fresh())  # type: ignore[arg-type]
    assert TraineeProgress(fresh().record()).trainee == "Test"


def test_rule_ids_seen_before_do_not_pass_a_list_with_anything_else_in_it():
    from helpers.trainee.progress.files import _rule_ids

    assert _rule_ids(["ts-lost", "sk-missing"]) and _rule_ids(["sk-missing", "ts-lost"]) and _rule_ids([])
    for odd in (5, None, True, 2.0, ["ts-lost"], {"ts-lost": 1}, "ts-lost\n", "T", "x" * 42, ""):
        assert not _rule_ids(["ts-lost", odd]), odd
        assert not _rule_ids([odd, "sk-missing"]), odd
    assert not _rule_ids(("ts-lost",)) and not _rule_ids("ts-lost")
