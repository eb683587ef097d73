"""The check commands' arguments (:mod:`helpers.team.command_parser`): defaults, and every combination refused as a usage error."""

from __future__ import annotations

import pytest

from helpers.cli.run import _parser
from helpers.core import streams
from helpers.team.command_parser import _data_options, _DataOptions


class _Recorder:
    def __init__(self) -> None:
        self.written: list[str] = []

    def write(self, text: str) -> None:
        self.written.append(text)


def _options(*argv: str) -> _DataOptions:
    parser = _parser(only=argv[0])
    return _data_options(parser, parser.parse_args(argv))


def test_the_defaults_are_the_documented_ones():
    assert _options("target-scope") == _DataOptions()
    assert _options("target-scope", "in.jsonl").format == "jsonl"
    assert _options("sentinels", "--baseline", "b.json", "--proposed", "p.json").max_file_mb == 512.0


def test_the_options_are_read_as_given():
    options = _options(
        "target-scope",
        "in.csv",
        "--format",
        "csv",
        "--list-separator",
        ";",
        "--summary-json",
        "--results",
        "out.jsonl",
        "--max-failures",
        "0",
        "--engine",
        "duckdb",
        "-v",
    )
    assert (options.format, options.list_separator, options.summary, options.results) == (
        "csv",
        ";",
        "json",
        "out.jsonl",
    )
    assert (options.max_failures, options.engine, options.verbose) == (0, "duckdb", True)
    qrels = _options(
        "sentinels",
        "--baseline",
        "b.parquet",
        "--proposed",
        "p.parquet",
        "--format",
        "parquet",
        "--id-column",
        "q",
        "--id-column",
        "d",
        "--answer-column",
        "rel",
    )
    assert (qrels.key_format, qrels.id_columns, qrels.answer_column) == ("parquet", ("q", "d"), "rel")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["target-scope", "--max-failures", "-1"], "--max-failures must be 0 or more"),
        (["target-scope", "--list-separator", ";"], "--list-separator applies only with --format csv"),
        (["target-scope", "--format", "csv", "--list-separator", ""], "--list-separator must not be empty"),
        (["target-scope", "--results", "r.jsonl"], "--results goes with --summary or --summary-json"),
        (["sentinels", "--baseline", "b.json"], "--baseline and --proposed go together"),
        (
            ["sentinels", "k.jsonl", "--baseline", "b.json", "--proposed", "p.json"],
            "give either FILE or --baseline and --proposed, not both",
        ),
        (
            ["sentinels", "--baseline", "b.json", "--proposed", "p.json", "--carry"],
            "--carry and --results apply to record files, not to two keys",
        ),
        (
            ["sentinels", "--sentinels", "ids.txt"],
            "--format, --key-format and --sentinels go with --baseline and --proposed",
        ),
        (
            [
                "sentinels",
                "--baseline",
                "b.parquet",
                "--proposed",
                "p.parquet",
                "--format",
                "parquet",
                "--id-column",
                "id",
            ],
            "--format parquet needs --answer-column and --id-column",
        ),
        (
            ["sentinels", "--baseline", "b.json", "--proposed", "p.json", "--answer-column", "a"],
            "--id-column and --answer-column apply only with --format parquet",
        ),
        (
            ["sentinels", "--baseline", "b.json", "--proposed", "p.json", "--max-file-mb", "inf"],
            "--max-file-mb must be a number of MB more than 0",
        ),
    ],
)
def test_a_combination_that_cannot_work_is_a_usage_error(monkeypatch, argv, message):
    recorder = _Recorder()
    monkeypatch.setattr(streams, "_STDERR", recorder)
    with pytest.raises(SystemExit) as stopped:
        _options(*argv)
    assert stopped.value.code == 2
    assert f"error: {message}" in "".join(recorder.written)


def test_a_command_built_alone_lists_the_others_without_their_arguments(monkeypatch):
    monkeypatch.setattr(streams, "_STDERR", _Recorder())
    choices = _parser(only="sentinels")._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"target-scope", "sentinels", "rebaseline", "export-csv", "export-example"} <= set(choices)
    with pytest.raises(SystemExit):
        choices["export-csv"].parse_args(["--check", "sentinels"])
    full = _parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert full["export-csv"].parse_args(["--check", "sentinels"]).check == "sentinels"
