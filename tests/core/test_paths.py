"""Where the project's data lives (:mod:`helpers.core.paths`), found through the package."""

from __future__ import annotations

import os

import helpers
from helpers.core import paths


def test_the_root_holds_the_package_whatever_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert (paths.project_root() / "helpers" / "__init__.py").samefile(helpers.__file__)
    assert paths.project_root().is_absolute()


def test_in_a_checkout_the_fixtures_are_beside_the_package():
    assert paths.fixtures_dir() == paths.project_root() / "fixtures"
    assert paths.fixtures_dir().is_dir()


def test_each_named_file_is_in_the_fixtures_folder_and_there():
    root = paths.fixtures_dir()
    assert paths.filled_cases_json() == root / "filled_cases.json"
    assert paths.filled_cases_csv() == root / "filled_cases.csv"
    assert paths.worked_answers_baseline() == root / "worked_answers" / "baseline.json"
    assert paths.worked_answers_retained() == root / "worked_answers" / "retained"
    for found in (paths.filled_cases_json(), paths.filled_cases_csv(), paths.worked_answers_baseline()):
        assert found.is_file(), found
    assert os.path.isdir(paths.worked_answers_retained())
