"""A team's own ``helpers`` in the way: the notebooks' first import and ``tasks.py`` say so in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _import_guard(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import eval_integrity_helpers; import helpers; print(helpers.__file__)"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_nothing_in_the_way_imports_the_project(tmp_path):
    done = _import_guard(tmp_path)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).resolve() == (ROOT / "helpers" / "__init__.py").resolve()


@pytest.mark.parametrize("stray", ["helpers.py", "helpers/__init__.py", "helpers/"])
def test_a_stray_helpers_beside_a_notebook_is_named_in_one_line(tmp_path, stray):
    path = tmp_path / stray
    if stray.endswith("/"):
        path.mkdir()
    else:
        path.parent.mkdir(exist_ok=True)
        path.write_text("answer = 42\n", encoding="utf-8")
    done = _import_guard(tmp_path)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("eval_integrity_helpers.HelpersShadowedError: `import helpers` loads ")
    shown = str(path.resolve()) if not stray.endswith("/") else "a namespace folder named helpers"
    assert shown in last
    assert "rename or move that file or folder, then restart the kernel" in last


def test_tasks_names_the_stray_helpers_before_it_starts(tasks, tmp_path):
    assert tasks.helpers_in_the_way(tmp_path) is None
    (tmp_path / "helpers.py").write_text("", encoding="utf-8")
    line = tasks.helpers_in_the_way(tmp_path)
    assert line is not None and "\n" not in line
    assert line.startswith(
        f"`import helpers` loads {(tmp_path / 'helpers.py').resolve()}, not this project's"
    )
    with pytest.raises(SystemExit, match=r"^\[tasks\] `import helpers` loads "):
        tasks._refuse_if_helpers_shadowed(tmp_path)


def test_a_notebook_with_a_stray_helpers_beside_it_stops_at_its_first_cell_in_one_line(tmp_path):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(ROOT / "notebooks" / "02_target_scope.ipynb", as_version=4)
    first = next(cell for cell in notebook.cells if cell.cell_type == "code")
    assert first.source.splitlines()[0].startswith("import eval_integrity_helpers")
    (tmp_path / "helpers.py").write_text("# a team's own helpers\n", encoding="utf-8")
    notebook.cells = [first]
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    with pytest.raises(CellExecutionError) as stopped:
        client.execute()
    error = next(o for o in notebook.cells[0].outputs if o.output_type == "error")
    assert error.ename == "HelpersShadowedError"
    assert error.evalue.startswith(
        f"`import helpers` loads {(tmp_path / 'helpers.py').resolve()}, not this project's"
    )
    assert "\n" not in error.evalue and "restart the kernel" in error.evalue
    assert "HelpersShadowedError" in str(stopped.value)
