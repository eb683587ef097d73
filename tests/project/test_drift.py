"""What drifts when nobody looks: the public names, the "Taught in" references, the
environment variables and the error tree each agree with what they describe."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import re
from pathlib import Path

import pytest

import helpers
from helpers.core.errors import HelpersError
from tools import architecture

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "helpers"
NOTEBOOKS = ROOT / "notebooks"

# --- the public names --------------------------------------------------------------------


def _type_checking_names() -> dict[str, tuple[str, str | None]]:
    """``helpers/__init__.py``'s ``TYPE_CHECKING`` imports, in the shape of ``_EXPORTS``."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    )
    found: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(block):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("helpers."):
            for alias in node.names:
                module = node.module
                if (PACKAGE.joinpath(*node.module.split(".")[1:]) / f"{alias.name}.py").exists():
                    found[alias.asname or alias.name] = (f"{module}.{alias.name}", None)
                else:
                    found[alias.asname or alias.name] = (module, alias.name)
    return found


def test_the_lazy_exports_and_the_type_checking_block_agree():
    assert _type_checking_names() == helpers._EXPORTS


# --- "Taught in NN (Section)" ------------------------------------------------------------

#: ``Taught in ``NN_name.ipynb`` ("Section")``, also with several notebooks and across lines.
_TAUGHT = re.compile(r'Taught\s+in\s+((?:``\d\d_\w+\.ipynb``[\s,]*(?:and\s+)?)+)\(\s*"([^"]+)"\s*\)')
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")

#: References in modules another change is rewriting; each must still be broken (remove it when fixed).
_PENDING: set[tuple[str, str, str]] = set()


def _normal(text: str) -> str:
    """A heading or section as compared: no numbering (``3. ``), markup or case; spaces collapsed."""
    text = re.sub(r"[*_`]", "", text)
    text = re.sub(r"^\d+\.\s+", "", " ".join(text.split()))
    return text.casefold().rstrip(" .:?")


def _headings(notebook: Path) -> list[str]:
    found = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            found += [m.group(1) for line in source.splitlines() if (m := _HEADING.match(line))]
    return found


def _names_a_heading(section: str, headings: list[str]) -> bool:
    """True when a heading is the section, or starts with it and then more words."""
    wanted = _normal(section)
    return any(h == wanted or h.startswith(wanted + " ") for h in map(_normal, headings))


def _references() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in _TAUGHT.finditer(text):
            section = " ".join(match.group(2).split())
            for notebook in re.findall(r"``(\d\d_\w+\.ipynb)``", match.group(1)):
                found.append((path.relative_to(ROOT).as_posix(), notebook, section))
    return found


def test_the_reference_scan_finds_the_references():
    references = _references()
    assert len(references) > 30
    assert ("helpers/core/errors.py", "02_target_scope.ipynb", "Downloads") in references


def test_the_heading_match_is_tolerant_but_not_loose():
    headings = ["3. A chart of the outcomes", "Unresolved targets need staff labels", "Case 1"]
    assert _names_a_heading("A chart of the outcomes", headings)
    assert _names_a_heading("Unresolved targets", headings)
    assert not _names_a_heading("Unresolved", ["Unresolvedness"])
    assert not _names_a_heading("The drill", ["The mastery drill"])


def test_every_taught_in_reference_names_a_heading_of_its_notebook():
    cache: dict[str, list[str]] = {}
    broken = set()
    for where, notebook, section in _references():
        path = NOTEBOOKS / notebook
        assert path.exists(), f"{where} names {notebook}, which does not exist"
        headings = cache.setdefault(notebook, _headings(path))
        if not _names_a_heading(section, headings):
            broken.add((where, notebook, section))
    assert broken - _PENDING == set(), "no such heading (file, notebook, section)"
    assert _PENDING - broken == set(), "fixed: remove these from _PENDING"


# --- environment variables ---------------------------------------------------------------

_ENV_NAME = re.compile(r"\b(?:EIC|HELPERS)_[A-Z][A-Z0-9_]*\b")
_SCANNED = ["helpers", "tests", "tasks.py", ".ci", "benchmarks", "docs", "CONTRIBUTING.md"]

#: Old names still read for one release, each beside its new name.
_DEPRECATED = {"HELPERS_PARALLEL_MIN_BYTES": "EIC_PARALLEL_MIN_BYTES"}


def _env_names() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for entry in _SCANNED:
        base = ROOT / entry
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in paths:
            if ".venv" in path.parts or path.suffix not in ("", ".py", ".md", ".sh", ".toml", ".cfg"):
                continue
            if path == Path(__file__):
                continue
            for name in _ENV_NAME.findall(path.read_text(encoding="utf-8", errors="replace")):
                found.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    return found


def test_environment_variables_share_one_prefix_and_are_documented():
    names = _env_names()
    assert "EIC_PARALLEL_MIN_BYTES" in names and "EIC_CHROMIUM" in names
    old = {name for name in names if not name.startswith("EIC_")}
    assert old <= set(_DEPRECATED), f"use the EIC_ prefix: {sorted(old - set(_DEPRECATED))}"
    documented = set(_ENV_NAME.findall((ROOT / "docs" / "environment.md").read_text(encoding="utf-8")))
    missing = {name for name in names if name.startswith("EIC_")} - documented
    assert not missing, f"not in docs/environment.md: {sorted(missing)}"
    for name, new in _DEPRECATED.items():
        assert name in documented and new in documented


# --- one root error class ----------------------------------------------------------------


def _helpers_modules() -> list[str]:
    names = ["helpers"]
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="helpers."):
        if info.name != "helpers.__main__":
            names.append(info.name)
    return names


def test_every_exception_defined_in_helpers_derives_from_the_root():
    classes = []
    for name in _helpers_modules():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ == name and issubclass(value, BaseException):
                classes.append(value)
    assert len(classes) >= 15  # the scan sees the whole tree, private signals included
    stray = [f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, HelpersError)]
    assert stray == []


def test_the_error_tree_in_the_docs_names_every_public_error():
    from helpers.core import errors

    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    for name in errors.__all__:
        value = getattr(errors, name)
        if inspect.isclass(value) and issubclass(value, BaseException):
            assert re.search(rf"\b{name}\b", text), name
    assert helpers.HelpersError is HelpersError


# --- the fast loop's browser smoke tests ------------------------------------------------------


def _browser_smoke_tests() -> list[str]:
    """The node IDs ``python3 tasks.py test`` runs in its browser step (``-m "browser and smoke"``)."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "browser and smoke", "tests/surfaces"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return [line for line in result.stdout.splitlines() if "::" in line]


@pytest.mark.slow  # collects tests/surfaces in a process of its own
def test_each_surface_has_one_smoke_test_and_the_docs_list_them():
    """``python3 tasks.py test`` runs ``-m "browser and smoke"`` over tests/surfaces: one per surface,
    as docs/testing.md says, and no browser or smoke test lives anywhere else."""
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if "surfaces" not in path.relative_to(ROOT / "tests").parts and path != Path(__file__).resolve():
            text = path.read_text(encoding="utf-8")
            assert "mark.browser" not in text and "mark.smoke" not in text, (
                f"{path}: move it to tests/surfaces"
            )
    smoke = _browser_smoke_tests()
    table = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8").split("| Surface | Smoke test", 1)[1]
    rows = re.findall(r"^\| ([^|]+?) \| `([^`]+)` \|$", table.split("\n\n", 1)[0], re.MULTILINE)
    surfaces = [surface for surface, _ in rows]
    assert surfaces == [
        "JupyterLab",
        "Notebook 7",
        "the app (Voilà)",
        "the static site",
        "the browser edition",
    ]
    assert sorted(node for _, node in rows) == sorted(smoke)


# --- references in docstrings and docs ----------------------------------------------------

#: ``:mod:``, ``:func:`` and ``:class:`` roles, and dotted ``helpers.x`` names in running text.
_ROLE = re.compile(r":(?:mod|func|class):`([^`]+)`")
_DOTTED = re.compile(r"(?<![\w/.-])helpers(?:\.[A-Za-z_]\w*)+")
_DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "CONTRIBUTING.md"]


def _module_of(path: Path) -> str | None:
    if path.suffix != ".py":
        return None
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _attribute_chain(parts: list[str]) -> bool:
    """Whether the longest importable prefix of ``parts`` has the rest as attributes (or fields)."""
    for cut in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if hasattr(value, name):
                value = getattr(value, name)
            elif name in getattr(value, "__dataclass_fields__", {}):
                value = None
            else:
                return False
        return True
    return False


def _resolves(target: str, module: str | None) -> bool:
    """Whether a reference resolves as Sphinx would read it: absolute, relative to its module's
    package, a name in its module (or a member of one of its classes), or a builtin."""
    name = target.strip().lstrip("~!").removesuffix("()")
    if module is not None and name.startswith("."):
        level = len(name) - len(name.lstrip("."))
        package = module.split(".")[: -level if level else None]
        name = ".".join([*package, name.lstrip(".")])
    parts = name.split(".")
    tries = (
        [parts]
        if parts[0] == "helpers"
        else [*([[*module.split("."), *parts]] if module else []), ["builtins", *parts], parts]
    )
    if any(_attribute_chain(t) for t in tries):
        return True
    if module is not None and len(parts) == 1:
        return any(
            isinstance(v, type) and hasattr(v, name) for v in vars(importlib.import_module(module)).values()
        )
    return False


def _unresolved_references() -> list[str]:
    found = []
    for path in [*sorted(PACKAGE.rglob("*.py")), *_DOCS]:
        module = _module_of(path)
        text = path.read_text(encoding="utf-8")
        refs = [m.group(1) for m in _ROLE.finditer(text)] + [m.group(0) for m in _DOTTED.finditer(text)]
        found += [
            f"{path.relative_to(ROOT)}: {ref}" for ref in dict.fromkeys(refs) if not _resolves(ref, module)
        ]
    return found


def test_the_reference_resolver_tells_a_real_name_from_a_stale_one():
    assert _resolves("~helpers.core.errors.InvalidInputError", None)
    assert _resolves(".regrade", "helpers.trainer.cohort")
    assert _resolves("DrillSession", "helpers.trainee.drill.engine")
    assert _resolves("Mastery.replay", "helpers.trainee.drill.mastery")
    assert _resolves("helpers.check_target_scope", None)  # a lazy public name
    assert not _resolves("~helpers.errors.InvalidInputError", None)
    assert not _resolves("helpers.fastpath", None)
    assert not _resolves("no_such_function", "helpers.trainee.drill.mastery")


def test_every_helpers_reference_in_docstrings_and_docs_resolves():
    assert _unresolved_references() == []


# --- the layout, the extras, the commands, the changelog ----------------------------------


def _layout_files() -> set[str]:
    """The ``helpers/`` files architecture.md's layout names, as paths (``helpers/core/jsonio.py``);
    names in backticks are commands, not files."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split(architecture.BEGIN, 1)[1].split("```")[3]  # the drawing's second block: the layout
    named, inside = set(), False
    folders: list[tuple[int, str]] = []  # the open folders, by indent
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        first = line.strip().split(" ", 1)[0]
        if indent == 0:
            inside, folders = first == "helpers/", []
            continue
        if not inside or not line.strip():
            continue
        while folders and folders[-1][0] >= indent:
            folders.pop()
        if first.endswith("/"):
            folders.append((indent, first))
        prefix = "".join(folder for _, folder in folders)
        words = re.findall(r"(?<![\w/])([a-z_0-9]+\.py)\b", re.sub(r"`[^`]*`", "", line))
        named |= {f"helpers/{prefix}{w}" for w in words}
    return named


def test_the_architecture_drawing_is_the_codes_own():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert architecture.written(page) == page, "run: python tools/architecture.py --write"


def test_the_architecture_layout_names_every_module_and_no_other():
    tree = {
        p.relative_to(ROOT).as_posix()
        for p in PACKAGE.rglob("*.py")
        if p.name != "__init__.py" and "app_templates" not in p.parts
    }
    named = {name for name in _layout_files() if not name.endswith("/__init__.py")}
    assert sorted(named - tree) == [], "architecture.md names files that do not exist"
    assert sorted(tree - named) == [], "modules missing from architecture.md's layout"


def _pyproject() -> dict:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _requirement_name(spec: str) -> str:
    return re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0].lower()


def test_the_extras_table_lists_every_extra_with_what_it_adds():
    extras = _pyproject()["project"]["optional-dependencies"]
    text = (ROOT / "docs" / "helpers.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([\w-]+)` \| ([^|]*) \|", text, re.MULTILINE))
    assert set(rows) == set(extras)
    for extra, specs in extras.items():
        if extra == "all":
            continue
        shown = {_requirement_name(w.strip()) for w in re.split(r",\s*(?![^\[]*\])", rows[extra])}
        assert shown == {_requirement_name(s) for s in specs}, extra


def _ci_commands() -> list[str]:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    return [
        line.split("tasks.py", 1)[1].strip()
        for line in run.splitlines()
        if line.startswith("python3 tasks.py")
    ]


def test_contributing_and_the_layout_name_the_commands_ci_runs():
    commands = _ci_commands()
    assert commands == ["lint", "test --all", "pythons"]
    contributing = " ".join((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split())
    ci = contributing.split("runs `bash .ci/run`", 1)[1].split(". ", 1)[0]
    assert re.findall(r"`python3 tasks\.py ([^`]+)`", ci) == commands
    layout = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    line = next(x for x in layout.splitlines() if x.startswith(".ci/run"))
    assert re.findall(r"`tasks\.py ([^`]+)`", line) == commands


def test_the_docs_name_every_tool_tasks_lint_runs_and_every_command():
    source = (ROOT / "tasks.py").read_text(encoding="utf-8")
    lint = source.split("def lint(", 1)[1].split("\ndef ", 1)[0]
    tools = re.findall(r'\(\s*"[^"]+",\s*\[BIN / "([\w-]+)",?\s*(?:"([a-z][\w-]*)")?', lint)
    names = [" ".join(filter(None, t)) for t in tools]
    assert names == ["ruff check", "ruff format", "mypy", "lint-imports", "validate-pyproject"]
    contributing = (
        (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split("## Lint", 1)[1].split("## ", 1)[0]
    )
    interfaces = next(
        x
        for x in (ROOT / "docs" / "interfaces.md").read_text(encoding="utf-8").splitlines()
        if "tasks.py lint " in x
    )
    for text in (contributing, interfaces):
        assert all(name in text for name in names), text
    assert f"All {['one', 'two', 'three', 'four', 'five'][len(names) - 1]}" in contributing
    commands = re.findall(r'command == "(\w+)"', source)
    layout = next(
        x
        for x in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()
        if x.startswith("tasks.py ")
    )
    assert sorted(re.split(r",\s*", layout.split("commands:", 1)[1].strip())) == sorted(commands)


def test_the_changelog_has_a_section_for_the_current_version():
    version = _pyproject()["project"]["version"]
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.MULTILINE)
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    headings = re.findall(r"^### (.+)$", unreleased, re.MULTILINE)
    assert len(headings) == len(set(headings)), "a heading twice under [Unreleased]"
