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

import helpers
from helpers.core.errors import HelpersError

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
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            for alias in node.names:
                module = f"helpers.{node.module}"
                if (PACKAGE.joinpath(*node.module.split(".")) / f"{alias.name}.py").exists():
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
_PENDING: set[tuple[str, str, str]] = {
    ("helpers/data/duckdb_engine.py", "05_check_your_data.ipynb", "When your files outgrow this machine"),
    ("helpers/data/spark_engine.py", "05_check_your_data.ipynb", "When your files outgrow this machine"),
}


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
