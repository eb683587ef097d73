"""Writing a file so that a reader never sees half of it: the project's one atomic writer.

The data goes to a new temporary file beside the target, is flushed to disk,
then takes the target's place in one step. With ``replace=False`` the target
must not exist yet, and an existing file is never replaced (retained
evidence is written this way).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "a.json", '{"S1": "R"}\\n').read_text()
'{"S1": "R"}\\n'
>>> try:
...     write_atomically(folder / "a.json", "again", replace=False)
... except FileExistsError:
...     print("refused: the file is kept")
refused: the file is kept

:class:`PendingFile` does the same for a file written in pieces (the command line's
``--results``): it takes its place only once it is whole.

Taught in ``03_sentinel_answer_key.ipynb`` (baselines) and ``04_practice.ipynb`` (progress).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["write_atomically", "PendingFile", "same_file"]


def _mode_for(path: Path) -> int:
    """The permissions the file gets: an existing file's own, else what ``open()`` would give."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _temp_prefix(path: Path) -> str:
    """``.NAME.`` for the temporary file beside ``path``, the name cut so the whole fits in 255 bytes."""
    name = path.name
    while len(os.fsencode(name)) > 200:  # leaves room for the random part and the suffix
        name = name[:-1]
    return f".{name}."


def write_atomically(
    path: str | Path, data: str | bytes, *, replace: bool = True, mode: int | None = None
) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; returns the path.

    Raises :class:`OSError` on failure, leaving no temporary file behind and the
    target as it was. ``replace=False`` refuses an existing target
    (:class:`FileExistsError`) without ever overwriting it. ``mode`` sets the file's
    permissions whatever the umask (default: an existing file's own, else what ``open()`` gives).
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=_temp_prefix(path), suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        os.fchmod(handle, _mode_for(path) if mode is None else mode)
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
        if replace:
            os.replace(tmp, path)
        elif hasattr(os, "link"):
            os.link(tmp, path)  # fails if path exists: never overwrites
        else:  # no hard links (the browser edition): create exclusively, then write
            with open(path, "xb") as target:
                if mode is not None:
                    os.fchmod(target.fileno(), mode)
                target.write(payload)
                target.flush()
                os.fsync(target.fileno())
    finally:
        tmp.unlink(missing_ok=True)
    return path


class PendingFile:
    """A file written in pieces to a temporary file beside ``path``, which takes its place only on :meth:`commit`.

    Until then ``path`` is as it was (absent, or its earlier contents), so a run that
    stops part-way (Ctrl-C, a full disk) never leaves half a file that passes for a whole
    one; :meth:`abort` removes the temporary file. The caller writes to :attr:`fd`, which
    this object owns and closes. No ``fsync``: the file is whole or absent for readers,
    not proof against a power cut. Taught in ``05_check_your_data.ipynb``.
    """

    def __init__(self, path: str | Path, *, mode: int | None = None) -> None:
        self.path = Path(path)
        self.fd, name = tempfile.mkstemp(
            dir=self.path.parent, prefix=_temp_prefix(self.path), suffix=".partial"
        )
        self.tmp: Path | None = Path(name)
        try:  # ``mode``: the new file's permissions (default: the old file's, else the umask's)
            os.fchmod(self.fd, mode if mode is not None else _mode_for(self.path))
        except OSError:
            self.abort()
            raise

    def write(self, data: bytes, *, sync: bool = False) -> None:
        """Write all of ``data`` at the end; with ``sync``, flush it to disk too."""
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]
        if sync:
            os.fsync(self.fd)

    def commit(self, *, replace: bool = True) -> None:
        """Close the descriptor and put the finished file in place of ``path``.

        ``replace=False`` refuses an existing ``path`` (:class:`FileExistsError`), never
        overwriting it. Raises :class:`OSError` when any step fails; then :meth:`abort`
        cleans up.
        """
        if self.tmp is None:
            raise ValueError("this file was already committed or aborted")
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)
        if replace:
            os.replace(self.tmp, self.path)
        elif hasattr(os, "link"):
            os.link(self.tmp, self.path)  # fails if path exists: never overwrites
            self.tmp.unlink()
        else:  # no hard links (the browser edition): create exclusively, then copy
            with open(self.path, "xb") as target:
                target.write(self.tmp.read_bytes())
                target.flush()
                os.fsync(target.fileno())
            self.tmp.unlink()
        self.tmp = None

    def abort(self) -> None:
        """Close the descriptor if it is still open and remove the temporary file; never raises."""
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.tmp is not None:
            tmp, self.tmp = self.tmp, None
            with contextlib.suppress(OSError):
                tmp.unlink()


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """True when both paths name one file (the second need not exist yet).

    Taught in ``05_check_your_data.ipynb``; the trainer's commands use it too.
    """
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.abspath(first) == os.path.abspath(second)
