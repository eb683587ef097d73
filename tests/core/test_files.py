"""Files written whole or not at all (:mod:`helpers.core.files`)."""

from __future__ import annotations

import os
import stat

import pytest

from helpers.core.files import PendingFile, same_file, write_atomically


def _names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_text_is_written_as_utf8_and_replaces_the_old_file_keeping_its_mode(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    target.chmod(0o640)
    assert write_atomically(target, "café") == target
    assert target.read_bytes() == "café".encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert _names(tmp_path) == ["out.txt"]


def test_without_replace_an_existing_file_is_refused_and_kept(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"kept")
    with pytest.raises(FileExistsError):
        write_atomically(target, b"new", replace=False)
    assert target.read_bytes() == b"kept" and _names(tmp_path) == ["out.bin"]
    write_atomically(tmp_path / "fresh.bin", b"new", replace=False, mode=0o600)
    assert stat.S_IMODE((tmp_path / "fresh.bin").stat().st_mode) == 0o600


def test_a_very_long_name_still_gets_a_temporary_file_beside_it(tmp_path):
    target = tmp_path / ("é" * 120 + ".json")  # 245 bytes: the temporary name must be cut
    write_atomically(target, b"{}")
    assert target.read_bytes() == b"{}" and _names(tmp_path) == [target.name]


def test_a_pending_file_is_absent_until_committed(tmp_path):
    target = tmp_path / "results.jsonl"
    pending = PendingFile(target)
    pending.write(b"line 1\n")
    pending.write(b"line 2\n", sync=True)
    assert not target.exists()
    pending.commit()
    assert target.read_bytes() == b"line 1\nline 2\n" and _names(tmp_path) == ["results.jsonl"]
    with pytest.raises(ValueError, match="already committed or aborted"):
        pending.commit()


def test_an_aborted_pending_file_leaves_the_old_one_and_no_trace(tmp_path):
    target = tmp_path / "results.jsonl"
    target.write_bytes(b"earlier")
    pending = PendingFile(target)
    pending.write(b"half")
    pending.abort()
    pending.abort()  # twice is harmless
    assert target.read_bytes() == b"earlier" and _names(tmp_path) == ["results.jsonl"]


def test_a_pending_file_without_replace_never_overwrites(tmp_path):
    target = tmp_path / "results.jsonl"
    target.write_bytes(b"earlier")
    pending = PendingFile(target)
    pending.write(b"new")
    with pytest.raises(FileExistsError):
        pending.commit(replace=False)
    pending.abort()
    assert target.read_bytes() == b"earlier" and _names(tmp_path) == ["results.jsonl"]


def test_same_file_follows_links_and_compares_paths_not_yet_there(tmp_path, monkeypatch):
    real = tmp_path / "a.txt"
    real.write_text("x")
    os.symlink(real, tmp_path / "link.txt")
    assert same_file(real, tmp_path / "link.txt")
    assert not same_file(real, tmp_path / "b.txt")
    monkeypatch.chdir(tmp_path)
    assert same_file("missing.txt", tmp_path / "missing.txt")
