"""Where a drill stands on one rule (:class:`RuleState`) and on one look-alike kind (:class:`FacetState`).
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from helpers.trainee.drill.model import MASTERY_STREAK, facet_streak
from helpers.trainee.drill.schedule import Schedule
from helpers.trainee.drill.times import now_text

__all__ = ["RuleState", "FacetState"]


@dataclass(frozen=True)
class RuleState:
    """Where one rule stands: streak, mastery (and how often it was lost), and its review card.

    ``card`` is the rule's ``fsrs.Card`` (``None`` before its first scored case);
    progress files keep only its due date, since the card follows from the attempts.
    The card is worked out from ``schedule`` (the rule's scored cases) when it is
    first asked for, so a trainer re-grading a cohort does not review cards it never
    shows. Taught in ``04_practice.ipynb``.
    """

    rule: str
    streak: int = 0
    mastered_on: str | None = None
    times_mastered: int = 0
    times_lost: int = 0
    attempts: int = 0
    unaided: int = 0
    last_case: int = 0
    ready_at: int = 0
    reviewed: int = 0
    last_practised: str | None = None
    schedule: Schedule | None = field(default=None, repr=False)

    @property
    def card(self) -> Any:
        """The rule's ``fsrs.Card`` after every scored case so far (``None`` before the first)."""
        return None if self.schedule is None else self.schedule.card()

    @property
    def mastered(self) -> bool:
        """True while the rule is mastered (mastery is lost again by any outcome but ``correct``)."""
        return self.mastered_on is not None

    @property
    def correct(self) -> int:
        """Unaided correct first tries: the only ones that count (another name for :attr:`unaided`)."""
        return self.unaided

    def review_due(self) -> str | None:
        """When the rule's review is due, as a time text (None before its first scored case)."""
        if self.card is None:
            return None
        return now_text(self.card.due)

    def bar(self) -> float:
        """Progress towards mastery, 0.0 to 1.0."""
        return 1.0 if self.mastered else min(self.streak, MASTERY_STREAK) / MASTERY_STREAK

    def to_data(self) -> dict[str, Any]:
        """The state as a progress file stores it (a claim: the trainer rebuilds it from the attempts)."""
        return {
            "rule": self.rule,
            "streak": self.streak,
            "mastered_on": self.mastered_on,
            "times_mastered": self.times_mastered,
            "times_lost": self.times_lost,
            "attempts": self.attempts,
            "unaided": self.unaided,
            "last_practised": self.last_practised,
            "review_due": self.review_due(),
        }


@dataclass(frozen=True)
class FacetState:
    """One look-alike kind: secured by :func:`facet_streak` unaided cases it decides in a row, lost by a slip."""

    facet: str
    secured: bool = False
    seen: int = 0
    last_case: int = 0
    streak: int = 0
    missed: int = 0

    @property
    def needed(self) -> int:
        """Unaided cases in a row that secure the kind now (:func:`facet_streak`): one more per miss so far."""
        return facet_streak(self.facet, self.missed)

    def to_data(self) -> dict[str, Any]:
        """The facet's state as a progress file stores it (a claim, rebuilt by the trainer)."""
        return {"facet": self.facet, "secured": self.secured, "seen": self.seen}
