"""Standard error as a terminal would be, in memory: what the progress line tests draw on."""

from __future__ import annotations

import io


class FakeTerminal(io.StringIO):
    """Standard error as a terminal would be (``isatty``), keeping what is written."""

    def isatty(self) -> bool:
        return True
