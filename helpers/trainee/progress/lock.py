"""Saving and reading a progress file safely: one save at a time, and every refusal a clear message.

* :func:`progress_path` refuses a path no file could have (a null character, a lone
  surrogate) before anything touches the disk.
* :func:`save_lock` lets one save of a file run at a time, with a lock the operating
  system releases when its owner's process ends (``filelock``: ``flock`` on Unix,
  ``LockFileEx`` on Windows). A save that stalls (a laptop suspended, a slow network
  disk) keeps its lock however long it takes; a second save waits up to 5 s and is then
  refused, and nothing is lost. A save that died leaves no lock behind.
* :func:`write_progress_text` writes the file atomically.
* :func:`refusing_os_errors` turns what the operating system refuses (a read-only
  folder, a symbolic-link loop, a name too long, ``/proc/self/mem``) into a
  :class:`~helpers.core.errors.ProgressFileError` naming the path, which the drills show.

In the browser edition (Pyodide) ``flock`` is a stub that grants every lock, and
``filelock`` is not shipped, so there a lock file created exclusively beside the
target stands in: it is cleared only when it is older than :data:`STALE_AFTER`
seconds, since a browser tab that closed mid-save cannot release it.

Taught in ``04_practice.ipynb`` ("Keeping your progress").
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from helpers.core.errors import ProgressFileError
from helpers.core.files import write_atomically
from helpers.trainee.progress.paths import path_problem, shown_path

__all__ = [
    "WAIT_SECONDS",
    "STALE_AFTER",
    "progress_path",
    "lock_path",
    "save_lock",
    "write_progress_text",
    "refusing_os_errors",
]

#: How long a second save waits for the first before it is refused.
WAIT_SECONDS = 5.0
#: In the browser edition only: a lock file older than this (seconds) is cleared.
STALE_AFTER = 30.0
#: The longest file name most file systems allow, in bytes.
_NAME_MAX = 255

_F = TypeVar("_F", bound=Callable[..., Any])


def progress_path(path: str | Path, *, doing: str = "used") -> Path:
    """``path`` expanded, or :class:`ProgressFileError` when no file could have that name."""
    try:
        checked = Path(path).expanduser()
        if b"\0" in os.fsencode(checked):  # os.fsencode raises UnicodeEncodeError for a lone surrogate
            raise ValueError("embedded null character in path")
    except (OSError, ValueError) as exc:
        raise ProgressFileError(f"cannot be {doing} ({path_problem(exc)})", path=shown_path(path)) from None
    return checked


def refusing_os_errors(doing: str, *, path_arg: int = 0) -> Callable[[_F], _F]:
    """Decorate a load or save: an :class:`OSError` or :class:`ValueError` becomes a ProgressFileError.

    The message says the file "cannot be {doing}" and why; the path shown is the
    decorated function's positional argument ``path_arg`` (or its ``path`` keyword).
    A :class:`ProgressFileError` passes through unchanged.
    """

    def decorate(func: _F) -> _F:
        @functools.wraps(func)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return func(*args, **kwargs)
            except ProgressFileError:
                raise
            except (OSError, ValueError) as exc:
                path = kwargs["path"] if "path" in kwargs else args[path_arg]
                raise ProgressFileError(
                    f"cannot be {doing} ({path_problem(exc)})", path=shown_path(path)
                ) from None

        return guarded  # type: ignore[return-value]

    return decorate


def lock_path(target: Path) -> Path:
    """The lock file beside ``target``: ``.NAME.lock``, or a digest of the name when that is too long."""
    name = f".{target.name}.lock"
    if len(os.fsencode(name)) > _NAME_MAX:
        digest = hashlib.sha256(os.fsencode(target.name)).hexdigest()[:32]
        name = f".{digest}.progress.lock"
    return target.with_name(name)


def _busy(target: Path) -> ProgressFileError:
    return ProgressFileError(
        "is being saved by another drill right now; nothing was written, so try again",
        path=shown_path(target),
    )


@contextlib.contextmanager
def save_lock(target: Path, *, wait: float | None = None) -> Iterator[None]:
    """Hold ``target``'s save lock; a second saver waits up to ``wait`` seconds, then is refused.

    ``wait`` defaults to :data:`WAIT_SECONDS`.
    Raises :class:`ProgressFileError` when the lock is busy, :class:`OSError` when the
    lock file cannot be made (a read-only folder): see :func:`refusing_os_errors`.
    """
    wait = WAIT_SECONDS if wait is None else wait
    if sys.platform == "emscripten":
        with _marker_lock(target, wait):
            yield
        return
    from filelock import FileLock, Timeout

    name = lock_path(target)
    # Make the lock file first, so a folder that cannot hold it (read-only, /proc) is an OSError
    # now, not a wait that ends looking like another drill's save.
    try:
        os.close(os.open(name, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600))
    except OSError as exc:
        raise ProgressFileError(
            f"cannot be written: its folder cannot hold the lock file {name.name} ({path_problem(exc)})",
            path=shown_path(target),
        ) from None
    lock = FileLock(os.fspath(name), timeout=wait, thread_local=False, is_singleton=False)
    try:
        lock.acquire()
    except Timeout:
        raise _busy(target) from None
    try:
        yield
    finally:
        lock.release()


@contextlib.contextmanager
def _marker_lock(target: Path, wait: float) -> Iterator[None]:
    """The browser edition's lock: a file created exclusively, cleared when older than STALE_AFTER.

    Kept by hand because there no lock can end with its owner: ``flock`` is a stub.
    """
    lock = lock_path(target)
    deadline = time.monotonic() + wait
    while True:
        try:
            handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            break
        except FileExistsError:
            with contextlib.suppress(FileNotFoundError):
                if time.time() - lock.stat().st_mtime > STALE_AFTER:
                    lock.unlink()
                    continue
            if time.monotonic() > deadline:
                raise _busy(target) from None
            time.sleep(0.02)
    os.close(handle)
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            lock.unlink()


def write_progress_text(target: Path, text: str, *, shown: str) -> None:
    """Write ``text`` to ``target`` atomically; a failure is a ProgressFileError naming ``shown``."""
    try:
        write_atomically(target, text)
    except OSError as exc:
        raise ProgressFileError(f"cannot be written ({path_problem(exc)})", path=shown) from None
