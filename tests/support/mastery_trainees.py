"""Simulated trainees for the validity of mastery: uniform slips, and trainees blind to look-alike letters.

* :func:`slipping` answers every case as a perfect reader would, except that with
  probability ``1 - p`` (drawn from its own seeded stream) it slips: it keeps the
  lists and the flag but picks another of the offered reasons, so the case is wrong.
* :func:`partly_blind` cannot tell ``blind`` of the 44 confusable letters
  (:data:`helpers.trainee.cases.deciding_rule.CONFUSABLES`) from their Latin twins, and sees the others;
  which ones it sees is drawn from the seed. Everything else it reads exactly.
* :func:`blind_to` cannot tell the given letters from their Latin twins: :data:`COMMON_CYRILLIC`, the
  eight lower-case Cyrillic letters real spoofed text uses most, in the profiles.

:func:`completion` drives the real :class:`~helpers.trainee.drill.engine.DrillSession` with
the fake clock of ``trainees.py`` and returns the case at which the drill completed,
or None. Each trainee sees only what a :class:`~helpers.trainee.drill.case_view.CaseView` shows.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from trainees import Clock, Strategy, _blind_answer

from helpers.trainee.cases.deciding_rule import CONFUSABLES
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.grading import Answer

#: Seeds per profile: every one under ``--all``, the first few in the fast loop.
ALL_SEEDS = range(200)
FAST_SEEDS = range(3)
SEEDS = ALL_SEEDS if os.environ.get("EIC_ALL_TESTS") == "1" else FAST_SEEDS


def slipping(p: float, seed: int) -> Strategy:
    """A trainee right with probability ``p`` on every case, independently (a slip is a wrong reason)."""
    rng = random.Random(f"slip:{p}:{seed}")

    def answer(_session: DrillSession, view: CaseView) -> Answer:
        right = _blind_answer(view, None)
        if rng.random() < p:
            return right
        others = [rule for _text, rule in view.reason_options if rule != right.reason]
        return Answer(view.check, right.missing, right.second, right.flag, right.hold, rng.choice(others))

    return answer


def partly_blind(seed: int, blind: int = 35) -> Strategy:
    """A trainee who reads ``blind`` of the confusable letters (drawn from ``seed``) as their Latin twins."""
    letters = sorted(CONFUSABLES)
    unseen = set(random.Random(f"blind:{seed}").sample(letters, blind))
    table = str.maketrans({letter: CONFUSABLES[letter] for letter in unseen})
    return lambda _session, view: _blind_answer(view, lambda text: text.translate(table))


#: The eight lower-case Cyrillic letters that look exactly like Latin ones: а е о р с у х і.
COMMON_CYRILLIC = "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456"


def blind_to(letters: str) -> Strategy:
    """A trainee who reads each of ``letters`` as its Latin twin, and everything else exactly."""
    table = str.maketrans({letter: CONFUSABLES[letter] for letter in letters})
    return lambda _session, view: _blind_answer(view, lambda text: text.translate(table))


def perfect(_session: DrillSession, view: CaseView) -> Answer:
    """A trainee who reads every case exactly."""
    return _blind_answer(view, None)


def completion(strategy: Strategy, seed: int, *, limit: int) -> int | None:
    """The case at which ``strategy`` completes a drill of ``seed`` within ``limit`` cases, else None."""
    session = DrillSession.start(seed=seed, clock=Clock())
    for _ in range(limit):
        view = session.next_case()
        session.check(strategy(session, view))
        if session.complete:
            return session.mastery.step
    return None


#: The profiles of issue 43 item 3: (name, trainee for a seed, case limit).
Profile = tuple[str, Callable[[int], Strategy], int]

PROFILES: tuple[Profile, ...] = (
    ("uniform p = 0.8", lambda seed: slipping(0.8, seed), 300),
    ("uniform p = 0.85", lambda seed: slipping(0.85, seed), 300),
    ("uniform p = 0.95", lambda seed: slipping(0.95, seed), 150),
    ("uniform p = 0.99", lambda seed: slipping(0.99, seed), 90),
    ("perfect", lambda _seed: perfect, 60),
    ("blind to а е о р с у х і", lambda _seed: blind_to(COMMON_CYRILLIC), 1000),
    ("blind to 35 of 44 look-alike letters", partly_blind, 1000),
)

#: For each profile, the share of seeds that may complete at most (``max``) or must complete (``min``).
TARGETS: dict[str, tuple[str, float]] = {
    "uniform p = 0.8": ("max", 0.01),
    "uniform p = 0.85": ("max", 0.05),
    "uniform p = 0.95": ("min", 0.90),
    "uniform p = 0.99": ("min", 0.95),
    "perfect": ("min", 1.0),
    "blind to а е о р с у х і": ("max", 0.05),
    "blind to 35 of 44 look-alike letters": ("max", 0.05),
}


def share_completing(profile: Profile, seeds: range) -> tuple[float, list[int | None]]:
    """The share of ``seeds`` on which the profile completes within its limit, and each seed's case."""
    _name, make, limit = profile
    results = [completion(make(seed), seed, limit=limit) for seed in seeds]
    return sum(r is not None for r in results) / len(results), results
