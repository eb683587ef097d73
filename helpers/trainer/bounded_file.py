"""Reading a check-out file whole, safely: regular files only, refused before reading, and a size cap.

The check-out readers (paper, key, answers, graded result, the trainer's secret and
ledger) take a file whole. :func:`read_bounded` opens it without blocking, refuses
anything that is not a regular file (a FIFO with no writer would otherwise hang for
ever, a device never ends) and any file on ``/proc`` or ``/sys`` (``/proc/self/mem``
claims to be a regular file of size 0), before a byte is read, and stops at
``limit`` bytes (default :data:`MAX_CHECKOUT_BYTES`; the command line's
``--max-bytes`` raises it). Every refusal is one :class:`CheckoutFileError` naming
the file. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from helpers.core.errors import CheckoutFileError
from helpers.trainee.progress.paths import shown_path

__all__ = ["MAX_CHECKOUT_BYTES", "read_bounded", "read_within", "parse_size"]

#: The largest check-out file read unless told otherwise: a paper of 200 cases is about 0.5 MB.
MAX_CHECKOUT_BYTES = 8 * 2**20
#: File systems whose files are not data: their sizes and reads are not a file's.
_PSEUDO = ("/proc", "/sys")


def _pseudo_devices() -> set[int]:
    """The devices of /proc and /sys, where each is a file system of its own.

    Where one shares the root's device (the browser edition's in-memory file system
    mounts everything on one), it says nothing about a file, so it is left out.
    """
    try:
        root_device = os.stat("/").st_dev
    except OSError:
        root_device = None
    found = set()
    for root in _PSEUDO:
        try:
            found.add(os.stat(root).st_dev)
        except OSError:
            continue
    if root_device is not None:
        found.discard(root_device)
    return found


def parse_size(text: str) -> int:
    """``"8MB"``, ``"512k"``, ``"1G"`` or a number of bytes, as bytes; ValueError otherwise."""
    raw = text.strip().upper().removesuffix("B")
    scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(raw[-1:], 1)
    digits = raw[:-1] if scale != 1 else raw
    if not digits.isascii() or not digits.isdigit() or int(digits) < 1:
        raise ValueError(f"{text!r} is not a size (a number of bytes, or with K, M or G)")
    return int(digits) * scale


def read_bounded(
    path: str | Path, *, limit: int = MAX_CHECKOUT_BYTES, what: str = "a check-out file"
) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; else :class:`CheckoutFileError`."""
    where = shown_path(path)
    try:
        encoded = os.fsencode(path)
    except UnicodeError:
        raise CheckoutFileError(
            "cannot be read (its name has characters a file name cannot hold)", path=where
        ) from None
    if b"\0" in encoded:
        raise CheckoutFileError("cannot be read (its name contains a null character)", path=where)
    try:
        handle = os.open(encoded, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise CheckoutFileError(
            f"cannot be read ({exc.strerror or type(exc).__name__})", path=where
        ) from None
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise CheckoutFileError(f"is a folder, not {what}", path=where)
        if not stat.S_ISREG(info.st_mode):
            raise CheckoutFileError(
                f"is not a regular file (a FIFO, device or socket), so it is not read as {what}", path=where
            )
        if info.st_dev in _pseudo_devices():
            raise CheckoutFileError(f"is a system file (/proc or /sys), not {what}", path=where)
        limit_text = f"the {limit:,}-byte limit for {what} (--max-bytes raises it)"
        if info.st_size > limit:
            raise CheckoutFileError(
                f"is {info.st_size:,} bytes, over {limit_text}; it was not read", path=where
            )
        data = read_within(handle, limit)
        if data is None:
            raise CheckoutFileError(f"grows past {limit_text}; it was not read", path=where)
        return data
    except OSError as exc:
        raise CheckoutFileError(
            f"cannot be read ({exc.strerror or type(exc).__name__})", path=where
        ) from None
    finally:
        os.close(handle)


def read_within(handle: int, limit: int) -> bytes | None:
    """All of an open file's bytes, or None once they pass ``limit`` (a file growing as it is read)."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(handle, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            return None
        chunks.append(chunk)
