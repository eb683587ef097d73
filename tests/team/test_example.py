"""The runnable example per check: it runs alone, fails when wrong, and agrees with the helpers.

The example is run with a bare interpreter (``-I -S``: no site-packages, no
current folder on the path, no PYTHON* variables) from a folder outside the
project, so it cannot import ``helpers``.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import helpers
import helpers.team.example as example_module
from helpers.core.checks import CHECKS, run_check
from helpers.core.errors import BuildError, CheckInputError, InvalidInputError
from helpers.core.jsonio import dumps_compact
from helpers.team.example import copied_names, example_filename, example_source
from helpers.trainee.cases.filled import Case
from tools.publish.downloads import downloads_dir

CHECK_NAMES = list(CHECKS)


def _bare_python(script: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-S", str(script)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
        check=False,
    )


def _write(folder: Path, check: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / example_filename(check)
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_the_bare_interpreter_cannot_import_helpers(tmp_path: Path) -> None:
    """The isolation the other tests rely on: ``helpers`` is out of reach."""
    probe = tmp_path / "probe.py"
    probe.write_text("import helpers\n", encoding="utf-8")
    done = _bare_python(probe, tmp_path)
    assert done.returncode == 1
    assert "ModuleNotFoundError: No module named 'helpers'" in done.stderr


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_generated_example_passes_with_a_bare_python(tmp_path: Path, check: str) -> None:
    script = _write(tmp_path / "elsewhere", check, example_source(check))
    done = _bare_python(script, tmp_path / "elsewhere")
    assert done.stderr == ""
    assert done.returncode == 0
    ids = ", ".join(case.id for case in helpers.filled_cases(check))
    assert done.stdout == f"{check}: all 3 cases give their expected output ({ids})\n"


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_committed_download_passes_with_a_bare_python(tmp_path: Path, check: str) -> None:
    """The file a reader downloads, copied somewhere else and run."""
    committed = (downloads_dir() / example_filename(check)).read_text(encoding="utf-8")
    done = _bare_python(_write(tmp_path, check, committed), tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.count("\n") == 1


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_example_imports_only_the_standard_library(check: str) -> None:
    tree = ast.parse(example_source(check))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def _flip_flag(case: Case) -> Case:
    expected = dict(case.expected)
    flag = list(expected)[-1]
    expected[flag] = not expected[flag]
    return dataclasses.replace(case, expected=expected)


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_a_mutated_expected_output_makes_the_example_fail(tmp_path: Path, check: str) -> None:
    cases = helpers.filled_cases(check)
    cases[1] = _flip_flag(cases[1])
    script = _write(tmp_path, check, example_source(check, cases))
    done = _bare_python(script, tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert f"AssertionError: case {cases[1].id}: expected " in done.stderr


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_an_edited_download_fails(tmp_path: Path, check: str) -> None:
    """A reader who edits an expected list in the downloaded file sees it fail."""
    text = (downloads_dir() / example_filename(check)).read_text(encoding="utf-8")
    edited = text.replace("'expected': {'missing': []", "'expected': {'missing': ['Z9']", 1)
    assert edited != text
    done = _bare_python(_write(tmp_path, check, edited), tmp_path)
    assert done.returncode == 1
    assert "AssertionError: case " in done.stderr


def test_a_case_of_the_other_check_is_refused() -> None:
    with pytest.raises(BuildError, match="is a sentinels case, not a target-scope case"):
        example_source("target-scope", helpers.filled_cases("sentinels"))


def test_an_unknown_check_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="expected one of"):
        example_source("spelling")


def test_copied_code_that_needs_an_uncopied_name_is_refused(monkeypatch) -> None:
    parts = {
        check: tuple((module, tuple(n for n in names if n != "describe_value")) for module, names in value)
        for check, value in example_module.EXAMPLE_PARTS.items()
    }
    monkeypatch.setattr(example_module, "EXAMPLE_PARTS", parts)
    with pytest.raises(BuildError, match="uses describe_value but does not define it"):
        example_source("sentinels")


def test_an_annotation_without_its_import_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(example_module, "_IMPORTS", example_module._IMPORTS.replace("Iterable, ", ""))
    with pytest.raises(BuildError, match="uses Iterable but does not define it"):
        example_source("target-scope")


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_the_check_is_the_helpers_own_source(check: str) -> None:
    """One implementation: every copied definition appears verbatim."""
    source = example_source(check)
    for module_name, name in copied_names(check):
        module = sys.modules[module_name]
        value = getattr(module, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getsource(value) in source, f"{module_name}.{name}"
            continue
        module_source = inspect.getsource(module)
        assignments = [
            ast.get_source_segment(module_source, node)
            for node in ast.parse(module_source).body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            and name
            in {t.id for t in ast.walk(node) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)}
        ]
        assert len(assignments) == 1 and assignments[0] in source, f"{module_name}.{name}"


# --- agreement on random inputs ---------------------------------------------


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


@pytest.fixture(scope="module")
def examples(tmp_path_factory) -> dict[str, ModuleType]:
    """Each check's generated example, imported from a scratch folder."""
    folder = tmp_path_factory.mktemp("examples")
    loaded = {}
    for check in CHECK_NAMES:
        name = f"generated_{check.replace('-', '_')}_example"
        loaded[check] = _load(_write(folder, check, example_source(check)), name)
        assert Path(loaded[check].__file__).parent == folder
    yield loaded
    for module in loaded.values():
        sys.modules.pop(module.__name__, None)


def _outcome_helpers(check: str, record: Any) -> tuple[Any, ...]:
    try:
        return ("output", run_check(check, record).as_dict())
    except CheckInputError as exc:
        return ("refused", type(exc).__name__, exc.message, exc.field)


def _outcome_example(module: ModuleType, check: str, record: Any) -> tuple[Any, ...]:
    entry = getattr(module, example_module.ENTRY_POINTS[check])
    try:
        return ("output", entry(record).as_dict())
    except module.CheckInputError as exc:
        return ("refused", type(exc).__name__, exc.message, exc.field)


_PIECES = ["a", "b", "B", " ", "é", "e\u0301", "\u200b", "😀", "\uff61", "\ud800", "<", "&"]
_IDS = st.lists(st.sampled_from(_PIECES), max_size=3).map("".join)  # may be empty: invalid
_GOOD_IDS = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=2).map("".join)
_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False), _IDS)


@st.composite
def _key_pairs(draw) -> tuple[dict[str, str], dict[str, str]]:
    """A baseline and a proposed key that share, drop, change and add IDs."""
    baseline = draw(st.dictionaries(_GOOD_IDS, _IDS, max_size=5))
    proposed = {}
    for sentinel, answer in baseline.items():
        fate = draw(st.sampled_from(["keep", "keep", "drop", "change"]))
        if fate == "keep":
            proposed[sentinel] = answer
        elif fate == "change":
            proposed[sentinel] = draw(_IDS)
    proposed.update(draw(st.dictionaries(_GOOD_IDS, _IDS, max_size=2)))
    return baseline, proposed


def _well_formed_target_scope() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"original": st.lists(_GOOD_IDS, max_size=5), "rewritten": st.lists(_GOOD_IDS, max_size=5)},
        optional={"unresolved": st.lists(_GOOD_IDS, max_size=2), "id": _IDS, "query": _IDS},
    )


def _well_formed_sentinels() -> st.SearchStrategy[dict[str, Any]]:
    return _key_pairs().map(lambda pair: {"baseline": pair[0], "proposed": pair[1]})


_ID_LISTS = st.one_of(st.lists(st.one_of(_IDS, _JUNK), max_size=4), _JUNK)
_KEYS = st.one_of(
    st.dictionaries(st.one_of(_IDS, st.integers(0, 3)), st.one_of(_IDS, _JUNK), max_size=4),
    _JUNK,
    st.lists(_IDS, max_size=2),
)


def _malformed(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """Records with any subset of ``fields``, sometimes an unknown one, or not an object at all."""
    records = st.fixed_dictionaries({}, optional=fields)
    with_extra = st.builds(lambda r, k: {**r, k: 1}, records, st.sampled_from(["extra", "Original"]))
    return st.one_of(records, with_extra, _JUNK)


# Mostly well-formed inputs, so outputs are compared, not only refusals.
_TARGET_SCOPE = st.one_of(
    _well_formed_target_scope(),
    _well_formed_target_scope(),
    _malformed({"original": _ID_LISTS, "rewritten": _ID_LISTS, "unresolved": _ID_LISTS, "id": _IDS}),
)
_SENTINELS = st.one_of(
    _well_formed_sentinels(),
    _well_formed_sentinels(),
    _malformed({"baseline": _KEYS, "proposed": _KEYS, "id": _IDS}),
)


@given(record=_TARGET_SCOPE)
def test_target_scope_example_agrees_with_the_helpers(examples, record) -> None:
    module = examples["target-scope"]
    assert _outcome_example(module, "target-scope", record) == _outcome_helpers("target-scope", record)


@given(record=_SENTINELS)
def test_sentinels_example_agrees_with_the_helpers(examples, record) -> None:
    module = examples["sentinels"]
    assert _outcome_example(module, "sentinels", record) == _outcome_helpers("sentinels", record)


@given(
    value=st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), _IDS, st.text(max_size=4)),
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_IDS, inner, max_size=3)),
        max_leaves=8,
    )
)
def test_the_examples_compact_json_agrees(examples, value) -> None:
    for check in CHECK_NAMES:
        assert examples[check].dumps_compact(value) == dumps_compact(value)


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_example_main_on_the_filled_cases(examples, check: str, capsys) -> None:
    module = examples[check]
    assert [case["id"] for case in module.CASES] == [c.id for c in helpers.filled_cases(check)]
    assert [module.actual_output(case["input"]) for case in module.CASES] == [
        c.actual() for c in helpers.filled_cases(check)
    ]
    assert module.main() == 0
    assert capsys.readouterr().out.startswith(f"{check}: all 3 cases")
