"""The built wheel: what it ships, and that an installed copy works away from the checkout.

One module-scoped fixture builds the wheel from a scratch copy of the
checkout (so the build's ``build/`` and ``*.egg-info`` never land in the
repository), makes a fresh virtual environment without pip, and installs the
wheel into it with this interpreter's pip (``pip --python``). Every check then
runs the new environment's Python isolated (``-I``) from a folder outside the
repository, so nothing can be imported or read from the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import helpers
from helpers.team import sources
from helpers.trainee import practice

#: The fixture builds and installs the wheel (several seconds): only with ``python3 tasks.py test --all`` (CI).
pytestmark = pytest.mark.slow

Done = subprocess.CompletedProcess[str]
ROOT = Path(__file__).resolve().parents[2]

#: Top-level entries of the checkout that are never build input.
_NOT_SOURCE = frozenset(
    {
        ".git",
        ".venv",
        ".hypothesis",
        "build",
        "dist",
        "site",
        "artifacts",
        "node_modules",
        "lite",
        ".lite-cache",
    }
)


def _ignore(folder: str, names: list[str]) -> set[str]:
    ignored = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
    if Path(folder) == ROOT:
        # Hidden entries at the top (.git, every .venv-X.Y, caches) are never build input, and the
        # per-Python environments alone are gigabytes to copy.
        ignored |= _NOT_SOURCE.intersection(names) | {n for n in names if n.startswith(".")}
    return ignored


def _run(*args: str | Path, cwd: Path, stdin: str = "", check: bool = True) -> Done:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [str(a) for a in args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )
    if check and done.returncode:
        pytest.fail(f"{args} exited {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done


@dataclass(frozen=True)
class Installed:
    source: Path  # the copy of the checkout the wheel was built from
    wheel: Path
    names: frozenset[str]  # the wheel's file list
    python: Path  # the fresh environment's interpreter
    venv: Path
    outside: Path  # a working folder outside the repository

    def run(self, *args: str, stdin: str = "", check: bool = True) -> Done:
        return _run(self.python, "-I", *args, cwd=self.outside, stdin=stdin, check=check)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    source, dist, venv, outside = (base / n for n in ("source", "dist", "venv", "outside"))
    shutil.copytree(ROOT, source, ignore=_ignore)
    outside.mkdir()
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        dist,
        source,
        cwd=base,
    )
    (wheel,) = dist.glob("*.whl")
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=base)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-deps",
        "--no-index",
        wheel,
        cwd=base,
    )
    with zipfile.ZipFile(wheel) as archive:
        names = frozenset(archive.namelist())
    return Installed(source, wheel, names, python, venv, outside)


# --- what the wheel ships ---------------------------------------------------


def test_wheel_ships_every_fixture(installed: Installed) -> None:
    for name in ("filled_cases.json", "rules.json", "practice_cases.json", "worked_answers/baseline.json"):
        assert f"helpers/fixtures/{name}" in installed.names
    sample = sorted(p.name for p in (installed.source / "fixtures" / "sample_data").iterdir() if p.is_file())
    assert sample, "fixtures/sample_data/ is empty"
    for name in sample:
        assert f"helpers/fixtures/sample_data/{name}" in installed.names
    # Every file of fixtures/, not only the ones named above.
    fixtures = installed.source / "fixtures"
    for path in fixtures.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            assert f"helpers/fixtures/{path.relative_to(fixtures).as_posix()}" in installed.names


def test_wheel_ships_the_voila_templates(installed: Installed) -> None:
    templates = installed.source / "helpers" / "trainer" / "serve" / "app_templates"
    files = [p for p in templates.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert files, "no Voilà template files in the checkout"
    for path in files:
        assert path.relative_to(installed.source).as_posix() in installed.names


def test_wheel_ships_every_module(installed: Installed) -> None:
    for path in (installed.source / "helpers").rglob("*.py"):
        assert path.relative_to(installed.source).as_posix() in installed.names


def test_wheel_ships_no_tests_or_notebooks(installed: Installed) -> None:
    top = {name.split("/", 1)[0] for name in installed.names}
    assert top <= {"helpers", "eval_integrity_helpers.py", *(n for n in top if n.endswith(".dist-info"))}, top
    assert "eval_integrity_helpers.py" in top  # the notebooks' first import, which names a stray helpers
    assert not [n for n in installed.names if "/tests/" in n or "/notebooks/" in n or n.endswith(".ipynb")]


# --- an installed copy, away from the checkout ------------------------------

_PROBE = """\
import json, sys, sysconfig
from pathlib import Path
import helpers
import helpers.team.sources
import helpers.trainee.practice
from helpers.core.paths import fixtures_dir
print(json.dumps({
    "helpers": helpers.__file__,
    "purelib": sysconfig.get_paths()["purelib"],
    "fixtures": str(fixtures_dir()),
    "cases": [c.id for c in helpers.filled_cases()],
    "rules": [r.id for r in helpers.trainee.practice.load_rules()],
    "practice": [c.id for c in helpers.trainee.practice.practice_cases()],
    "sample": str(helpers.team.sources.sample_data("rewrites.jsonl")),
    "sample_lines": len(helpers.team.sources.sample_data("rewrites.jsonl").read_text("utf-8").splitlines()),
    "path": sys.path,
}))
"""


def test_installed_package_reads_its_own_fixtures(installed: Installed) -> None:
    found = json.loads(installed.run("-c", _PROBE).stdout)
    purelib = Path(found["purelib"]).resolve()
    assert purelib.is_relative_to(installed.venv.resolve())
    assert Path(found["helpers"]).resolve().is_relative_to(purelib)
    fixtures = Path(found["fixtures"]).resolve()
    assert fixtures == purelib / "helpers" / "fixtures"
    assert not any(Path(p).resolve().is_relative_to(ROOT) for p in found["path"] if p)
    # The same data as the checkout's (read in this process, from the checkout).
    assert found["cases"] == [c.id for c in helpers.filled_cases()]
    assert len(found["cases"]) == 6
    assert found["rules"] == [r.id for r in practice.load_rules()]
    assert found["practice"] == [c.id for c in practice.practice_cases()]
    assert found["rules"] and found["practice"]
    sample = Path(found["sample"]).resolve()
    assert sample == fixtures / "sample_data" / "rewrites.jsonl"
    expected_lines = sources.sample_data("rewrites.jsonl").read_text("utf-8").splitlines()
    assert found["sample_lines"] == len(expected_lines) > 0


_LOST = '{"original":["induction","refresher"],"rewritten":["induction"]}\n'
_LOST_OUT = '{"missing":["refresher"],"added":[],"preserved":false}\n'


def test_installed_cli_runs(installed: Installed) -> None:
    done = installed.run("-m", "helpers", "target-scope", stdin=_LOST, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (1, _LOST_OUT, "")


def test_installed_console_script_runs(installed: Installed) -> None:
    script = installed.python.parent / ("eval-integrity.exe" if os.name == "nt" else "eval-integrity")
    done = _run(script, "target-scope", cwd=installed.outside, stdin=_LOST, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (1, _LOST_OUT, "")


# --- what a team's tools read: the licence and the type marker --------------


def test_wheel_declares_its_licences(installed: Installed) -> None:
    (metadata,) = [n for n in installed.names if n.endswith(".dist-info/METADATA")]
    with zipfile.ZipFile(installed.wheel) as archive:
        text = archive.read(metadata).decode("utf-8")
        licences = {n.rsplit("/", 1)[-1] for n in installed.names if "/licenses/" in n}
    assert "License-Expression: MIT AND CC-BY-4.0" in text.splitlines()
    assert {"LICENSE", "LICENSE-CC-BY-4.0.txt"} <= licences
    for classifier in ("Programming Language :: Python :: 3.11", "Typing :: Typed"):
        assert f"Classifier: {classifier}" in text.splitlines()


def test_a_type_checker_sees_the_installed_package_typed(installed: Installed) -> None:
    assert "helpers/py.typed" in installed.names
    (installed.outside / "team.py").write_text(
        "import helpers\n"
        "result = helpers.check_sentinels({'S1': 'R'}, {'S1': 'R'})\n"
        "label: str = result.intact\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-incremental",
            "--python-executable",
            str(installed.python),
            "team.py",
        ],
        cwd=installed.outside,
        capture_output=True,
        text=True,
        check=False,
    )
    # Typed: the wrong annotation is found; untyped, mypy would report a missing py.typed marker instead.
    assert "missing library stubs or py.typed marker" not in done.stdout, done.stdout
    assert 'Incompatible types in assignment (expression has type "bool", variable has type "str")' in (
        done.stdout
    ), done.stdout
