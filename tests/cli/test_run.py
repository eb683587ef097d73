"""One run of the command line (:mod:`helpers.cli.run`): the exit status and at most one line on standard error."""

from __future__ import annotations

import errno
import sys
import threading

import pytest

from helpers.cli import run
from helpers.core.streams import _OutputFailed


def test_a_check_reads_its_file_and_writes_one_line_per_record(tmp_path, capfd):
    data = tmp_path / "in.jsonl"
    data.write_text('{"original":["a"],"rewritten":["a"]}\n{"original":["a","b"],"rewritten":["a"]}\n')
    assert run.main(["target-scope", str(data)]) == 1
    out, err = capfd.readouterr()
    assert out == (
        '{"missing":[],"added":[],"preserved":true}\n{"missing":["b"],"added":[],"preserved":false}\n'
    )
    assert err == ""


def test_help_exits_0_and_a_usage_error_exits_2_with_argparse_s_message(capfd):
    assert run.main(["--help"]) == 0
    out, _ = capfd.readouterr()
    assert out.startswith("usage: python -m helpers")
    assert run.main(["no-such-command"]) == 2
    _, err = capfd.readouterr()
    assert "invalid choice: 'no-such-command'" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("raised", "code", "line"),
    [
        (KeyboardInterrupt(), 130, "python -m helpers: interrupted; not every line was written\n"),
        (SystemExit(7), 2, ""),
        (SystemExit("a message"), 2, ""),
        (SystemExit(0), 0, ""),
    ],
    ids=["ctrl-c", "odd exit code", "exit message", "exit 0"],
)
def test_an_interrupt_or_an_exit_becomes_a_status_and_at_most_one_line(
    monkeypatch, capfd, raised, code, line
):
    def stopped(argv):
        raise raised

    monkeypatch.setattr(run, "_main", stopped)
    assert run.main([]) == code
    assert capfd.readouterr().err == line


def test_output_that_cannot_be_written_exits_2_with_its_line(monkeypatch, capfd):
    def failing(argv):
        raise _OutputFailed("the results file", OSError(errno.ENOSPC, "No space left on device"))

    monkeypatch.setattr(run, "_main", failing)
    assert run.main([]) == 2
    assert capfd.readouterr().err == (
        "python -m helpers: cannot write the results file: No space left on device; not every line was written\n"
    )


def test_the_parser_for_one_command_holds_only_that_command():
    full = run._parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    only = run._parser(only="sentinels")._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"target-scope", "sentinels", "cohort"} <= set(full)
    assert len(only["sentinels"]._actions) == len(full["sentinels"]._actions)
    assert len(only["target-scope"]._actions) < len(full["target-scope"]._actions)


def test_the_process_ends_at_once_only_when_no_handler_thread_or_tracer_is_left(monkeypatch):
    import atexit

    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)
    monkeypatch.setattr(sys, "gettrace", lambda: None)
    monkeypatch.setattr(sys, "getprofile", lambda: None)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert run._nothing_left_for_exit() is True
    for name, module, value in [
        ("_ncallbacks", atexit, lambda: 1),
        ("gettrace", sys, lambda: print),
        ("getprofile", sys, lambda: print),
        ("active_count", threading, lambda: 2),
    ]:
        with monkeypatch.context() as patched:
            patched.setattr(module, name, value)
            assert run._nothing_left_for_exit() is False, name
