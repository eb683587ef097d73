"""Exit codes never lie: an output that cannot be written exits 2 with one line, never a traceback.

Each case runs the command line as a real subprocess under ``bash -c`` with the
shell's own redirections (``>/dev/full``, ``>&-``, ``2>&-``, ``2>/dev/full``).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.core.paths import project_root

pytestmark = pytest.mark.skipif(
    not (os.path.exists("/dev/full") and os.path.exists("/bin/bash")),
    reason="needs /dev/full and bash",
)

OK = '{"original":["a"],"rewritten":["a"]}\n'
BAD = OK + "not json\n"


def shell(command: str, tmp_path: Path, *, stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m helpers`` plus ``command`` in bash; ``command`` may hold redirections."""
    python = shlex.quote(sys.executable)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return subprocess.run(
        ["bash", "-c", f"{python} -m helpers {command}"],
        input=stdin.encode(),
        capture_output=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(project_root())},
        timeout=60,
    )


def assert_usage_failure(done: subprocess.CompletedProcess[bytes], *, stderr_usable: bool = True) -> None:
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2, (done.returncode, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    if stderr_usable:
        assert err.endswith("\n") and err.count("\n") == 1, err
        assert err.startswith("python -m helpers"), err


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    (tmp_path / "ok.jsonl").write_text(OK, encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text(BAD, encoding="utf-8")
    (tmp_path / "sentinels.jsonl").write_text('{"baseline":{"S1":"R"},"proposed":{"S1":"R"}}\n')
    (tmp_path / "b.json").write_text('{"S1":"R"}', encoding="utf-8")
    (tmp_path / "p.json").write_text('{"S1":"R"}', encoding="utf-8")
    return tmp_path


COMMANDS = [
    "target-scope ok.jsonl",
    "target-scope < ok.jsonl",
    "sentinels sentinels.jsonl",
    "target-scope --summary ok.jsonl",
    "target-scope --summary-json ok.jsonl",
    "export-csv",
    "export-example --check target-scope",
    "sentinels --baseline b.json --proposed p.json",
    "sentinels --baseline b.json --proposed p.json --summary",
    "sentinels --baseline b.json --proposed p.json --summary-json",
    "--help",
    "target-scope --help",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_full_standard_output_exits_2_with_one_line(inputs, command):
    done = shell(f"{command} >/dev/full", inputs)
    assert_usage_failure(done)
    assert "No space left on device" in done.stderr.decode()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_closed_standard_output_exits_2_with_one_line(inputs, command):
    done = shell(f"{command} >&-", inputs)
    assert_usage_failure(done)
    assert "standard output" in done.stderr.decode()


def test_a_full_results_file_exits_2_with_one_line(inputs):
    done = shell("target-scope --summary-json --results /dev/full ok.jsonl", inputs)
    assert_usage_failure(done)
    assert "cannot write /dev/full" in done.stderr.decode()


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_a_summary_whose_bad_lines_cannot_go_to_stderr_still_writes_stdout_and_exits_2(inputs, redirect):
    done = shell(f"target-scope --summary bad.jsonl {redirect}", inputs)
    assert_usage_failure(done, stderr_usable=False)
    assert b"records checked: 2" in done.stdout
    assert done.stderr == b""


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_an_unusable_stderr_that_is_not_needed_changes_nothing(inputs, redirect):
    done = shell(f"target-scope ok.jsonl {redirect}", inputs)
    assert (done.returncode, done.stdout) == (0, b'{"missing":[],"added":[],"preserved":true}\n')


def test_stdin_piped_to_a_full_stdout_leaves_no_exception_at_exit(inputs):
    done = shell("target-scope >/dev/full", inputs, stdin=OK)
    assert_usage_failure(done)


def test_a_reader_closing_the_pipe_early_exits_2(inputs):
    lines = OK * 200_000
    (inputs / "many.jsonl").write_text(lines, encoding="utf-8")
    done = shell("target-scope many.jsonl | head -c 10 >/dev/null; exit ${PIPESTATUS[0]}", inputs)
    assert_usage_failure(done)
    assert "output closed early" in done.stderr.decode()


@pytest.mark.parametrize(
    "command",
    [
        "target-scope --summary-json --results F.jsonl < F.jsonl",
        "target-scope --summary-json --results F.jsonl F.jsonl",
        "target-scope --summary-json --results ./F.jsonl F.jsonl",
        "target-scope --summary-json --results link.jsonl F.jsonl",
        "target-scope --summary --results link.jsonl < F.jsonl",
    ],
)
def test_results_naming_the_input_is_refused_and_the_input_kept(inputs, command):
    (inputs / "F.jsonl").write_text(BAD, encoding="utf-8")
    (inputs / "link.jsonl").symlink_to("F.jsonl")
    done = shell(command, inputs)
    assert_usage_failure(done)
    assert "--results" in done.stderr.decode()
    assert (inputs / "F.jsonl").read_text(encoding="utf-8") == BAD
    assert done.stdout == b""


def test_results_naming_an_answer_key_is_a_usage_error_and_the_key_kept(inputs):
    done = shell("sentinels --baseline b.json --proposed p.json --summary --results b.json", inputs)
    assert done.returncode == 2
    assert (inputs / "b.json").read_text(encoding="utf-8") == '{"S1":"R"}'


def test_output_is_written_in_large_chunks_not_per_line(inputs):
    """strace-free check: the whole run's output arrives intact, through a pipe, byte for byte."""
    (inputs / "many.jsonl").write_text(OK * 50_000, encoding="utf-8")
    done = shell("target-scope many.jsonl | cat", inputs)
    assert done.returncode == 0
    assert done.stdout == b'{"missing":[],"added":[],"preserved":true}\n' * 50_000
