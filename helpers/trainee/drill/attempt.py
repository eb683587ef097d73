"""One served case of a mastery drill, as a progress file stores it. Taught in ``04_practice.ipynb``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from helpers.trainee.drill.times import parse_time

__all__ = ["MasteryAttempt"]


@dataclass(frozen=True)
class MasteryAttempt:
    """One served case: which case it was, what was answered, and how.

    ``rule``, ``seed`` and ``facet`` regenerate the case exactly;
    ``options`` are the reasons offered, in the order shown. ``answer`` is
    the answer at the scored check (``None`` when there was none), and
    ``correct`` that check's verdict. Taught in ``04_practice.ipynb``.
    """

    number: int
    rule: str
    seed: int
    facet: str | None
    facets: tuple[str, ...]
    options: tuple[str, ...]
    answer: Mapping[str, Any] | None
    outcome: str
    correct: bool
    hints: int
    revealed: bool
    served: str
    answered: str | None
    fields_wrong: tuple[str, ...] = ()
    rules_missed: tuple[str, ...] = ()

    @property
    def unaided(self) -> bool:
        """True for an unaided, correct first try: the only outcome that counts."""
        return self.outcome == "correct"

    def seconds(self) -> int | None:
        """Seconds from serving the case to its scored check (None when it was never checked)."""
        if self.answered is None:
            return None
        return int((parse_time(self.answered) - parse_time(self.served)).total_seconds())

    def to_data(self) -> dict[str, Any]:
        """The attempt as a progress file stores it."""
        return {
            "number": self.number,
            "rule": self.rule,
            "seed": self.seed,
            "facet": self.facet,
            "facets": list(self.facets),
            "options": list(self.options),
            "answer": None if self.answer is None else dict(self.answer),
            "outcome": self.outcome,
            "correct": self.correct,
            "hints": self.hints,
            "revealed": self.revealed,
            "served": self.served,
            "answered": self.answered,
            "fields_wrong": list(self.fields_wrong),
            "rules_missed": list(self.rules_missed),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MasteryAttempt:
        """An attempt from a progress file (already checked against the schema)."""
        return cls(
            number=data["number"],
            rule=data["rule"],
            seed=data["seed"],
            facet=data["facet"],
            facets=tuple(data["facets"]),
            options=tuple(data["options"]),
            answer=data["answer"],
            outcome=data["outcome"],
            correct=data["correct"],
            hints=data["hints"],
            revealed=data["revealed"],
            served=data["served"],
            answered=data["answered"],
            fields_wrong=tuple(data["fields_wrong"]),
            rules_missed=tuple(data["rules_missed"]),
        )
