"""The re-grade: one trainee's progress worked again from its raw attempts, and every claim that disagrees.

Every stored attempt is re-made from its (rule, case seed, look-alike kind)
and graded again, every rule's state is rebuilt from the re-graded attempts
by the drill's own engine (:mod:`helpers.trainee.drill.replay`), and a claimed
verdict, state, count or date that disagrees is a problem: "does not match
its attempts". A graded check-out counts only when it is verified.

Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from helpers.core.errors import CheckInputError, describe_value
from helpers.trainee.cases.generators import load_vocabulary
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.remade import remade_cases
from helpers.trainee.drill.replay import replay_drill
from helpers.trainee.drill.state import RuleState
from helpers.trainee.grading import Answer, outcome_of
from helpers.trainee.progress.files import TraineeProgress
from helpers.trainee.progress.timing import time_problems
from helpers.trainer.item_analysis import FirstAttempt

if TYPE_CHECKING:
    pass


__all__ = [
    "Regrader",
    "REGRADERS",
    "Replay",
    "regrade_v3",
    "replay_v3",
    "evidence_problems",
    "checkout_reasons",
]

#: A re-grader: the problems it finds in one trainee's progress ("does not match its attempts", …).
Regrader = Callable[[Any], list[str]]


@dataclass(frozen=True)
class Replay:
    """One drill re-graded: every rule's rebuilt state, first attempts, problems, and the rebuilt drill."""

    states: dict[str, RuleState]
    first_attempts: tuple[FirstAttempt, ...]
    problems: tuple[str, ...]
    mastery: Mastery | None = None


def _where(attempt: MasteryAttempt) -> str:
    return f"case {attempt.number} ({attempt.rule})"


def _as_json(value: object) -> str:
    """A state's field as the progress file writes it (``null``, ``true``, ``"2026-11-30"``), never a repr."""
    return json.dumps(value, ensure_ascii=False, default=str)


#: The fields of a claimed state compared with the rebuilt one.
_COMPARED = ("attempts", "unaided", "streak", "mastered_on", "times_lost", "last_practised")


def replay_v3(
    progress: TraineeProgress, data: Mapping[str, Any] | None = None, *, rules: Sequence[Rule] | None = None
) -> Replay:
    """Re-grade every attempt of a version 3 drill and rebuild its states; list what disagrees.

    Each attempt's case is made again with ``generate(rule, seed, facet=facet)``
    and its stored answer graded with :func:`helpers.trainee.grading.grade`,
    reason included; the outcome follows from that verdict, the hints and the
    reveal, exactly as the drill scores it. The n-th case of a rule must have the
    seed ``drill seed × 10,000 + n``, so a case claimed twice or picked by hand
    shows; the reasons offered must be the drill's own. The states and facets the
    file claims (``data``) are compared with the ones the re-graded attempts give.
    Taught in ``06_trainer.ipynb``.
    """
    rules = list(rules) if rules is not None else load_rules()
    every = [r.id for r in rules]
    m = progress.mastery
    problems: list[str] = []
    if set(m.rules) != set(every):
        problems.append(f"the drill covers {len(set(m.rules) & set(every))} of the {len(every)} rules")
    remade = remade_cases(load_vocabulary(), tuple(rules))
    served: dict[str, int] = {}
    seen: set[tuple[str, int]] = set()
    flipped: list[MasteryAttempt] = []
    outcome_wrong: list[MasteryAttempt] = []
    out_of_order: list[MasteryAttempt] = []
    twice: list[MasteryAttempt] = []
    options_wrong: list[MasteryAttempt] = []
    facets_wrong: list[MasteryAttempt] = []
    wrong_check: list[MasteryAttempt] = []
    too_soon: list[MasteryAttempt] = []
    firsts: dict[str, FirstAttempt] = {}
    regraded: list[tuple[str, bool, tuple[str, ...]]] = []  # each attempt's outcome, verdict and kinds
    name = progress.trainee
    case_of, offered_of, graded_of = remade.case, remade.offered, remade.graded
    first_seed, salt = m.seed * 10_000, f"{m.seed}:"  # the n-th case's seed; the drill's place, as offered
    for attempt in m.attempts:
        rule, seed = attempt.rule, attempt.seed
        nth = served.get(rule, 0)
        served[rule] = nth + 1
        if (rule, seed) in seen:
            twice.append(attempt)
        seen.add((rule, seed))
        if seed != first_seed + nth:
            out_of_order.append(attempt)
        try:
            made = case_of(rule, seed, attempt.facet)
        except CheckInputError as exc:
            problems.append(f"{_where(attempt)} cannot be made again: {exc.message}")
            regraded.append(("missed", attempt.correct, attempt.facets))
            continue
        if attempt.options != offered_of(rule, seed, attempt.facet, f"{salt}{attempt.number}"):
            options_wrong.append(attempt)
        if made.facets != attempt.facets:
            facets_wrong.append(attempt)
        stored = attempt.answer
        if stored is not None and stored["check"] != made.case.check:
            wrong_check.append(attempt)
            stored = None
        right = stored is not None and graded_of(rule, seed, attempt.facet, Answer.from_data(stored)).correct
        if right != attempt.correct:
            flipped.append(attempt)
        claimed = attempt.outcome if attempt.outcome in ("revealed", "skipped") else "skipped"
        outcome = outcome_of(
            right if attempt.answer is not None else None,
            hints=attempt.hints,
            revealed=attempt.revealed,
            unanswered=claimed,
        )
        if outcome != attempt.outcome:
            outcome_wrong.append(attempt)
        if attempt.answered is not None and attempt.answered < attempt.served:
            too_soon.append(attempt)
        if rule not in firsts:
            keyed = made.case.rules[0]
            reason = stored["reason"] if stored is not None else None
            wrong = reason if stored is not None and not right and reason != keyed else None
            firsts[rule] = FirstAttempt(name, rule, outcome == "correct", wrong)
        regraded.append((outcome, right, made.facets))
    for label, found in (
        ("verdicts do not match their attempts", flipped),
        ("outcomes do not match their attempts", outcome_wrong),
        ("cases are claimed twice", twice),
        ("cases are not the drill's own next case (seed out of sequence)", out_of_order),
        ("cases offered other reasons than the drill's own", options_wrong),
        ("cases claim other look-alike kinds than they hold", facets_wrong),
        ("answers are for the other check than their case", wrong_check),
        ("cases were answered before they were served", too_soon),
    ):
        if found:
            problems.append(f"{len(found)} of {len(m.attempts)} {label} (first: {_where(found[0])})")
    if all(
        new == (a.outcome, a.correct, a.facets) for new, a in zip(regraded, m.attempts, strict=True)
    ):  # every verdict, outcome and kind stands: the drill as loaded is the rebuilt one
        rebuilt = m
    else:
        rebuilt = Mastery.replay(
            m.rules,
            seed=m.seed,
            facets=m.facets,
            attempts=(
                replace(a, outcome=outcome, correct=right, facets=facets)
                for (outcome, right, facets), a in zip(regraded, m.attempts, strict=True)
            ),
        )
    claimed = (data or {}).get("mastery", {}) if isinstance(data, Mapping) else {}
    repeated: list[
        str
    ] = []  # a rule or look-alike kind claimed more than once: only its first claim is compared
    for state in _first_claims(claimed.get("states", []), "rule", rebuilt.states, repeated):
        rule = state["rule"]
        mine = {f: getattr(rebuilt.states[rule], f) for f in _COMPARED}
        if state.get("unaided", 0) > state.get("attempts", 0):
            problems.append(f"{rule}: claims {state['unaided']} unaided of {state['attempts']} attempts")
        diffs = [
            f"{f} {_as_json(state.get(f))} (its attempts give {_as_json(mine[f])})"
            for f in _COMPARED
            if state.get(f) != mine[f]
        ]
        if diffs:
            problems.append(f"{rule}: the claimed state does not match its attempts: " + "; ".join(diffs[:3]))
    for state in _first_claims(claimed.get("facet_states", []), "facet", rebuilt.facet_states, repeated):
        facet = state["facet"]
        if state.get("secured") != rebuilt.facet_states[facet].secured:
            problems.append(f"look-alike kind {facet}: the claimed state does not match its attempts")
    if repeated:
        problems.append(
            f"{len(repeated)} claimed states are for a rule or look-alike kind claimed before "
            f"(first: {repeated[0]}); only the first claim of each is compared"
        )
    return Replay(dict(rebuilt.states), tuple(firsts.values()), tuple(problems), rebuilt)


def _first_claims(
    claims: Sequence[Mapping[str, Any]], field: str, known: Mapping[str, Any], repeated: list[str]
) -> list[Mapping[str, Any]]:
    """The first claimed state of each ``field`` value in ``known``; a value claimed again goes to ``repeated``."""
    seen: set[str] = set()
    firsts = []
    for state in claims:
        key = state.get(field)
        if not isinstance(key, str) or key not in known:
            continue
        if key in seen:
            repeated.append(key)
        else:
            seen.add(key)
            firsts.append(state)
    return firsts


def regrade_v3(progress: TraineeProgress, data: Mapping[str, Any] | None = None) -> list[str]:
    """The :data:`Regrader` for version 3 files: :func:`replay_v3`'s problems, the engine's replay of
    the drill (:func:`helpers.trainee.drill.replay.replay_drill`) and the times (:func:`helpers.trainee.progress.timing.time_problems`)."""
    problems = list(replay_v3(progress, data).problems)
    return problems + evidence_problems(progress, data)


def evidence_problems(
    progress: TraineeProgress, data: Mapping[str, Any] | None, rules: Sequence[Rule] | None = None
) -> list[str]:
    """The times (:mod:`helpers.trainee.progress.timing`), then the drill worked again by the engine (:mod:`helpers.trainee.drill.replay`)."""
    times = time_problems(data) if isinstance(data, Mapping) else []
    rules = list(rules) if rules is not None else load_rules()
    cases = remade_cases(load_vocabulary(), tuple(rules))  # the cases the re-grade made, made once
    return times + replay_drill(progress, rules=rules, cases=cases)


def checkout_reasons(result: Mapping[str, Any] | None, *, require_proctored: bool = True) -> list[str]:
    """Why a check-out result does not count towards readiness (an empty list when it does).

    ``result`` is what :func:`~helpers.trainer.cohort.load_checkouts` gives for the trainee: ``passed``, and when
    present ``verified`` (the trainer's signature checked), ``practice`` (a ``--seed`` paper)
    and ``proctored``. With ``require_proctored`` (the default) only a proctored one counts.
    Taught in ``06_trainer.ipynb``.
    """
    if result is None:
        return ["no graded check-out"]
    reasons = []
    if "verified" in result and result.get("verified") is not True:
        reasons.append("the check-out result is not verified by the trainer's secret")
    if result.get("practice") is True:
        reasons.append("the check-out was a practice paper, which never counts")
    if require_proctored and result.get("proctored") is not True:
        reasons.append(
            "the check-out was sat on the trainee's own machine, not proctored, and only proctored ones "
            "count here (cohort --accept-unproctored counts it)"
        )
    if result.get("passed") is not True:
        reasons.append("the check-out did not pass")
    fast = result.get("too_fast")
    if isinstance(fast, str) and fast:
        reasons.append(f"the check-out was answered faster than a person reads: {fast}")
    newer = result.get("superseded_by")
    if isinstance(newer, Mapping) and newer.get("graded") is None:
        reasons.append(
            f"the ledger holds a newer check-out (paper {describe_value(newer.get('paper_id'))}, issued "
            f"{describe_value(newer.get('issued'))}) not graded yet; the newest paper decides"
        )
    elif isinstance(newer, Mapping):
        reasons.append(
            f"the ledger holds a newer check-out (paper {describe_value(newer.get('paper_id'))}, graded "
            f"{describe_value(newer.get('graded'))}, {'passed' if newer.get('passed') is True else 'not passed'}) "
            "whose result is not among those given; the newest paper decides"
        )
    return reasons


#: Re-graders by progress-file version; a new version registers its own here.
REGRADERS: dict[int, Regrader] = {3: regrade_v3}
