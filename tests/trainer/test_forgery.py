"""Nothing a trainee holds makes them ready: each way of looking ready without the evidence is flagged.

The rows are issue 29's table (1, 2, 5, 6, 7, 8, 9, 12) and issue 30's row 9. Each forged file is
made through the real drill engine and kept self-consistent (``tests/support/forgers.py``); a
passed check-out is given through the interface readiness reads (``passed``, ``verified``, ...).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from forgers import (
    SKIP,
    at_rate,
    consistent,
    drill,
    empty_drill,
    every_hint_drill,
    hints_erased,
    misses_made_right,
    right,
    shifted,
    three_in_a_row,
    wrong,
)
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.paths import fixtures_dir
from helpers.trainee.drill.course import DEFAULT_DRILL_SEED
from helpers.trainee.drill.replay import replay_drill
from helpers.trainee.progress.timing import MIN_CASE_SECONDS, MIN_DRILL_SECONDS_PER_CASE, time_problems
from helpers.trainer import cohort as module
from helpers.trainer.cohort import Cohort, load_cohort, read_progress_data
from helpers.trainer.regrade import checkout_reasons, replay_v3
from helpers.trainer.views.cohort_views import cohort_csv, cohort_json_lines, cohort_table, cohort_text

SAMPLES = fixtures_dir() / "sample_progress"
PASSED = {"passed": True, "verified": True, "practice": False, "proctored": True}


def _put(folder: Path, name: str, data: dict) -> Path:
    path = folder / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _checked_out(cohort: Cohort, result: dict | None = PASSED) -> Cohort:
    """The cohort with a passed check-out for every trainee, as :func:`load_checkouts` would give it."""
    return replace(cohort, trainees=tuple(replace(t, checkout=result) for t in cohort.trainees))


def _one(folder: Path, **kw) -> module.Trainee:
    cohort = _checked_out(load_cohort([folder], **kw))
    (t,) = cohort.trainees
    return t


def _only_the_replay_sees(path: Path) -> list[str]:
    """The forgery passes every check but the engine's replay (what a careful forger achieves)."""
    progress, data = read_progress_data(path)
    assert replay_v3(progress, data).problems == ()
    return replay_drill(progress)


# --- ready means both ------------------------------------------------------------------------


def test_a_complete_clean_drill_and_a_passed_check_out_is_ready(tmp_path):
    shutil.copy(SAMPLES / "asha.json", tmp_path / "asha.json")
    t = _one(tmp_path)
    assert t.ready and t.not_ready == ()


def test_row_1_no_rule_mastered_and_a_passed_check_out_is_not_ready(tmp_path):
    _put(tmp_path, "half.json", drill(101, 40, at_rate(0.5, 1), name="Half"))
    t = _one(tmp_path)
    assert not t.problems and len(t.mastered) < 19
    assert not t.ready and t.not_ready == (f"practice: {len(t.mastered)} of 19 rules mastered",)


def test_row_2_an_empty_drill_and_a_passed_check_out_is_not_ready(tmp_path):
    _put(tmp_path, "empty.json", empty_drill(102))
    t = _one(tmp_path)
    assert not t.ready and "no practice: the drill holds no cases" in t.not_ready


@pytest.mark.parametrize(
    "result, reason",
    [
        (None, "no graded check-out"),
        ({**PASSED, "passed": False}, "the check-out did not pass"),
        ({**PASSED, "verified": False}, "not verified"),
        ({**PASSED, "practice": True}, "practice paper"),
    ],
)
def test_a_check_out_that_does_not_count_says_why(tmp_path, result, reason):
    shutil.copy(SAMPLES / "asha.json", tmp_path / "asha.json")
    (t,) = _checked_out(load_cohort([tmp_path]), result).trainees
    assert not t.ready and any(reason in r for r in t.not_ready)


def test_only_a_proctored_check_out_counts_unless_others_are_accepted():
    own_machine = [
        "the check-out was sat on the trainee's own machine, not proctored, and only proctored ones count "
        "here (cohort --accept-unproctored counts it)"
    ]
    assert checkout_reasons({"passed": True}) == own_machine  # proctored only, by default
    assert checkout_reasons({"passed": True}, require_proctored=True) == own_machine
    assert checkout_reasons({"passed": True}, require_proctored=False) == []
    assert checkout_reasons({"passed": True, "proctored": True}) == []


def test_every_surface_shows_every_reason_a_trainee_is_not_ready(tmp_path):
    shutil.copy(SAMPLES / "asha.json", tmp_path / "asha.json")
    _put(tmp_path, "half.json", drill(101, 40, at_rate(0.5, 1), name="Half"))
    _put(tmp_path, "empty.json", empty_drill(102))
    cohort = _checked_out(load_cohort([tmp_path]))
    why = {t.name: t.not_ready for t in cohort.trainees}
    assert why["Asha"] == () and all(why[name] for name in ("Half", "Trainee 102"))
    text = cohort_text(cohort)
    html = cohort_table(cohort).html
    rows = list(csv.DictReader(io.StringIO(cohort_csv(cohort))))
    lines = {x["trainee"]: x for x in map(json.loads, cohort_json_lines(cohort).splitlines())}
    for name, reasons in why.items():
        assert lines[name]["not_ready_because"] == list(reasons)
        assert lines[name]["ready"] is (not reasons)
        assert {r["not_ready_because"] for r in rows if r["trainee"] == name} == {" | ".join(reasons)}
        for reason in reasons:
            assert f"  not ready: {reason}" in text and reason in html


# --- the scheduler replayed -------------------------------------------------------------------


def test_row_7_each_rule_served_three_times_in_a_row_is_flagged(tmp_path):
    path = _put(tmp_path, "scripted.json", three_in_a_row(103))
    (problem,) = _only_the_replay_sees(path)
    assert problem.startswith("case 1: replayed from the drill's seed, the engine serves ")
    t = _one(tmp_path)
    assert len(t.mastered) == 19 and not t.ready
    assert problem in t.problems


def test_row_8_misses_edited_into_right_answers_are_flagged(tmp_path):
    genuine = drill(104, 120, at_rate(0.7, 2), name="Seventy")
    path = _put(tmp_path, "edited.json", misses_made_right(genuine))
    (problem,) = _only_the_replay_sees(path)
    assert "the engine serves" in problem
    assert not _one(tmp_path).ready


def test_row_9_erased_hints_are_flagged(tmp_path):
    path = _put(tmp_path, "erased.json", hints_erased(every_hint_drill(105, 120)))
    (problem,) = _only_the_replay_sees(path)
    assert "the engine serves" in problem
    assert not _one(tmp_path).ready


def test_genuine_drills_replay_clean(tmp_path):
    for seed, answer in ((106, at_rate(0.7, 3)), (107, at_rate(0.95, 4))):
        path = _put(tmp_path, f"g{seed}.json", drill(seed, 80, answer))
        assert replay_drill(read_progress_data(path)[0]) == []
    path = _put(tmp_path, "hints.json", every_hint_drill(108, 30))
    assert replay_drill(read_progress_data(path)[0]) == []

    for cases, last in ((22, "skipped"), (24, "correct")):
        count = iter(range(cases))
        data = drill(113, cases, lambda _s, v, c=count: (SKIP, SKIP, None, right(v), wrong(v))[next(c) % 5])
        attempts = data["mastery"]["attempts"]
        assert {a["outcome"] for a in attempts} == {"skipped", "revealed", "correct", "missed"}
        assert attempts[-1]["outcome"] == last
        path = _put(tmp_path, f"mixed{cases}.json", data)
        assert replay_drill(read_progress_data(path)[0]) == []
    for sample in ("asha", "ben", "chen"):
        assert replay_drill(read_progress_data(SAMPLES / f"{sample}.json")[0]) == []


def test_the_forged_sample_is_flagged_by_the_replay():
    (problem,) = replay_drill(read_progress_data(SAMPLES / "erin-forged.json")[0])
    assert "the engine records another attempt than the file" in problem


def test_an_outcome_edited_alone_is_named_by_field(tmp_path):
    data = drill(109, 30, at_rate(0.7, 5))
    first = next(a for a in data["mastery"]["attempts"] if a["outcome"] == "missed")
    first.update(outcome="correct", correct=True)
    path = _put(tmp_path, "x.json", data)
    (problem,) = replay_drill(read_progress_data(path)[0])
    assert problem.startswith(f"case {first['number']}: replayed, the engine records another attempt")
    assert 'outcome "correct" (the engine records "missed")' in problem
    assert "correct true (the engine records false)" in problem
    assert not re.search(r"\b(True|False|None)\b", problem)  # read as the file writes it, never a repr


# --- copies ------------------------------------------------------------------------------------


def test_row_5_a_renamed_shifted_copy_beside_its_original_is_flagged(tmp_path):
    original = drill(110, 60, at_rate(0.9, 6), name="Orla")
    copy = shifted(original, -3)
    copy.update(trainee="Cody", attempt_id="c0c0c0c0c0c0c0c0")
    _put(tmp_path, "orla.json", original)
    _put(tmp_path, "cody.json", copy)
    trainees = {t.name: t for t in load_cohort([tmp_path]).trainees}
    for name, other in (("Cody", "orla.json"), ("Orla", "cody.json")):
        copies = [p for p in trainees[name].problems if p.startswith("a copy: ")]
        assert copies == [
            f"a copy: its case sequence (drill seed 110) is also the one in {tmp_path / other} "
            f"({trainees['Orla' if name == 'Cody' else 'Cody'].name}); "
            "each trainee's drill starts from its own fresh seed"
        ]


def test_row_12_two_trainees_on_the_default_seed_are_flagged(tmp_path):
    _put(tmp_path, "a.json", drill(DEFAULT_DRILL_SEED, 20, at_rate(0.9, 7), name="A"))
    other = drill(DEFAULT_DRILL_SEED, 20, at_rate(0.6, 8), name="B")
    other["attempt_id"] = "b" * 16
    _put(tmp_path, "b.json", other)
    for t in load_cohort([tmp_path]).trainees:
        assert any(
            p.startswith(f"a copy: its case sequence (drill seed {DEFAULT_DRILL_SEED})") for p in t.problems
        )


def test_the_samples_are_no_copies_of_each_other():
    assert not any("a copy" in p for t in load_cohort([SAMPLES]).trainees for p in t.problems)


# --- time ---------------------------------------------------------------------------------------


def test_row_6_a_drill_served_and_answered_in_one_second_is_too_fast(tmp_path):
    _put(tmp_path, "quick.json", drill(111, 57, lambda _s, view: right(view), step=0))
    t = _one(tmp_path)
    fast = [p for p in t.problems if p.startswith("too fast")]
    assert fast == [
        f"too fast: {t.step} cases answered under the floor of {MIN_CASE_SECONDS} s a case "
        "(first: case 1, in 0 s)",
        f"too fast: the drill's {t.step} answered cases took 0 s in all, under the floor of "
        f"{MIN_DRILL_SECONDS_PER_CASE} s a case ({MIN_DRILL_SECONDS_PER_CASE * t.step} s)",
    ]
    assert not t.ready


def _attempts(seconds: list[int]) -> dict:
    """A progress object's times only: one case after another, each taking the given seconds."""
    import datetime as dt

    at = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)
    attempts = []
    for number, took in enumerate(seconds, 1):
        done = at + dt.timedelta(seconds=took)
        attempts.append(
            {"number": number, "served": f"{at:%Y-%m-%dT%H:%M:%SZ}", "answered": f"{done:%Y-%m-%dT%H:%M:%SZ}"}
        )
        at = done + dt.timedelta(seconds=1)
    return {
        "saved": f"{at:%Y-%m-%dT%H:%M:%SZ}",
        "mastery": {"started": attempts[0]["served"], "attempts": attempts},
    }


@given(st.lists(st.integers(0, 120), min_size=1, max_size=30))
def test_the_time_floors_flag_exactly_what_comes_under_them(seconds):
    problems = time_problems(_attempts(seconds))
    quick = [s for s in seconds if s < MIN_CASE_SECONDS]
    assert any(p.startswith(f"too fast: {len(quick)} cases") for p in problems) == bool(quick)
    slow_drill = sum(seconds) < MIN_DRILL_SECONDS_PER_CASE * len(seconds)
    assert any("in all, under the floor" in p for p in problems) == slow_drill
    assert len(problems) == bool(quick) + slow_drill


# --- impossible times and other odd input (issue 30, row 9) -------------------------------------


def _chen() -> dict:
    return json.loads((SAMPLES / "chen.json").read_text("utf-8"))


@pytest.mark.parametrize(
    "edit, expected",
    [
        (lambda d: d["mastery"]["attempts"][3].update(served="2026-02-30T10:00:00Z"), "not a real date"),
        (lambda d: d.update(saved="2026-11-30T25:00:00Z"), "not a real date"),
        (lambda d: d["mastery"].update(started="0001-01-01T00:00:00Z"), "before 2024-01-01"),
        (lambda d: d.update(saved="1970-01-01T00:00:00Z"), "before 2024-01-01"),
        (lambda d: d.update(saved="2100-01-01T00:00:00Z"), "in the future"),
        (lambda d: d.update(saved="9999-12-31T23:59:59Z"), "in the future"),
        (lambda d: d["mastery"]["attempts"][-1].update(answered="2100-01-01T00:00:00Z"), "in the future"),
        (lambda d: d["mastery"]["states"][0].update(last_practised=None), "last_practised null"),
        (lambda d: d["mastery"]["attempts"][5].update(served="2026-11-30T08:00:00Z"), "times out of order"),
        (lambda d: d["mastery"]["attempts"][-1].update(answered="2026-11-30T25:00:00Z"), "is not a time"),
        (lambda d: d.update(version=2.0), "has version 2.0"),
        (lambda d: d.update(version="2.0"), 'has version "2.0"'),
    ],
)
def test_an_impossible_time_or_version_is_a_line_and_the_rest_still_shown(tmp_path, edit, expected):
    data = _chen()
    edit(data)
    data["attempt_id"] = "f" * 16
    _put(tmp_path, "odd.json", data)
    _put(tmp_path, "empty.json", empty_drill(112))
    cohort = load_cohort([tmp_path])
    assert "Trainee 112" in [t.name for t in cohort.trainees]
    lines = [p for t in cohort.trainees if t.file.endswith("odd.json") for p in t.problems]
    lines += [why for path, why in cohort.unreadable if path.endswith("odd.json")]
    assert any(expected in line for line in lines), lines


def test_a_folder_named_like_a_progress_file_gets_a_line(tmp_path):
    (tmp_path / "x.json").mkdir()
    shutil.copy(SAMPLES / "ben.json", tmp_path / "ben.json")
    for given_path in (tmp_path, tmp_path / "x.json"):
        cohort = load_cohort([given_path])
        (line,) = [why for path, why in cohort.unreadable if path.endswith("x.json")]
        assert "is a folder" in line


# --- nothing escapes a worker -------------------------------------------------------------------

_REAL = module._summarise
_PARENT = os.getpid()


def _fails_on_boom(path, *args):
    if path.name == "boom.json":
        raise RuntimeError(f"something no one expected in {'a worker' if os.getpid() != _PARENT else 'here'}")
    return _REAL(path, *args)


@pytest.mark.parametrize("workers", [1, 2])
def test_any_exception_on_one_file_is_its_line_and_the_rest_are_shown(tmp_path, monkeypatch, workers):
    monkeypatch.setattr(module, "_summarise", _fails_on_boom)
    for number in range(3):
        _put(tmp_path, f"t{number:02}.json", empty_drill(120 + number))
    shutil.copy(SAMPLES / "ben.json", tmp_path / "boom.json")
    cohort = load_cohort([tmp_path], workers=workers)
    assert len(cohort.trainees) == 3
    ((path, why),) = cohort.unreadable
    where = "a worker" if workers > 1 else "here"
    assert (
        path.endswith("boom.json")
        and why == f"cannot be read (RuntimeError: something no one expected in {where})"
    )
    assert "not read: " in cohort_text(cohort) and os.path.basename(path) in cohort_table(cohort).html


# --- what the file says of its own drill is never taken on its word --------------------------------


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda m: m.pop("model"), "were served by an earlier version of the drill"),
        (lambda m: m.update(model_since=10**9), "served its cases from case 1000000000 on, past its"),
        (lambda m: m.update(model_since=40), "cases 1–39 were served by an earlier version of the drill"),
    ],
)
def test_misses_made_right_under_a_claimed_earlier_model_are_not_clean_practice(tmp_path, edit, said):
    """Cases an earlier model served are taken as recorded, so a file claiming them is never clean."""
    forged = misses_made_right(drill(104, 120, at_rate(0.7, 2), name="Seventy"))
    edit(forged["mastery"])
    _put(tmp_path, "forged.json", forged)
    t = _one(tmp_path)
    assert not t.ready
    assert any(said in problem and "not evidence of clean practice" in problem for problem in t.problems)


def test_the_drill_as_it_was_saved_has_no_earlier_model_line(tmp_path):
    _put(tmp_path, "genuine.json", drill(104, 120, at_rate(0.7, 2), name="Seventy"))
    assert not any("earlier version" in p or "model served" in p for p in _one(tmp_path).problems)


def test_complete_is_what_the_regraded_attempts_give_not_what_the_file_claims(tmp_path):
    genuine = drill(300, 220, at_rate(0.88, 300), name="Honest", stop_when_complete=False)
    claimed = json.loads(json.dumps(genuine))
    for attempt in claimed["mastery"]["attempts"]:
        if attempt["outcome"] != "correct":  # verdicts flipped, answers left as they were
            attempt.update(outcome="correct", correct=True, hints=0, revealed=False)
            attempt.update(fields_wrong=[], rules_missed=[])
    claimed = consistent(claimed)
    claimed["trainee"] = "Claimer"
    assert read_progress_data(_put(tmp_path, "claimer.json", claimed))[0].mastery.complete  # its own word
    (tmp_path / "h").mkdir()
    _put(tmp_path / "h", "honest.json", genuine)
    assert _one(tmp_path / "h").complete is False
    t = _one(tmp_path)
    assert t.complete is False
    assert "complete on" not in t.completion()
    assert any("verdicts do not match their attempts" in p for p in t.problems)


def test_a_file_claiming_endless_hints_is_worked_again_in_moments(tmp_path):
    """The engine stops counting hints at the ladder's end, so the replay stops asking there too."""
    data = drill(106, 40, at_rate(0.7, 3), name="Endless")
    data["mastery"]["attempts"][0]["hints"] = 10**18
    _put(tmp_path, "endless.json", data)
    run = subprocess.run(
        [sys.executable, "-m", "helpers", "cohort", str(tmp_path), "--json", "--no-cache"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    (row,) = [json.loads(line) for line in run.stdout.splitlines()]
    assert row["trainee"] == "Endless" and row["problems"], run.stderr
    assert any("case 1" in problem for problem in row["problems"])


@pytest.mark.parametrize(
    "second",
    [
        "Asha",
        "ASHA ",
        "\u0410sha",  # a Cyrillic A
        "A\u200bsha",  # a zero-width space
        "As\u034fha",  # a combining grapheme joiner: shows as nothing
        "Asha\u3164",  # a Hangul filler: a letter that shows as a blank
        "Asha\u2800",  # the braille blank
        "\U0001d5a0sha",  # a mathematical sans-serif A (NFKC: A)
        "\uff21\uff53\uff48\uff41",  # full-width
    ],
)
def test_two_files_naming_one_trainee_share_no_check_out(tmp_path, second):
    """A check-out is matched by name: two drills under one name (or one that reads the same) are flagged."""
    _put(tmp_path, "a.json", drill(108, 30, at_rate(0.9, 5), name="Asha"))
    _put(tmp_path, "b.json", drill(109, 30, at_rate(0.9, 6), name=second))
    _put(tmp_path, "c.json", drill(110, 30, at_rate(0.9, 7), name="Ben"))
    cohort = _checked_out(load_cohort([tmp_path]))
    by_file = {Path(t.file).name: t for t in cohort.trainees}
    for mine, other in (("a.json", "b.json"), ("b.json", "a.json")):
        (line,) = [p for p in by_file[mine].problems if p.startswith("another file names the same trainee")]
        assert other in line and not by_file[mine].ready
    assert not any("same trainee" in p for p in by_file["c.json"].problems)


def test_one_file_cannot_bury_the_others_under_its_problems(tmp_path):
    data = drill(112, 20, at_rate(0.9, 9), name="Loud")
    state = data["mastery"]["states"][0]
    data["mastery"]["states"] += [{**state, "attempts": 10**6 + n} for n in range(5000)]
    _put(tmp_path, "quiet.json", drill(113, 20, at_rate(0.9, 10), name="Quiet"))
    kinds = len(data["mastery"]["facet_states"])
    data["mastery"]["facet_states"] *= 1000
    _put(tmp_path, "loud.json", data)
    cohort = load_cohort([tmp_path])
    loud = next(t for t in cohort.trainees if t.name == "Loud")
    (line,) = [p for p in loud.problems if "claimed before" in p]
    assert line.startswith(
        f"{5000 + 999 * kinds} claimed states are for a rule or look-alike kind claimed before"
    )
    assert len(loud.problems) <= 3, loud.problems
    text = cohort_text(cohort)
    assert len(text.splitlines()) < 80 and "Quiet: " in text
