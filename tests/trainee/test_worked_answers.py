"""The project's worked answers guard themselves with its own sentinel check."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from helpers import load_baseline
from helpers.core.errors import BaselineError
from helpers.core.paths import fixtures_dir, worked_answers_baseline
from helpers.trainee.worked_answers import (
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
    """Each filled case is a sentinel keyed check/id, and no worked answer goes unguarded."""
    answers = load_baseline(worked_answers_baseline()).answers
    for case in filled:
        assert answers[f"{case.check}/{case.id}"] == case.expected_json
    unguarded = set(worked_answer_key(worked_cases())) - set(answers)
    assert not unguarded, f"worked answers missing from the baseline (rebaseline?): {sorted(unguarded)}"


def test_an_edited_expected_output_is_reported_changed(fixtures_copy):
    """Flipping one worked answer in a copy of fixtures/ fails the check, naming that case."""
    edit_expected(fixtures_copy, "new-target", preserved=True)
    result = check_worked_answers(fixtures_copy)
    assert result.as_dict() == {
        "missing": [],
        "changed": ["target-scope/new-target"],
        "intact": False,
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


@pytest.fixture
def v1_fixtures(fixtures_copy):
    """A fixtures copy whose worked answers start over from a first baseline, version 1."""
    shutil.rmtree(fixtures_copy / "worked_answers")
    first = rebaseline_worked_answers("First baseline", fixtures=fixtures_copy, revised_on="2027-01-01")
    assert first.version == 1
    assert not (fixtures_copy / "worked_answers" / "retained").exists()
    return fixtures_copy


def test_rebaseline_writes_version_2_and_retains_v1(v1_fixtures):
    """An intentional change: new version 2 accepted, v1.json kept byte for byte."""
    baseline_file = v1_fixtures / "worked_answers" / "baseline.json"
    old_bytes = baseline_file.read_bytes()
    edit_expected(v1_fixtures, "new-target", preserved=True)
    assert not check_worked_answers(v1_fixtures).intact

    new = rebaseline_worked_answers("Rubric change: test", fixtures=v1_fixtures, revised_on="2027-01-02")

    assert new.version == 2
    assert (v1_fixtures / "worked_answers" / "retained" / "v1.json").read_bytes() == old_bytes
    stored = load_baseline(baseline_file)
    assert (stored.version, stored.revised_on, stored.reason) == (2, "2027-01-02", "Rubric change: test")
    assert dict(stored.answers) == worked_answer_key(worked_cases(v1_fixtures))
    assert check_worked_answers(v1_fixtures).intact


def test_rebaseline_keeps_the_current_version_as_evidence(fixtures_copy):
    """From whatever version is committed, the next is N+1 and vN.json is the old file."""
    baseline_file = fixtures_copy / "worked_answers" / "baseline.json"
    current = load_baseline(baseline_file).version
    old_bytes = baseline_file.read_bytes()
    new = rebaseline_worked_answers("Next version", fixtures=fixtures_copy)
    assert new.version == current + 1
    assert (fixtures_copy / "worked_answers" / "retained" / f"v{current}.json").read_bytes() == old_bytes


def test_rebaseline_keeps_a_crlf_baseline_byte_identical(v1_fixtures):
    """Retained evidence is copied as bytes, so even CRLF line endings survive."""
    baseline_file = v1_fixtures / "worked_answers" / "baseline.json"
    old_bytes = baseline_file.read_bytes().replace(b"\n", b"\r\n")
    baseline_file.write_bytes(old_bytes)
    rebaseline_worked_answers("Line endings", fixtures=v1_fixtures)
    assert (v1_fixtures / "worked_answers" / "retained" / "v1.json").read_bytes() == old_bytes


def test_rebaseline_never_overwrites_retained_evidence(v1_fixtures):
    """If retained/v1.json already exists, the revision is refused and nothing changes."""
    retained = v1_fixtures / "worked_answers" / "retained" / "v1.json"
    retained.parent.mkdir(parents=True)
    retained.write_bytes(b"earlier evidence\n")
    baseline_file = v1_fixtures / "worked_answers" / "baseline.json"
    before = baseline_file.read_bytes()

    with pytest.raises(BaselineError, match="retained evidence is never overwritten"):
        rebaseline_worked_answers("Again", fixtures=v1_fixtures)

    assert retained.read_bytes() == b"earlier evidence\n"
    assert baseline_file.read_bytes() == before


def test_rebaseline_twice_keeps_both_versions(v1_fixtures):
    """Versions 1 and 2 are both retained after two revisions."""
    rebaseline_worked_answers("First change", fixtures=v1_fixtures)
    rebaseline_worked_answers("Second change", fixtures=v1_fixtures)
    retained = v1_fixtures / "worked_answers" / "retained"
    assert sorted(path.name for path in retained.iterdir()) == ["v1.json", "v2.json"]
    assert load_baseline(retained / "v1.json").reason == "First baseline"
    assert load_baseline(retained / "v2.json").reason == "First change"
    assert load_baseline(v1_fixtures / "worked_answers" / "baseline.json").version == 3


def test_rebaseline_command(v1_fixtures, tmp_path):
    """`python -m helpers rebaseline --reason ... --fixtures DIR` writes v2 and keeps v1."""
    baseline_file = v1_fixtures / "worked_answers" / "baseline.json"
    old_bytes = baseline_file.read_bytes()
    edit_expected(v1_fixtures, "sentinel-mutated", intact=True)
    assert not check_worked_answers(v1_fixtures).intact

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "helpers",
            "rebaseline",
            "--reason",
            "Accept the edit",
            "--fixtures",
            str(v1_fixtures),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "version 2" in done.stderr and "version 1 is kept" in done.stderr
    assert (v1_fixtures / "worked_answers" / "retained" / "v1.json").read_bytes() == old_bytes
    assert load_baseline(baseline_file).reason == "Accept the edit"
    assert check_worked_answers(v1_fixtures).intact


def test_rebaseline_command_without_a_reason_changes_nothing(fixtures_copy, tmp_path):
    """A blank reason is bad input (exit 4); no file is written."""
    baseline_file = fixtures_copy / "worked_answers" / "baseline.json"
    before = baseline_file.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "rebaseline", "--reason", " ", "--fixtures", str(fixtures_copy)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 4
    assert "non-empty reason" in done.stderr
    assert baseline_file.read_bytes() == before
    assert sorted(path.name for path in fixtures_copy.rglob("*")) == sorted(
        path.name for path in fixtures_dir().rglob("*")
    )
