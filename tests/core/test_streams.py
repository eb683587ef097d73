"""Exit codes never lie: an output that cannot be written exits 2 with one line, never a traceback.

Each case runs the command line as a real subprocess under ``bash -c`` with the
shell's own redirections (``>/dev/full``, ``>&-``, ``2>&-``, ``2>/dev/full``).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers.core.paths import fixtures_dir, project_root

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


# --- Ctrl-C and a file that grows while it is read -------------------------------------


def _start(args: list[str], cwd: Path, **extra: object) -> subprocess.Popen[bytes]:
    """``python -m helpers ARGS`` started in its own process group, as a terminal's foreground job."""
    env = {**os.environ, "PYTHONPATH": str(project_root())}
    env.update({key: str(value) for key, value in extra.items()})
    return subprocess.Popen(
        [sys.executable, "-m", "helpers", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
        # A job started in the background by a shell without job control inherits Ctrl-C
        # ignored, and Python keeps it so; these runs stand for a terminal's foreground job.
        preexec_fn=_default_ctrl_c,
    )


def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def _has_open(pid: int, path: Path) -> bool:
    fds = Path(f"/proc/{pid}/fd")
    try:
        return any(os.path.realpath(fd) == str(path) for fd in fds.iterdir())
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _assert_interrupted(done_err: bytes, code: int) -> None:
    err = done_err.decode("utf-8", "replace")
    assert code == 130, (code, err)
    assert err == "python -m helpers: interrupted; not every line was written\n", err


linux_only = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


@linux_only
def test_ctrl_c_on_the_serial_path_exits_130_and_leaves_no_partial_results(tmp_path):
    (tmp_path / "out.jsonl").write_text("an earlier run's results\n", encoding="utf-8")
    run = _start(["target-scope", "--summary", "--results", "out.jsonl"], tmp_path)
    assert run.stdin is not None
    run.stdin.write(OK.encode() * 1000)
    run.stdin.flush()  # and standard input stays open: the run waits for more
    _wait_for(lambda: any(tmp_path.glob(".out.jsonl.*.partial")), "the results file to be started")
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=30)
    _assert_interrupted(err, run.returncode)
    assert out == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == "an earlier run's results\n"


@linux_only
def test_ctrl_c_as_the_results_file_is_opened_leaves_no_partial_file(tmp_path, monkeypatch):
    from helpers import cli
    from helpers.team import commands as check_commands

    data = tmp_path / "in.jsonl"
    data.write_text(OK, encoding="utf-8")
    opened = check_commands._open_results

    def open_then_ctrl_c(path):
        sink = opened(path)
        os.kill(os.getpid(), signal.SIGINT)  # the moment the partial file exists
        return sink

    monkeypatch.setattr(check_commands, "_open_results", open_then_ctrl_c)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = cli.main(["target-scope", str(data), "--summary", "--results", str(tmp_path / "out.jsonl")])
    finally:
        signal.signal(signal.SIGINT, before)
    assert code == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


@linux_only
def test_ctrl_c_on_the_parallel_path_exits_130_and_stops_the_worker(tmp_path):
    data = tmp_path / "many.jsonl"
    data.write_text(OK * 400_000, encoding="utf-8")
    # Standard output is a pipe nobody reads yet, so the run blocks while the worker exists.
    run = _start(["target-scope", "many.jsonl"], tmp_path, EIC_PARALLEL_MIN_BYTES=1)
    _wait_for(lambda: _children(run.pid), "the worker to start")
    (worker,) = _children(run.pid)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=30)
    _assert_interrupted(err, run.returncode)
    assert not Path(f"/proc/{worker}").exists(), "the worker was left behind"


#: Runs ``python -m helpers`` with a file left open and unflushed, as teardown would flush it, and
#: ``{before}`` run first: whether the file holds its line after the run tells whether Python's
#: own exit ran (it flushes and closes what is left) or the process ended at once.
_ENDS_AT_ONCE = """
import atexit, runpy, sys
left = open(sys.argv.pop(1), "w", encoding="utf-8")
left.write("flushed by Python's exit\\n")
{before}
runpy.run_module("helpers", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize(
    ("before", "at_once"),
    [
        ("", True),
        ("atexit.register(lambda: None)", False),  # an exit handler must run
        ("sys.settrace(lambda *a: None)", False),  # a tracer (a coverage tool) must see the end
        # alive until the main thread ends, however slow the run: no sleep to race against
        ("import threading; threading.Thread(target=threading.main_thread().join).start()", False),
    ],
    ids=["nothing-left", "exit-handler", "tracer", "thread"],
)
def test_a_check_ends_the_process_at_once_only_when_nothing_is_left_for_exit(tmp_path, before, at_once):
    left = tmp_path / "left.txt"
    data = tmp_path / "keys.jsonl"
    data.write_text('{"baseline":{"S1":"R","S2":"N"},"proposed":{"S1":"R"}}\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(project_root())}
    runs = {
        ("sentinels", str(data)): (1, b'{"missing":["S2"],"changed":[],"intact":false}\n'),
        ("target-scope", "--summary-json", "missing.jsonl"): (2, b""),  # a usage error ends alike
    }
    for args, (status, out) in runs.items():
        done = subprocess.run(
            [sys.executable, "-c", _ENDS_AT_ONCE.format(before=before), str(left), *args],
            capture_output=True,
            cwd=tmp_path,
            env=env,
            timeout=60,
        )
        assert (done.returncode, done.stdout) == (status, out), done.stderr
        assert (left.read_text(encoding="utf-8") == "") is at_once, done.stderr


#: Runs ``python -m helpers`` with Ctrl-C pressed while orjson is being imported: orjson's set-up
#: imports ``uuid``, and a finder sends SIGINT the moment that import starts.
_CTRL_C_IN_ORJSON = """
import os, runpy, signal, sys
sys.modules.pop("uuid", None)
class Press:
    def find_spec(self, name, path=None, target=None):
        if name == "uuid" and "orjson" in sys.modules:
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Press())
runpy.run_module("helpers", run_name="__main__", alter_sys=True)
"""


@linux_only
def test_ctrl_c_while_orjson_is_imported_exits_130_with_one_line(tmp_path):
    """orjson is imported on first use, with Ctrl-C held back: one landing inside it would crash the process."""
    env = {**os.environ, "PYTHONPATH": str(project_root())}
    done = subprocess.run(
        [sys.executable, "-c", _CTRL_C_IN_ORJSON, "target-scope"],
        input=OK.encode() * 100,
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
        preexec_fn=_default_ctrl_c,
    )
    _assert_interrupted(done.stderr, done.returncode)


#: Runs ``python -m helpers`` with a handshake around the moment the input's size is taken: once
#: :func:`helpers.team.inputs.open_snapshot` has opened the file and taken its size, the run writes
#: ``taken`` to one pipe and waits for a byte on another before it reads a line. The test appends in
#: between, so the appended lines are in the file before any of it is read, on every run.
_SNAPSHOT_HANDSHAKE = """
import os, runpy, sys
import helpers.team.inputs as inputs
taken, go = int(sys.argv.pop(1)), int(sys.argv.pop(1))
real = inputs.open_snapshot
def open_snapshot(path, **options):
    snapshot = real(path, **options)
    os.write(taken, b"taken")
    os.read(go, 1)
    return snapshot
inputs.open_snapshot = open_snapshot
runpy.run_module("helpers", run_name="__main__", alter_sys=True)
"""


@linux_only
@pytest.mark.parametrize("min_bytes", [1, 1 << 40], ids=["two cores", "serial"])
@pytest.mark.parametrize("options", [[], ["--carry"], ["--summary-json"]])
def test_a_file_that_grows_while_it_is_read_is_checked_as_far_as_it_went_at_the_start(
    tmp_path, min_bytes, options
):
    data = tmp_path / "growing.jsonl"
    lines = 200_000
    data.write_text(OK * lines, encoding="utf-8")
    taken_read, taken_write = os.pipe()
    go_read, go_write = os.pipe()
    env = {**os.environ, "PYTHONPATH": str(project_root()), "EIC_PARALLEL_MIN_BYTES": str(min_bytes)}
    args = [str(taken_write), str(go_read), "target-scope", *options, "growing.jsonl"]
    try:
        run = subprocess.Popen(
            [sys.executable, "-c", _SNAPSHOT_HANDSHAKE, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env=env,
            pass_fds=(taken_write, go_read),
        )
    finally:
        os.close(taken_write)
        os.close(go_read)
    try:
        assert os.read(taken_read, 5) == b"taken"  # the size is taken; nothing is read yet
        with data.open("a", encoding="utf-8") as writer:  # a writer still appending
            writer.write(BAD * 1000)
        os.write(go_write, b"g")
    finally:
        os.close(taken_read)
        os.close(go_write)
    out, err = run.communicate(timeout=60)
    assert (run.returncode, err) == (0, b"")
    if options == ["--summary-json"]:
        assert json.loads(out)["records"] == lines
    else:
        assert out.count(b"\n") == lines and b'"error"' not in out


@linux_only
def test_ctrl_c_while_the_cohort_is_re_graded_by_two_workers_exits_130_with_one_line(tmp_path):
    """The workers leave Ctrl-C to the parent: one line, exit 130, and no worker left behind."""
    sample = (fixtures_dir() / "sample_progress" / "asha.json").read_bytes()
    folder = tmp_path / "cohort"
    folder.mkdir()
    for number in range(400):
        (folder / f"trainee-{number:03}.json").write_bytes(sample)
    run = _start(["cohort", "cohort"], tmp_path)
    _wait_for(lambda: len(_children(run.pid)) >= 2, "the workers to start")
    workers = _children(run.pid)
    time.sleep(0.5)  # the workers are re-grading
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=60)
    _assert_interrupted(err, run.returncode)
    assert out == b""
    for worker in workers:
        assert not Path(f"/proc/{worker}").exists(), "a worker was left behind"
