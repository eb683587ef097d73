"""The re-grade: a trainee's drill worked again from its raw attempts, and why a check-out does or does not count."""

from __future__ import annotations

import json

import pytest
from current_samples import current_sample

from helpers.trainee.progress.files import trainee_progress_from_data
from helpers.trainer.regrade import REGRADERS, checkout_reasons, regrade_v3, replay_v3


def _ben() -> dict:
    return current_sample("ben")


def test_a_case_seed_out_of_the_drills_sequence_is_named_by_the_regrade():
    """The n-th case of a rule must have seed ``drill seed × 10,000 + n``: another drill's case (same rule,
    a valid seed) is named for what it is, though the engine's replay also notices it."""
    from helpers.trainer.regrade import replay_v3

    data = _ben()
    assert replay_v3(trainee_progress_from_data(data), data).problems == ()
    for number in (1, 40):
        forged = json.loads(json.dumps(data))
        forged["mastery"]["attempts"][number - 1]["seed"] += 10_000  # the same rule's case of drill seed + 1
        problems = replay_v3(trainee_progress_from_data(forged), forged).problems
        rule = forged["mastery"]["attempts"][number - 1]["rule"]
        assert (
            f"1 of 70 cases are not the drill's own next case (seed out of sequence) (first: case {number} ({rule}))"
            in problems
        ), problems


def test_version_3_files_are_regraded_by_regrade_v3_and_a_genuine_file_is_clean():
    assert {3: regrade_v3} == REGRADERS
    data = _ben()
    progress = trainee_progress_from_data(data)
    assert regrade_v3(progress, data) == []
    replay = replay_v3(progress, data)
    assert replay.mastery is not None and set(replay.states) <= {
        a["rule"] for a in data["mastery"]["attempts"]
    }


def test_an_edited_verdict_is_named_as_not_matching_its_attempts():
    data = _ben()
    attempt = data["mastery"]["attempts"][0]
    assert attempt["outcome"] == "correct"
    attempt["outcome"] = "missed"
    problems = replay_v3(trainee_progress_from_data(data), data).problems
    rule = attempt["rule"]
    assert problems == (f"1 of 70 outcomes do not match their attempts (first: case 1 ({rule}))",)


PASSED = {"passed": True, "verified": True, "proctored": True}


def test_a_verified_proctored_pass_counts_and_no_result_does_not():
    assert checkout_reasons(PASSED) == []
    assert checkout_reasons(None) == ["no graded check-out"]
    assert checkout_reasons({"passed": True, "proctored": False}, require_proctored=False) == []


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"verified": False}, "the check-out result is not verified by the trainer's secret"),
        ({"practice": True}, "the check-out was a practice paper, which never counts"),
        (
            {"proctored": False},
            "the check-out was sat on the trainee's own machine, not proctored, and only proctored ones "
            "count here (cohort --accept-unproctored counts it)",
        ),
        ({"passed": False}, "the check-out did not pass"),
        (
            {"too_fast": "case 3 in 1 s"},
            "the check-out was answered faster than a person reads: case 3 in 1 s",
        ),
        (
            {"superseded_by": {"paper_id": "p2", "issued": "2026-12-01T09:00:00Z", "graded": None}},
            'the ledger holds a newer check-out (paper "p2", issued "2026-12-01T09:00:00Z") not graded yet; '
            "the newest paper decides",
        ),
        (
            {"superseded_by": {"paper_id": "p2", "graded": "2026-12-02T09:00:00Z", "passed": False}},
            'the ledger holds a newer check-out (paper "p2", graded "2026-12-02T09:00:00Z", not passed) '
            "whose result is not among those given; the newest paper decides",
        ),
    ],
)
def test_each_reason_a_check_out_does_not_count_is_given_alone(change, reason):
    assert checkout_reasons({**PASSED, **change}) == [reason]


def test_every_reason_is_given_in_order():
    reasons = checkout_reasons({"verified": "yes", "practice": True, "passed": "True", "too_fast": ""})
    assert [r[:30] for r in reasons] == [
        "the check-out result is not ve",
        "the check-out was a practice p",
        "the check-out was sat on the t",
        "the check-out did not pass",
    ]
