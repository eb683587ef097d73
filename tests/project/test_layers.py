"""The package's layers: imports flow one way, with no cycles, and ``import helpers`` stays cheap.

core ← trainee ← trainer | team ← cli: the trainee's package imports neither the trainer's nor the
team's, and those two never import each other; each command group lives with its audience and owns its parser, over the streams and argparse parts
of core, and cli's run joins them. The layer rules are import-linter contracts
(``[tool.importlinter]`` in pyproject.toml, run by ``python3 tasks.py lint``); the tests here run
them, prove they catch a wrong import, and keep the two rules import-linter cannot state.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "helpers"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

#: The subpackages the layers contract names; a new one would be in no layer, so unchecked.
LAYERS = {"core", "trainee", "trainer", "team", "cli"}
#: The modules directly under ``helpers`` (the facade and ``python -m helpers``).
TOP_MODULES = {"__init__", "__main__"}


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_import_contracts_hold():
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 14 kept, 0 broken." in done.stdout


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        (
            "core/ordering.py",
            "from helpers.trainee import cases",
            "helpers.core is not allowed to import helpers.trainee",
        ),
        (
            "trainee/grading.py",
            "from helpers.trainer import secret",
            "helpers.trainee is not allowed to import helpers.trainer",
        ),
        (
            "trainee/drill/engine.py",
            "from helpers.team import batch",
            "helpers.trainee is not allowed to import helpers.team",
        ),
        (
            "trainer/cohort.py",
            "from helpers.team import batch",
            "helpers.trainer is not allowed to import helpers.team",
        ),
        (
            "team/reports.py",
            "from helpers.trainer import secret",
            "helpers.team is not allowed to import helpers.trainer",
        ),
        ("cli/run.py", "from helpers.trainee.widgets import base", "Nothing imports the widgets BROKEN"),
        (
            "core/arguments.py",
            "def f():\n    from helpers.cli import run",
            "helpers.core is not allowed to import helpers.cli",
        ),
        ("team/command_parser.py", "from helpers.team import commands", "The team's rooms"),
        ("trainer/stray.py", "", "Trainer: commands"),  # a new module of the trainer's in no layer
        (
            "team/fastpath.py",
            "def f():\n    from helpers.team import batch",
            "A record's walk: batch <- two cores",
        ),
        ("trainee/cases/rules.py", "from helpers.trainee.drill import engine", "The trainee's rooms"),
        ("trainee/drill/course.py", "from helpers.trainee.drill import replay", "Drill: replay <- engine"),
        ("trainee/drill/stray.py", "", "Drill: replay <- engine"),  # a new module of a room in no layer
        ("trainer/secret.py", "from helpers.trainer import cohort", "Trainer: commands"),
        ("trainee/views/case_html.py", "import ipywidgets", "Only widgets import ipywidgets BROKEN"),
        ("core/ordering.py", "def f():\n    from helpers.core import checks", "No import cycles BROKEN"),
    ],
)
def test_lint_imports_catches_a_wrong_import(tmp_path, module, line, broken):
    """The contracts can fail: a copy of the package with one wrong import is refused."""
    shutil.copytree(PACKAGE, tmp_path / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with open(tmp_path / "helpers" / module, "a", encoding="utf-8") as source:
        source.write(f"\n{line}\n")
    done = _lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout
    assert broken in done.stdout


def test_every_module_belongs_to_a_layer():
    """Kept by hand: the layers contract checks only the subpackages it names, so a new one is caught here."""
    subpackages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    assert subpackages == LAYERS
    assert modules == TOP_MODULES


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every absolute module ``path`` imports (relative imports are the package's own), with line numbers.

    Imports inside functions count (a hidden import is still an import); those under
    ``if TYPE_CHECKING:`` never run, so they do not.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for n in ast.walk(node)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.append((node.module or "", node.lineno))
    return found


def _outside_the_standard_library(package: Path) -> list[str]:
    return [
        f"{path.relative_to(package.parent)}:{line}: {target}"
        for path in sorted((package / "core").rglob("*.py"))
        for target, line in _imports(path)
        if (top := target.split(".")[0]) not in sys.stdlib_module_names
        and top not in ("helpers", "__future__")
    ]


def test_core_uses_only_the_standard_library():
    """Kept by hand: import-linter forbids modules it is given by name, and cannot say "only the standard library"."""
    outside = _outside_the_standard_library(PACKAGE)
    assert not outside, "core imports outside the standard library:\n" + "\n".join(outside)


def test_the_standard_library_check_catches_a_third_party_import(tmp_path):
    (tmp_path / "helpers" / "core").mkdir(parents=True)
    (tmp_path / "helpers" / "core" / "checks.py").write_text("import json\n\ndef f():\n    import orjson\n")
    assert _outside_the_standard_library(tmp_path / "helpers") == ["helpers/core/checks.py:4: orjson"]


def _loaded_after(code: str) -> list[str]:
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.split()


def test_import_helpers_loads_nothing_else():
    loaded = _loaded_after("import helpers")
    assert [name for name in loaded if name.startswith("helpers.")] == []
    assert "typing" not in loaded or "typing" in _loaded_after("pass")


def test_a_command_line_run_loads_no_teaching_code():
    code = (
        "import io, sys\n"
        'sys.stdin = io.TextIOWrapper(io.BytesIO(b\'{"original":["a"],"rewritten":["a"]}\\n\'))\n'
        "sys.stdout = io.TextIOWrapper(io.BytesIO())\n"
        "from helpers.cli import main\n"
        "assert main(['target-scope']) == 0\n"
        "sys.stdout = sys.__stdout__"
    )
    loaded = _loaded_after(code)
    # The trainer's command names are in the parser (its argparse declarations only, no code of theirs).
    parser_only = {"helpers.trainer", "helpers.trainer.command_parser"}
    heavy = [
        name
        for name in loaded
        if name.startswith(("helpers.trainee", "helpers.trainer", "ipywidgets", "matplotlib", "nbconvert"))
        and name not in parser_only
    ]
    assert heavy == []


#: What a one-line run of the command line must not load: the fast parser (orjson, and the uuid,
#: platform and datetime it loads), the explanations a summary gives (difflib, unicodedata), the
#: readers of files and other formats, and the engines.
_NOT_FOR_ONE_LINE = (
    "orjson",
    "uuid",
    "platform",
    "difflib",
    "unicodedata",
    "helpers.team.outcome_lines",
    "helpers.team.reports",
    "helpers.team.id_display",
    "helpers.team.inputs",
    "helpers.team.sources",
    "helpers.core.chardiff",
    "helpers.core.explain",
    "helpers.core.differences",
    "duckdb",
    "pyarrow",
    "pyspark",
)


def _command_line_loads(check: str, stdin: bytes, *args: str) -> tuple[int, list[str]]:
    """What ``python -m helpers CHECK ARGS`` loads, reading ``stdin``: (exit status, modules)."""
    # An exit handler lists the modules (and keeps the process from ending at once, which changes
    # nothing about what was loaded).
    script = (
        "import atexit, runpy, sys\n"
        "atexit.register(lambda: sys.stderr.write('\\n'.join(sorted(sys.modules))))\n"
        "runpy.run_module('helpers', run_name='__main__', alter_sys=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, check, *args], input=stdin, capture_output=True, cwd=ROOT, check=False
    )
    return done.returncode, done.stderr.decode().splitlines()


@pytest.mark.parametrize(
    ("check", "line", "status"),
    [
        ("target-scope", b'{"original":["induction","refresher"],"rewritten":["induction"]}', 1),
        ("target-scope", b'{"original":["a"],"rewritten":["a"],"unresolved":["b"]}', 3),
        ("target-scope", b'{"original":["a"],"rewritten":[1]}', 4),
        ("sentinels", b'{"baseline":{"S1":"R"},"proposed":{"S1":"N"}}', 1),
    ],
)
def test_a_one_line_run_loads_only_what_one_line_needs(check, line, status):
    code, loaded = _command_line_loads(check, line + b"\n")
    assert code == status
    assert [name for name in loaded if name.startswith(_NOT_FOR_ONE_LINE)] == []


def test_a_long_input_still_takes_the_fast_parser():
    code, loaded = _command_line_loads("target-scope", b'{"original":["a"],"rewritten":["a"]}\n' * 100)
    assert code == 0 and "orjson" in loaded


def test_a_public_name_is_loaded_on_first_use():
    loaded = _loaded_after("import helpers\nhelpers.check_target_scope")
    assert "helpers.core.target_scope" in loaded
    assert "helpers.trainee.views.case_html" not in loaded


def test_every_public_name_resolves():
    import helpers

    for name in helpers.__all__:
        assert getattr(helpers, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        helpers.nope  # noqa: B018
