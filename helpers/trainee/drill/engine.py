"""The drill engine: serve a case, take hints, check once, reveal, and keep the evidence.

:class:`DrillSession` is the one headless engine behind the mastery drill
(:class:`helpers.trainee.widgets.MasteryDrill` is a thin view over it). Scripts and
tests drive it directly::

    from helpers.trainee.drill.engine import DrillSession
    from helpers.trainee.grading import Answer
    s = DrillSession.start() # a fresh seed (secrets); DrillSession.start(seed=7) is fixed: demos, tests
    view = s.next_case()     # view.label, view.check, view.input, view.reason_options: [(text, rule_id), ...]
    s.hint()                 # -> str, the next rung
    r = s.check(Answer(...)) # r.correct: bool, r.text: str; only the first check of a case is scored
    s.reveal()               # -> str; the case then counts as missed
    s.mastered, s.complete   # rule ids mastered; whether every rule is

A :class:`CaseView` carries only what the trainee sees: a neutral label, the
supplied input (and any context the check does not read, under other keys),
the IDs to mark and the shuffled reasons. It never holds the expected output,
the keyed rule or the case's seed. ``copy.deepcopy(session)`` gives an
independent session; nothing is written until
:func:`helpers.trainee.progress.files.save_trainee_progress` is called. Taught in
``04_practice.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.case_engine import CaseEngine, OpenCase
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.drill.mastery import Mastery, drill_facets
from helpers.trainee.drill.record import DrillRecord
from helpers.trainee.grading import Answer, Grade, outcome_of

if TYPE_CHECKING:  # only the trainer's replay passes cases made again
    from helpers.trainee.drill.remade import RemadeCases

__all__ = [
    "DrillSession",
    "SEED_KINDS",
    "fresh_seed",
]


#: How a drill's seed was chosen: ``fresh`` (from ``secrets``), ``fixed`` (given: demos, tests), or
#: ``unrecorded`` (a file saved before seeds were recorded).
SEED_KINDS = ("fresh", "fixed", "unrecorded")


def fresh_seed() -> int:
    """A fresh random drill seed from ``secrets``, one of :attr:`Mastery.FRESH_SEEDS`."""
    seeds = Mastery.FRESH_SEEDS
    # Arithmetic, not len(): the range is longer than a C ssize_t holds in the browser edition (wasm32).
    return seeds.start + secrets.randbelow(seeds.stop - seeds.start)


class DrillSession(CaseEngine):
    """A trainee's mastery drill: fresh generated cases until every rule and facet is shown.

    ``clock`` returns the current UTC time (tests pass a fake one to move
    through days). ``seed_kind`` says how the seed was chosen (:data:`SEED_KINDS`).
    Taught in ``04_practice.ipynb``.
    """

    def __init__(
        self,
        mastery: Mastery,
        *,
        rules: Sequence[Rule] | None = None,
        trainee: str = "",
        started: str | None = None,
        check: str | None = None,
        clock: Callable[[], _dt.datetime] | None = None,
        seed_kind: str = "fixed",
        cases: RemadeCases | None = None,
    ) -> None:
        if seed_kind not in SEED_KINDS:
            raise InvalidInputError(
                f"seed_kind is {seed_kind!r}, expected one of {list(SEED_KINDS)}", field="seed_kind"
            )
        every = list(rules) if rules is not None else load_rules()
        known = {rule.id: rule for rule in every}
        missing = [rule for rule in mastery.rules if rule not in known]
        if missing:
            raise InvalidInputError(f"{missing[0]!r} is not a rule here", field="rules")
        self.rules = every
        self.mastery = mastery
        self.trainee = trainee
        self.check_name = check
        self.seed_kind = seed_kind
        #: The first case served by this mastery model (later than 1 for a drill begun before it).
        self.model_since = 1
        self._clock = clock
        #: Where the cases come from when they are made again (the trainer's replay); else generated.
        self._cases = cases
        self.started = started or self.now()
        self._open: OpenCase | None = None

    @classmethod
    def start(
        cls,
        *,
        seed: int | None = None,
        trainee: str = "",
        check: str | None = None,
        rules: Sequence[Rule] | None = None,
        clock: Callable[[], _dt.datetime] | None = None,
        cases: RemadeCases | None = None,
    ) -> DrillSession:
        """A fresh drill over every rule (or one check's rules), nothing shown yet.

        Without ``seed`` the drill starts from :func:`fresh_seed` and is marked ``fresh``; a given
        seed (demos, tests: :data:`DEFAULT_DRILL_SEED`) is marked ``fixed``. ``cases`` (the
        trainer's replay) serves each case, and the reasons offered for it, from cases already
        made again for the re-grade (:class:`helpers.trainee.drill.remade.RemadeCases`), the same ones
        the generators give.
        """
        every = list(rules) if rules is not None else load_rules()
        chosen = [rule.id for rule in every if check is None or rule.check == check]
        if not chosen:
            raise InvalidInputError(f"no rules for check {check!r}", field="check")
        kind = "fresh" if seed is None else "fixed"
        mastery = Mastery.start(
            chosen, seed=fresh_seed() if seed is None else seed, facets=drill_facets(chosen)
        )
        return cls(
            mastery, rules=every, trainee=trainee, check=check, clock=clock, seed_kind=kind, cases=cases
        )

    # --- what has been shown ----------------------------------------------------------------

    @property
    def mastered(self) -> list[str]:
        """The rules mastered now."""
        return self.mastery.mastered

    @property
    def complete(self) -> bool:
        """True while every rule is mastered and every look-alike kind secured."""
        return self.mastery.complete

    @property
    def attempts(self) -> list[MasteryAttempt]:
        """Every scored case, in order."""
        return list(self.mastery.attempts)

    def due(self) -> list[str]:
        """The mastered rules whose spaced review is due now."""
        return self.mastery.due(self.now())

    # --- the record a progress file keeps ---------------------------------------------------

    def record(self) -> DrillRecord:
        """This drill as plain data, to save; it shares the attempts, so take it when saving."""
        return DrillRecord(
            self.mastery,
            trainee=self.trainee,
            started=self.started,
            check=self.check_name,
            seed_kind=self.seed_kind,
            model_since=self.model_since,
        )

    @classmethod
    def resume(
        cls,
        record: DrillRecord,
        *,
        rules: Sequence[Rule] | None = None,
        clock: Callable[[], _dt.datetime] | None = None,
        cases: RemadeCases | None = None,
    ) -> DrillSession:
        """The drill a record holds, ready to serve its next case (or to be replayed, with ``cases``)."""
        session = cls(
            record.mastery,
            rules=rules,
            trainee=record.trainee,
            started=record.started,
            check=record.check,
            clock=clock,
            seed_kind=record.seed_kind,
            cases=cases,
        )
        session.model_since = record.model_since
        return session

    # --- working a case ---------------------------------------------------------------------

    def next_case(self) -> CaseView:
        """Serve the next case. Leaving the current one unchecked scores it as skipped."""
        self.serve()
        view = self.current
        assert view is not None
        return view

    def serve(self) -> None:
        """Serve the next case without drawing its view (:meth:`next_case` draws it): the trainer's
        replay works each case and never shows one. Leaving the current one unchecked scores it as skipped."""
        if self._open is not None and self._open.scored is None:
            self._score(outcome_of(None), None, None)
        now = self.now()
        rule = self.mastery.next_rule(now)
        facet = self.mastery.next_facet(rule, GENERATORS[rule].facets)
        seed = self.mastery.case_seed(rule)
        number = self.mastery.step + 1
        salt = f"{self.mastery.seed}:{number}"
        if self._cases is None:
            case, offered = generate(rule, seed, facet=facet), None
        else:
            case = self._cases.case(rule, seed, facet).case
            offered = self._cases.offered(rule, seed, facet, salt)
        options = self._options(case, salt, offered)
        self._open = OpenCase(case, rule, seed, facet, now, number, f"Drill case {number}", options)

    def _grade(self, current: OpenCase, answer: Answer) -> Grade:
        """The verdict on ``answer``; a case made again for the trainer's replay is graded once
        for the re-grade and the replay together (:meth:`RemadeCases.graded`)."""
        cases = self._cases
        if cases is None or tuple(self.rules) != cases.rules:
            return super()._grade(current, answer)
        return cases.graded(current.rule, current.seed, current.facet, answer)

    # --- scoring ----------------------------------------------------------------------------

    def _score(self, outcome: str, answer: Answer | None, result: Grade | None) -> MasteryAttempt:
        current = self._need_open()
        stored = answer.to_data() if answer is not None else None
        wrong = tuple(dict.fromkeys(m.field for m in result.mistakes)) if result is not None else ()
        missed = tuple(result.rules_missed) if result is not None else (current.rule,)
        attempt = MasteryAttempt(
            number=current.number,
            rule=current.rule,
            seed=current.seed,
            facet=current.facet,
            facets=tuple(getattr(current.case, "facets", ())),
            options=tuple(rule.id for rule in current.options),
            answer=stored,
            outcome=outcome,
            correct=bool(result and result.correct),
            hints=current.hints_used,
            revealed=current.revealed,
            served=current.served,
            answered=self.now() if answer is not None else None,
            fields_wrong=wrong,
            rules_missed=() if outcome == "correct" else missed,
        )
        current.scored = self.mastery.record(attempt)
        return attempt
