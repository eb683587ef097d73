"""The first run of 04's mastery drill: Start begins the trainee's own drill, and no two trainees share one.

Each trainee runs the drill cell exactly as 04 ships it, in a folder of their own (the kernel starts
in the notebook's folder), presses Start, works a few cases and saves to the default path; the
trainer's cohort then reads both files. Two drills of the old shipped cell (the demo seed) are
flagged as copies of each other, which these tests prove does not happen to the cell as shipped.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from trainees import _blind_answer

from helpers.trainee.widgets import MasteryDrill
from helpers.trainee.widgets.mastery import DEFAULT_MASTERY_FILE
from helpers.trainer.cohort import load_cohort

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "04_practice.ipynb"


def _shipped_drill_cell() -> str:
    """The source of 04's one code cell that makes the mastery drill, as shipped."""
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    found = [
        "".join(cell["source"])
        for cell in cells
        if cell["cell_type"] == "code" and "MasteryDrill(" in "".join(cell["source"])
    ]
    assert len(found) == 1, found
    return found[0]


def _run_shipped_cell(folder: Path, monkeypatch: pytest.MonkeyPatch) -> MasteryDrill:
    """Run 04's drill cell as a trainee's kernel would, in ``folder``; return the drill it shows."""
    monkeypatch.chdir(folder)
    namespace: dict[str, object] = {}
    exec("import helpers\nfrom helpers.trainee.widgets import MasteryDrill, PracticeDrill", namespace)
    exec(_shipped_drill_cell(), namespace)
    drill = namespace["mastery"]
    assert isinstance(drill, MasteryDrill)
    return drill


def _work_and_save(drill: MasteryDrill, name: str, cases: int) -> Path:
    drill.trainee.value = name
    for _ in range(cases):
        drill.set_answer(_blind_answer(drill.view, None))
        drill.check_button.click()
        drill.next_button.click()
    drill.save_button.click()
    assert "✔ Saved" in drill.file_status.value, drill.file_status.value
    return Path(drill.path.value).resolve()


def test_the_shipped_cell_waits_for_start_then_begins_the_trainees_own_drill(tmp_path, monkeypatch) -> None:
    drill = _run_shipped_cell(tmp_path, monkeypatch)
    assert not drill.started and drill.view is None
    picture = drill.describe()
    assert "Not started: press Start for your own drill" in picture and "buttons: [Start]" in picture
    assert "demo" not in picture.lower() and "seed 5" not in picture
    assert drill.area.widget.layout.display == "none" and drill.start_row.layout.display != "none"
    drill.save_button.click()  # nothing to save before Start, and nothing is written
    assert "Nothing to save yet" in drill.file_status.value and list(tmp_path.iterdir()) == []
    drill.start_button.click()  # one press
    assert drill.started and drill.view is not None and drill.session.seed_kind == "fresh"
    assert drill.start_row.layout.display == "none" and drill.area.widget.layout.display is None
    assert f"fresh random seed {drill.session.mastery.seed}" in drill.file_status.value
    assert "Demo drill" not in drill.bars.value
    drill.start_button.click()  # a second press changes nothing
    assert drill.session.mastery.step == 0 and drill.view is not None


def test_the_stored_picture_before_start_is_the_same_for_everyone(tmp_path, monkeypatch) -> None:
    first = _run_shipped_cell(tmp_path, monkeypatch).describe()
    assert _run_shipped_cell(tmp_path, monkeypatch).describe() == first


def test_two_trainees_of_the_shipped_notebook_get_their_own_seeds_and_are_not_copies(
    tmp_path, monkeypatch
) -> None:
    cohort = tmp_path / "cohort"
    cohort.mkdir()
    seeds = []
    for name in ("Ann", "Ben"):
        machine = tmp_path / name
        machine.mkdir()
        drill = _run_shipped_cell(machine, monkeypatch)
        drill.start_button.click()
        seeds.append(drill.session.mastery.seed)
        saved = _work_and_save(drill, name, cases=3)
        assert saved == (machine / DEFAULT_MASTERY_FILE).resolve()
        shutil.copy(saved, cohort / f"{name.lower()}.json")
    assert seeds[0] != seeds[1]
    found = load_cohort([cohort])
    assert [t.name for t in found.trainees] == ["Ann", "Ben"]
    assert [t.seed for t in found.trainees] == seeds and all(t.step == 3 for t in found.trainees)
    for trainee in found.trainees:
        assert not [p for p in trainee.problems if "a copy" in p], trainee.problems


def test_two_demo_drills_are_flagged_as_copies(tmp_path, monkeypatch) -> None:
    """The check above can fail: two drills of one fixed seed are flagged, each naming the other."""
    monkeypatch.chdir(tmp_path)
    for name in ("Ann", "Ben"):
        drill = MasteryDrill(seed=5, path=tmp_path / f"{name.lower()}.json")
        _work_and_save(drill, name, cases=3)
    found = load_cohort([tmp_path])
    for trainee in found.trainees:
        assert [p for p in trainee.problems if "a copy" in p and "drill seed 5" in p], trainee.problems


def test_two_trainees_of_the_shipped_set_course_are_not_copies(tmp_path, monkeypatch) -> None:
    """The set course (04's ``PracticeDrill()``) is the same fixed cases for all, in one seeded order.

    Its file starts no drill (0 drill cases), so the cohort reads it as "set course only" and never
    as a copy, however many trainees share the order.
    """
    from helpers.trainee.grading import correct_answer
    from helpers.trainee.widgets import PracticeDrill

    cohort = tmp_path / "cohort"
    cohort.mkdir()
    for name in ("Ann", "Ben"):
        machine = tmp_path / name
        machine.mkdir()
        monkeypatch.chdir(machine)
        course = PracticeDrill()
        for _ in range(2):
            assert course.exercise is not None and course.current is not None
            course.exercise.set_answer(correct_answer(course.current))
            course.exercise.check_button.click()
            course.next_button.click()
        saved = course.save()
        assert saved is not None
        data = json.loads(saved.read_text(encoding="utf-8"))
        data["trainee"] = name
        (cohort / f"{name.lower()}.json").write_text(json.dumps(data), encoding="utf-8")
    found = load_cohort([cohort])
    assert sorted(t.name for t in found.trainees) == ["Ann", "Ben"]
    for trainee in found.trainees:
        assert trainee.step == 0 and trainee.course == (2, 2)
        assert not [p for p in trainee.problems if "a copy" in p], trainee.problems
