"""The cohort's files: named from files and folders, read within bounds, parsed strictly, named safely."""

from __future__ import annotations

import os

import pytest
from current_samples import current_sample
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import ProgressFileError
from helpers.trainer import cohort_files
from helpers.trainer.cohort_files import (
    MAX_FILE_BYTES,
    progress_paths,
    read_progress_data,
    read_progress_file,
    sample_progress_dir,
    shown,
)


def test_a_name_is_shown_with_its_control_characters_escaped_and_cut_to_the_limit() -> None:
    assert shown("a\x1b[31mb\nc\ud800") == "a\\x1b[31mb\\nc\\ud800"
    assert shown("abcdef", 4) == "abc…" and shown("abcd", 4) == "abcd"


@given(st.text(max_size=60), st.integers(1, 50))
def test_a_shown_name_is_one_printable_line_never_over_its_limit(text, limit) -> None:
    safe = shown(text, limit)
    assert len(safe) <= limit and "\n" not in safe and "\x1b" not in safe
    assert safe.isprintable() or safe.endswith("…")


def test_folders_give_their_json_files_sorted_and_files_are_taken_as_given(tmp_path) -> None:
    for name in ("b.json", "a.json", "notes.txt"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    other = tmp_path / "other"
    (other / "empty.json").mkdir(parents=True)
    (other / "empty").mkdir()
    named = progress_paths([tmp_path, tmp_path / "missing.json", other / "empty.json", other / "empty"])
    # a folder named like a progress file, with none in it, is kept to be refused; one named otherwise is not
    assert named == [
        tmp_path / "a.json",
        tmp_path / "b.json",
        tmp_path / "missing.json",
        other / "empty.json",
    ]


def test_a_sample_file_is_read_with_its_claims() -> None:
    progress, data = read_progress_data(sample_progress_dir() / "ben.json")
    assert data["mastery"]["attempts"] and isinstance(data, dict)
    assert read_progress_file(sample_progress_dir() / "ben.json") == progress
    assert sorted(p.name for p in sample_progress_dir().glob("*.json"))[:2] == ["asha.json", "ben.json"]


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda p: None, "cannot be read (No such file or directory)"),
        (
            lambda p: p.mkdir(),
            "is a folder with no progress files (*.json) in it, so it cannot hold progress",
        ),
        (lambda p: p.write_bytes(b"\xff\xfe{}"), "is not UTF-8 text (byte 0)"),
        (lambda p: p.write_text("{} {}", encoding="utf-8"), "is not a progress file: "),
        (
            lambda p: p.write_text('{"version": 3}', encoding="utf-8"),
            'is not a practice progress file (it has no "format"',
        ),
    ],
)
def test_a_file_that_is_not_progress_is_refused_naming_it(tmp_path, make, why) -> None:
    path = tmp_path / "x.json"
    make(path)
    with pytest.raises(ProgressFileError) as refused:
        read_progress_file(path)
    assert why in refused.value.message and refused.value.path == str(path)


def test_a_file_over_the_limit_is_refused_unread(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(cohort_files, "MAX_FILE_BYTES", 2**20)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (3 * 2**20))
    with pytest.raises(ProgressFileError, match="is 3 MB, over the 1 MB limit for a progress file"):
        read_progress_file(path)
    assert MAX_FILE_BYTES == 20 * 2**20


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ProgressFileError, match="not a regular file"):
        read_progress_file(fifo)


def test_a_genuine_file_on_the_current_course_is_read_back(tmp_path) -> None:
    import json

    path = tmp_path / "ben.json"
    path.write_text(json.dumps(current_sample("ben")), encoding="utf-8")
    progress, data = read_progress_data(path)
    assert data == current_sample("ben") and progress is not None
