"""``python -m helpers`` (:mod:`helpers.__main__`): runs the command line only as the main module."""

from __future__ import annotations

import runpy

from helpers.cli import run


def test_run_as_the_main_module_it_ends_the_process_through_the_command_line(monkeypatch):
    calls: list[tuple] = []
    monkeypatch.setattr(run, "end_process", lambda *args: calls.append(args))
    runpy.run_module("helpers", run_name="__main__")
    assert calls == [()]


def test_imported_it_runs_nothing(monkeypatch):
    calls: list[tuple] = []
    monkeypatch.setattr(run, "end_process", lambda *args: calls.append(args))
    namespace = runpy.run_module("helpers.__main__", run_name="helpers.__main__")
    assert calls == [] and namespace["end_process"] is run.end_process


def test_the_process_exits_with_the_verdict(run_cli):
    done = run_cli("sentinels", stdin='{"baseline":{"S1":"R"},"proposed":{"S1":"S"}}\n')
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        b'{"missing":[],"changed":["S1"],"intact":false}\n',
        b"",
    )
