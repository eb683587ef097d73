"""The root of every error these helpers raise, in a module of its own.

It sits apart from :mod:`helpers.core.errors` only because :mod:`helpers.core.jsonwalk`,
which ``errors`` imports, raises an error too; everyone else takes it from ``errors``.
Taught in ``01_start_here.ipynb`` ("When the input is wrong").
"""

from __future__ import annotations

__all__ = ["HelpersError"]


class HelpersError(Exception):
    """The root of every error these helpers raise: catch it to catch them all."""
