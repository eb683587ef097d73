"""The trainer trusts nothing self-reported: forgeries flagged, hostile files refused, the rest still shown."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from current_samples import current_sample
from signed_checkouts import sit

from helpers.trainee.progress.files import trainee_progress_from_data
from helpers.trainer.cohort import MAX_FILE_BYTES, load_cohort
from helpers.trainer.regrade import regrade_v3
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.views.cohort_views import cohort_csv, cohort_json_lines, cohort_table, cohort_text


def _ben() -> dict:
    return current_sample("ben")


def _put(folder: Path, name: str, data: dict) -> Path:
    path = folder / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _problems(folder: Path) -> dict[str, list[str]]:
    return {Path(t.file).name: list(t.problems) for t in load_cohort([folder]).trainees}


def test_a_genuine_file_on_the_current_course_re_grades_clean(tmp_path):
    _put(tmp_path, "ben.json", _ben())
    assert _problems(tmp_path) == {"ben.json": []}


def _all_mastered_no_attempts(d):
    d["mastery"]["attempts"] = []
    for s in d["mastery"]["states"]:
        s.update(mastered_on="2026-11-03T10:00:00Z", streak=3, attempts=3, unaided=3)


def _one_case_three_times(d):
    first = d["mastery"]["attempts"][0]
    d["mastery"]["attempts"][1:1] = [dict(first), dict(first)]
    for number, attempt in enumerate(d["mastery"]["attempts"], 1):
        attempt["number"] = number


def _verdicts_flipped(d):
    for a in d["mastery"]["attempts"]:
        a["correct"], a["outcome"], a["rules_missed"], a["hints"], a["revealed"] = (
            True,
            "correct",
            [],
            0,
            False,
        )


@pytest.mark.parametrize(
    "forge, flagged",
    [
        (_all_mastered_no_attempts, "does not match its attempts"),
        (_one_case_three_times, "claimed twice"),
        (_verdicts_flipped, "verdicts do not match their attempts"),
        (lambda d: d.update(content_hash="0" * 16), "older or unknown course"),
        (lambda d: d["mastery"]["states"][0].update(unaided=1000, attempts=1), "claims 1000 unaided of 1"),
        (lambda d: d["mastery"]["states"][0].update(mastered_on="yes, trust me"), "progress schema"),
        (
            lambda d: d["mastery"].update(rules=["ts-lost"], states=d["mastery"]["states"][:1], attempts=[]),
            "covers 1 of the 19 rules",
        ),
    ],
)
def test_each_forgery_is_flagged_in_the_json(tmp_path, forge, flagged):
    data = _ben()
    forge(data)
    _put(tmp_path, "forged.json", data)
    (line,) = [json.loads(x) for x in cohort_json_lines(load_cohort([tmp_path])).splitlines()]
    assert line["ready"] is False and line["file"].endswith("forged.json")
    assert any(flagged in p for p in line["problems"]), line["problems"]


def test_the_regrade_hook_is_pluggable_and_v3_is_registered(tmp_path):
    data = _ben()
    _verdicts_flipped(data)
    progress = trainee_progress_from_data(data)
    assert any("verdicts do not match" in p for p in regrade_v3(progress, data))
    _put(tmp_path, "x.json", _ben())
    (t,) = load_cohort([tmp_path], regrade=lambda progress: ["custom finding"]).trainees
    assert t.problems == ("custom finding",)


def test_two_files_with_one_attempt_id_are_flagged(tmp_path):
    _put(tmp_path, "a.json", _ben())
    _put(tmp_path, "b.json", _ben())
    problems = _problems(tmp_path)
    assert all(any("attempt id" in p and "also in" in p for p in found) for found in problems.values())


def _asha() -> dict:
    return current_sample("asha")


def test_readiness_needs_clean_evidence_and_a_passed_checkout(tmp_path):
    """A simulated cohort: complete, part way, forging, old course; check-outs passed for all four."""
    progress, results = tmp_path / "progress", tmp_path / "checkouts"
    progress.mkdir()
    results.mkdir()
    _put(progress, "asha.json", _asha())
    _put(progress, "honest.json", _ben())
    forger = {**_ben(), "trainee": "Forger", "attempt_id": "00000000000000f0"}
    _verdicts_flipped(forger)
    _put(progress, "forger.json", forger)
    _put(
        progress,
        "old.json",
        {**_ben(), "trainee": "Old", "attempt_id": "00000000000000f1", "content_hash": "1" * 16},
    )
    _put(progress, "unchecked.json", {**_ben(), "trainee": "Unchecked", "attempt_id": "00000000000000f2"})
    trainer = TrainerSecret.open(tmp_path / "trainer", create=True)
    for name in ("Asha", "Ben", "Forger", "Old"):
        result = sit(trainer, name, tmp_path / "papers")
        (results / f"{name}.json").write_text(json.dumps(result))
    cohort = load_cohort(  # the papers were sat on the trainees' machines: accepted here
        [progress], checkouts=[results], trainer_dir=tmp_path / "trainer", require_proctored=False
    )
    ready = {t.name: t.ready for t in cohort.trainees}
    assert ready == {"Asha": True, "Ben": False, "Forger": False, "Old": False, "Unchecked": False}
    why = {t.name: t.not_ready for t in cohort.trainees}
    assert "practice: 10 of 19 rules mastered" in why["Ben"] and not why["Asha"]
    assert why["Unchecked"][-1] == "no graded check-out"
    text = cohort_text(cohort)
    assert (
        "  not ready: no graded check-out" in text
        and "  not ready: practice: 10 of 19 rules mastered" in text
    )


# --- hostile files ------------------------------------------------------------------------


def _hostile(folder: Path) -> None:
    """One of each hostile file beside one good one."""
    _put(folder, "good.json", _ben())
    lone = _ben()
    lone["attempt_id"] = "00000000000000a1"
    (folder / "surrogate.json").write_text(
        json.dumps(lone).replace('"trainee": "Ben"', '"trainee": "Ben\\ud800"'), encoding="utf-8"
    )
    empty = {**_ben(), "attempt_id": "00000000000000a2", "trainee": "Empty"}
    empty["mastery"] = {**empty["mastery"], "rules": [], "states": [], "attempts": []}
    _put(folder, "empty.json", empty)
    one = {**_ben(), "attempt_id": "00000000000000a6", "trainee": "One"}
    one["mastery"] = {
        **one["mastery"],
        "rules": ["ts-lost"],
        "states": one["mastery"]["states"][:1],
        "attempts": [],
    }
    _put(folder, "one-rule.json", one)
    os.symlink("loop.json", folder / "loop.json")
    os.symlink("/proc/self/mem", folder / "mem.json")
    fake = {**_ben(), "attempt_id": "00000000000000a3", "trainee": "Eve\nAsha: complete\x1b[2J\r"}
    _put(folder, "escape.json", fake)
    _put(folder, "long.json", {**_ben(), "attempt_id": "00000000000000a4", "trainee": "N" * 300})
    _put(folder, "formula.json", {**_ben(), "attempt_id": "00000000000000a5", "trainee": '=HYPERLINK("x")'})
    big = folder / "big.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    (folder / os.fsdecode(b"bad-\xff-name.json")).write_bytes((folder / "good.json").read_bytes())


def test_hostile_files_are_refused_with_reasons_and_the_rest_still_shown(tmp_path):
    _hostile(tmp_path)
    cohort = load_cohort([tmp_path])
    refused = {Path(p).name: why for p, why in cohort.unreadable}
    assert "Too many levels of symbolic links" in refused["loop.json"]
    assert "cannot be read" in refused["mem.json"]
    assert "over the 20 MB limit" in refused["big.json"]
    names = {t.name for t in cohort.trainees}
    assert {"Ben", "Ben\ud800", "One", "N" * 300, '=HYPERLINK("x")'} <= names
    assert "progress schema" in refused["empty.json"] and "rules" in refused["empty.json"]
    one = next(t for t in cohort.trainees if t.name == "One")
    assert one.completion() == "0 of 1 rules mastered" and any("covers 1 of" in p for p in one.problems)
    text = cohort_text(cohort)
    assert "\x1b" not in text and "\r" not in text and "\ud800" not in text
    assert not any(line.startswith("Asha: complete") for line in text.splitlines())
    assert "Eve\\nAsha: complete\\x1b[2J\\r" in text
    assert all(len(line) < 2000 for line in text.splitlines())
    text.encode("utf-8")
    html = cohort_table(cohort).html
    for name in ("loop.json", "mem.json", "big.json"):
        assert name in html
    rows = list(csv.reader(io.StringIO(cohort_csv(cohort))))
    assert any(row[0] == '\'=HYPERLINK("x")' for row in rows)
    assert not any(cell.startswith("=") for row in rows for cell in row)
    assert sum(row[3] == "not read" for row in rows) == len(cohort.unreadable)
    lines = [json.loads(x) for x in cohort_json_lines(cohort).splitlines()]
    assert len(lines) == len(cohort.trainees) + len(cohort.unreadable)
    assert all({"trainee", "file", "ready", "problems"} <= set(x) for x in lines)


def test_the_cli_shows_the_whole_hostile_cohort_and_exits_4(tmp_path):
    folder = tmp_path / "cohort"
    folder.mkdir()
    _hostile(folder)
    for args in ([], ["--json"]):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "helpers",
                "cohort",
                str(folder),
                str(tmp_path / ("x" * 300 + ".json")),
                *args,
            ],
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 4, done.stderr
        assert b"Traceback" not in done.stderr
        out = done.stdout.decode("utf-8")
        assert "loop.json" in out and "File name too long" in out
        if args:
            assert all("ready" in json.loads(line) for line in out.splitlines())


@pytest.mark.parametrize(
    "field, value",
    [
        ("content_hash", "0123456789abcdef\n"),
        ("saved", "2026-11-02T13:30:00Z\n"),
        ("saved", "٢٠٢٦-11-02T13:30:00Z"),
    ],
)
def test_the_schema_refuses_a_trailing_newline_and_non_ascii_digits(tmp_path, field, value):
    data = _ben()
    data[field] = value
    _put(tmp_path, "x.json", data)
    ((_path, why),) = load_cohort([tmp_path]).unreadable
    assert "does not follow the progress schema" in why and field in why


@pytest.mark.parametrize("when", ["9999-12-31T23:59:59Z", "2026-13-45T09:00:00Z"])
def test_a_time_no_review_can_follow_is_refused_and_the_rest_still_shown(tmp_path, when):
    data = _ben()
    data["mastery"]["attempts"][-1]["answered"] = when
    _put(tmp_path, "late.json", data)
    _put(tmp_path, "ben.json", _ben())
    cohort = load_cohort([tmp_path])
    assert [t.name for t in cohort.trainees] == ["Ben"]
    ((path, why),) = cohort.unreadable
    assert path.endswith("late.json") and "cannot be replayed" in why and when in why
