"""Mastery: what a trainee has shown, rebuilt from their attempts alone.

* **Only an unaided first try counts.** A case scores once, at its first check.
  Its outcome is ``correct`` (right, no hint, no reveal), ``helped`` (right after
  a hint), ``missed`` (wrong), ``revealed`` (the worked answer shown before any
  check) or ``skipped`` (left for the next case without a check).
* A rule is **mastered** after :data:`MASTERY_STREAK` ``correct`` outcomes in a
  row. Any other outcome ends the streak, and on a mastered rule it **takes the
  mastery away** until a new streak is built.
* Every look-alike kind the notebooks teach (:data:`helpers.trainee.cases.deciding_rule.FACETS`)
  is a **facet**: it is *secured* by unaided right cases it decides, in a row (see
  below), and lost again by any other outcome on such a case. The drill is
  complete when every rule is mastered and every facet its rules can make is
  secured, so a trainee blind to one kind of look-alike never completes it.
* **Serving is interleaved**: never the same rule twice running when another is
  open, new rules in a seeded order across both checks, a missed rule back after
  :data:`MISS_GAP` other cases, a right one after :data:`SUCCESS_GAP`, and a
  mastered one checked again after :data:`REVIEW_GAP` cases (then twice as long
  after each unaided review), so mastery reached by luck is soon lost.
* **Review is spaced in days** with FSRS-6 (the ``fsrs`` package, pure Python, so
  it also runs in the browser edition): every scored case is a review of its
  rule's card (``correct`` is *Good*, anything else *Again*), and a mastered
  rule whose card is due is served before anything else when the drill is
  reopened on a later day.

* **Complete** only while, besides, every scored case so far, taken together, clears a
  sequential test (Wald's, :mod:`.sequential`) that a trainee right 85% of the time or less
  ever clears with probability at most 5%, however often it is looked at: three in a row bounds
  one rule's accuracy at only 0.37, so the evidence that tells 0.85 from 0.95 is pooled over
  interleaved cases. A look-alike kind is secured by :func:`facet_streak` unaided cases of it
  in a row (one, and three for the many letters of ``homoglyph``), one more per miss on it.
  This is :data:`MASTERY_MODEL` 3; ``docs/practice.md`` gives the measured table.

The state is a pure function of the attempts (:meth:`Mastery.replay`, also named
:meth:`Mastery.from_attempts`), which is how a trainer re-grades a progress file, and
:func:`replay_schedule` replays what the scheduler would have served. Nothing here draws or writes anything:
:class:`helpers.trainee.drill.engine.DrillSession` serves the cases. Taught in
``04_practice.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import functools
import random
import re
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from helpers.core.errors import InvalidInputError
from helpers.trainee.drill import sequential

__all__ = [
    "MASTERY_MODEL",
    "MASTERY_STREAK",
    "MISS_GAP",
    "SUCCESS_GAP",
    "REVIEW_GAP",
    "FACET_STREAK",
    "FACET_STREAK_MAX",
    "FACET_STREAKS",
    "OUTCOMES",
    "facet_streak",
    "RuleState",
    "FacetState",
    "MasteryAttempt",
    "Mastery",
    "now_text",
    "drill_facets",
    "replay_schedule",
    "parse_time",
]

#: The mastery model a progress file's claimed states follow (``"model"`` in its mastery block).
#: Model 1 (files without the field): a rule by 3 in a row, a look-alike kind by one right case.
#: Model 2: as 1 for rules; kinds by 3 in a row, more after misses; and the last 60 cases at 85% with
#: 95% confidence, re-checked after every case (which let a trainee right 85% of the time through).
#: Model 3: kinds by :func:`facet_streak` in a row, more after misses; and every case so far clearing
#: the sequential test of :mod:`.sequential`. Either way a file's states are rebuilt from its attempts by
#: this model.
MASTERY_MODEL = 3
#: The models :meth:`Mastery.start` can replay (what an older drill served and claimed).
MODELS = (1, 2, 3)
#: Unaided correct first tries in a row that master a rule.
MASTERY_STREAK = 3
#: A missed rule comes round again after this many other cases.
MISS_GAP = 2
#: A rule answered right comes round again after this many other cases (while not mastered).
SUCCESS_GAP = 5
#: A mastered rule is checked again in the same sitting after this many cases, then after twice as
#: many after each unaided review, so mastery reached by luck does not last.
REVIEW_GAP = 20
#: Unaided correct cases in a row, among the cases a look-alike kind decides, that secure the kind ...
FACET_STREAK = 1
#: ... except a kind made of many forms, where one right case shows little: a trainee blind to the
#: common Cyrillic letters still gets the rarer ones right (the letters are weighted as real data has them) ...
FACET_STREAKS: Mapping[str, int] = MappingProxyType({"homoglyph": 3})
#: ... plus one for each such case missed so far, up to this many in a row.
FACET_STREAK_MAX = 6
#: Model 2's run for every kind (kept to replay what a drill of that model served).
_MODEL2_FACET_STREAK = 3
#: Every outcome a served case can have; only ``correct`` is an unaided first try.
OUTCOMES = ("correct", "helped", "missed", "revealed", "skipped")


def now_text(moment: _dt.datetime | None = None) -> str:
    """A UTC time as progress files write it: ``2026-12-01T09:30:00Z``."""
    moment = moment or _dt.datetime.now(_dt.UTC)
    return moment.astimezone(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


_TIME_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", re.ASCII)


def parse_time(text: str) -> _dt.datetime:
    """The inverse of :func:`now_text`; raises :class:`InvalidInputError` for anything else."""
    if isinstance(text, str):
        return _parse_time_text(text)
    raise InvalidInputError(f"{text!r} is not a time like 2026-12-01T09:30:00Z", field="time")


@functools.lru_cache(maxsize=4096)  # a drill's times are read by the load, the time checks and the replay
def _parse_time_text(text: str) -> _dt.datetime:
    try:
        if _TIME_TEXT.fullmatch(text):  # the form now_text writes: ISO 8601 in UTC, read directly
            return _dt.datetime.fromisoformat(text)
        moment = _dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError):
        raise InvalidInputError(f"{text!r} is not a time like 2026-12-01T09:30:00Z", field="time") from None
    return moment.replace(tzinfo=_dt.UTC)


@functools.cache
def _makes(rule: str) -> tuple[str, ...]:
    """The look-alike kinds ``rule``'s case generator can make (none for a rule it does not know)."""
    from helpers.trainee.cases.generators import GENERATORS

    generator = GENERATORS.get(rule)
    return tuple(generator.facets) if generator is not None else ()


def facet_streak(facet: str, missed: int, model: int = MASTERY_MODEL) -> int:
    """Unaided cases of look-alike kind ``facet`` in a row that secure it after ``missed`` misses on it:
    :data:`FACET_STREAK` (:data:`FACET_STREAKS` for a kind of many forms), one more per miss, at most
    :data:`FACET_STREAK_MAX` (model 2: three, one more per miss; model 1: one)."""
    if model == 1:
        return 1
    base = _MODEL2_FACET_STREAK if model == 2 else FACET_STREAKS.get(facet, FACET_STREAK)
    return min(base + missed, FACET_STREAK_MAX)


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
    schedule: _Schedule | None = field(default=None, repr=False)

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


@functools.cache
def _scheduler() -> Any:
    """FSRS-6 with default parameters, whole days and no fuzz, so a replay is exact."""
    from fsrs import Scheduler

    return Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


@functools.cache
def _latest() -> _dt.datetime:
    """The latest time a scored case may have: its review, at most the scheduler's longest interval on,
    must still be a date."""
    return _dt.datetime.max.replace(tzinfo=_dt.UTC) - _dt.timedelta(days=_scheduler().maximum_interval + 1)


def _review(card: Any, index: int, unaided: bool, moment: _dt.datetime) -> Any:
    """The rule's FSRS card after one scored case (*Good* when unaided and right, else *Again*)."""
    from fsrs import Card, Rating

    current = card if card is not None else Card(card_id=index + 1, due=moment)
    reviewed, _log = _scheduler().review_card(
        current, Rating.Good if unaided else Rating.Again, review_datetime=moment
    )
    return reviewed


#: Review times are kept as whole seconds since this moment.
_YEAR_ONE = _dt.datetime(1, 1, 1, tzinfo=_dt.UTC)
_SECOND = _dt.timedelta(seconds=1)
#: The shortest interval, in seconds, FSRS schedules with no learning or relearning steps: a whole day
#: (``Scheduler._next_interval`` is at least 1 day; ``tests/trainee/drill/test_mastery.py`` holds it).
_LEAST_INTERVAL = 86_400


@functools.lru_cache(maxsize=64)
def _rule_order(rules: tuple[str, ...], seed: int) -> Mapping[str, int]:
    """:meth:`Mastery._order`, shuffled once per drill seed."""
    shuffled = list(rules)
    random.Random(f"order:{seed}").shuffle(shuffled)
    return MappingProxyType({rule: index for index, rule in enumerate(shuffled)})


class _ReviewLog:
    """One rule's scored cases in a drill, as numbers: seconds since year 1, and whether each was *Good*.

    Shared by the rule's successive states (each reads its first ``count`` entries), with the
    cards made so far by how many cases they follow.
    """

    __slots__ = ("cards", "good", "index", "seconds")

    def __init__(self, index: int, seconds: array[int] | None = None, good: bytearray | None = None) -> None:
        self.index = index
        self.seconds = array("q") if seconds is None else seconds
        self.good = bytearray() if good is None else good
        self.cards: dict[int, Any] = {}


class _Schedule:
    """A rule's FSRS card as the scored cases that make it, reviewed only when the card is asked for.

    A trainer re-grading a cohort never asks, so no card is made there; a drill asks for the due
    ones. Cards are kept once made. Equal when the cards are equal.
    """

    __slots__ = ("_count", "_log")

    def __init__(self, log: _ReviewLog, count: int) -> None:
        self._log, self._count = log, count

    @classmethod
    def after(cls, before: _Schedule | None, index: int, unaided: bool, moment: _dt.datetime) -> _Schedule:
        """The schedule after one more scored case."""
        if before is None:
            log = _ReviewLog(index)
        elif len(before._log.good) == before._count:
            log = before._log
        else:  # another drill went on from the same state (a copy): this one branches off
            old = before._log
            log = _ReviewLog(index, old.seconds[: before._count], old.good[: before._count])
            log.cards = {n: card for n, card in old.cards.items() if n <= before._count}
        log.seconds.append((moment - _YEAR_ONE) // _SECOND)
        log.good.append(unaided)
        return cls(log, len(log.good))

    def last_review(self) -> int:
        """When the last scored case was reviewed, in whole seconds since year 1."""
        return self._log.seconds[self._count - 1]

    def card(self) -> Any:
        """The ``fsrs.Card`` after this rule's scored cases so far."""
        log, count = self._log, self._count
        card = log.cards.get(count)
        if card is None:
            done = max((n for n in log.cards if n < count), default=0)
            card = log.cards.get(done)
            for n in range(done, count):
                moment = _YEAR_ONE + _dt.timedelta(seconds=log.seconds[n])
                card = _review(card, log.index, bool(log.good[n]), moment)
            log.cards[count] = card
        return card

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Schedule):
            return NotImplemented
        return bool(self.card() == other.card())

    __hash__ = None  # type: ignore[assignment]


@dataclass
class Mastery:
    """A trainee's mastery of every rule and facet, and what to serve next.

    ``seed`` fixes the order new rules are met and each rule's case seeds: the
    n-th case of a rule (from 0) has seed ``seed * 10_000 + n``, so cases never
    repeat within a drill. Taught in ``04_practice.ipynb``.
    """

    rules: tuple[str, ...]
    seed: int
    facets: tuple[str, ...] = ()
    states: dict[str, RuleState] = field(default_factory=dict)
    facet_states: dict[str, FacetState] = field(default_factory=dict)
    attempts: list[MasteryAttempt] = field(default_factory=list)
    model: int = MASTERY_MODEL

    #: The largest seed a drill may have: its case seeds (``seed * 10_000 + n``) stay below 2**53,
    #: so every program that reads a progress file, a browser's JavaScript too, reads them exactly.
    MAX_SEED = 899_999_999_999
    #: Drill seeds whose case seeds would be the check-out's (``[10**9, 2 * 10**9)``): refused.
    RESERVED_SEEDS = range(100_000, 200_000)
    #: Where fresh seeds come from: past every fixed seed a demo or test gives (below 100,000), and
    #: wide enough that two trainees' fresh drills share a seed about once in 10**12 / 2 pairs, so a
    #: shared seed is a copied file, not chance (1,000 trainees: one chance in about 1.8 million).
    FRESH_SEEDS = range(200_000, MAX_SEED + 1)

    @classmethod
    def seed_problem(cls, seed: Any) -> str | None:
        """Why ``seed`` cannot be a drill's seed, or ``None``."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= cls.MAX_SEED:
            return f"seed is {seed!r}, expected a whole number from 0 to {cls.MAX_SEED}"
        if seed in cls.RESERVED_SEEDS:
            return (
                f"seed is {seed!r}: seeds from {cls.RESERVED_SEEDS.start} to {cls.RESERVED_SEEDS.stop - 1} "
                "would make the check-out's cases, so no drill has one"
            )
        return None

    @classmethod
    def start(
        cls, rules: Sequence[str], *, seed: int, facets: Sequence[str] = (), model: int = MASTERY_MODEL
    ) -> Mastery:
        """A fresh start: nothing shown yet, every rule open. ``model`` 1 is the model before
        :data:`MASTERY_MODEL` (for replaying what an older drill served and claimed)."""
        if isinstance(model, bool) or model not in MODELS:
            raise InvalidInputError(f"model is {model!r}, expected one of {list(MODELS)}", field="model")
        problem = cls.seed_problem(seed)
        if problem is not None:
            raise InvalidInputError(problem, field="seed")
        ids = tuple(rules)
        if not ids or len(set(ids)) != len(ids):
            raise InvalidInputError("mastery needs a list of distinct rules", field="rules")
        return cls(
            ids,
            seed,
            tuple(facets),
            {rule: RuleState(rule) for rule in ids},
            {facet: FacetState(facet) for facet in facets},
            model=model,
        )

    @classmethod
    def replay(
        cls,
        rules: Sequence[str],
        *,
        seed: int,
        facets: Sequence[str],
        attempts: Iterable[MasteryAttempt],
        model: int = MASTERY_MODEL,
    ) -> Mastery:
        """The state these attempts lead to, from a fresh start: what a trainer trusts."""
        mastery = cls.start(rules, seed=seed, facets=facets, model=model)
        for attempt in attempts:
            mastery.record(attempt)
        return mastery

    @classmethod
    def from_attempts(
        cls,
        rules: Sequence[str],
        *,
        seed: int,
        facets: Sequence[str],
        attempts: Iterable[MasteryAttempt],
        model: int = MASTERY_MODEL,
    ) -> Mastery:
        """Another name for :meth:`replay`: the mastery model applied to raw attempts, as a re-grade needs.

        ``model=1`` or ``2`` rebuilds the states an older file claims (the earlier models)."""
        return cls.replay(rules, seed=seed, facets=facets, attempts=attempts, model=model)

    # --- what has been shown -----------------------------------------------------------

    @property
    def step(self) -> int:
        """How many cases have been served and scored."""
        return len(self.attempts)

    @property
    def mastered(self) -> list[str]:
        """The rules mastered now, in rule order."""
        return [rule for rule in self.rules if self.states[rule].mastered]

    @property
    def secured(self) -> list[str]:
        """The facets secured now, in facet order."""
        return [facet for facet in self.facets if self.facet_states[facet].secured]

    def record_so_far(self) -> tuple[int, int]:
        """Unaided right first tries among every scored case so far, and every other outcome."""
        right = sum(a.unaided for a in self.attempts)
        return right, len(self.attempts) - right

    @property
    def overall_met(self) -> bool:
        """True while every scored case so far clears the sequential test (:func:`.sequential.overall_met`)."""
        return sequential.overall_met(*self.record_so_far())

    @property
    def complete(self) -> bool:
        """The drill's one decision (the widgets, the re-grade and the cohort all ask it): True while
        every rule is mastered, every facet secured and every case so far clears the sequential test.
        A model 2 drill (replayed for what it served) is judged by model 3's test too."""
        return (
            len(self.mastered) == len(self.rules)
            and len(self.secured) == len(self.facets)
            and (self.model == 1 or self.overall_met)
        )

    def fewest_cases_left(self) -> int:
        """The fewest cases that could still complete the drill: each answered right, unaided, and
        served as the scheduler serves them (a lower bound: 0 when complete). The widgets' estimate
        of cases to go starts from it."""
        if self.complete:
            return 0
        rules = sum(
            MASTERY_STREAK - min(s.streak, MASTERY_STREAK) for s in self.states.values() if not s.mastered
        )
        kinds = sum(
            max(1, facet_streak(f.facet, f.missed, self.model) - f.streak)
            for f in self.facet_states.values()
            if not f.secured
        )
        overall = sequential.right_answers_needed(*self.record_so_far()) if self.model > 1 else 0
        return max(rules, kinds, overall, 1)

    def expected_cases_left(self, accuracy: float) -> float | None:
        """About how many cases a trainee right ``accuracy`` of the time still needs: the larger of
        :meth:`fewest_cases_left` and Wald's estimate for the record (``None`` when such a trainee is not
        expected to clear the record's bar at all, below about 0.91)."""
        wald = sequential.expected_cases_needed(*self.record_so_far(), accuracy)
        return None if wald is None else max(float(self.fewest_cases_left()), wald)

    def due(self, now: str) -> list[str]:
        """The mastered rules whose spaced review is due at ``now``, earliest first.

        A rule reviewed less than :data:`_LEAST_INTERVAL` ago cannot be due, so its card is not
        worked out (FSRS with no learning steps never schedules a review sooner)."""
        moment = parse_time(now)
        latest = (moment - _YEAR_ONE) // _SECOND - _LEAST_INTERVAL
        due = []
        for rule, state in self.states.items():
            schedule = state.schedule
            if state.mastered_on is None or schedule is None or schedule.last_review() > latest:
                continue
            card = schedule.card()
            if card.due <= moment:
                due.append((card.due, rule))
        return [rule for _when, rule in sorted(due)]

    def record(self, attempt: MasteryAttempt) -> MasteryAttempt:
        """Take one scored case into the state; ``attempt.number`` must be the next case number."""
        if attempt.rule not in self.states:
            raise InvalidInputError(f"{attempt.rule!r} is not a rule of this drill", field="rule")
        if attempt.outcome not in OUTCOMES:
            raise InvalidInputError(f"{attempt.outcome!r} is not an outcome", field="outcome")
        if attempt.number != self.step + 1:
            raise InvalidInputError(
                f"case number {attempt.number} follows case {self.step}; expected {self.step + 1}",
                field="number",
            )
        state = self.states[attempt.rule]
        unaided = attempt.unaided
        streak = state.streak + 1 if unaided else 0
        mastered_on, times_mastered, times_lost = state.mastered_on, state.times_mastered, state.times_lost
        if mastered_on is None and streak >= MASTERY_STREAK:
            mastered_on, times_mastered = attempt.answered or attempt.served, times_mastered + 1
        elif mastered_on is not None and not unaided:
            mastered_on, times_lost = None, times_lost + 1
        when = attempt.answered or attempt.served
        moment = parse_time(when)
        if moment > _latest():
            raise InvalidInputError(f"{when!r} is too late for a review to be scheduled", field="time")
        reviewed = state.reviewed + 1 if (state.mastered and unaided) else 0
        if mastered_on is not None:
            ready_at = attempt.number + REVIEW_GAP * 2 ** min(reviewed, 6)
        else:
            ready_at = attempt.number + 1 + (SUCCESS_GAP if unaided else MISS_GAP)
        self.states[attempt.rule] = RuleState(
            attempt.rule,
            streak=streak,
            mastered_on=mastered_on,
            times_mastered=times_mastered,
            times_lost=times_lost,
            attempts=state.attempts + 1,
            unaided=state.unaided + int(unaided),
            last_case=attempt.number,
            ready_at=ready_at,
            reviewed=reviewed,
            last_practised=when,
            schedule=_Schedule.after(state.schedule, self.rules.index(attempt.rule), unaided, moment),
        )
        for facet in attempt.facets:
            if facet in self.facet_states:
                old = self.facet_states[facet]
                run = old.streak + 1 if unaided else 0
                new = FacetState(
                    facet, False, old.seen + 1, attempt.number, run, old.missed + int(not unaided)
                )
                needed = facet_streak(facet, new.missed, self.model)
                self.facet_states[facet] = FacetState(
                    facet, run >= needed, new.seen, new.last_case, run, new.missed
                )
        self.attempts.append(attempt)
        return attempt

    # --- what to serve next ---------------------------------------------------------------

    def _order(self) -> Mapping[str, int]:
        """A seeded order of the rules, so new rules arrive interleaved across both checks."""
        return _rule_order(tuple(self.rules), self.seed)

    def next_rule(self, now: str) -> str:
        """The rule to serve next: a due review first, then the open rule most ready, else extra practice.

        The rule just served is never served again at once while another rule
        is a candidate.
        """
        last = self.attempts[-1].rule if self.attempts else None
        due = [rule for rule in self.due(now) if rule != last]
        if due:
            return due[0]
        order = self._order()
        number = self.step + 1
        states = self.states
        review: list[str] = []  # mastered rules due for their check in this sitting
        open_rules: list[str] = []  # rules not mastered, and mastered ones due for their check
        for rule in self.rules:
            state = states[rule]
            if state.mastered_on is None:
                open_rules.append(rule)
            elif state.ready_at <= number:
                open_rules.append(rule)
                if rule != last:
                    review.append(rule)
        wanted = {f for f in self.facets if not self.facet_states[f].secured}
        if wanted and self.model > 1 and all(states[r].mastered_on is not None for r in self.rules):
            # only a look-alike kind is left to show
            makers = [rule for rule in self.rules if wanted & set(_makes(rule)) and rule != last]
            if makers:
                return min(makers, key=lambda r: (states[r].last_case, order[r]))
        if review:  # a mastered rule due for its check in this sitting comes first
            return min(review, key=lambda r: (states[r].ready_at, order[r]))
        if not open_rules and wanted:
            open_rules = list(self.rules)
        candidates = [rule for rule in open_rules if rule != last] or open_rules
        if candidates:
            return min(
                candidates,
                key=lambda r: (
                    max(states[r].ready_at - number, 0),
                    0 if states[r].attempts and not states[r].streak else 1,
                    states[r].last_case,
                    order[r],
                ),
            )
        # Everything is mastered and nothing is due: extra practice on the rule reviewed longest ago.
        rest = [rule for rule in self.rules if rule != last] or list(self.rules)
        return min(rest, key=lambda r: (states[r].last_case, order[r]))

    def next_facet(self, rule: str, makes: Sequence[str]) -> str | None:
        """The facet to ask ``rule``'s generator for: the first not secured, else the one seen longest ago."""
        kinds = [facet for facet in self.facets if facet in makes]
        if not kinds:
            return None
        open_kinds = [facet for facet in kinds if not self.facet_states[facet].secured]
        if open_kinds:
            return min(open_kinds, key=lambda f: (self.facet_states[f].last_case, kinds.index(f)))
        return min(kinds, key=lambda f: (self.facet_states[f].last_case, kinds.index(f)))

    def case_seed(self, rule: str) -> int:
        """The seed of the next fresh case for ``rule``."""
        attempts = self.attempts
        memo: tuple[list[MasteryAttempt], int, dict[str, int]] | None = self.__dict__.get("_served")
        if (
            memo is None or memo[0] is not attempts or memo[1] > len(attempts)
        ):  # (list counted, how far, counts)
            memo = (attempts, 0, {})
        counts = memo[2]
        for attempt in attempts[memo[1] :]:  # only the cases recorded since the last call
            counts[attempt.rule] = counts.get(attempt.rule, 0) + 1
        self.__dict__["_served"] = (attempts, len(attempts), counts)
        return self.seed * 10_000 + counts.get(rule, 0)

    # --- summaries --------------------------------------------------------------------------

    def completion(self) -> dict[str, Any] | None:
        """The summary while the drill is complete: when, cases, unaided first tries, hints, reveals."""
        if not self.complete:
            return None
        return {
            "completed_on": max(self.states[r].mastered_on or "" for r in self.rules),
            "cases_worked": self.step,
            "correct_first_tries": sum(a.unaided for a in self.attempts),
            "hints_used": sum(a.hints for a in self.attempts),
            "reveals": sum(a.revealed for a in self.attempts),
        }

    def hardest(self, limit: int = 5) -> list[tuple[str, int]]:
        """The rules with most cases not answered unaided, with their counts (most first, then rule order)."""
        misses = {rule: 0 for rule in self.rules}
        for attempt in self.attempts:
            if not attempt.unaided:
                misses[attempt.rule] += 1
        ranked = sorted(self.rules, key=lambda r: (-misses[r], self.rules.index(r)))
        return [(rule, misses[rule]) for rule in ranked[:limit] if misses[rule]]


def drill_facets(rules: Sequence[str]) -> list[str]:
    """The look-alike kinds a drill over ``rules`` must show: those their generators can make, in
    :data:`helpers.trainee.cases.deciding_rule.FACETS` order (what :meth:`DrillSession.start` uses)."""
    from helpers.trainee.cases.deciding_rule import FACETS

    makes = {facet for rule in rules for facet in _makes(rule)}
    return [facet for facet in FACETS if facet in makes]


def replay_schedule(
    seed: int,
    attempts: Sequence[MasteryAttempt],
    rules: Sequence[str],
    *,
    facets: Sequence[str] | None = None,
    model_since: int = 1,
    earlier_model: int = 1,
) -> list[str]:
    """Replay the drill's scheduler over recorded attempts; one line per case it would not have served.

    For each attempt, the engine is asked what it would serve after the attempts before it, at the
    time the case was served (``attempt.served``, which decides the reviews due in days): the rule
    (:meth:`Mastery.next_rule`), the look-alike kind (:meth:`Mastery.next_facet`) and the case seed
    (:meth:`Mastery.case_seed`). A difference is a problem, such as ``"case 7: the drill serves
    ts-order (seed 50002, no look-alike kind) here, the file has sk-missing (seed 50001)"``. Re-ordered
    attempts, misses edited into right answers and erased hints each change what comes next, so
    each shows here. The replay goes on from the attempts as recorded, so every case is judged
    by what came before it. ``rules`` are in the drill's own order (a file's ``mastery.rules``), since
    the order new rules are met is a shuffle of it. ``facets`` defaults to :func:`drill_facets` of ``rules``. Cases numbered
    before ``model_since`` were served by an earlier model (a file saved before
    :data:`MASTERY_MODEL`, then carried on): they are replayed by ``earlier_model``'s scheduler
    (1, or 2 for a file saved by model 2).

    Raises :class:`InvalidInputError` for a seed out of range, an unknown rule or a case number out
    of sequence (as :meth:`Mastery.record` does). Used by ``helpers.trainer.cohort`` and taught in
    ``06_trainer.ipynb``.
    """
    kinds = drill_facets(rules) if facets is None else facets
    mastery = Mastery.start(rules, seed=seed, facets=kinds)
    earlier = Mastery.start(rules, seed=seed, facets=kinds, model=earlier_model) if model_since > 1 else None
    problems: list[str] = []
    for attempt in attempts:
        engine = earlier if earlier is not None and attempt.number < model_since else mastery
        rule = engine.next_rule(attempt.served)
        facet = engine.next_facet(rule, _makes(rule))
        case_seed = engine.case_seed(rule)
        if (rule, facet, case_seed) != (attempt.rule, attempt.facet, attempt.seed):
            problems.append(
                f"case {attempt.number}: the drill serves {_served(rule, facet, case_seed)} here, "
                f"the file has {_served(attempt.rule, attempt.facet, attempt.seed)}"
            )
        mastery.record(attempt)
        if earlier is not None:
            earlier.record(attempt)
    return problems


def _served(rule: str, facet: str | None, seed: int) -> str:
    kind = f"look-alike kind {facet}" if facet else "no look-alike kind"
    return f"{rule} (seed {seed}, {kind})"
