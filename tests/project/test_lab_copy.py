"""``python3 tasks.py lab`` serves a working copy, so Lab's autosave never changes the committed notebooks."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tasks():
    spec = importlib.util.spec_from_file_location("tasks_under_test", ROOT / "tasks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _course(folder: Path, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "01_start_here.ipynb").write_text(text, encoding="utf-8")
    (folder / "downloads").mkdir(exist_ok=True)
    (folder / "downloads" / "cases.csv").write_text("a\n", encoding="utf-8")
    return folder


def test_the_working_copy_takes_the_course_and_autosave_leaves_the_committed_notebook_alone(tmp_path):
    tasks = _tasks()
    source = _course(tmp_path / "notebooks", '{"cells": []}')
    copy = tasks.prepare_lab_copy(source, tmp_path / ".lab")
    served = copy / "01_start_here.ipynb"
    assert served.read_text(encoding="utf-8") == '{"cells": []}'
    assert (copy / "downloads" / "cases.csv").is_file()
    served.write_text('{"cells": [], "autosaved": true}', encoding="utf-8")  # what Lab's autosave does
    (copy / "integrity-mastery-progress.json").write_text("{}", encoding="utf-8")
    tasks.prepare_lab_copy(source, copy)  # the next start
    assert (source / "01_start_here.ipynb").read_text(encoding="utf-8") == '{"cells": []}'
    assert json.loads(served.read_text(encoding="utf-8"))["autosaved"] is True
    assert (copy / "integrity-mastery-progress.json").read_text(encoding="utf-8") == "{}"


def test_a_changed_course_replaces_the_copy_and_keeps_the_trainees_one(tmp_path):
    tasks = _tasks()
    source = _course(tmp_path / "notebooks", "v1")
    copy = tasks.prepare_lab_copy(source, tmp_path / ".lab")
    (copy / "01_start_here.ipynb").write_text("v1 with my outputs", encoding="utf-8")
    (source / "01_start_here.ipynb").write_text("v2", encoding="utf-8")
    tasks.prepare_lab_copy(source, copy)
    assert (copy / "01_start_here.ipynb").read_text(encoding="utf-8") == "v2"
    assert (copy / "earlier" / "01_start_here-1.ipynb").read_text(encoding="utf-8") == "v1 with my outputs"


def test_the_working_copy_is_git_ignored():
    assert ".lab/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
