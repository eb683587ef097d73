"""The trainer's folders are made owner-only whatever the umask, and only the folders made are removed again."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.trainer.owner_only import FILE_MODE, FOLDER_MODE, owner_folder, remove_made

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes")


@pytest.fixture
def odd_umask() -> Iterator[None]:
    """A umask that would leave a folder its owner cannot enter (``0o277``)."""
    old = os.umask(0o277)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_modes_are_owner_only() -> None:
    assert (FILE_MODE, FOLDER_MODE) == (0o600, 0o700)


def test_every_missing_folder_is_made_0700_outermost_first_whatever_the_umask(tmp_path, odd_umask) -> None:
    target = tmp_path / "a" / "b" / "c"
    made = owner_folder(target)
    assert made == [tmp_path / "a", tmp_path / "a" / "b", target]
    assert [_mode(folder) for folder in made] == [0o700, 0o700, 0o700]


def test_a_folder_there_already_is_left_as_it_is(tmp_path) -> None:
    there = tmp_path / "there"
    there.mkdir()
    there.chmod(0o755)
    assert owner_folder(there) == []
    assert owner_folder(there / "new") == [there / "new"]
    assert _mode(there) == 0o755


def test_an_existing_folder_is_refused_when_asked(tmp_path) -> None:
    with pytest.raises(FileExistsError, match=f"^{tmp_path} exists already$"):
        owner_folder(tmp_path, exist_ok=False)
    assert owner_folder(tmp_path / "new", exist_ok=False) == [tmp_path / "new"]


def test_only_the_folders_made_are_removed_and_those_not_empty_are_left(tmp_path) -> None:
    made = owner_folder(tmp_path / "a" / "b" / "c")
    (tmp_path / "a" / "b" / "kept.txt").write_text("x", encoding="utf-8")
    assert remove_made(made) == [tmp_path / "a" / "b", tmp_path / "a"]
    assert not (tmp_path / "a" / "b" / "c").exists() and (tmp_path / "a" / "b" / "kept.txt").exists()
    assert tmp_path.exists()


def test_a_folder_gone_already_is_not_reported_as_left(tmp_path) -> None:
    made = owner_folder(tmp_path / "gone")
    (tmp_path / "gone").rmdir()
    assert remove_made(made) == []
