"""Where data comes from: paths, uploads, the shipped sample, and which format a file is.

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from helpers.core.chardiff import visible_text
from helpers.core.errors import JSONLoadError, describe_value
from helpers.core.files import same_file
from helpers.core.paths import fixtures_dir, project_root

__all__ = [
    "Upload",
    "InputFile",
    "sample_data",
    "resolve_input",
    "display_name",
    "open_input",
    "open_snapshot",
    "Snapshot",
    "KeyFormat",
    "ScopeFormat",
    "DuplicateIDError",
    "SourceFormatError",
    "scope_format_for",
    "key_format_for",
    "SCOPE_CSV_REQUIRED",
    "SCOPE_CSV_OPTIONAL",
    "MAX_KEY_BYTES",
    "special_file_reason",
    "names_the_input",
]

#: The largest answer key or sentinel list read unless told otherwise (``--max-file-mb``): a key
#: is held in memory whole, about ten times its size on disk.
MAX_KEY_BYTES = 512 * 2**20

#: Folders whose regular-looking files are the system's, not data (``/proc/self/mem``): they are refused
#: before they are read. Devices are refused by their type, wherever they are (``/dev/shm`` holds files).
_SYSTEM_FOLDERS = ("/proc", "/sys")


ScopeFormat = Literal["jsonl", "csv", "parquet"]
KeyFormat = Literal["json", "jsonl", "trec-qrels", "beir-tsv", "lm-eval-samples", "parquet"]

SCOPE_CSV_REQUIRED: tuple[str, ...] = ("id", "original", "rewritten")
SCOPE_CSV_OPTIONAL: tuple[str, ...] = ("query", "rewritten_query", "unresolved")

_JSONL_SUFFIXES = (".jsonl", ".ndjson")


class SourceFormatError(JSONLoadError):
    """A file's format cannot be told from its name, or its layout (e.g. a CSV header) is wrong.

    Taught in ``05_check_your_data.ipynb``.
    """


class DuplicateIDError(JSONLoadError):
    """An answer key gives the same ID twice; which answer counts would be a guess.

    The ID is shown with look-alike characters as ``⟨U+XXXX⟩``.

    Taught in ``05_check_your_data.ipynb``.
    """

    def __init__(self, key: str, *, source: str, line: int | None, first_line: int | None) -> None:
        earlier = f" (first given on line {first_line})" if first_line is not None else ""
        super().__init__(
            f"duplicate ID {visible_text(describe_value(key))}{earlier}; each ID may appear only once",
            source=source,
            line=line,
            field=key,
        )
        self.key = key
        self.first_line = first_line


def scope_format_for(name: str) -> ScopeFormat:
    """``"csv"`` for ``.csv``, ``"jsonl"`` for ``.jsonl``/``.ndjson``, ``"parquet"`` for ``.parquet``; else raise.

    Taught in ``05_check_your_data.ipynb``.
    """
    suffix = Path(name).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in _JSONL_SUFFIXES:
        return "jsonl"
    if suffix == ".parquet":
        return "parquet"
    raise SourceFormatError(
        "cannot tell the format from the name; use .jsonl or .csv, or name the format",
        source=name,
    )


def key_format_for(name: str) -> KeyFormat:
    """``"json"`` for a ``.json`` name, ``"jsonl"`` for ``.jsonl``/``.ndjson``; else raise.

    Taught in ``05_check_your_data.ipynb``.
    """
    suffix = Path(name).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in _JSONL_SUFFIXES:
        return "jsonl"
    raise SourceFormatError(
        "cannot tell an answer key's format from the name; use .json (one object) or "
        '.jsonl (one {"id","answer"} per line), or name the format',
        source=name,
    )


@dataclass(frozen=True)
class Upload:
    """A file's name and bytes, e.g. from a notebook's upload button.

    Taught in ``05_check_your_data.ipynb``.
    """

    name: str
    data: bytes


def sample_data(name: str) -> Path:
    """A file of the shipped sample dataset in ``fixtures/sample_data/``, e.g. ``"rewrites.jsonl"``.

    Taught in ``05_check_your_data.ipynb``.
    """
    path = fixtures_dir() / "sample_data" / name
    if not path.is_file():
        raise FileNotFoundError(f"no sample file {name!r} in {path.parent}")
    return path


#: A file to read: a path, or an :class:`Upload`.
InputFile = str | Path | Upload


def resolve_input(path: str | Path) -> Path:
    """``path`` as given; a relative path missing from the working folder is tried from the project root.

    So ``fixtures/sample_data/rewrites.jsonl`` works from ``notebooks/`` too.

    Taught in ``05_check_your_data.ipynb``.
    """
    path = Path(path).expanduser()
    if path.is_absolute() or path.exists():
        return path
    candidate = project_root() / path
    if not candidate.exists() and path.parts[:1] == ("fixtures",):
        candidate = fixtures_dir().joinpath(*path.parts[1:])  # an installed wheel's fixtures
    return candidate if candidate.exists() else path


def display_name(item: InputFile) -> str:
    """How reports name an input: an upload's name, or a path relative to the project if inside it.

    Taught in ``05_check_your_data.ipynb``.
    """
    if isinstance(item, Upload):
        return item.name
    path = Path(item).resolve()
    for root, prefix in ((fixtures_dir(), "fixtures/"), (project_root(), "")):
        try:
            return prefix + path.relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
    return str(item)


def open_input(item: InputFile, *, max_bytes: int | None = None) -> tuple[IO[bytes], str, int]:
    """Open a path (see :func:`resolve_input`) or an upload: ``(binary stream, name, size in bytes)``.

    A file that cannot be opened, is not a regular file (see :func:`open_snapshot`) or
    is larger than ``max_bytes`` raises :class:`~helpers.core.errors.JSONLoadError` naming it.

    Taught in ``05_check_your_data.ipynb``.
    """
    if isinstance(item, Upload):
        if max_bytes is not None and len(item.data) > max_bytes:
            raise JSONLoadError(_too_large(len(item.data), max_bytes), source=item.name)
        return io.BytesIO(item.data), item.name, len(item.data)
    path = resolve_input(item)
    name = display_name(path)
    try:
        stream = open_snapshot(path, max_bytes=max_bytes)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise JSONLoadError(f"cannot be read ({reason})", source=str(item)) from None
    return stream, name, stream.size


class _Upto(io.RawIOBase):
    """An open file's bytes up to ``end``, read with ``pread`` (its own offset is left alone)."""

    def __init__(self, handle: IO[bytes], end: int) -> None:
        super().__init__()
        self._handle = handle
        self._fd = handle.fileno()
        self._pos = 0
        self.end = end

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        size = min(len(buffer), self.end - self._pos)
        if size <= 0:
            return 0
        data = os.pread(self._fd, size, self._pos)
        buffer[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self.end}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def close(self) -> None:
        if not self.closed:
            self._handle.close()
        super().close()


class Snapshot(io.BufferedReader):
    """A regular file as it was when opened: reading stops at :attr:`size`, its size then.

    A file that grows while it is read (a writer still appending) is checked only as
    far as it went at the start, on every route (serial or on two cores), so a run
    always ends and checks the same bytes. Taught in ``05_check_your_data.ipynb``.
    """

    def __init__(self, handle: IO[bytes], size: int) -> None:
        super().__init__(_Upto(handle, size), buffer_size=1 << 18)
        self.size = size


def _too_large(size: int, limit: int) -> str:
    return (
        f"is {size:,} bytes, over the limit of {limit:,} bytes ({limit / 2**20:.3g} MB), so it was not read"
    )


def special_file_reason(path: str | os.PathLike[str], info: os.stat_result | None = None) -> str | None:
    """Why ``path`` is not a data file (a FIFO, a device, a socket, a folder, a file of ``/proc``), or ``None``.

    Such files are refused before they are read: a FIFO with no writer would wait for
    ever, a device may never end, and ``/proc/self/mem`` cannot be read at all.
    Taught in ``05_check_your_data.ipynb``.
    """
    if info is not None and stat.S_ISDIR(info.st_mode):
        return "is a folder, not a file"
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a FIFO (a named pipe)" if stat.S_ISFIFO(info.st_mode) else "a device or a socket"
        return f"is {kind}, not a regular file; save it to a file first"
    real = os.path.realpath(path)
    for folder in _SYSTEM_FOLDERS:
        if real == folder or real.startswith(folder + "/"):
            return f"is a file of the system's {folder} folder, not a data file"
    return None


def open_snapshot(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> Snapshot:
    """Open a regular file for binary reading, as a :class:`Snapshot` of its size now.

    Anything else (a FIFO, a device, a socket, a folder, a file of ``/proc`` or
    ``/sys``) is refused before it is read: see :func:`special_file_reason`. The file
    is opened without waiting (a FIFO with no writer would block), so the refusal
    never hangs. A file larger
    than ``max_bytes`` is refused too. Raises :class:`OSError` (its ``strerror`` says
    why). Taught in ``05_check_your_data.ipynb``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        reason = special_file_reason(path, info)
        if reason is not None:
            raise OSError(errno.EINVAL, reason)
        if max_bytes is not None and info.st_size > max_bytes:
            raise OSError(errno.EFBIG, _too_large(info.st_size, max_bytes))
        handle = os.fdopen(fd, "rb")  # O_NONBLOCK does nothing to a regular file's reads
    except BaseException:
        os.close(fd)
        raise
    return Snapshot(handle, info.st_size)


def names_the_input(path: str, stream: Any, source: str | None = None) -> bool:
    """True when writing ``path`` would write over the input open as ``stream`` (named ``source``).

    Compared by device and inode against the open stream (so standard input redirected from
    a file counts), and by name against ``source`` (so a file not yet open does too).
    Taught in ``05_check_your_data.ipynb``.
    """
    try:
        opened = os.fstat(stream.fileno())
        target = os.stat(path)
    except (OSError, ValueError, AttributeError):
        pass
    else:
        if (opened.st_dev, opened.st_ino) == (target.st_dev, target.st_ino):
            return True
    return source is not None and same_file(source, path)
