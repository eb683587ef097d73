"""The set course (:class:`CourseSession`): the fixed practice cases in a seeded order, each scored on its
first check. Taught in ``04_practice.ipynb`` ("The set course").
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence

from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.practice_cases import PracticeCase, practice_cases
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.case_engine import CaseEngine, OpenCase
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.drill.course import DEFAULT_DRILL_SEED, Attempt, Progress
from helpers.trainee.grading import Answer, Grade, decisive_rules, outcome_of

__all__ = ["CourseSession"]


class CourseSession(CaseEngine):
    """The set course: the fixed practice cases in a seeded order, each scored on its first check.

    The same engine as the mastery drill (one case open, hints, one scored check,
    reveal); only the source of cases and the score differ. An unaided right first
    check scores correct; a hinted one, a wrong one, a reveal before a check or a
    skipped case scores not correct. Taught in ``04_practice.ipynb`` ("The set course").
    """

    def __init__(
        self,
        progress: Progress,
        cases: Sequence[PracticeCase],
        *,
        rules: Sequence[Rule] | None = None,
        clock: Callable[[], _dt.datetime] | None = None,
    ) -> None:
        self.rules = list(rules) if rules is not None else load_rules()
        self.cases = list(cases)
        self._by_key = {case.key: case for case in self.cases}
        self.progress = progress
        self._clock = clock
        self._open = None

    @classmethod
    def start(
        cls,
        *,
        seed: int = DEFAULT_DRILL_SEED,
        check: str | None = None,
        size: int | None = None,
        cases: Sequence[PracticeCase] | None = None,
        rules: Sequence[Rule] | None = None,
        clock: Callable[[], _dt.datetime] | None = None,
    ) -> CourseSession:
        """A fresh course over the practice cases (or one check's), nothing checked yet."""
        pool = list(cases) if cases is not None else practice_cases()
        chosen = [case for case in pool if check is None or case.check == check]
        if not chosen:
            raise InvalidInputError("a drill needs at least one practice case", field="cases")
        return cls(Progress.start(chosen, seed, size=size), chosen, rules=rules, clock=clock)

    @property
    def current_case(self) -> PracticeCase | None:
        """The case on show, with its answer: for tests and for the summary, never for the screen."""
        return self._open.case if self._open is not None else None

    def next_case(self) -> CaseView | None:
        """Serve the next unchecked case (None once every case is checked); an unchecked one is skipped."""
        if self._open is not None and self._open.scored is None:
            self._score(outcome_of(None), None, None)
        key = self.progress.next_key()
        if key is None:
            self._open = None
            return None
        case = self._by_key[key]
        number = self.progress.order.index(key) + 1
        label, options = f"Case {number} of {self.progress.total}", self._options(case, "")
        self._open = OpenCase(case, decisive_rules(case)[0], 0, None, self.now(), number, label, options)
        return self.current

    def _score(self, outcome: str, answer: Answer | None, result: Grade | None) -> Attempt:
        current = self._need_open()
        missed = tuple(result.rules_missed) if result is not None and result.rules_missed else (current.rule,)
        current.scored = self.progress.record_outcome(
            current.case,
            outcome,
            () if outcome == "correct" else missed,
            hints=current.hints_used,
        )
        return current.scored
