"""Where the trainer's folder is by default: the platform's own place, earlier folders still used."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

import platformdirs
import platformdirs.macos
import pytest

from helpers.core.errors import CheckoutFileError
from helpers.trainer.secret import (
    PROJECT_DIR,
    SECRET_NAME,
    TrainerSecret,
    TrainerSecretError,
    default_trainer_dir,
)


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


@pytest.fixture
def trainer(tmp_path) -> TrainerSecret:
    return TrainerSecret.open(tmp_path / "trainer", create=True)


def test_the_secret_is_made_once_owner_only_and_signs_what_it_verifies(tmp_path, trainer):
    info = os.stat(trainer.path)
    assert stat.S_IMODE(info.st_mode) == 0o600
    assert stat.S_IMODE(os.stat(trainer.folder).st_mode) == 0o700
    again = TrainerSecret.open(trainer.folder, create=True)
    assert again.key == trainer.key and len(trainer.key) == 32
    data = {"a": 1, "b": ["x", "\ud800"]}
    trainer.verify("result", data, trainer.sign("result", data), source="f")
    with pytest.raises(CheckoutFileError, match="signature does not match"):
        trainer.verify("result", {**data, "a": 2}, trainer.sign("result", data), source="f")
    with pytest.raises(
        CheckoutFileError, match="signature does not match"
    ):  # kinds do not stand in for each other
        trainer.verify("key", data, trainer.sign("result", data), source="f")


def test_the_default_place_is_under_xdg_config_home(trainer_home):
    assert TrainerSecret.open(create=True).path == trainer_home / SECRET_NAME


@pytest.mark.parametrize(
    "spoil, why",
    [
        (lambda p: p.unlink(), "no trainer's secret here"),
        (lambda p: p.chmod(0o644), r"open to others \(mode 0644\)"),
        (lambda p: p.chmod(0o604), r"open to others \(mode 0604\)"),
        (lambda p: p.write_text("{}"), "is not a trainer's secret"),
        (lambda p: (p.unlink(), p.mkdir()), "not a regular file"),
        (lambda p: (p.unlink(), p.symlink_to("/etc/hostname")), "cannot be read"),
    ],
)
def test_a_bad_secret_is_refused_in_one_line(trainer, spoil, why):
    spoil(trainer.path)
    with pytest.raises(TrainerSecretError, match=why) as caught:
        TrainerSecret.open(trainer.folder)
    assert "\n" not in str(caught.value)


def test_the_secret_is_made_where_there_are_no_hard_links(tmp_path, monkeypatch):
    """The browser edition's Python has no ``os.link``: the secret is still made once, owner-only."""
    monkeypatch.delattr(os, "link")
    made = TrainerSecret.open(tmp_path / "browser", create=True)
    assert stat.S_IMODE(os.stat(made.path).st_mode) == 0o600 and len(made.key) == 32
    assert TrainerSecret.open(made.folder, create=True).key == made.key


def test_a_signature_names_the_trainer_and_is_the_hmac_of_the_canonical_json(trainer):
    import hashlib
    import hmac

    assert re.fullmatch(r"[0-9a-f]{16}", trainer.trainer_id)
    body = b'eval-integrity-helpers/result/v1\n{"a":1,"b":"\\u00e9"}'
    expected = hmac.new(trainer.key, body, hashlib.sha256).hexdigest()
    assert trainer.sign("result", {"b": "é", "a": 1}) == {"trainer": trainer.trainer_id, "hmac": expected}
    signed = trainer.signed("result", {"a": 1, "b": "é", "signature": "old"})
    assert signed == {"a": 1, "b": "é", "signature": trainer.sign("result", {"a": 1, "b": "é"})}


@pytest.mark.parametrize(
    ("signature", "why"),
    [
        (None, r"is not signed by a trainer \(it has no valid signature\), so this key is not trusted"),
        ({"trainer": "x"}, "is not signed by a trainer"),
        (
            {"trainer": "0123456789abcdef", "hmac": "0"},
            'was signed by another trainer \\("0123456789abcdef"\\)',
        ),
    ],
)
def test_a_missing_or_foreign_signature_is_refused_by_name(trainer, signature, why):
    with pytest.raises(CheckoutFileError, match=why) as refused:
        trainer.verify("key", {"a": 1}, signature, source="k.json")
    assert refused.value.path == "k.json"


def test_what_is_signed_with_extra_verifies_only_with_that_extra(trainer):
    signature = trainer.sign_with("key", {"a": 1}, ["d1"])
    trainer.verify("key", {"a": 1}, signature, source="k", extra=["d1"])
    for extra in (["d2"], None):
        with pytest.raises(CheckoutFileError, match="this key was changed after the trainer signed it"):
            trainer.verify("key", {"a": 1}, signature, source="k", extra=extra)
    with pytest.raises(CheckoutFileError, match="holds a value no signature can cover"):
        trainer.verify("key", {"a": float("inf")}, signature, source="k")
