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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from helpers.core.chardiff import visible_text
from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.practice_cases import PracticeCase, practice_cases
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.course import DEFAULT_DRILL_SEED, Attempt, Progress
from helpers.trainee.drill.mastery import Mastery, MasteryAttempt, drill_facets, now_text
from helpers.trainee.drill.record import DrillRecord
from helpers.trainee.drill.remade import RemadeCases
from helpers.trainee.grading import (
    Answer,
    Grade,
    answer_fields,
    candidate_ids,
    decisive_rules,
    grade,
    hints,
    outcome_of,
    reason_options,
)
from helpers.trainee.html import display_json

__all__ = [
    "CaseView",
    "CheckResult",
    "DrillSession",
    "CourseSession",
    "DEFAULT_DRILL_SEED",
    "SEED_KINDS",
    "HOLD_LABELS",
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


#: What the hold box means for each check (held for staff labels; refused by the check).
HOLD_LABELS = {
    "target-scope": "Hold: needs staff labels",
    "sentinels": "Refuse: the check cannot run on this input",
}


def _frozen(value: Any) -> Any:
    """A read-only deep copy of a JSON value, so a view can't be used to change the case."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        if all(type(item) is str for item in value):  # a list of IDs, as most are
            return tuple(value)
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict | Mapping):
        if all(type(item) is str for item in value.values()):  # an answer key, as most are
            return MappingProxyType(dict(value))
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    return value


@dataclass(frozen=True)
class CaseView:
    """What the trainee sees of one case, and nothing more.

    ``input`` is the check's input (``original``/``rewritten``/``unresolved`` or
    ``baseline``/``proposed``), plus any context the check does not read under
    other keys. ``fields`` are the output's two lists and its flag;
    ``reason_options`` are ``(text, rule_id)`` pairs in the order shown.
    """

    number: int
    label: str
    check: str
    input: Mapping[str, Any]
    fields: tuple[str, str, str]
    ids: tuple[str, ...]
    reason_options: tuple[tuple[str, str], ...]
    hold_label: str

    def __deepcopy__(self, memo: dict[int, Any]) -> CaseView:
        return self  # immutable all the way down

    def plain_input(self) -> dict[str, Any]:
        """:attr:`input` as plain, editable JSON values (dicts and lists): a copy."""
        plain: dict[str, Any] = _plain(self.input)
        return plain

    def text(self) -> str:
        """The case as plain text, look-alike characters shown as ``⟨U+XXXX⟩``."""
        return f"{self.label} ({self.check})\n{visible_text(display_json(self.plain_input()))}"


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


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


@dataclass
class _Open:
    """The case being worked: the private half that the view leaves out, and the view once drawn."""

    case: PracticeCase
    rule: str
    seed: int
    facet: str | None
    served: str
    number: int
    label: str
    options: tuple[Rule, ...]  # the reasons offered, in the order shown
    view: CaseView | None = None  # drawn when first asked for (the trainer's replay never asks)
    hints_used: int = 0
    revealed: bool = False
    scored: Any = None  # the scored attempt, once there is one


class _CaseEngine:
    """What every drill shares: one case open at a time, its hints, its one scored check, its reveal.

    A subclass serves the cases (:meth:`next_case`) and keeps the score (:meth:`_score`).
    """

    rules: list[Rule]
    _clock: Callable[[], _dt.datetime] | None
    _open: _Open | None

    # --- time -----------------------------------------------------------------------------

    def now(self) -> str:
        """The current time as progress files write it (as the clock's ``text`` when it keeps one)."""
        clock = self._clock
        if clock is None:
            return now_text()
        text = getattr(clock, "text", None)  # the trainer's replay: a recorded time, as the file wrote it
        return text if type(text) is str else now_text(clock())

    @property
    def current(self) -> CaseView | None:
        """The case being worked, if any."""
        current = self._open
        if current is None:
            return None
        if current.view is None:
            current.view = self._view(current.case, current.number, current.label, current.options)
        return current.view

    @property
    def current_check(self) -> str | None:
        """The check of the case being worked (``target-scope`` or ``sentinels``), if any."""
        return self._open.case.check if self._open is not None else None

    @property
    def current_scored(self) -> Any:
        """The current case's scored attempt, once it has one."""
        return self._open.scored if self._open is not None else None

    @property
    def scored_rule(self) -> str | None:
        """The rule the current case was about, once it is scored (never before: that would give it away)."""
        if self._open is None or self._open.scored is None:
            return None
        return self._open.rule

    @property
    def hints_used(self) -> int:
        """Hints shown on the current case."""
        return self._open.hints_used if self._open is not None else 0

    # --- working a case ---------------------------------------------------------------------

    def _need_open(self) -> _Open:
        if self._open is None:
            raise InvalidInputError("no case is open: call next_case() first", field="case")
        return self._open

    def hint(self) -> str:
        """The next rung of the hint ladder; a hinted answer no longer counts as unaided."""
        current = self._need_open()
        ladder = hints(current.case, rules=self.rules)
        if current.hints_used < len(ladder):
            current.hints_used += 1
        return ladder[current.hints_used - 1]

    def shown_hints(self) -> list[str]:
        """The rungs of the hint ladder shown so far on the current case."""
        if self._open is None:
            return []
        return hints(self._open.case, rules=self.rules)[: self._open.hints_used]

    @property
    def hints_left(self) -> int:
        """How many rungs of the ladder are still unseen on the current case."""
        if self._open is None:
            return 0
        return max(len(hints(self._open.case, rules=self.rules)) - self._open.hints_used, 0)

    def check(self, answer: Answer) -> CheckResult:
        """Grade ``answer``; the first check of a case is scored, later ones only give feedback."""
        current = self._need_open()
        result, scored, outcome = self._checked(current, answer)
        return CheckResult(
            correct=result.correct,
            text=self._feedback_text(result, outcome, scored),
            scored=scored,
            outcome=outcome,
            mistakes=tuple((m.field, m.message) for m in result.mistakes),
            rule=current.rule if current.scored is not None else None,
        )

    def score(self, answer: Answer) -> None:
        """:meth:`check`, scored the same, without the feedback a trainee reads: the trainer's
        replay (:mod:`helpers.trainee.drill.replay`) checks every recorded answer and reads none."""
        self._checked(self._need_open(), answer)

    def _checked(self, current: _Open, answer: Answer) -> tuple[Grade, bool, str | None]:
        """The verdict on ``answer``, whether this check was scored (the first is) and its outcome."""
        if answer.check != current.case.check:
            raise InvalidInputError(
                f"the answer is for {answer.check!r}, the case is {current.case.check!r}", field="check"
            )
        result = self._grade(current, answer)
        scored = current.scored is None
        outcome: str | None = None
        if scored:
            outcome = outcome_of(result.correct, hints=current.hints_used, revealed=current.revealed)
            self._score(outcome, answer, result)
        return result, scored, outcome

    def reveal(self) -> str:
        """The worked answer as text; before a check, the case is scored as revealed (a miss)."""
        current = self._need_open()
        current.revealed = True
        if current.scored is None:
            self._score(outcome_of(None, unanswered="revealed"), None, None)
        case = current.case
        return (
            f"Expected output: {visible_text(display_json(case.expected))}\n"
            f"Decision: {visible_text(case.decision)}.\nReason: {visible_text(case.reason)}\n"
            f"The rule: {self._statement(current.rule)}"
        )

    def worked_case(self) -> PracticeCase | None:
        """The current case with its expected output, once it has been scored (for showing the answer)."""
        if self._open is None or self._open.scored is None:
            return None
        return self._open.case

    # --- feedback ----------------------------------------------------------------------------

    def _known(self) -> dict[str, Rule]:
        """The rules by id, made once for this engine's list of rules."""
        made: tuple[list[Rule], dict[str, Rule]] | None = self.__dict__.get("_rules_by_id")
        if made is None or made[0] is not self.rules:
            made = (self.rules, {rule.id: rule for rule in self.rules})
            self.__dict__["_rules_by_id"] = made
        return made[1]

    def _statement(self, rule_id: str) -> str:
        known = self._known()
        return f"{rule_id}: {known[rule_id].statement}" if rule_id in known else rule_id

    def _grade(self, current: _Open, answer: Answer) -> Grade:
        """The verdict on ``answer`` to the open case, reason included."""
        return grade(current.case, answer, ask_reason=True, rules=self.rules)

    def _feedback_text(self, result: Grade, outcome: str | None, scored: bool) -> str:
        lines = ["Fully correct." if result.correct else "Not yet right:"]
        lines += [f"- {m.field}: {m.message}" for m in result.mistakes]
        current = self._open
        assert current is not None
        if scored:
            lines.append(_OUTCOME_TEXT[outcome or "missed"])
            lines.append(f"This case was about {self._statement(current.rule)}")
        else:
            lines.append("This case was already scored; checking again gives feedback only.")
        return "\n".join(lines)

    def _options(
        self, case: PracticeCase, salt: str, offered: Sequence[str] | None = None
    ) -> tuple[Rule, ...]:
        """The reasons offered for ``case`` at the place ``salt`` names, shuffled for it
        (:func:`reason_options`); ``offered`` names them when they were already worked out."""
        if offered is None:
            return tuple(reason_options(case, rules=self.rules, salt=salt))
        known = self._known()
        return tuple(known[rule_id] for rule_id in offered)

    def _view(self, case: PracticeCase, number: int, label: str, options: Sequence[Rule]) -> CaseView:
        """What the trainee sees of ``case``: the label, the input and context, IDs and the reasons offered."""
        first, second, flag = answer_fields(case.check)
        return CaseView(
            number=number,
            label=label,
            check=case.check,
            input=_frozen({**case.input, **getattr(case, "context", {})}),
            fields=(first, second, flag),
            ids=tuple(candidate_ids(case)),
            reason_options=tuple((r.label, r.id) for r in options),
            hold_label=HOLD_LABELS[case.check],
        )

    def next_case(self) -> CaseView | None:  # pragma: no cover - each drill serves its own
        raise NotImplementedError

    def _score(self, outcome: str, answer: Answer | None, result: Grade | None) -> Any:  # pragma: no cover
        raise NotImplementedError


class DrillSession(_CaseEngine):
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
        self._open: _Open | None = None

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
        self._open = _Open(case, rule, seed, facet, now, number, f"Drill case {number}", options)

    def _grade(self, current: _Open, answer: Answer) -> Grade:
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


class CourseSession(_CaseEngine):
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
        self._open = _Open(case, decisive_rules(case)[0], 0, None, self.now(), number, label, options)
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


_OUTCOME_TEXT = {
    "correct": "Scored: correct first try, unaided.",
    "helped": "Scored: right, but helped by a hint, so it does not count towards mastery.",
    "missed": "Scored: missed. This rule comes round again soon.",
    "revealed": "Scored: missed, because the worked answer was shown before a check.",
    "skipped": "Scored: missed, because the case was skipped.",
}
