"""The house's size rules: a small public face, and no module of the package over 600 lines."""

from __future__ import annotations

import types
from pathlib import Path

import helpers

ROOT = Path(__file__).resolve().parents[2]
#: The most lines a module of the package, or of the publishing tools that left it, may have.
MAX_LINES = 600
#: Where the rule holds: the package, and the build tools that were part of it.
FOLDERS = ("helpers", "tools/publish")


def test_import_helpers_offers_at_most_15_names_and_no_modules() -> None:
    assert len(helpers.__all__) <= 15, helpers.__all__
    modules = [name for name in helpers.__all__ if isinstance(getattr(helpers, name), types.ModuleType)]
    assert modules == []


def _too_long(root: Path) -> list[str]:
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            count = len(path.read_text(encoding="utf-8").splitlines())
            if count > MAX_LINES:
                found.append(f"{path.relative_to(root)}: {count} lines")
    return found


def test_no_module_is_over_600_lines() -> None:
    assert _too_long(ROOT) == []


def test_the_line_rule_catches_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "helpers").mkdir()
    (tmp_path / "tools" / "publish").mkdir(parents=True)
    (tmp_path / "helpers" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    (tmp_path / "helpers" / "short.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert _too_long(tmp_path) == [f"helpers/long.py: {MAX_LINES + 1} lines"]


#: The one module whose test file cannot carry its name: ``python -m helpers`` is the command line's.
MIRROR_EXCEPTIONS = {"helpers/__main__.py": "tests/cli/test_main.py"}


def _untested(root: Path) -> list[str]:
    """Modules of the package with no test file of their own name where the package's folders
    say: ``helpers/a/b.py`` is tested by ``tests/a/test_b.py``."""
    missing = []
    for path in sorted((root / "helpers").rglob("*.py")):
        if path.name == "__init__.py":
            continue
        module = path.relative_to(root).as_posix()
        inside = path.relative_to(root / "helpers")
        mirror = MIRROR_EXCEPTIONS.get(
            module, f"tests/{inside.parent.as_posix()}/test_{path.name}".replace("/./", "/")
        )
        if not (root / mirror).is_file():
            missing.append(f"{module}: no {mirror}")
    return missing


def test_every_module_has_a_test_file_named_after_it() -> None:
    assert _untested(ROOT) == []


def test_the_mirror_rule_names_the_test_file_a_module_lacks(tmp_path: Path) -> None:
    (tmp_path / "helpers" / "trainee").mkdir(parents=True)
    (tmp_path / "helpers" / "trainee" / "__init__.py").write_text("")
    (tmp_path / "helpers" / "trainee" / "hints.py").write_text("")
    (tmp_path / "helpers" / "top.py").write_text("")
    assert _untested(tmp_path) == [
        "helpers/top.py: no tests/test_top.py",
        "helpers/trainee/hints.py: no tests/trainee/test_hints.py",
    ]
    (tmp_path / "tests" / "trainee").mkdir(parents=True)
    (tmp_path / "tests" / "trainee" / "test_hints.py").write_text("")
    assert _untested(tmp_path) == ["helpers/top.py: no tests/test_top.py"]
