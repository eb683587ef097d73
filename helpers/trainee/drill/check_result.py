"""The verdict on one check of a drill case (:class:`CheckResult`). Taught in ``04_practice.ipynb``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CheckResult"]


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one check: right or not, the feedback, and whether it was the scored check.

    ``mistakes`` are ``(field, message)`` pairs that name the field and the
    rule, never the expected ID or value. ``outcome`` is the scored outcome
    (``correct``, ``helped`` or ``missed``) on the scored check, else None.
    """

    correct: bool
    text: str
    scored: bool
    outcome: str | None
    mistakes: tuple[tuple[str, str], ...]
    rule: str | None
