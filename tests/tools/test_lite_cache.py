"""The browser edition's built-site cache: a site is copied only when every input of its build is unchanged.

Issue 47: the fast loop rebuilt the site (``jupyter lite build``, about 3½ minutes) every run.
No real build is needed here: the downloads, the project wheel and ``jupyter lite build`` itself
are replaced by fakes that count the builds, so what is proved is which inputs make a rebuild.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tools.publish import lite
from tools.publish.lite_cache import cached_site, site_digest
from tools.publish.lite_pins import PYODIDE_FILES


@dataclass
class Inputs:
    """What a fake build reads, each editable by a test; ``builds`` counts the real (fake) builds."""

    root: Path
    wheel_members: dict[str, bytes] = field(default_factory=lambda: {"helpers/__init__.py": b"x = 1\n"})
    kernel_wheels: dict[str, bytes] = field(default_factory=lambda: {"comm": b"comm 0.2.3"})
    wheel_stamp: tuple[int, ...] = (2026, 1, 1, 0, 0, 0)
    builds: int = 0


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Inputs:
    root = tmp_path / "checkout"
    (root / "notebooks").mkdir(parents=True)
    (root / "notebooks" / "01_start_here.ipynb").write_text('{"cells": []}')
    (root / "pyproject.toml").write_text('version = "9.9.9"\n')
    made = Inputs(root)
    monkeypatch.delenv("EIC_LITE_FRESH", raising=False)
    monkeypatch.setattr(lite, "ensure_build_env", lambda cache: cache / "venv")
    monkeypatch.setattr(lite, "fetch_pyodide", lambda cache: cache / "pyodide.tgz")

    def fetch_wheels(cache: Path, wheels: object, python: Path) -> dict[str, Path]:
        folder = cache / "wheels"
        folder.mkdir(exist_ok=True)
        for key, data in made.kernel_wheels.items():
            (folder / f"{key}.whl").write_bytes(data)
        return {key: folder / f"{key}.whl" for key in made.kernel_wheels}

    def build_project_wheel(root: Path, into: Path) -> Path:
        into.mkdir(parents=True, exist_ok=True)
        wheel = into / "eval_integrity_helpers-9.9.9-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            for name, data in made.wheel_members.items():
                archive.writestr(zipfile.ZipInfo(name, made.wheel_stamp), data)
        return wheel

    def jupyter_lite_build(venv, tarball, wheels, project_wheel, version, notebooks, work, built) -> None:
        made.builds += 1
        (built / "static" / "pyodide").mkdir(parents=True)
        for name in PYODIDE_FILES:
            (built / "static" / "pyodide" / name).write_text(name)
        (built / "jupyter-lite.json").write_text(json.dumps(lite._jupyter_lite_json()))
        (built / "files").mkdir()
        for notebook in notebooks:
            (built / "files" / notebook.name).write_bytes(notebook.read_bytes())
        (built / "build-number").write_text(str(made.builds))
        (built / lite.LITE_MARKER).write_text("built\n")

    monkeypatch.setattr(lite, "fetch_wheels", fetch_wheels)
    monkeypatch.setattr(lite, "build_project_wheel", build_project_wheel)
    monkeypatch.setattr(lite, "_lite_build", jupyter_lite_build)
    return made


def build(inputs: Inputs, output: Path, **options: object) -> lite.LiteSite:
    return lite.build_lite(output, cache=inputs.root / ".lite-cache", root=inputs.root, **options)  # type: ignore[arg-type]


def test_a_second_build_from_the_same_inputs_copies_the_first(inputs, tmp_path):
    first = build(inputs, tmp_path / "one")
    inputs.wheel_stamp = (2026, 6, 6, 6, 6, 6)  # a rebuilt wheel differs only in its zip dates
    second = build(inputs, tmp_path / "two")
    assert inputs.builds == 1 and not first.reused and second.reused
    files = sorted(p.relative_to(first.output) for p in first.output.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second.output) for p in second.output.rglob("*") if p.is_file())
    assert all((first.output / f).read_bytes() == (second.output / f).read_bytes() for f in files)


def change_notebook(inputs: Inputs) -> None:
    (inputs.root / "notebooks" / "01_start_here.ipynb").write_text('{"cells": [1]}')


def add_notebook(inputs: Inputs) -> None:
    (inputs.root / "notebooks" / "02_target_scope.ipynb").write_text('{"cells": []}')


def change_helpers(inputs: Inputs) -> None:
    inputs.wheel_members["helpers/__init__.py"] = b"x = 2\n"


def add_fixture(inputs: Inputs) -> None:
    inputs.wheel_members["helpers/fixtures/new.json"] = b"{}"


def change_kernel_wheel(inputs: Inputs) -> None:
    inputs.kernel_wheels["comm"] = b"comm, another build"


@pytest.mark.parametrize(
    "change", [change_notebook, add_notebook, change_helpers, add_fixture, change_kernel_wheel]
)
def test_any_changed_input_builds_again_and_replaces_the_cached_site(inputs, tmp_path, change):
    build(inputs, tmp_path / "one")
    change(inputs)
    again = build(inputs, tmp_path / "two")
    assert inputs.builds == 2 and not again.reused
    assert (again.output / "build-number").read_text() == "2"
    assert build(inputs, tmp_path / "three").reused and inputs.builds == 2  # the new site is the one kept


def test_fresh_builds_even_when_the_cache_holds_the_same_site(inputs, tmp_path, monkeypatch):
    build(inputs, tmp_path / "one")
    assert not build(inputs, tmp_path / "two", fresh=True).reused
    monkeypatch.setenv("EIC_LITE_FRESH", "1")  # what tasks.py test --all sets, as CI runs it
    assert not build(inputs, tmp_path / "three").reused
    assert inputs.builds == 3


def test_a_cached_site_without_its_digest_is_not_used(inputs, tmp_path):
    build(inputs, tmp_path / "one")
    (inputs.root / ".lite-cache" / "built-site.sha256").unlink()  # as a copy cut short leaves it
    assert not build(inputs, tmp_path / "two").reused and inputs.builds == 2


def test_the_digest_is_stable_and_follows_the_site_configuration(inputs, tmp_path):
    wheel = inputs.root / "w.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("helpers/__init__.py", b"")
    notebooks = [inputs.root / "notebooks" / "01_start_here.ipynb"]
    one = site_digest(inputs.root, wheel, notebooks, {}, {"a": 1})
    assert one == site_digest(inputs.root, wheel, notebooks, {}, {"a": 1})
    assert one != site_digest(inputs.root, wheel, notebooks, {}, {"a": 2})
    assert cached_site(tmp_path, one) is None


def test_hidden_top_level_entries_are_never_copied_into_the_wheels_source(tmp_path):
    ignore = lite._ignore_non_source(tmp_path)
    names = [".venv-3.12.1", ".git", ".lab", "helpers", "pyproject.toml", "lite", "__pycache__"]
    assert ignore(str(tmp_path), names) == {".venv-3.12.1", ".git", ".lab", "lite", "__pycache__"}
    assert ignore(str(tmp_path / "helpers"), [".keep", "lite"]) == set()
