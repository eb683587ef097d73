"""``tasks.py pythons``: every Python the project admits is tested, and a missing one fails loudly."""

from __future__ import annotations

import os
import re
import sys
import tomllib
from pathlib import Path

import pytest

from helpers.core.paths import project_root

ROOT = project_root()


def test_every_minor_version_requires_python_admits_is_listed(tasks):
    from packaging.specifiers import SpecifierSet

    admits = SpecifierSet(
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    )
    admitted = [f"3.{minor}" for minor in range(0, 40) if admits.contains(f"3.{minor}.0")]
    listed = [version for version, _origin, _places in tasks.PYTHONS]
    assert listed == admitted == ["3.11", "3.12", "3.13"]  # every one admitted, no gap, oldest first
    assert "/usr/bin/python3.11" in tasks.PYTHONS[0][2]  # Debian 12's own 3.11.2, the oldest a user has
    testing = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    for version in listed:
        assert f"Python {version}" in testing
    assert re.search(r"^python3 tasks.py pythons$", (ROOT / ".ci" / "run").read_text(), re.MULTILINE)


def test_the_newest_python_of_a_version_is_found(tasks, tmp_path):
    for version in ("3.12.1", "3.12.10", "3.12.9"):
        binary = tmp_path / version / "bin" / "python3.12"
        binary.parent.mkdir(parents=True)
        binary.write_text("#!/bin/sh\n")
        binary.chmod(0o755)
    found = tasks.find_python(
        "3.12", (str(tmp_path / "missing" / "python3.12"), str(tmp_path / "*/bin/python3.12"))
    )
    assert found == tmp_path / "3.12.10" / "bin" / "python3.12"
    assert tasks.find_python("3.12", (str(tmp_path / "nothing-*"),)) is None


def test_a_missing_python_fails_naming_it_and_where_it_was_looked_for(tasks, monkeypatch, tmp_path):
    here = (sys.version.split()[0][:4], "this one", (sys.executable,))
    gone = ("3.99", "pyenv's", (str(tmp_path / "versions/3.99.*/bin/python3.99"),))
    monkeypatch.setattr(tasks, "PYTHONS", (here, gone))
    ran: list[Path] = []
    monkeypatch.setattr(tasks, "test_on", lambda python, extra: ran.append(python))
    with pytest.raises(SystemExit) as stopped:
        tasks.pythons([])
    message = str(stopped.value)
    assert "Python 3.99 (pyenv's; looked in " in message and "versions/3.99.*/bin/python3.99" in message
    assert ran == []  # nothing is tested when the set is not whole


def test_a_python_older_than_the_floor_is_refused(tasks, monkeypatch):
    monkeypatch.setattr(tasks, "_python_version", lambda python: "3.10.13")
    with pytest.raises(SystemExit, match=r"is Python 3\.10\.13; the project needs 3\.11 or newer"):
        tasks.python_venv(Path("/usr/bin/python3.10"))


def test_a_test_run_writes_bytecode_even_where_the_user_turned_it_off(tasks):
    env = tasks.test_environment({"PYTHONDONTWRITEBYTECODE": "1", "HOME": "/home/x"})
    assert env == {"HOME": "/home/x"}  # each of the suite's processes reuses the compiled helpers


@pytest.mark.parametrize(("every", "wanted"), [("1", (200, 400, 7)), ("0", (25, 50, 2))])
def test_the_fast_loop_samples_and_all_takes_everything(every, wanted):
    import subprocess

    code = "import budget; print(budget.examples(200), budget.examples(400), budget.sampled(7, 2))"
    env = {"EIC_ALL_TESTS": every, "PYTHONPATH": str(ROOT / "tests" / "support")}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert tuple(int(n) for n in out.split()) == wanted


def _script(code: str) -> list:
    return [sys.executable, "-c", code]


def test_the_fast_loop_shows_the_smoke_tests_and_fails_when_they_fail(tasks, tmp_path, capsys):
    log = tmp_path / "smoke.log"
    smoke = _script("import sys; print('tests/surfaces/x.py::test_one FAILED'); sys.exit(3)")
    with pytest.raises(SystemExit) as raised:
        tasks.smoke_tests(smoke, dict(os.environ), beside=_script("pass"), log_path=log)
    assert raised.value.code == 3
    assert "tests/surfaces/x.py::test_one FAILED" in capsys.readouterr().out
    tasks.smoke_tests(_script("print('all PASSED')"), dict(os.environ), beside=_script("pass"), log_path=log)
    assert "all PASSED" in capsys.readouterr().out


def test_when_the_rest_fails_the_smoke_run_is_stopped(tasks, tmp_path):
    started = tmp_path / "started"
    smoke = _script(
        "import os, pathlib, time\n"
        f"pathlib.Path({str(started)!r}).write_text(str(os.getpid()))\n"
        "time.sleep(600)"
    )
    rest = _script(
        f"import pathlib, time\nwhile not pathlib.Path({str(started)!r}).exists(): time.sleep(0.05)\nraise SystemExit(1)"
    )
    with pytest.raises(SystemExit) as raised:
        tasks.smoke_tests(smoke, dict(os.environ), beside=rest, log_path=tmp_path / "smoke.log")
    assert raised.value.code == 1
    with pytest.raises(ProcessLookupError):  # stopped and reaped, not left to sleep
        os.kill(int(started.read_text()), 0)


def test_the_smoke_results_are_shown_when_the_rest_fails(tasks, tmp_path, capsys):
    done = tmp_path / "done"
    smoke = _script(
        f"import pathlib; print('tests/surfaces/x.py::test_one PASSED', flush=True); pathlib.Path({str(done)!r}).touch()"
    )
    rest = _script(
        f"import pathlib, time\nwhile not pathlib.Path({str(done)!r}).exists(): time.sleep(0.05)\nraise SystemExit(1)"
    )
    with pytest.raises(SystemExit) as raised:
        tasks.smoke_tests(smoke, dict(os.environ), beside=rest, log_path=tmp_path / "smoke.log")
    assert raised.value.code == 1
    assert "tests/surfaces/x.py::test_one PASSED" in capsys.readouterr().out


def test_every_venv_is_built_at_once_before_any_test_runs(tasks, monkeypatch):
    import threading

    pythons = [Path("/fake/python3.11"), Path("/fake/python3.12"), Path("/fake/python3.13")]
    monkeypatch.setattr(tasks, "PYTHONS", tuple((p.name[-4:], "fake", (str(p),)) for p in pythons))
    monkeypatch.setattr(tasks, "find_python", lambda version, places: Path(places[0]))
    both_started = threading.Barrier(len(pythons), timeout=10)  # passes only if the builds overlap
    events: list[str] = []

    def build(python: Path) -> Path:
        both_started.wait()
        events.append(f"built {python.name}")
        return python

    monkeypatch.setattr(tasks, "python_venv", build)
    monkeypatch.setattr(tasks, "test_on", lambda python, extra: events.append(f"tested {python.name}"))
    tasks.pythons([])
    assert sorted(events[:3]) == [f"built {p.name}" for p in pythons]
    assert events[3:] == [f"tested {p.name}" for p in pythons]  # in order, once every venv is ready


def test_a_venv_that_fails_to_build_is_named(tasks, monkeypatch):
    def build(python: Path) -> Path:
        if python.name == "python3.12":
            raise SystemExit(1)
        return python

    monkeypatch.setattr(tasks, "python_venv", build)
    with pytest.raises(SystemExit, match=r"building the venv of /fake/python3\.12 failed \(pip exited 1\)"):
        tasks.build_venvs([Path("/fake/python3.11"), Path("/fake/python3.12")])
