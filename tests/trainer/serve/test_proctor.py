"""The proctored app's command line, notebook and environment: one notebook, one kernel, no files, the sitting named."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from helpers.trainer.proctoring import SITTING_ENV, TRAINER_ENV
from helpers.trainer.serve.app import voila_command
from helpers.trainer.serve.proctor import (
    NOTEBOOK_NAME,
    proctor_command,
    proctor_environment,
    proctor_notebook,
    write_proctor_notebook,
)
from helpers.trainer.serve.sitting_server import HOSTS_ENV, SOCKET_FD_ENV, TOKEN_ENV, bind_listener


def test_the_proctored_app_serves_one_notebook_one_kernel_and_no_files(tmp_path):
    notebook = tmp_path / "checkout.ipynb"
    command = proctor_command(notebook, port=9999, open_browser=False)
    assert command[-1] == str(notebook)
    assert "--CappedKernelManager.max_kernels=1" in command
    assert "--VoilaConfiguration.file_denylist=.*" in command
    assert "--Voila.ip=127.0.0.1" in command and "--VoilaConfiguration.strip_sources=True" in command
    sources = "".join(c["source"] for c in proctor_notebook()["cells"])  # type: ignore[index]
    assert "proctored_page()" in sources and "open(" not in sources


def test_the_command_is_the_apps_own_with_every_file_refused_before_the_notebook(tmp_path):
    notebook = tmp_path / "checkout.ipynb"
    app = voila_command(notebook, port=8123, open_browser=True, max_kernels=1)
    command = proctor_command(notebook, port=8123)
    assert command == [*app[:-1], "--VoilaConfiguration.file_denylist=.*", str(notebook)]
    assert "--Voila.port=8123" in command and "--Voila.port_retries=0" in command
    assert "--Voila.open_browser=True" in command


def test_the_notebook_is_written_alone_in_a_fresh_folder():
    first, second = write_proctor_notebook(), write_proctor_notebook()
    try:
        assert first.name == second.name == NOTEBOOK_NAME and first.parent != second.parent
        assert [p.name for p in first.parent.iterdir()] == [NOTEBOOK_NAME]
        assert json.loads(first.read_text(encoding="utf-8")) == proctor_notebook()
        assert [c["cell_type"] for c in proctor_notebook()["cells"]] == ["markdown", "code"]  # type: ignore[index]
    finally:
        shutil.rmtree(first.parent)
        shutil.rmtree(second.parent)


def test_the_environment_names_the_sitting_and_the_trainers_folder(tmp_path):
    env = proctor_environment(tmp_path / "sitting", tmp_path / "trainer")
    assert env[SITTING_ENV] == str(tmp_path / "sitting") and env[TRAINER_ENV] == str(tmp_path / "trainer")
    assert SOCKET_FD_ENV not in env and TOKEN_ENV not in env


def test_a_bound_listener_needs_a_token_and_is_handed_over_with_it(tmp_path):
    listener = bind_listener()
    try:
        with pytest.raises(ValueError, match="a bound listener needs the sitting's token"):
            proctor_environment(tmp_path, tmp_path, listener, "")
        env = proctor_environment(tmp_path / "s", tmp_path / "t", listener, "tok")
    finally:
        listener.close()
    fd = int(env[SOCKET_FD_ENV])
    try:
        assert env[TOKEN_ENV] == "tok" and env[SITTING_ENV] == str(tmp_path / "s")
        assert env[HOSTS_ENV] == f"127.0.0.1:{listener.port},localhost:{listener.port}"
        assert os.get_inheritable(fd)
    finally:
        os.close(fd)
