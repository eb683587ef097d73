"""Version 1 progress files (``helpers/trainee/progress/version1.py``): read back strictly, or refused by name."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from version1_files import write_version1

from helpers.core.errors import ProgressFileError
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.course import Attempt, Progress
from helpers.trainee.progress.version1 import load_progress, progress_from_data

CASES = practice_cases()
RULES = load_rules()
BY_KEY = {case.key: case for case in CASES}


def _progress() -> Progress:
    progress = Progress.start(CASES, seed=3, size=4)
    first, second = progress.order[:2]
    rule = next(rule.id for rule in RULES if rule.check == BY_KEY[second].check)
    progress.attempts[first] = Attempt(first, True, (), "correct", 0)
    progress.attempts[second] = Attempt(second, False, (rule,), "helped", 2)
    return progress


def _read(data) -> Progress:
    return progress_from_data(data, cases=CASES, rules=RULES, source="old.json")


def test_a_saved_course_reads_back_as_it_was(tmp_path: Path) -> None:
    progress = _progress()
    assert _read(progress.to_data()) == progress
    assert load_progress(write_version1(progress, tmp_path / "old.json")) == progress


def test_an_attempt_saved_before_outcomes_were_kept_still_reads() -> None:
    data = _progress().to_data()
    for attempt in data["attempts"]:
        del attempt["outcome"], attempt["hints"]
    back = _read(data)
    assert [attempt.how for attempt in back.attempts.values()] == ["correct", "missed"]


def _broken(change) -> dict:
    data = copy.deepcopy(_progress().to_data())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), 'is not a practice progress file (it has no "format": '),
        (lambda d: d.update(version=True), "has version true; this helper reads version 1"),
        (
            lambda d: d.update(extra=1),
            "expected the fields ['format', 'version', 'seed', 'order', 'attempts']",
        ),
        (lambda d: d.update(seed="5"), "seed is "),
        (lambda d: d.update(order=[]), "order must be a non-empty list of case keys"),
        (lambda d: d["order"].append(d["order"][0]), "order lists a case twice"),
        (lambda d: d["order"].append("nowhere/at-all"), "which is not a practice case here"),
        (lambda d: d["attempts"].append(dict(d["attempts"][0])), "is scored twice"),
        (lambda d: d["attempts"][0].update(correct=1), "attempts[0].correct is 1, expected true or false"),
        (lambda d: d["attempts"][0].update(outcome="missed"), "which does not match its correct field"),
        (
            lambda d: d["attempts"][1].update(hints=-1),
            "attempts[1].hints is -1, expected a whole number from 0",
        ),
        (lambda d: d["attempts"][1].update(rules_missed=[]), "a correct check misses no rule"),
        (lambda d: d["attempts"][1].update(rules_missed=["no-such-rule"]), "which is not a rule of"),
    ],
)
def test_a_foreign_or_corrupt_object_is_refused_naming_what_is_wrong(change, message) -> None:
    with pytest.raises(ProgressFileError) as caught:
        _read(_broken(change))
    assert message in str(caught.value) and caught.value.path == "old.json"


def test_a_path_that_is_no_file_is_refused_as_a_progress_file_error(tmp_path: Path) -> None:
    with pytest.raises(ProgressFileError, match="does not exist; save your progress there first"):
        load_progress(tmp_path / "none.json")
    with pytest.raises(ProgressFileError, match="is a folder, not a progress file"):
        load_progress(tmp_path)
    (tmp_path / "latin1.json").write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(ProgressFileError, match=r"is not UTF-8 text \(byte 7\)"):
        load_progress(tmp_path / "latin1.json")
    (tmp_path / "half.json").write_text('{"format": ', encoding="utf-8")
    with pytest.raises(ProgressFileError, match="is not a progress file: "):
        load_progress(tmp_path / "half.json")
    with pytest.raises(ProgressFileError, match="cannot be read"):
        load_progress("bad\0name.json")
