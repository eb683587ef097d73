"""Whether the run is the process's last act, so its largest objects may be left to the process's
end instead of taken apart one by one (see :func:`helpers.cli.run.end_process`). Taught in
``01_start_here.ipynb``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: True when the run is the process's last act (``python -m helpers``; see
#: :func:`helpers.cli.run.end_process`): the largest things a run made (the last record read, the
#: lists a long key pair was walked by) are then left for the process's end, which drops them
#: unfreed, instead of being taken apart object by object (two million-entry keys: about 0.1 s).
_linger = False


_lingering: dict[str, Any] = {}


def end_with_process() -> None:
    """Say the process ends once this run is done: its largest objects may be left to that end."""
    global _linger
    _linger = True
