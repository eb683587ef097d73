"""Fixtures of the project's own tests."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from helpers.core.paths import project_root


@pytest.fixture(scope="module")
def tasks() -> ModuleType:
    """``tasks.py``, loaded as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("tasks_under_test", project_root() / "tasks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
