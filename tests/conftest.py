"""Shared fixtures: the filled cases, a scratch copy of fixtures/, and the CLI runner."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from budget import examples
from hypothesis import HealthCheck, settings

import helpers
from helpers.core.paths import fixtures_dir

# No deadlines: the suite asserts behaviour, never timings. 200 examples a test under --all, 25 in the fast loop.
settings.register_profile(
    "project",
    deadline=None,
    max_examples=examples(200),
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("project")


def _js_code_units(text: str) -> list[int]:
    """The UTF-16 code units of ``text``: what JavaScript's default sort compares.

    Written out by hand so the tests do not reuse ``helpers.core.ordering``.
    """
    units: list[int] = []
    for char in text:
        point = ord(char)
        if point > 0xFFFF:
            point -= 0x10000
            units += [0xD800 + (point >> 10), 0xDC00 + (point & 0x3FF)]
        else:
            units.append(point)
    return units


@pytest.fixture(scope="session")
def js_sorted():
    """Sort strings as JavaScript's ``Array.prototype.sort`` does (an independent oracle)."""
    return lambda strings: sorted(strings, key=_js_code_units)


@pytest.fixture(scope="session")
def filled():
    """The six filled cases, loaded once."""
    return helpers.filled_cases()


@pytest.fixture
def fixtures_copy(tmp_path: Path) -> Path:
    """A scratch copy of ``fixtures/`` that a test may edit freely."""
    target = tmp_path / "fixtures"
    shutil.copytree(fixtures_dir(), target)
    return target


@pytest.fixture
def run_cli(tmp_path: Path):
    """Run ``python -m helpers ARGS`` in a scratch folder; returns the CompletedProcess.

    ``stdin`` may be text (sent as UTF-8) or bytes; stdout and stderr come back as bytes.
    """

    def run(*args: str, stdin: str | bytes = b"") -> subprocess.CompletedProcess[bytes]:
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        return subprocess.run(
            [sys.executable, "-m", "helpers", *args],
            input=data,
            capture_output=True,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )

    return run


def _raising_dispatch(self, *args, **kwargs):
    """ipywidgets' CallbackDispatcher.__call__ without its ``except Exception`` (tests only).

    ipywidgets catches every error a button or submit callback raises and only
    logs it, so a broken ``grade`` would show empty feedback and pass a test.
    Here a callback's error reaches the test that clicked.
    """
    value = None
    for callback in self.callbacks:
        local_value = callback(*args, **kwargs)
        value = local_value if local_value is not None else value
    return value


@pytest.fixture(autouse=True)
def callbacks_raise(monkeypatch):
    """Every test: a widget callback that raises fails the test instead of being swallowed."""
    from ipywidgets.widgets.widget import CallbackDispatcher

    monkeypatch.setattr(CallbackDispatcher, "__call__", _raising_dispatch)
    yield


@pytest.fixture(autouse=True)
def trainer_home(tmp_path_factory, monkeypatch) -> Path:
    """Every test: ``$XDG_CONFIG_HOME`` is a fresh folder, so no test reads or makes the real trainer's secret."""
    home = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home / "eval-integrity-helpers"


@pytest.fixture
def without_matplotlib(monkeypatch):
    """``import matplotlib`` fails, as in the browser edition, which does not ship it."""
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run only with ``python3 tasks.py test --all`` (``EIC_ALL_TESTS=1``), as CI runs it."""
    if os.environ.get("EIC_ALL_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="slow: runs with python3 tasks.py test --all (or EIC_ALL_TESTS=1)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
