"""The trainer's commands' arguments: ``practice``, ``cohort`` and ``checkout``, their defaults and refusals."""

from __future__ import annotations

import argparse

import pytest

from helpers.core.arguments import _argparse, _root
from helpers.trainer.command_parser import _add_trainer_commands, _size


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    _, Parser = _argparse()
    parser, sub = _root(Parser)
    _add_trainer_commands(sub, Parser, only)
    return parser


def test_practice_generate_defaults_to_one_case_from_seed_0() -> None:
    args = _parser().parse_args(["practice", "generate", "--rule", "all"])
    assert (args.command, args.practice_command) == ("practice", "generate")
    assert (args.rule, args.seed, args.count) == ("all", 0, 1)


def test_cohort_takes_paths_and_repeated_check_outs() -> None:
    args = _parser().parse_args(
        ["cohort", "a.json", "folder", "--checkouts", "x", "--checkouts", "y", "--json"]
    )
    assert args.paths == ["a.json", "folder"] and args.checkouts == ["x", "y"] and args.json is True
    assert (args.accept_unproctored, args.require_proctored, args.no_cache, args.trainer_dir) == (
        False,
        False,
        False,
        None,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["cohort"],  # no PATH
        ["cohort", "a", "--accept-unproctored", "--require-proctored"],  # one or the other
        ["checkout"],  # no STEP
        ["checkout", "issue", "-o", "exam.json"],  # no --trainee
        ["checkout", "grade", "--max-bytes", "lots"],
        ["practice", "generate", "--rule", "all", "--count", "two"],
    ],
)
def test_a_usage_error_exits_with_status_2(argv, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        _parser().parse_args(argv)
    assert stopped.value.code == 2


def test_checkout_issue_and_proctor_leave_count_seed_and_cooldown_to_the_command() -> None:
    issue = _parser().parse_args(["checkout", "issue", "--trainee", "Asha", "-o", "exam.json"])
    assert (issue.trainee, issue.output, issue.key, issue.force) == ("Asha", "exam.json", None, False)
    assert (issue.count, issue.seed, issue.cooldown) == (None, None, None)
    proctor = _parser().parse_args(["checkout", "proctor", "--trainee", "Ben", "--cooldown", "0.5"])
    assert (proctor.trainee, proctor.sitting, proctor.port, proctor.host, proctor.cooldown) == (
        "Ben",
        None,
        None,
        None,
        0.5,
    )


def test_grade_reads_a_size_with_its_unit() -> None:
    args = _parser().parse_args(
        ["checkout", "grade", "answers.json", "--key", "k.json", "--max-bytes", "64MB"]
    )
    assert (args.answers, args.key, args.max_bytes) == ("answers.json", "k.json", 64 * 2**20)
    assert _parser().parse_args(["checkout", "grade", "--sitting", "d"]).max_bytes is None


@pytest.mark.parametrize(
    ("text", "size"), [("8MB", 8 * 2**20), ("512k", 512 * 2**10), ("1G", 2**30), ("100", 100)]
)
def test_a_size_is_read_in_bytes(text, size) -> None:
    assert _size(text) == size


@pytest.mark.parametrize("text", ["0", "-1MB", "MB", "1.5M", "٣"])
def test_a_bad_size_is_refused_as_argparse_refuses_a_value(text) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="is not a size"):
        _size(text)


def test_with_only_one_command_the_others_take_no_arguments() -> None:
    parser = _parser("cohort")
    assert parser.parse_args(["cohort", "p"]).paths == ["p"]
    assert parser.parse_args(["checkout"]).command == "checkout"  # its steps were not added
    with pytest.raises(SystemExit):
        parser.parse_args(["checkout", "issue"])
