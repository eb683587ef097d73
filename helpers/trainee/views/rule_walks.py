"""A scripted trainee, so notebooks 04, 06 and 07 can drive the real drill and check-out in a few lines.

The notebooks call the drill (:class:`helpers.trainee.drill.engine.DrillSession`) and the
check-out sitting (:func:`helpers.trainer.sitting.start_sitting`) themselves; what
they need from here is a trainee whose answers are known without a person at the keyboard:

* :func:`right_answer`: what a trainee who reads a drill case exactly answers (the check run
  on the case's input, and the rule that decides it);
* :func:`key_answer`: the same for a check-out case, read from the trainer's key;
* :func:`slip`: an answer wrong in one field;
* :class:`Clock`: a fake UTC clock, so the stored outputs never change between runs;
* :func:`scored_line`: the drill's last scored case as one line;
* :func:`earlier_drill` and :func:`carried_on`: a drill served by an earlier mastery model, and the
  same drill carried on under this one, as a file saved before it is when reopened.

Taught in ``04_practice.ipynb`` ("How a case is scored, shown"), ``06_trainer.ipynb`` and
``07_checkout.ipynb`` ("What a pass needs, shown").
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Mapping
from typing import Any

from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError
from helpers.trainee.cases.deciding_rule import keyed_rule
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.mastery import MASTERY_STREAK, Mastery
from helpers.trainee.drill.record import DrillRecord
from helpers.trainee.grading import Answer, answer_fields

__all__ = [
    "Clock",
    "right_answer",
    "key_answer",
    "slip",
    "scored_line",
    "described",
    "word",
    "earlier_drill",
    "carried_on",
]

#: The keys of the checks' own input; everything else a case shows is context.
_CHECK_KEYS = frozenset(
    {"original", "rewritten", "unresolved", "query", "rewritten_query", "baseline", "proposed"}
)


class Clock:
    """A fake UTC clock: 09:00 on 1 December 2026, a minute later at each reading (``04_practice.ipynb``)."""

    def __init__(self) -> None:
        self.moment = _dt.datetime(2026, 12, 1, 9, 0, tzinfo=_dt.UTC)

    def __call__(self) -> _dt.datetime:
        self.moment += _dt.timedelta(minutes=1)
        return self.moment

    def wait(self, days: int) -> None:
        """Move the clock on by ``days``, as between two sittings."""
        self.moment += _dt.timedelta(days=days)


def right_answer(view: Any) -> Answer:
    """What a trainee who reads the drill case ``view`` exactly answers: the check's output and the
    rule that decides it, worked out from what the case shows (``04_practice.ipynb``)."""
    shown = view.plain_input()
    record = {k: v for k, v in shown.items() if k in _CHECK_KEYS}
    context = {k: v for k, v in shown.items() if k not in _CHECK_KEYS}
    reason = keyed_rule(view.check, record, context)
    try:
        out = run_check(view.check, record).as_dict()
    except CheckInputError:
        return Answer(view.check, hold=True, flag=False, reason=reason)
    if "held" in out:
        return Answer(view.check, hold=True, flag=False, reason=reason)
    first, second, flag = view.fields
    return Answer(view.check, frozenset(out[first]), frozenset(out[second]), out[flag], reason=reason)


def key_answer(record: Mapping[str, Any]) -> tuple[Answer, str]:
    """The right answer and next action to one case of a check-out key (``07_checkout.ipynb``)."""
    check, expected, rule = record["check"], record["expected"], record["rule"]
    if "held" in expected or "error" in expected:
        return Answer(check, hold=True, flag=False, reason=rule), record["action"]
    first, second, flag = answer_fields(check)
    answer = Answer(
        check, frozenset(expected[first]), frozenset(expected[second]), expected[flag], reason=rule
    )
    return answer, record["action"]


def slip(answer: Answer) -> Answer:
    """The same answer with its flag turned over (or a hold given up): wrong in one field."""
    if answer.hold:
        return Answer(answer.check, flag=True, reason=answer.reason)
    return Answer(answer.check, answer.missing, answer.second, not answer.flag, reason=answer.reason)


def scored_line(drill: Any) -> str:
    """The drill's last scored case: its number, rule, outcome, and the rule's state afterwards
    (its streak, or mastered and how many cases its next review waits) (``04_practice.ipynb``)."""
    attempt = drill.attempts[-1]
    state = drill.mastery.states[attempt.rule]
    if state.mastered:
        mark = f"mastered, next review in {state.ready_at - attempt.number} cases"
    else:
        mark = f"streak {state.streak}/{MASTERY_STREAK}"
    return f"case {attempt.number:>2} {attempt.rule:<20} {attempt.outcome:<8} {mark}"


def word(value: Any) -> str:
    """``value`` as a page of the app shows it: yes and no for a flag, "none" for nothing.

    Taught in ``04_practice.ipynb`` and ``07_checkout.ipynb``.
    """
    if value is True or value is False:
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def described(state: Any) -> str:
    """A drill state (a rule's or a look-alike kind's) in words, field by field: yes and no for
    flags, "none" for nothing, as a page of the app reads (no Python values shown). Fields that are
    not plain values (the review schedule) are left out.

    Taught in ``04_practice.ipynb`` ("How a case is scored, shown").
    """
    plain = (str, int, float, bool, type(None))
    return "; ".join(
        f"{field.name.replace('_', ' ')} {word(getattr(state, field.name))}"
        for field in dataclasses.fields(state)
        if isinstance(getattr(state, field.name), plain)
    )


def earlier_drill(
    model: int, *, seed: int, check: str | None = None, clock: Clock | None = None
) -> DrillSession:
    """A fresh drill served and judged by the earlier mastery model ``model`` (1 or 2): what a progress
    file saved before this model holds (``06_trainer.ipynb``)."""
    drill = DrillSession.start(seed=seed, check=check, clock=clock)
    m = drill.mastery
    drill.mastery = Mastery.start(m.rules, seed=m.seed, facets=m.facets, model=model)
    return drill


def carried_on(drill: DrillSession, cases: int, *, clock: Clock | None = None) -> DrillSession:
    """The first ``cases`` cases of ``drill`` carried on under this mastery model, as a file saved by an
    earlier model is when it is opened again: its state rebuilt from those attempts by this model, and
    every case from ``cases + 1`` on served by it (``model_since``) (``06_trainer.ipynb``)."""
    m = drill.mastery
    rebuilt = Mastery.replay(m.rules, seed=m.seed, facets=m.facets, attempts=m.attempts[:cases])
    record = DrillRecord(rebuilt, started=drill.started, check=drill.check_name, model_since=cases + 1)
    return DrillSession.resume(record, rules=drill.rules, clock=clock)
