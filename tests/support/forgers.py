"""Trainees who want to look ready: genuine drills through the real engine, then the edits a forger makes.

Every forgery here is made self-consistent the way a careful forger would: after the attempts are
edited, the claimed states are rebuilt from them (``trainee_progress_from_data`` then
``trainee_progress_to_data``), so only the evidence itself can give it away.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trainees import _blind_answer, every_hint

from helpers.trainee.cases.generators import generate, generators_fingerprint
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.grading import Answer, correct_answer, decisive_rules
from helpers.trainee.progress.files import (
    TraineeProgress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)

SAVED = "2026-12-01T18:00:00Z"
RULE_IDS = [rule.id for rule in load_rules()]


class Clock:
    """A fake clock: ``step`` seconds on at every reading (0: the same second throughout)."""

    def __init__(self, step: int = 30) -> None:
        self.now = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
        self.step = dt.timedelta(seconds=step)

    def __call__(self) -> dt.datetime:
        self.now += self.step
        return self.now


#: What a strategy returns to leave a case unchecked (the next case scores it as skipped).
SKIP: Any = object()


def wrong(view: Any) -> Answer:
    """An answer the grader never marks right: no flag set."""
    return Answer(view.check, flag=None, reason=view.reason_options[0][1])


def right(view: Any) -> Answer:
    return _blind_answer(view, None)


def at_rate(p: float, seed: int) -> Callable[[DrillSession, Any], Answer]:
    """A trainee right with probability ``p`` on each case, unaided."""
    draw = random.Random(seed)
    return lambda _s, view: right(view) if draw.random() < p else wrong(view)


def drill(
    seed: int,
    cases: int,
    answer: Callable[[DrillSession, Any], Any],
    *,
    name: str = "",
    step: int = 30,
    stop_when_complete: bool = True,
) -> dict[str, Any]:
    """A drill worked through the real engine, as its progress file holds it."""
    s = DrillSession.start(seed=seed, trainee=name or f"Trainee {seed}", clock=Clock(step))
    for _ in range(cases):
        view = s.next_case()
        given = answer(s, view)
        if given is None:
            s.reveal()
        elif given is not SKIP:
            s.check(given)
        if stop_when_complete and s.complete:
            break
    attempt_id = f"{seed:016x}"
    data = trainee_progress_to_data(TraineeProgress(s.record(), attempt_id=attempt_id), saved=SAVED)
    data["content_hash"] = generators_fingerprint()
    return data


def consistent(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its claimed states rebuilt from its (edited) attempts, as a careful forger does."""
    progress = trainee_progress_from_data(json.loads(json.dumps(data)))
    out = trainee_progress_to_data(progress, saved=data["saved"])
    out["content_hash"] = data["content_hash"]
    return out


def _right_answer(attempt: dict[str, Any]) -> dict[str, Any]:
    case = generate(attempt["rule"], attempt["seed"], facet=attempt["facet"])
    a = correct_answer(case)
    return {
        "check": case.check,
        "missing": sorted(a.missing),
        "second": sorted(a.second),
        "flag": a.flag,
        "hold": a.hold,
        "reason": decisive_rules(case)[0],
    }


def misses_made_right(data: dict[str, Any]) -> dict[str, Any]:
    """Row 8: every miss edited into a right answer, unaided."""
    for attempt in data["mastery"]["attempts"]:
        if attempt["outcome"] != "correct":
            attempt.update(
                answer=_right_answer(attempt),
                outcome="correct",
                correct=True,
                hints=0,
                revealed=False,
                fields_wrong=[],
                rules_missed=[],
            )
            attempt["answered"] = attempt["answered"] or attempt["served"]
    return consistent(data)


def hints_erased(data: dict[str, Any]) -> dict[str, Any]:
    """Row 9: ``hints`` set to 0, so each helped case reads as unaided."""
    for attempt in data["mastery"]["attempts"]:
        if attempt["hints"]:
            attempt["hints"] = 0
            if attempt["outcome"] == "helped":
                attempt.update(outcome="correct", rules_missed=[], fields_wrong=[])
    return consistent(data)


def every_hint_drill(seed: int, cases: int) -> dict[str, Any]:
    """A drill answered after every hint of every case."""
    return drill(seed, cases, every_hint, stop_when_complete=False)


def three_in_a_row(seed: int) -> dict[str, Any]:
    """Row 7: a scripted file serving each rule three times in a row, right every time.

    The engine does the rest (case seeds, kinds, reasons offered, times, states), so the file is
    what the drill would write if it served that order, which it never does.
    """
    order = [rule for rule in RULE_IDS for _ in range(3)]
    with mock.patch.object(Mastery, "next_rule", lambda self, _now: order[self.step]):
        return drill(seed, len(order), lambda _s, view: right(view), stop_when_complete=False)


def empty_drill(seed: int) -> dict[str, Any]:
    """Row 2: a drill of no cases."""
    return drill(seed, 0, lambda _s, view: right(view))


_TIME = re.compile(r'"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)"')


def shifted(data: dict[str, Any], days: int) -> dict[str, Any]:
    """Every time in ``data`` moved by ``days``."""

    def move(match: re.Match[str]) -> str:
        moment = dt.datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%SZ") + dt.timedelta(days=days)
        return f'"{moment:%Y-%m-%dT%H:%M:%SZ}"'

    moved: dict[str, Any] = json.loads(_TIME.sub(move, json.dumps(data)))
    return moved
