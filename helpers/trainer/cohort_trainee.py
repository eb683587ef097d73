"""The cohort's trainees: each one's re-graded evidence, why they are not ready, and the cohort's rules.

A :class:`Trainee` holds what :func:`helpers.trainer.cohort.load_cohort` re-graded from one
progress file: its states are rebuilt from the re-graded attempts, never taken from the file.
A trainee is **ready** when both hold: a trainer-graded check-out passed for them, verified,
not a practice paper; and their practice evidence re-grades clean with every rule mastered.
:attr:`Trainee.not_ready` says why not, on every surface. Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from helpers.trainee.cases.rules import Rule
from helpers.trainee.drill.model import MASTERY_STREAK
from helpers.trainee.drill.state import RuleState
from helpers.trainer.item_analysis import FirstAttempt, ItemStats, item_analysis
from helpers.trainer.regrade import checkout_reasons

__all__ = ["Trainee", "Cohort"]


@dataclass(frozen=True)
class Trainee:
    """One trainee's evidence, read from one file and re-graded. Taught in ``06_trainer.ipynb``.

    ``states`` are rebuilt from the re-graded attempts, never taken from the file;
    ``problems`` lists everything that disagrees. ``name`` is self-reported.
    """

    name: str
    file: str
    version: int
    content_hash: str
    attempt_id: str
    rules: tuple[str, ...]
    states: dict[str, RuleState]
    step: int
    hints: int
    reveals: int
    course: tuple[int, int] | None = None
    first_attempts: tuple[FirstAttempt, ...] = ()
    problems: tuple[str, ...] = ()
    checkout: Mapping[str, Any] | None = None
    seed: int | None = None
    #: Only a proctored check-out counts (the default); False counts one sat on the trainee's machine too.
    require_proctored: bool = True
    #: Whether the drill is complete under its mastery model (look-alike kinds and the sequential
    #: test over every case too, not only every rule); ``None`` where the file cannot say (versions 1 and 2).
    complete: bool | None = None

    @property
    def mastered(self) -> list[str]:
        """The rules mastered on the re-graded evidence, in drill order."""
        return [rule for rule in self.rules if self.states[rule].mastered]

    @property
    def not_ready(self) -> tuple[str, ...]:
        """Every reason the trainee is not ready, in words (empty when ready).

        Ready needs both: a verified, passed check-out for this trainee that counts
        (:func:`checkout_reasons`), and practice evidence that re-grades clean with every
        rule of the drill mastered.
        """
        reasons = []
        if self.problems:
            count = len(self.problems)
            reasons.append(f"{count} problem{'s' if count != 1 else ''} in the practice evidence")
        if self.step == 0:
            reasons.append("no practice: the drill holds no cases")
        elif not self.rules or len(self.mastered) < len(self.rules):
            reasons.append(f"practice: {len(self.mastered)} of {len(self.rules)} rules mastered")
        elif self.complete is False:
            reasons.append(
                "practice: every rule mastered, but the drill is not complete (a look-alike kind not "
                "secured, or the whole record not yet past the bar that someone right 85% of the time or "
                "less reaches at most 5 times in 100)"
            )
        reasons += checkout_reasons(self.checkout, require_proctored=self.require_proctored)
        return tuple(reasons)

    def checkout_kind(self) -> str | None:
        """How the check-out was sat: ``proctored`` (the trainer's page, no kernel) or ``own machine``
        (on the trainee's honour); ``None`` without one."""
        if self.checkout is None:
            return None
        return "proctored" if self.checkout.get("proctored") is True else "own machine"

    def checkout_line(self) -> str:
        """The check-out in a few words: passed or not, and how it was sat (every view shows it)."""
        kind = self.checkout_kind()
        if kind is None:
            return "no graded check-out"
        verdict = (
            "passed" if self.checkout is not None and self.checkout.get("passed") is True else "not passed"
        )
        counted = "" if kind == "proctored" or not self.require_proctored else ", not counted"
        return f"{verdict}, {kind}{counted}"

    @property
    def ready(self) -> bool:
        """A counted, passed check-out, and practice evidence clean with every rule mastered."""
        return not self.not_ready

    def status(self, rule: str) -> str:
        """``mastered``, ``n/3`` for a streak under way, or ``not started``."""
        state = self.states.get(rule)
        if state is None or state.attempts == 0:
            return "not started"
        return "mastered" if state.mastered else f"{state.streak}/{MASTERY_STREAK}"

    def last_practised(self) -> str:
        """When the trainee last worked a case, or ``-``."""
        times = [s.last_practised for s in self.states.values() if s.last_practised]
        return max(times) if times else "-"

    def completion(self) -> str:
        """``complete on DATE``, or how many rules are mastered so far (on the re-graded evidence)."""
        if self.rules and len(self.mastered) == len(self.rules) and self.complete is False:
            return "every rule mastered; the drill is not yet complete"
        if self.rules and len(self.mastered) == len(self.rules):
            return f"complete on {max(self.states[r].mastered_on or '' for r in self.rules)[:10]}"
        if self.step == 0 and self.course is not None:
            return f"set course only: {self.course[0]} of {self.course[1]} correct"
        return f"{len(self.mastered)} of {len(self.rules)} rules mastered"


@dataclass(frozen=True)
class Cohort:
    """Trainees, the rules, and the files that could not be read. Taught in ``06_trainer.ipynb``."""

    trainees: tuple[Trainee, ...]
    rules: tuple[Rule, ...]
    unreadable: tuple[tuple[str, str], ...] = ()
    #: Lines about the verdict cache (an entry refused, a cache not written); never about a trainee.
    notes: tuple[str, ...] = ()

    def hardest(self, limit: int = 5) -> list[tuple[Rule, int, int, int]]:
        """The rules missed most, as ``(rule, misses, attempts, trainees not yet mastered)``."""
        rows = []
        for rule in self.rules:
            attempts = misses = not_mastered = 0
            for trainee in self.trainees:
                state = trainee.states.get(rule.id)
                if state is None:
                    continue
                attempts += state.attempts
                misses += state.attempts - state.correct
                not_mastered += not state.mastered
            rows.append((rule, misses, attempts, not_mastered))
        ranked = sorted(rows, key=lambda row: (-(row[1] / row[2]) if row[2] else 0.0, -row[1]))
        return [row for row in ranked if row[1]][:limit]

    def items(self) -> list[ItemStats]:
        """Item analysis over every trainee's first attempts, rules in file order."""
        return item_analysis(
            (a for t in self.trainees for a in t.first_attempts), rules=[r.id for r in self.rules]
        )
