"""The fast path on one gallery line beside the exact route (:class:`FastRun`). Taught in
``05_check_your_data.ipynb`` ("The fast path").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from helpers.team.fastpath import fast_sentinels_input, fast_target_scope, loads_fast
from helpers.trainee.views.shown import Shown

__all__ = ["FastRun", "fast_run"]


_FAST = {"target-scope": fast_target_scope, "sentinels": fast_sentinels_input}


@dataclass(frozen=True)
class FastRun:
    """The fast path on one line: what its reader and its check did, and whether it agrees."""

    reader: str
    check: str
    output: dict[str, Any] | None
    agrees: bool


def fast_run(check: str, line: bytes, exact: Shown) -> FastRun:
    """Run the fast path's reader and check on ``line``, beside the exact route's ``exact``.

    The fast path may decline a line (return nothing), and then the exact route
    decides; when it answers, its output must be the exact route's, key order
    included. Without ``orjson`` the reader always declines and the fast check
    runs on the strict reader's value.
    """
    value = loads_fast(line)
    if value is None:
        reader = "declines: the strict reader decides"
        value = exact.record
    elif exact.record is not None and value == exact.record:
        reader = "reads the same value"
    else:
        return FastRun("reads a different value", "not run", None, False)
    result = None if value is None else _FAST[check](value)
    if result is None:
        return FastRun(reader, "declines: the exact check decides", None, True)
    output = result.as_dict()
    same = not exact.refused and output == exact.output and list(output) == list(exact.output)
    return FastRun(reader, "answers", output, same)
