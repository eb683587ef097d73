"""Parquet tables read with pyarrow (:mod:`helpers.team.parquet_tables`): rows, refusals, and the extra to install."""

from __future__ import annotations

import importlib.util
import io

import pytest

from helpers.core.errors import CheckInputError, JSONLoadError
from helpers.team import parquet_tables
from helpers.team.inputs import SourceFormatError

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _parquet_bytes(**columns) -> bytes:
    sink = io.BytesIO()
    pq.write_table(pa.table(columns), sink)
    return sink.getvalue()


class Pipe(io.RawIOBase):
    """A readable stream that cannot seek, as standard input."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def readinto(self, buffer) -> int:
        return self.data.readinto(buffer)


@pytest.mark.parametrize("wrap", [io.BytesIO, Pipe], ids=["seekable", "a pipe"])
def test_rows_come_as_dicts_in_order_a_batch_at_a_time(wrap):
    data = _parquet_bytes(id=["r1", "r2", "r3"], original=[["a"], None, []], extra=[1, 2, 3])
    parquet = parquet_tables.open_parquet(wrap(data), source="t.parquet")
    assert parquet_tables.column_names(parquet) == ["id", "original", "extra"]
    rows = list(parquet_tables.iter_rows(parquet, ["id", "original"], batch_rows=2))
    assert rows == [
        {"id": "r1", "original": ["a"]},
        {"id": "r2", "original": None},
        {"id": "r3", "original": []},
    ]


def test_a_file_that_is_not_parquet_names_itself():
    with pytest.raises(SourceFormatError, match=r"^t\.parquet: is not a readable Parquet file \("):
        parquet_tables.open_parquet(Pipe(b"id,original\n"), source="t.parquet")


def test_row_errors_name_the_row_and_a_duplicate_names_both():
    error = parquet_tables.RowError("original is null", source="t.parquet", row=4, field="original")
    assert isinstance(error, JSONLoadError)
    assert (str(error), error.line, error.detail) == (
        "t.parquet, row 4: original is null",
        4,
        "original is null",
    )
    duplicate = parquet_tables.DuplicateRowError("S\u200b1", source="k.parquet", row=7, first_row=2)
    assert str(duplicate) == (
        'k.parquet, row 7: duplicate ID "S\u27e8U+200B\u27e91" (first given in row 2); each ID may appear only once'
    )
    assert (duplicate.key, duplicate.first_line) == ("S\u200b1", 2)


@pytest.mark.parametrize(
    ("exc", "tidy", "reason"),
    [
        (
            UnicodeDecodeError("utf-8", b"S\xff", 1, 2, "invalid start byte"),
            False,
            "a string that is not UTF-8 text",
        ),
        (
            UnicodeDecodeError("utf-8", b"S\xff", 1, 2, "invalid start byte"),
            True,
            "a string that is not UTF-8 text",
        ),
        (OSError("page  header\nis corrupt"), False, "page  header\nis corrupt"),
        (OSError("page  header\nis corrupt"), True, "page header is corrupt"),
        (OSError(), False, ""),
        (OSError(), True, "OSError"),
    ],
    ids=["not utf-8", "not utf-8 tidy", "raw", "tidy", "empty raw", "empty tidy"],
)
def test_a_table_unreadable_from_a_row_gives_its_reason(exc, tidy, reason):
    error = parquet_tables.unreadable_from(exc, source="t.parquet", row=3, tidy=tidy)
    assert isinstance(error, parquet_tables.RowError)
    assert (str(error), error.line) == (
        f"t.parquet, row 3: the table cannot be read from here on ({reason})",
        3,
    )


def test_without_pyarrow_the_extra_to_install_is_named(monkeypatch):
    assert parquet_tables.pyarrow_missing() is None
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    missing = parquet_tables.pyarrow_missing()
    assert isinstance(missing, CheckInputError) and missing.extra == "parquet"
    assert str(missing) == (
        "reading Parquet needs pyarrow, which is not installed; "
        "install the 'parquet' extra: pip install 'eval-integrity-helpers[parquet]'"
    )
