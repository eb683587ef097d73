"""The package's layers: imports flow one way, with no cycles, and ``import helpers`` stays cheap.

core ← data ← teach ← widgets, publish ← cli. ``core`` uses only the standard
library; only ``widgets`` imports ipywidgets, and nothing imports ``widgets``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "helpers"

#: Each layer and the layers it may import from (besides itself).
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "data": {"core"},
    "teach": {"core", "data"},
    "widgets": {"core", "data", "teach"},
    "publish": {"core", "data", "teach"},
    "cli": {"core", "data", "teach", "publish"},
    "facade": {"core", "data", "teach", "publish", "cli"},
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return "facade"
    return parts[1]


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports, resolved to absolute names, with line numbers.

    Imports inside functions count (a hidden import is still an import); those
    under ``if TYPE_CHECKING:`` never run, so they do not.
    """
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node)
        for n in ast.walk(node)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            # ``from . import x`` may name submodules
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                if _is_module(candidate):
                    found.append((candidate, node.lineno))
    return found


def _is_module(name: str) -> bool:
    rel = Path(*name.split(".")[1:]) if "." in name else Path()
    return name.startswith("helpers.") and (
        (PACKAGE / rel).with_suffix(".py").is_file() or (PACKAGE / rel / "__init__.py").is_file()
    )


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _internal(target: str) -> str | None:
    """The helpers module an import names (its deepest existing module), or None if external."""
    if target != "helpers" and not target.startswith("helpers."):
        return None
    parts = target.split(".")
    while len(parts) > 1 and not _is_module(".".join(parts)):
        parts.pop()
    return ".".join(parts)


def test_every_module_belongs_to_a_layer():
    layers = {_layer(name) for name in _modules()}
    assert layers <= set(ALLOWED), layers - set(ALLOWED)
    assert {"core", "data", "teach", "widgets", "publish", "cli"} <= layers


def test_imports_flow_one_way():
    wrong = []
    for name, path in _modules().items():
        here = _layer(name)
        for target, line in _imports(path):
            internal = _internal(target)
            if internal is None:
                continue
            there = _layer(internal)
            if there != here and there not in ALLOWED[here]:
                wrong.append(
                    f"{path.relative_to(PACKAGE.parent)}:{line}: {here} imports {internal} ({there})"
                )
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_core_uses_only_the_standard_library():
    outside = []
    for name, path in _modules().items():
        if _layer(name) != "core":
            continue
        for target, line in _imports(path):
            top = target.split(".")[0]
            if top != "helpers" and top not in sys.stdlib_module_names and top != "__future__":
                outside.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {target}")
    assert not outside, "core imports outside the standard library:\n" + "\n".join(outside)


def test_only_widgets_import_ipywidgets():
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for name, path in _modules().items()
        if _layer(name) != "widgets"
        for target, line in _imports(path)
        if target.split(".")[0] == "ipywidgets"
    ]
    assert not found, found


def test_there_are_no_import_cycles():
    graph = {
        name: {
            internal for target, _ in _imports(path) if (internal := _internal(target)) and internal != name
        }
        for name, path in _modules().items()
    }
    # every package imports its own __init__ implicitly; leave the facade out of cycles
    graph = {name: {t for t in targets if t != "helpers"} for name, targets in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" → ".join([*stack[stack.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_layer_check_catches_a_wrong_import(tmp_path, monkeypatch):
    """The checks above can fail: a core module importing teach is reported."""
    fake = tmp_path / "helpers"
    for sub in ("core", "teach"):
        (fake / sub).mkdir(parents=True)
        (fake / sub / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("")
    (fake / "teach" / "cases.py").write_text("X = 1\n")
    (fake / "core" / "checks.py").write_text("from ..teach.cases import X\nimport ipywidgets\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    with pytest.raises(AssertionError, match=r"core imports helpers\.teach\.cases \(teach\)"):
        test_imports_flow_one_way()
    with pytest.raises(AssertionError, match="ipywidgets"):
        test_core_uses_only_the_standard_library()
    (fake / "teach" / "cases.py").write_text("from ..core.checks import Y\n")
    (fake / "core" / "checks.py").write_text("def f():\n    from ..teach.cases import X\n")
    with pytest.raises(AssertionError, match="import cycles"):
        test_there_are_no_import_cycles()


def _loaded_after(code: str) -> list[str]:
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=PACKAGE.parent
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
    heavy = [
        name
        for name in loaded
        if name.startswith(
            ("helpers.teach", "helpers.widgets", "helpers.publish", "ipywidgets", "matplotlib", "nbconvert")
        )
    ]
    assert heavy == []


def test_a_public_name_is_loaded_on_first_use():
    loaded = _loaded_after("import helpers\nhelpers.check_target_scope")
    assert "helpers.core.target_scope" in loaded
    assert "helpers.teach.render" not in loaded


def test_every_public_name_resolves():
    import helpers

    for name in helpers.__all__:
        assert getattr(helpers, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        helpers.nope  # noqa: B018
