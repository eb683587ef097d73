"""Version 3 progress files (``helpers/trainee/progress/files.py``): saved, read back, refused when unsafe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.core.errors import ProgressFileError
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.progress import files
from helpers.trainee.progress.files import (
    PROGRESS_V3,
    TraineeProgress,
    load_trainee_progress,
    new_attempt_path,
    save_trainee_progress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)

RULES = load_rules()


def _progress(trainee: str = "Ada") -> TraineeProgress:
    return TraineeProgress(DrillSession.start(seed=4, trainee=trainee, rules=RULES).record())


def test_a_progress_is_a_record_not_a_running_drill() -> None:
    with pytest.raises(TypeError, match=r"TraineeProgress\.drill is a DrillRecord, not a DrillSession"):
        TraineeProgress(DrillSession.start(seed=4, rules=RULES))  # type: ignore[arg-type]


def test_saved_then_loaded_gives_the_same_drill_and_the_file_digest(tmp_path: Path) -> None:
    progress = _progress()
    path = save_trainee_progress(progress, tmp_path / "progress.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == PROGRESS_V3 and data["trainee"] == "Ada"
    assert data["attempt_id"] == progress.attempt_id
    back = load_trainee_progress(path, rules=RULES)
    assert back.trainee == "Ada" and back.attempt_id == progress.attempt_id
    assert back.mastery.seed == progress.mastery.seed and back.file_digest == progress.file_digest
    assert trainee_progress_to_data(back, saved=data["saved"]) == data


def test_a_file_from_another_drill_is_not_overwritten_unless_asked(tmp_path: Path) -> None:
    path = save_trainee_progress(_progress("Ada"), tmp_path / "progress.json")
    before = path.read_bytes()
    with pytest.raises(ProgressFileError, match=r"holds your earlier progress \(0 cases worked, by Ada"):
        save_trainee_progress(_progress("Bo"), path)
    assert path.read_bytes() == before
    save_trainee_progress(_progress("Bo"), path, overwrite=True)
    assert load_trainee_progress(path).trainee == "Bo"


def test_a_save_from_a_stale_copy_of_the_same_drill_is_refused(tmp_path: Path, monkeypatch) -> None:
    progress = _progress()
    path = save_trainee_progress(progress, tmp_path / "progress.json")
    other_window = load_trainee_progress(path)
    monkeypatch.setattr(files, "_now", lambda: "2026-06-01T10:00:00Z")
    save_trainee_progress(other_window, path)  # the same drill, saved again from another window
    assert other_window.file_digest != progress.file_digest
    with pytest.raises(
        ProgressFileError, match="was saved from another window since this drill last saved it"
    ):
        save_trainee_progress(progress, path)
    assert json.loads(path.read_text(encoding="utf-8"))["saved"] == "2026-06-01T10:00:00Z"


def test_a_missing_file_or_folder_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ProgressFileError, match="does not exist; save your progress there first"):
        load_trainee_progress(tmp_path / "none.json")
    with pytest.raises(ProgressFileError, match=r"the folder .* does not exist"):
        save_trainee_progress(_progress(), tmp_path / "no-folder" / "p.json")


def test_an_object_that_is_not_progress_is_refused() -> None:
    with pytest.raises(ProgressFileError):
        trainee_progress_from_data({"format": "something else"}, source="x.json")
    data = trainee_progress_to_data(_progress())
    data["mastery"]["attempts"] = "none"
    with pytest.raises(ProgressFileError):
        trainee_progress_from_data(data, source="x.json")


def test_a_new_attempt_takes_the_first_free_numbered_name(tmp_path: Path) -> None:
    assert new_attempt_path(tmp_path / "progress.json") == tmp_path / "progress-2.json"
    (tmp_path / "progress-2.json").write_text("{}", encoding="utf-8")
    (tmp_path / "progress-3.json").symlink_to(tmp_path / "gone.json")  # a dangling link is taken too
    assert new_attempt_path(tmp_path / "progress.json") == tmp_path / "progress-4.json"
