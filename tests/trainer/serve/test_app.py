"""The app's settings and command line: the kernel cap from the flag, the environment or the default, and the
banner's list of numbered notebooks. Nothing is served here (``tests/surfaces/test_app_kernel_cap.py`` serves it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers.core.paths import project_root
from helpers.trainer.serve.app import (
    DEFAULT_MAX_KERNELS,
    MAX_KERNELS_ENV,
    AppConfigError,
    app_pages,
    max_kernels_from,
    template_root,
    voila_command,
    voila_environment,
)

#: Every numbered notebook the app serves.
NUMBERED = sorted(p.name for p in (project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))


# --- the setting ----------------------------------------------------------------


def test_the_cap_comes_from_the_flag_then_the_environment_then_the_default() -> None:
    assert max_kernels_from(None, {}) == DEFAULT_MAX_KERNELS
    assert max_kernels_from(None, {MAX_KERNELS_ENV: " "}) == DEFAULT_MAX_KERNELS
    assert max_kernels_from(None, {MAX_KERNELS_ENV: "4"}) == 4
    assert max_kernels_from(2, {MAX_KERNELS_ENV: "4"}) == 2


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", "٣", "10 kernels"])
def test_a_bad_cap_in_the_environment_is_refused_by_name(value: str) -> None:
    with pytest.raises(AppConfigError, match=rf"^{MAX_KERNELS_ENV} must be a whole number"):
        max_kernels_from(None, {MAX_KERNELS_ENV: value})


def test_a_bad_cap_on_the_command_line_exits_with_status_2_naming_the_flag(capsys) -> None:
    from helpers.trainer.serve.app import main

    with pytest.raises(SystemExit) as stopped:
        main(["--no-browser", "--max-kernels", "0"])
    assert stopped.value.code == 2
    assert "--max-kernels must be a whole number of kernels, 1 or more; got '0'" in capsys.readouterr().err


def test_the_command_line_runs_the_capped_kernel_manager_with_the_cap(tmp_path: Path) -> None:
    command = voila_command(tmp_path, max_kernels=3)
    assert (
        "--VoilaConfiguration.multi_kernel_manager_class=helpers.trainer.serve.kernel_cap.CappedKernelManager"
        in command
    )
    assert "--CappedKernelManager.max_kernels=3" in command
    with pytest.raises(AppConfigError):
        voila_command(tmp_path, max_kernels=0)


# --- the banner's list ------------------------------------------------------------


def test_the_banner_lists_every_numbered_notebook_in_order(tmp_path: Path) -> None:
    pages = app_pages(project_root() / "notebooks")
    assert [name for name, _ in pages] == NUMBERED
    assert ("03_sentinel_answer_key.ipynb", "Sentinel answer key") in pages
    for name in ("02_b.ipynb", "01_a_b.ipynb", "notes.ipynb", "1_x.ipynb", "03_c.py"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert app_pages(tmp_path) == [("01_a_b.ipynb", "A b"), ("02_b.ipynb", "B")]
    resources = next(
        arg for arg in voila_command(tmp_path) if arg.startswith("--VoilaConfiguration.resources=")
    )
    assert resources == "--VoilaConfiguration.resources=eic_app_pages=01_a_b.ipynb:A b|02_b.ipynb:B"


# --- what is served, and where the template is found ----------------------------------


def test_the_app_serves_on_loopback_with_code_hidden_and_no_notebook_json(tmp_path: Path) -> None:
    command = voila_command(tmp_path, open_browser=False)
    assert command[1:3] == ["-m", "helpers.trainer.serve.voila_server"] and command[-1] == str(tmp_path)
    for arg in (
        "--Voila.ip=127.0.0.1",
        "--Voila.open_browser=False",
        "--VoilaConfiguration.strip_sources=True",
    ):
        assert arg in command
    assert "--VoilaConfiguration.template=offline" in command
    assert "--VoilaConfiguration.file_denylist=.*\\.ipynb" in command
    assert not any(arg.startswith("--Voila.port") for arg in command)
    assert voila_command(tmp_path, port=8123)[-3:-1] == ["--Voila.port=8123", "--Voila.port_retries=0"]


def test_the_template_folder_is_put_first_on_jupyter_path() -> None:
    assert (template_root() / "voila" / "templates" / "offline").is_dir()
    assert voila_environment({"A": "1"}) == {"A": "1", "JUPYTER_PATH": str(template_root())}
    env = voila_environment({"JUPYTER_PATH": "/elsewhere"})
    assert env["JUPYTER_PATH"] == os.pathsep.join([str(template_root()), "/elsewhere"])
