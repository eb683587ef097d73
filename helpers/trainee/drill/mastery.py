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

The state is a pure function of the attempts (:meth:`Mastery.replay`), which is how a trainer
re-grades a progress file, and
:func:`replay_schedule` replays what the scheduler would have served. Nothing here draws or writes anything:
:class:`helpers.trainee.drill.engine.DrillSession` serves the cases. Taught in
``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from helpers.core.errors import InvalidInputError
from helpers.trainee.drill import sequential
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.model import (
    MASTERY_MODEL,
    MASTERY_STREAK,
    MISS_GAP,
    MODELS,
    OUTCOMES,
    REVIEW_GAP,
    SUCCESS_GAP,
    facet_streak,
)
from helpers.trainee.drill.schedule import LEAST_INTERVAL, SECOND, YEAR_ONE, Schedule, latest_review_time
from helpers.trainee.drill.state import FacetState, RuleState
from helpers.trainee.drill.times import parse_time

__all__ = [
    "Mastery",
    "drill_facets",
    "replay_schedule",
]


@functools.cache
def _makes(rule: str) -> tuple[str, ...]:
    """The look-alike kinds ``rule``'s case generator can make (none for a rule it does not know)."""
    from helpers.trainee.cases.generators import GENERATORS

    generator = GENERATORS.get(rule)
    return tuple(generator.facets) if generator is not None else ()


@functools.lru_cache(maxsize=64)
def _rule_order(rules: tuple[str, ...], seed: int) -> Mapping[str, int]:
    """:meth:`Mastery._order`, shuffled once per drill seed."""
    shuffled = list(rules)
    random.Random(f"order:{seed}").shuffle(shuffled)
    return MappingProxyType({rule: index for index, rule in enumerate(shuffled)})


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
        keep_steps: bool = False,
    ) -> Mastery:
        """The state these attempts lead to, from a fresh start: what a trainer trusts.

        With ``keep_steps``, the states each attempt left are kept, so a drill that records the
        same attempts from the same start takes them instead of working them out again
        (:meth:`follow`: the trainer's replay of the drill by its engine)."""
        mastery = cls.start(rules, seed=seed, facets=facets, model=model)
        if not keep_steps:
            for attempt in attempts:
                mastery.record(attempt)
            return mastery
        steps: list[tuple[MasteryAttempt, RuleState, tuple[FacetState, ...]]] = []
        states, kinds = mastery.states, mastery.facet_states
        for attempt in attempts:
            mastery.record(attempt)
            left = tuple(kinds[f] for f in attempt.facets if f in kinds) if attempt.facets else ()
            steps.append((attempt, states[attempt.rule], left))
        mastery.__dict__["_steps"] = steps
        return mastery

    def follow(self, other: Mastery) -> None:
        """Take ``other``'s states case by case while this drill, from the same fresh start, records
        the very attempts ``other`` was replayed from (:meth:`replay` with ``keep_steps``): they are
        the states :meth:`record` would work out. The first other attempt ends it."""
        steps = other.__dict__.get("_steps")
        same_start = (self.rules, self.seed, self.facets, self.model) == (
            other.rules,
            other.seed,
            other.facets,
            other.model,
        )
        if steps is not None and same_start and not self.attempts:
            self.__dict__["_following"] = steps  # each attempt as replayed, whatever is edited since

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

        A rule reviewed less than :data:`LEAST_INTERVAL` ago cannot be due, so its card is not
        worked out (FSRS with no learning steps never schedules a review sooner)."""
        reviewable = self._reviewable()
        if not reviewable:
            return []
        moment = parse_time(now)
        latest = (moment - YEAR_ONE) // SECOND - LEAST_INTERVAL
        if min(reviewable.values()) > latest:  # every one reviewed within the day: none is due
            return []
        due = []
        for rule, last_review in reviewable.items():
            if last_review > latest:
                continue
            card = self.states[rule].card
            if card.due <= moment:
                due.append((card.due, rule))
        return [rule for _when, rule in sorted(due)]

    def _reviewable(self) -> dict[str, int]:
        """The mastered rules with a review card, each with when it was last reviewed (seconds since
        year 1, :meth:`Schedule.last_review`): worked out once for these states, then kept up to date by
        :meth:`record`, so serving a case does not ask every rule again."""
        memo: tuple[dict[str, RuleState], dict[str, int]] | None = self.__dict__.get("_reviewable_memo")
        if memo is None or memo[0] is not self.states:  # (the states it follows, the rules)
            reviewable = {
                rule: state.schedule.last_review()
                for rule, state in self.states.items()
                if state.mastered_on is not None and state.schedule is not None
            }
            memo = (self.states, reviewable)
            self.__dict__["_reviewable_memo"] = memo
        return memo[1]

    def record(self, attempt: MasteryAttempt) -> MasteryAttempt:
        """Take one scored case into the state; ``attempt.number`` must be the next case number."""
        following = self.__dict__.get("_following")
        if following is not None:
            done = len(self.attempts)
            if done < len(following) and following[done][0] == attempt:  # the state it left, as it was
                _same, recorded, kinds = following[done]
                self.states[attempt.rule] = recorded
                self._keep_reviewable(attempt.rule, recorded)
                for kind in kinds:
                    self.facet_states[kind.facet] = kind
                self.attempts.append(attempt)
                return attempt
            del self.__dict__["_following"]
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
        if moment > latest_review_time():
            raise InvalidInputError(f"{when!r} is too late for a review to be scheduled", field="time")
        reviewed = state.reviewed + 1 if (state.mastered and unaided) else 0
        if mastered_on is not None:
            ready_at = attempt.number + REVIEW_GAP * 2 ** min(reviewed, 6)
        else:
            ready_at = attempt.number + 1 + (SUCCESS_GAP if unaided else MISS_GAP)
        self.states[attempt.rule] = recorded = RuleState(
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
            schedule=Schedule.after(state.schedule, self.rules.index(attempt.rule), unaided, moment),
        )
        self._keep_reviewable(attempt.rule, recorded)
        for facet in attempt.facets:
            if facet in self.facet_states:
                old = self.facet_states[facet]
                run = old.streak + 1 if unaided else 0
                missed = old.missed + int(not unaided)
                secured = run >= facet_streak(facet, missed, self.model)
                self.facet_states[facet] = FacetState(
                    facet, secured, old.seen + 1, attempt.number, run, missed
                )
        self.attempts.append(attempt)
        return attempt

    def _keep_reviewable(self, rule: str, recorded: RuleState) -> None:
        """What :meth:`due` looks at (:meth:`_reviewable`), kept up to date with ``rule``'s new state."""
        memo = self.__dict__.get("_reviewable_memo")
        if memo is not None and memo[0] is self.states:
            if recorded.mastered_on is not None and recorded.schedule is not None:
                memo[1][rule] = recorded.schedule.last_review()
            else:
                memo[1].pop(rule, None)

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
