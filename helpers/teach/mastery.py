"""Mastery and spaced review: each rule practised on fresh generated cases until it is mastered.

* A rule is **mastered** after :data:`MASTERY_STREAK` correct first tries in a
  row on fresh generated cases (mastery, once reached, is kept and dated).
* Rules sit in Leitner boxes 0–3. A correct first try moves a rule up a box,
  so it comes round again later (after 1, 2, 4 or 8 more cases); a miss moves
  it back to box 0, so it comes round again next. A case revealed before a
  correct check counts as a miss; hints used are recorded.
* The drill always serves the rule most due: the smallest due step, then a rule
  not yet mastered, then the lower box, then the order of ``fixtures/rules.json``.
* Every attempt is kept: rule, case seed, answer, hints, reveal and time.

Nothing here draws anything; :class:`helpers.widgets.MasteryDrill` shows it.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import InvalidInputError
from .generators import generate
from .practice_cases import PracticeCase
from .rules import Rule

__all__ = [
    "MASTERY_STREAK",
    "BOX_INTERVALS",
    "RuleState",
    "MasteryAttempt",
    "Mastery",
]

#: Correct first tries in a row, on fresh cases, that master a rule.
MASTERY_STREAK = 3
#: How many cases later a rule in each Leitner box comes round again.
BOX_INTERVALS: tuple[int, ...] = (1, 2, 4, 8)


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class RuleState:
    """Where one rule stands: its box, streak, when it is due, and when it was mastered.

    Taught in ``04_practice.ipynb``.
    """

    rule: str
    box: int = 0
    streak: int = 0
    due: int = 0
    attempts: int = 0
    correct: int = 0
    mastered_on: str | None = None
    last_practised: str | None = None

    @property
    def mastered(self) -> bool:
        """True once the rule has had :data:`MASTERY_STREAK` correct first tries in a row."""
        return self.mastered_on is not None

    def after(self, correct: bool, step: int, when: str) -> RuleState:
        """This state after one scored attempt at ``step`` (0-based count of cases served)."""
        if correct:
            box = min(self.box + 1, len(BOX_INTERVALS) - 1)
            streak = self.streak + 1
        else:
            box, streak = 0, 0
        mastered_on = self.mastered_on or (when if streak >= MASTERY_STREAK else None)
        return replace(
            self,
            box=box,
            streak=streak,
            due=step + 1 + (BOX_INTERVALS[box] - 1 if correct else 0),
            attempts=self.attempts + 1,
            correct=self.correct + int(correct),
            mastered_on=mastered_on,
            last_practised=when,
        )

    def bar(self) -> float:
        """Progress towards mastery, 0.0 to 1.0: the streak, or 1.0 once mastered."""
        return 1.0 if self.mastered else min(self.streak, MASTERY_STREAK) / MASTERY_STREAK


@dataclass(frozen=True)
class MasteryAttempt:
    """One scored case: the rule, the generated case's seed, the answer and how it was reached.

    ``correct`` is the first check's verdict, and false when the worked answer
    was revealed before a correct check. Taught in ``04_practice.ipynb``.
    """

    rule: str
    seed: int
    answer: Mapping[str, Any]
    correct: bool
    hints: int
    revealed: bool
    time: str
    rules_missed: tuple[str, ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The attempt as stored in a progress file."""
        return {
            "rule": self.rule,
            "seed": self.seed,
            "answer": dict(self.answer),
            "correct": self.correct,
            "hints": self.hints,
            "revealed": self.revealed,
            "time": self.time,
            "rules_missed": list(self.rules_missed),
        }


@dataclass
class Mastery:
    """A trainee's mastery of every rule: states, every attempt, and the next case to serve.

    ``seed`` makes the generated cases reproducible: the n-th case of a rule is
    ``generate(rule, seed * 1000 + n)``, so cases never repeat for a trainee.
    Taught in ``04_practice.ipynb``.
    """

    rules: tuple[str, ...]
    seed: int
    states: dict[str, RuleState] = field(default_factory=dict)
    attempts: list[MasteryAttempt] = field(default_factory=list)
    trainee: str = ""
    started: str = field(default_factory=_now)

    @classmethod
    def start(cls, rules: Sequence[Rule], *, seed: int, trainee: str = "") -> Mastery:
        """A fresh start over ``rules``: every rule in box 0, due now."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidInputError(f"seed is {seed!r}, expected a whole number from 0", field="seed")
        ids = tuple(rule.id for rule in rules)
        if not ids or len(set(ids)) != len(ids):
            raise InvalidInputError("mastery needs a list of distinct rules", field="rules")
        return cls(ids, seed, {rule: RuleState(rule) for rule in ids}, trainee=trainee)

    @property
    def step(self) -> int:
        """How many cases have been scored."""
        return len(self.attempts)

    def next_rule(self) -> str:
        """The rule most due: smallest due step, then not mastered, then lower box, then file order."""
        order = {rule: index for index, rule in enumerate(self.rules)}
        return min(
            self.rules,
            key=lambda r: (
                self.states[r].due,
                self.states[r].mastered,
                self.states[r].box,
                order[r],
            ),
        )

    def case_seed(self, rule: str) -> int:
        """The seed of the next fresh case for ``rule``."""
        served = sum(1 for attempt in self.attempts if attempt.rule == rule)
        return self.seed * 1000 + served

    def next_case(self) -> PracticeCase:
        """A fresh generated case for the rule most due."""
        rule = self.next_rule()
        return generate(rule, self.case_seed(rule))

    def record(
        self,
        rule: str,
        seed: int,
        *,
        answer: Mapping[str, Any],
        correct: bool,
        hints: int = 0,
        revealed: bool = False,
        rules_missed: Iterable[str] = (),
        when: str | None = None,
    ) -> MasteryAttempt:
        """Score one case of ``rule``; a reveal before a correct check scores as a miss."""
        if rule not in self.states:
            raise InvalidInputError(f"{rule!r} is not a rule of this drill", field="rule")
        when = when or _now()
        scored = bool(correct) and not revealed
        attempt = MasteryAttempt(rule, seed, dict(answer), scored, hints, revealed, when, tuple(rules_missed))
        self.states[rule] = self.states[rule].after(scored, self.step, when)
        self.attempts.append(attempt)
        return attempt

    @property
    def mastered(self) -> list[str]:
        """The rules mastered so far, in file order."""
        return [rule for rule in self.rules if self.states[rule].mastered]

    @property
    def complete(self) -> bool:
        """True when every rule is mastered."""
        return len(self.mastered) == len(self.rules)

    def completion(self) -> dict[str, Any] | None:
        """The completion summary once every rule is mastered: date, cases, hints, reveals."""
        if not self.complete:
            return None
        return {
            "completed_on": max(s.mastered_on or "" for s in self.states.values()),
            "cases_worked": self.step,
            "correct_first_tries": sum(a.correct for a in self.attempts),
            "hints_used": sum(a.hints for a in self.attempts),
            "reveals": sum(a.revealed for a in self.attempts),
        }

    def hardest(self, limit: int = 5) -> list[tuple[str, int]]:
        """The rules missed most often, with their miss counts (most first, then file order)."""
        misses = {rule: 0 for rule in self.rules}
        for attempt in self.attempts:
            if not attempt.correct:
                misses[attempt.rule] += 1
        ranked = sorted(self.rules, key=lambda r: (-misses[r], self.rules.index(r)))
        return [(rule, misses[rule]) for rule in ranked[:limit] if misses[rule]]
