"""A drill: a seeded order of practice cases, the attempts, and scores per case and per rule.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from helpers.core.errors import InvalidInputError, describe_value
from helpers.trainee.cases.practice_cases import PracticeCase
from helpers.trainee.cases.rules import GRADED_RULES, Rule
from helpers.trainee.grading import Grade

__all__ = [
    "Attempt",
    "Progress",
    "RuleScore",
    "DEFAULT_DRILL_SEED",
    "PROGRESS_FORMAT",
    "PROGRESS_VERSION",
    "drill_order",
    "rules_missed",
    "rule_scores",
    "ATTEMPT_FIELDS",
    "ATTEMPT_OPTIONAL_FIELDS",
]

#: The one demo seed of the notebooks' drills (the set course and the mastery drill); any whole
#: number gives another reproducible order, and a trainee's own mastery drill starts from a fresh one.
DEFAULT_DRILL_SEED = 5

#: The marker that tells a progress file apart from any other JSON file.
PROGRESS_FORMAT = "eval-integrity-practice-progress"
PROGRESS_VERSION = 1

ATTEMPT_FIELDS = ("case", "correct", "rules_missed")
#: Fields an attempt may also have (kept since the set course runs on the drill engine).
ATTEMPT_OPTIONAL_FIELDS = ("outcome", "hints")


def drill_order(cases: Iterable[PracticeCase], seed: int, *, size: int | None = None) -> list[PracticeCase]:
    """The cases in a shuffled order fixed by ``seed``; the first ``size`` if given.

    The same seed and cases always give the same order, whatever order the
    cases arrive in. Taught in ``04_practice.ipynb`` ("How the set course is scored").
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInputError(f"seed is {describe_value(seed)}, expected a whole number", field="seed")
    ordered = sorted(cases, key=lambda case: case.key)
    if len({case.key for case in ordered}) != len(ordered):
        raise InvalidInputError("a drill cannot hold the same case twice", field="cases")
    random.Random(seed).shuffle(ordered)
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= len(ordered):
            raise InvalidInputError(
                f"size is {describe_value(size)}, expected a whole number from 1 to {len(ordered)}",
                field="size",
            )
        ordered = ordered[:size]
    return ordered


def rules_missed(case: PracticeCase, grade: Grade) -> tuple[str, ...]:
    """The rules an answer missed: those its feedback names, then the case's context rules.

    A context rule (one not in :data:`GRADED_RULES`) is missed whenever the
    answer is wrong, because the case exists to teach it. A correct answer
    misses nothing.
    """
    if grade.correct:
        return ()
    context = [rule for rule in case.rules if rule not in GRADED_RULES]
    return tuple(dict.fromkeys([*grade.rules_missed, *context]))


@dataclass(frozen=True)
class Attempt:
    """The scored (first) check of one case: its key, whether it was right unaided, the rules missed.

    ``outcome`` is how the case was scored (``correct``, ``helped``, ``missed``,
    ``revealed`` or ``skipped``, as in the mastery drill); ``hints`` the hints shown.
    """

    case: str
    correct: bool
    rules_missed: tuple[str, ...] = ()
    outcome: str = ""
    hints: int = 0

    @property
    def how(self) -> str:
        """The outcome, or ``correct``/``missed`` for an attempt saved before outcomes were kept."""
        return self.outcome or ("correct" if self.correct else "missed")

    def to_data(self) -> dict[str, Any]:
        """The attempt as stored in a progress file."""
        return {
            "case": self.case,
            "correct": self.correct,
            "rules_missed": list(self.rules_missed),
            "outcome": self.how,
            "hints": self.hints,
        }


@dataclass
class Progress:
    """A trainee's drill: the seed, the case order, and the scored check of each case.

    Only the first check of a case is scored; checking again still gives
    feedback but changes nothing here. Taught in ``04_practice.ipynb``.
    """

    seed: int
    order: tuple[str, ...]
    attempts: dict[str, Attempt] = field(default_factory=dict)

    @classmethod
    def start(
        cls, cases: Iterable[PracticeCase], seed: int = DEFAULT_DRILL_SEED, *, size: int | None = None
    ) -> Progress:
        """A fresh drill over ``cases`` in the order :func:`drill_order` gives."""
        return cls(seed, tuple(case.key for case in drill_order(cases, seed, size=size)))

    def record(self, case: PracticeCase, grade: Grade) -> Attempt:
        """Score ``grade`` for ``case`` if it is the case's first check; return the scored attempt."""
        if case.key not in self.order:
            raise InvalidInputError(f"{case.key} is not in this drill", field="case")
        if case.key not in self.attempts:
            outcome = "correct" if grade.correct else "missed"
            self.attempts[case.key] = Attempt(case.key, grade.correct, rules_missed(case, grade), outcome)
        return self.attempts[case.key]

    def record_outcome(
        self, case: PracticeCase, outcome: str, missed: Sequence[str], *, hints: int = 0
    ) -> Attempt:
        """Score ``case`` with the engine's ``outcome`` if it has no score yet; only ``correct`` counts."""
        if case.key not in self.order:
            raise InvalidInputError(f"{case.key} is not in this drill", field="case")
        if case.key not in self.attempts:
            correct = outcome == "correct"
            context = () if correct else tuple(r for r in case.rules if r not in GRADED_RULES)
            kept = () if correct else tuple(dict.fromkeys([*missed, *context]))
            self.attempts[case.key] = Attempt(case.key, correct, kept, outcome, hints)
        return self.attempts[case.key]

    def next_key(self) -> str | None:
        """The first case in drill order not yet checked, or None when the drill is done."""
        return next((key for key in self.order if key not in self.attempts), None)

    @property
    def total(self) -> int:
        """How many cases the drill holds."""
        return len(self.order)

    @property
    def done(self) -> int:
        """How many cases have a scored check."""
        return len(self.attempts)

    @property
    def correct(self) -> int:
        """How many scored checks were fully correct."""
        return sum(attempt.correct for attempt in self.attempts.values())

    @property
    def finished(self) -> bool:
        """True once every case in the drill has been checked."""
        return self.done == self.total

    def percent(self) -> int:
        """Correct checks as a whole percentage of checks so far, rounded half up (0 before any).

        2 of 3 is 67%, not 66%.
        """
        return (self.correct * 200 + self.done) // (2 * self.done) if self.done else 0

    def score_line(self) -> str:
        """A one-line running score, e.g. ``Score: 3 of 4 correct (75%) · 4 of 38 cases done``."""
        if not self.done:
            return f"Score: nothing checked yet · 0 of {self.total} cases done"
        return (
            f"Score: {self.correct} of {self.done} correct ({self.percent()}%) · "
            f"{self.done} of {self.total} cases done"
        )

    def to_data(self) -> dict[str, Any]:
        """The JSON object a progress file holds."""
        return {
            "format": PROGRESS_FORMAT,
            "version": PROGRESS_VERSION,
            "seed": self.seed,
            "order": list(self.order),
            "attempts": [attempt.to_data() for attempt in self.attempts.values()],
        }


@dataclass(frozen=True)
class RuleScore:
    """How a trainee did on one rule: cases that exercised or missed it, and where it was missed."""

    rule: Rule
    seen: int
    missed_in: tuple[str, ...]

    @property
    def missed(self) -> int:
        """How many cases missed the rule."""
        return len(self.missed_in)

    @property
    def right(self) -> int:
        """How many cases exercised the rule without missing it."""
        return self.seen - self.missed


def rule_scores(progress: Progress, cases: Iterable[PracticeCase], rules: Sequence[Rule]) -> list[RuleScore]:
    """Per rule, in rule order: checked cases that exercised or missed it, and where it was missed.

    A case counts for a rule when it lists the rule or its scored check
    missed the rule. Taught in ``04_practice.ipynb`` ("How the set course is scored").
    """
    by_key = {case.key: case for case in cases}
    scores = []
    for rule in rules:
        seen, missed = 0, []
        for attempt in progress.attempts.values():
            tagged = rule.id in by_key[attempt.case].rules
            if tagged or rule.id in attempt.rules_missed:
                seen += 1
            if rule.id in attempt.rules_missed:
                missed.append(attempt.case)
        scores.append(RuleScore(rule, seen, tuple(missed)))
    return scores
