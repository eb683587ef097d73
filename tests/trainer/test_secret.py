"""Where the trainer's folder is by default: the platform's own place, earlier folders still used."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import platformdirs.macos
import pytest

from helpers.trainer.secret import PROJECT_DIR, TrainerSecretError, default_trainer_dir


def test_linux_and_the_browser_edition_keep_the_xdg_folder(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path)}
    for platform in ("linux", "emscripten", "freebsd14"):
        assert default_trainer_dir(env, platform=platform) == tmp_path / PROJECT_DIR
    assert default_trainer_dir({"XDG_CONFIG_HOME": "relative"}, platform="linux") == (
        Path.home() / ".config" / PROJECT_DIR
    )


def test_macos_takes_the_folder_platformdirs_names(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)
    monkeypatch.delenv("XDG_CONFIG_HOME")  # platformdirs honours it on macOS too, when it is set
    monkeypatch.setenv("HOME", str(tmp_path))
    found = default_trainer_dir({}, platform="darwin")
    assert found == tmp_path / "Library" / "Application Support" / PROJECT_DIR


def test_an_earlier_folder_is_still_used_on_macos_and_windows(tmp_path):
    (tmp_path / PROJECT_DIR).mkdir()
    for platform in ("darwin", "win32"):
        assert (
            default_trainer_dir({"XDG_CONFIG_HOME": str(tmp_path)}, platform=platform)
            == tmp_path / PROJECT_DIR
        )


def test_without_platformdirs_macos_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "platformdirs", None)
    with pytest.raises(
        TrainerSecretError, match=r"needs the platformdirs package .* or name one with --trainer-dir"
    ):
        default_trainer_dir({"XDG_CONFIG_HOME": str(tmp_path)}, platform="darwin")
