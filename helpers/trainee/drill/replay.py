"""The drill replayed: the engine itself serves and scores a progress file's attempts again.

A progress file lists what its drill served and what the trainee answered. The
re-grade in :mod:`helpers.trainer.cohort` checks each answer against its case; this
module checks the *order*. :func:`replay_drill` starts the real engine
(:class:`helpers.trainee.drill.engine.DrillSession`) from the file's seed, with a fake
clock set to each recorded time, and works the drill again: at each case's
``served`` time it asks the engine for the next case, takes as many hints as the
file records, reveals or checks the recorded answer at its ``answered`` time, and
compares the attempt the engine records with the file's, field by field (rule,
case seed, look-alike kind, reasons offered, outcome, verdict, hints, times …).

The first case where they differ is a problem, and the replay stops there (what
comes after follows from a different drill). Re-ordered attempts, misses edited
into right answers and erased hints each change what the engine serves next, so
each shows here, however consistent the rest of the file is made. Nothing is
re-implemented: a change to the scheduler or the scoring is followed as it is.

A trainee who scripts the engine itself still produces a file that replays clean;
the trainer-graded check-out is the proof (``docs/checkout.md``). Taught in
``06_trainer.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from helpers.core.errors import CheckInputError
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.remade import RemadeCases
from helpers.trainee.drill.times import now_text, parse_time
from helpers.trainee.grading import Answer

if TYPE_CHECKING:
    from helpers.trainee.drill.engine import DrillSession

__all__ = ["replay_drill"]

#: A time in the form progress files write (:func:`~.times.now_text`): it reads back as itself.
_EXACT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", re.ASCII)

#: The fields named first when the engine serves another case than the file's.
_SERVED = ("rule", "seed", "facet")


class _Clock:
    """A fake clock for the engine: it reads whatever recorded time was set last.

    ``text`` is that time as progress files write it, which the engine takes as it is
    (a time in that exact form reads back as itself; any other is written out again).
    """

    def __init__(self) -> None:
        self.at = _dt.datetime(2000, 1, 1, tzinfo=_dt.UTC)
        self.text = now_text(self.at)

    def set(self, text: str) -> None:
        self.at = parse_time(text)
        self.text = text if _EXACT.fullmatch(text) else now_text(self.at)

    def __call__(self) -> _dt.datetime:
        return self.at


def _where(attempt: MasteryAttempt) -> str:
    """An attempt as a problem line names it: its number and rule."""
    return f"case {attempt.number} ({attempt.rule})"


def _kind(facet: str | None) -> str:
    return f"look-alike kind {facet}" if facet else "no look-alike kind"


def _shown(value: object) -> str:
    """A recorded field's value as the progress file writes it: JSON, so ``true``, ``null``, ``"correct"``."""
    return json.dumps(value, ensure_ascii=False)


def _difference(number: int, engine: MasteryAttempt, stored: MasteryAttempt) -> str | None:
    """How the engine's attempt differs from the file's, in one line (None when they agree)."""
    if engine == stored:
        return None
    mine, theirs = engine.to_data(), stored.to_data()
    if mine == theirs:
        return None
    if any(mine[f] != theirs[f] for f in _SERVED):
        return (
            f"case {number}: replayed from the drill's seed, the engine serves {engine.rule} "
            f"(seed {engine.seed}, {_kind(engine.facet)}) here after the cases before it; the file has "
            f"{stored.rule} (seed {stored.seed}, {_kind(stored.facet)}): re-ordered or edited attempts"
        )
    fields = [f for f in mine if mine[f] != theirs[f]]
    shown = "; ".join(f"{f} {_shown(theirs[f])} (the engine records {_shown(mine[f])})" for f in fields[:3])
    return f"case {number}: replayed, the engine records another attempt than the file: {shown}"


def replay_drill(
    progress: Any, *, rules: Sequence[Rule] | None = None, cases: RemadeCases | None = None
) -> list[str]:
    """Work a version 3 drill again with the engine; the first case the engine would not have
    served or scored as the file says, as one problem line (an empty list when it replays clean).

    ``progress`` is a :class:`helpers.trainee.progress.files.TraineeProgress`. Cases numbered before
    the session's ``model_since`` (when it has one: cases served by an earlier mastery model) are
    taken into the engine as recorded, and serving is compared from there on. ``cases`` hands the
    engine the cases the re-grade already made again (the same ones the generators give).
    Taught in ``06_trainer.ipynb``.
    """
    from helpers.trainee.drill.engine import DrillSession

    rules = list(rules) if rules is not None else load_rules()
    recorded = list(progress.mastery.attempts)
    if not recorded:
        return []
    clock = _Clock()
    m = progress.mastery
    try:
        engine = DrillSession.start(
            seed=m.seed, check=progress.drill.check, rules=rules, clock=clock, cases=cases
        )
    except CheckInputError as exc:
        return [f"the drill cannot be started again from its seed: {exc.message}"]
    if tuple(engine.mastery.rules) != tuple(m.rules) or tuple(engine.mastery.facets) != tuple(m.facets):
        return ["the drill's rules or look-alike kinds are not the ones the engine gives its check and seed"]
    engine.mastery.follow(m)  # while the engine records the file's attempts, the states the load worked out
    since = progress.drill.model_since
    done = engine.mastery.attempts
    earlier = _earlier_model(since, len(recorded))
    if earlier:  # nothing checks how those cases were served: a file with them is never clean practice
        return [earlier, *_replayed(recorded, engine, clock, since, done)]
    return _replayed(recorded, engine, clock, since, done)


#: More hints than any case's ladder has rungs: the engine stops counting at the ladder's end, so a file
#: claiming more is told apart after this many, however many it claims.
_MOST_HINTS = 32


def _earlier_model(since: int, cases: int) -> str | None:
    """The problem with a drill whose file says an earlier mastery model served its first cases."""
    if since <= 1:
        return None
    if since > cases + 1:
        return (
            f"the file says the drill's model served its cases from case {since} on, past its {cases} "
            "cases, so none of them can be worked again: they are not evidence of clean practice"
        )
    return (
        f"cases 1–{since - 1} were served by an earlier version of the drill (the file says so), so "
        "the order they were served and scored in cannot be checked: they are not evidence of clean practice"
    )


def _replayed(
    recorded: list[MasteryAttempt],
    engine: DrillSession,
    clock: _Clock,
    since: int,
    done: Sequence[MasteryAttempt],
) -> list[str]:
    """The drill's attempts worked by ``engine``; the first difference from the file, as one line."""

    def compared(index: int) -> str | None:
        return _difference(recorded[index].number, done[index], recorded[index])

    for index, attempt in enumerate(recorded):
        try:
            if attempt.number < since:  # served by an earlier model: taken in as recorded
                engine.mastery.record(attempt)
                continue
            clock.set(attempt.served)
            engine.serve()  # scores the case before as skipped, when it was left unchecked
            if index and len(done) == index and (problem := compared(index - 1)):
                return [problem]
            if attempt.hints:
                for _ in range(min(attempt.hints, _MOST_HINTS)):
                    engine.hint()
            answer = attempt.answer
            if answer is not None:
                served_check = engine.current_check
                if served_check is not None and served_check != answer["check"]:
                    engine.reveal()  # scores the served case, so what the engine served can be named
                    served = _difference(attempt.number, done[index], attempt)
                    if served is not None and "the engine serves" in served:
                        return [served]
                    return [
                        f"{_where(attempt)}: its answer is for another check than the case the engine serves"
                    ]
                clock.set(attempt.answered or attempt.served)
                engine.score(Answer.from_data(answer))
            elif attempt.revealed:
                engine.reveal()
            if len(done) == index + 1 and (problem := compared(index)):
                return [problem]
        except CheckInputError as exc:
            return [f"{_where(attempt)} cannot be worked again by the engine: {exc.message}"]
        except (ValueError, OverflowError) as exc:  # a time the engine cannot schedule from
            return [f"{_where(attempt)} cannot be worked again by the engine: {type(exc).__name__}: {exc}"]
    if len(done) < len(recorded):  # the last case was left unchecked: serving another scores it
        try:
            engine.serve()
        except CheckInputError as exc:
            return [f"the last case cannot be worked again by the engine: {exc.message}"]
        if problem := compared(len(recorded) - 1):
            return [problem]
    return []
