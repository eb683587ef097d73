"""A child process that ends when its parent does, however the parent ends (even ``kill -9``).

Linux's ``prctl(PR_SET_PDEATHSIG)`` asks the kernel to send a signal to this process when the
thread that started it exits; nothing the parent does (or fails to do) at its death is needed.
:func:`die_with_parent` sets it from inside the child (a worker's initializer), then checks the
parent is still there, since a parent that died before the call sends nothing. Elsewhere
(macOS, Windows) it does nothing and says so. Used by the trainer's view (``06_trainer.ipynb``)
for its worker processes.
"""

from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["PR_SET_PDEATHSIG", "die_with_parent"]

#: ``<linux/prctl.h>``: the signal sent to this process when its parent exits.
PR_SET_PDEATHSIG = 1


def die_with_parent(signal_number: int, *, parent: int | None = None) -> bool:
    """Have this process sent ``signal_number`` when its parent exits; False where that cannot be set.

    ``parent`` (the pid of the process that started this one) is checked after the call: if it
    is gone already, the signal is sent at once, as the kernel would have done.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.prctl(PR_SET_PDEATHSIG, signal_number, 0, 0, 0)
    except (OSError, AttributeError):
        return False
    if done != 0:
        return False
    if parent is not None and not _alive(parent):
        os.kill(os.getpid(), signal_number)
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # there, but another user's
    return True
