"""The trainee pays only for what they use: the first cell of ``02_target_scope.ipynb`` loads a small part of the package.

The first code cell of ``02_target_scope.ipynb`` runs in a fresh interpreter; the lines of every
``helpers`` module it loaded are summed, and the trainer's, the team's data, the publishing and
the command-line code must not be among them. Working a filled case (hints, a check, the worked
answer) must not load the case generators, the drill, progress files or the trainer's code either.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The most lines of ``helpers`` the first cell of notebook 02 may load.
LINE_BUDGET = 4_000

#: Packages a trainee's import never loads: the trainer's, the team's, the command line.
NOT_THE_TRAINEES = ("helpers.trainer", "helpers.team", "helpers.cli")

#: What working a filled case never loads: the generated cases, the drill, progress files, the trainer.
NOT_FOR_A_FILLED_CASE = (
    "helpers.trainee.cases.generators",
    "helpers.trainee.drill",
    "helpers.trainee.progress",
    *NOT_THE_TRAINEES,
)

#: Prints ``{module: lines}`` for every loaded ``helpers`` module with a file.
_REPORT = """
import json, sys
loaded = {}
for name, module in sorted(sys.modules.items()):
    path = getattr(module, "__file__", None)
    if (name == "helpers" or name.startswith("helpers.")) and path:
        with open(path, encoding="utf-8") as file:
            loaded[name] = sum(1 for _line in file)
print(json.dumps(loaded))
"""


def _loaded_after(code: str) -> dict[str, int]:
    """The ``helpers`` modules (and their line counts) a fresh interpreter has loaded after ``code``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", code + "\n" + _REPORT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def _first_code_cell(notebook: str) -> str:
    cells = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))["cells"]
    return next("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")


def test_the_first_cell_of_notebook_02_loads_at_most_the_line_budget() -> None:
    cell = _first_code_cell("02_target_scope.ipynb")
    assert "CaseExercise" in cell  # the cell this budget is about
    loaded = _loaded_after(cell)
    assert "helpers.trainee.widgets.exercise" in loaded  # the measure saw the import it measures
    lines = sum(loaded.values())
    biggest = ", ".join(
        f"{name} {count}" for name, count in sorted(loaded.items(), key=lambda kv: -kv[1])[:5]
    )
    assert lines <= LINE_BUDGET, (
        f"02's first cell loads {len(loaded)} modules, {lines} lines of helpers "
        f"(budget {LINE_BUDGET}); the largest: {biggest}"
    )
    strays = sorted(name for name in loaded if _within(name, NOT_THE_TRAINEES))
    assert not strays, f"the trainee's import loads {strays} ({lines} lines in {len(loaded)} modules)"


def test_working_a_filled_case_loads_no_generator_drill_progress_or_trainer_code() -> None:
    loaded = _loaded_after(
        "from helpers.trainee.cases.filled import get_case\n"
        "from helpers.trainee.grading import correct_answer\n"
        "from helpers.trainee.widgets import CaseExercise\n"
        "case = get_case('lost-comparison')\n"
        "exercise = CaseExercise(case)\n"
        "exercise.hint()\n"
        "exercise.set_answer(correct_answer(case))\n"
        "assert exercise.check().correct\n"
        "exercise.toggle_worked_answer()\n"
    )
    assert "helpers.trainee.grading" in loaded
    strays = sorted(name for name in loaded if _within(name, NOT_FOR_A_FILLED_CASE))
    assert not strays, f"working a filled case loads {strays} ({sum(loaded.values())} lines of helpers)"


def test_the_widgets_load_one_widget_at_a_time() -> None:
    loaded = _loaded_after("from helpers.trainee.widgets import TargetScopeSandbox")
    assert "helpers.trainee.widgets.sandbox" in loaded
    others = sorted(
        name
        for name in loaded
        if name.startswith("helpers.trainee.widgets.")
        and name not in {"helpers.trainee.widgets.sandbox", "helpers.trainee.widgets.base"}
    )
    assert not others, f"importing one widget loads {others}"
