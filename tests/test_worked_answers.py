"""The project's worked answers guard themselves with its own sentinel check."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import BaselineError, load_baseline
from helpers.paths import worked_answers_baseline
from helpers.worked_answers import (
    check_worked_answers,
    rebaseline_worked_answers,
    worked_answer_key,
    worked_cases,
)


def edit_expected(fixtures, case_id, **changes):
    """Change one expected output in a fixtures copy's filled_cases.json."""
    path = fixtures / "filled_cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    [case] = [case for case in data["cases"] if case["id"] == case_id]
    case["expected"].update(changes)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")


def test_committed_worked_answers_are_intact():
    """The committed baseline matches every expected output in fixtures/."""
    result = check_worked_answers()
    assert result.as_dict() == {"missing": [], "changed": [], "intact": True}


def test_baseline_covers_every_filled_case(filled):
    """Each filled case is a sentinel keyed check/id, holding its compact expected output."""
    answers = load_baseline(worked_answers_baseline()).answers
    for case in filled:
        assert answers[f"{case.check}/{case.id}"] == case.expected_json
    assert set(answers) == set(worked_answer_key(worked_cases()))


def test_an_edited_expected_output_is_reported_changed(fixtures_copy):
    """Flipping one worked answer in a copy of fixtures/ fails the check, naming that case."""
    edit_expected(fixtures_copy, "new-target", preserved=True)
    result = check_worked_answers(fixtures_copy)
    assert result.as_dict() == {
        "missing": [], "changed": ["target-scope/new-target"], "intact": False,
    }


def test_a_whitespace_edit_to_a_list_item_is_reported_changed(fixtures_copy):
    """Even an invisible edit to an ID inside an expected output is caught."""
    edit_expected(fixtures_copy, "sentinel-missing", missing=["S2 "])
    assert check_worked_answers(fixtures_copy).changed == ("sentinels/sentinel-missing",)


def test_a_removed_case_is_reported_missing(fixtures_copy):
    """Deleting a filled case leaves its worked answer missing."""
    path = fixtures_copy / "filled_cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cases"] = [case for case in data["cases"] if case["id"] != "new-case-only"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert check_worked_answers(fixtures_copy).missing == ("sentinels/new-case-only",)


def test_a_new_case_leaves_the_baseline_intact(fixtures_copy, filled):
    """A case added to fixtures/ is a new non-sentinel answer, so the check stays intact."""
    path = fixtures_copy / "filled_cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cases"].append({**filled[0].to_data(), "id": "another-case"})
    path.write_text(json.dumps(data), encoding="utf-8")
    assert check_worked_answers(fixtures_copy).intact


def test_rebaseline_writes_version_2_and_retains_v1(fixtures_copy):
    """An intentional change: new version 2 accepted, v1.json kept byte for byte."""
    baseline_file = fixtures_copy / "worked_answers" / "baseline.json"
    old_bytes = baseline_file.read_bytes()
    edit_expected(fixtures_copy, "new-target", preserved=True)

    new = rebaseline_worked_answers("Rubric change: test", fixtures=fixtures_copy, revised_on="2027-01-02")

    assert new.version == 2
    assert (fixtures_copy / "worked_answers" / "retained" / "v1.json").read_bytes() == old_bytes
    stored = load_baseline(baseline_file)
    assert (stored.version, stored.revised_on, stored.reason) == (2, "2027-01-02", "Rubric change: test")
    assert dict(stored.answers) == worked_answer_key(worked_cases(fixtures_copy))
    assert check_worked_answers(fixtures_copy).intact


def test_rebaseline_keeps_a_crlf_baseline_byte_identical(fixtures_copy):
    """Retained evidence is copied as bytes, so even CRLF line endings survive."""
    baseline_file = fixtures_copy / "worked_answers" / "baseline.json"
    old_bytes = baseline_file.read_bytes().replace(b"\n", b"\r\n")
    baseline_file.write_bytes(old_bytes)
    rebaseline_worked_answers("Line endings", fixtures=fixtures_copy)
    assert (fixtures_copy / "worked_answers" / "retained" / "v1.json").read_bytes() == old_bytes


def test_rebaseline_never_overwrites_retained_evidence(fixtures_copy):
    """If retained/v1.json already exists, the revision is refused and nothing changes."""
    retained = fixtures_copy / "worked_answers" / "retained" / "v1.json"
    retained.parent.mkdir(parents=True, exist_ok=True)
    retained.write_bytes(b"earlier evidence\n")
    baseline_file = fixtures_copy / "worked_answers" / "baseline.json"
    before = baseline_file.read_bytes()

    with pytest.raises(BaselineError, match="retained evidence is never overwritten"):
        rebaseline_worked_answers("Again", fixtures=fixtures_copy)

    assert retained.read_bytes() == b"earlier evidence\n"
    assert baseline_file.read_bytes() == before


def test_rebaseline_twice_keeps_both_versions(fixtures_copy):
    """Versions 1 and 2 are both retained after two revisions."""
    rebaseline_worked_answers("First change", fixtures=fixtures_copy)
    rebaseline_worked_answers("Second change", fixtures=fixtures_copy)
    retained = fixtures_copy / "worked_answers" / "retained"
    assert sorted(path.name for path in retained.iterdir()) == ["v1.json", "v2.json"]
    assert load_baseline(retained / "v2.json").reason == "First change"
    assert load_baseline(fixtures_copy / "worked_answers" / "baseline.json").version == 3


def test_rebaseline_command(fixtures_copy, tmp_path):
    """`python -m helpers rebaseline --reason ... --fixtures DIR` writes v2 and keeps v1."""
    baseline_file = fixtures_copy / "worked_answers" / "baseline.json"
    old_bytes = baseline_file.read_bytes()
    edit_expected(fixtures_copy, "sentinel-mutated", intact=True)
    assert not check_worked_answers(fixtures_copy).intact

    done = subprocess.run(
        [sys.executable, "-m", "helpers", "rebaseline", "--reason", "Accept the edit",
         "--fixtures", str(fixtures_copy)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "version 2" in done.stderr and "version 1 is kept" in done.stderr
    assert (fixtures_copy / "worked_answers" / "retained" / "v1.json").read_bytes() == old_bytes
    assert load_baseline(baseline_file).reason == "Accept the edit"
    assert check_worked_answers(fixtures_copy).intact


def test_rebaseline_command_without_a_reason_changes_nothing(fixtures_copy, tmp_path):
    """A blank reason is bad input (exit 4); no file is written."""
    baseline_file = fixtures_copy / "worked_answers" / "baseline.json"
    before = baseline_file.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "rebaseline", "--reason", " ", "--fixtures", str(fixtures_copy)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )
    assert done.returncode == 4
    assert "non-empty reason" in done.stderr
    assert baseline_file.read_bytes() == before
    assert not (fixtures_copy / "worked_answers" / "retained").exists()
