"""Simulated trainees for the check-out: each sits real papers and the real grader marks them.

A key comes from :func:`helpers.trainer.sitting.issue_checkout`; the trainee
sits it through the headless contract (:func:`~helpers.trainer.sitting.start_sitting`,
``next_case()`` until None, ``answer(...)``), answering each case from the key record
(what a trainee who reads the case rightly would answer) and slipping by a profile:
uniformly, always on one rule, blind to one look-alike kind or to the eight common
Cyrillic letters (reading the case through a fold that makes them invisible, then
working the check on what they saw), never holding or refusing. The sitting's
``result()`` grades the answers file with
:func:`~helpers.trainer.checkout.grade_checkout`, so the verdict is the one a
trainer would get. :func:`pass_rate` is what ``tests/trainer/test_checkout_validity.py``
asserts and ``benchmarks/checkout_validity.py`` prints.
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from trainees import BLIND_SPOTS

from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError
from helpers.trainee.cases.deciding_rule import FACETS, keyed_rule
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import Answer, answer_fields, candidate_ids, correct_answer
from helpers.trainer.checkout_result import CheckoutResult
from helpers.trainer.marking import key_case
from helpers.trainer.next_actions import ACTIONS, keyed_action
from helpers.trainer.paper import Issued, issue_checkout
from helpers.trainer.sitting import start_sitting

#: Sittings per profile with ``--all`` (``EIC_ALL_TESTS=1``); the fast loop samples a few.
PAPERS = 400 if os.environ.get("EIC_ALL_TESTS") == "1" else 4
RULES = tuple(rule.id for rule in load_rules())
ISSUED = "2026-12-01T09:00:00Z"

#: A record of the key, the case as the paper shows it, and this sitting's random source.
Answerer = Callable[[Mapping[str, Any], Mapping[str, Any], random.Random], tuple[Answer, str | None]]

_NO_BREAK = "\u00a0\u2007\u202f"
#: Each look-alike kind, and how a reader blind to it reads a string (independent of helpers.trainee.cases.deciding_rule).
FOLDS: dict[str, Callable[[str], str]] = {
    **BLIND_SPOTS,
    "no-break-space": lambda s: "".join(" " if c in _NO_BREAK else c for c in s.strip(_NO_BREAK)),
}
assert set(FOLDS) == set(FACETS)
#: The eight common Cyrillic letters that stand in for Latin ones: а е о р с у х і.
COMMON_CYRILLIC = "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456"
_EIGHT = str.maketrans(dict(zip(COMMON_CYRILLIC, "aeopcyxi", strict=True)))
FOLDS_MORE: dict[str, Callable[[str], str]] = {"the 8 letters а е о р с у х і": lambda s: s.translate(_EIGHT)}


@functools.lru_cache(maxsize=1024)
def paper(seed: int) -> Issued:
    """The check-out (paper and key) of one seed, made once per process."""
    return issue_checkout("Simulated trainee", seed=seed, issued=ISSUED)


def right(record: Mapping[str, Any]) -> tuple[Answer, str]:
    """The fully correct answer to one key record: its output, keyed rule and next action."""
    a = correct_answer(key_case(record))
    return Answer(a.check, a.missing, a.second, a.flag, a.hold, record["rule"]), record["action"]


def slip(record: Mapping[str, Any], shown: Mapping[str, Any], rng: random.Random) -> tuple[Answer, str]:
    """A right answer with one thing wrong: the reason, the next action, or the output."""
    answer, action = right(record)
    way = rng.randrange(3)
    if way == 0:
        others = [o["rule"] for o in shown["reason_options"] if o["rule"] not in record["reasons_accepted"]]
        if others:
            return Answer(
                answer.check, answer.missing, answer.second, answer.flag, answer.hold, rng.choice(others)
            ), action
    if way == 1:
        return answer, rng.choice([a for a in ACTIONS if a != action])
    if answer.hold:
        return Answer(answer.check, flag=True, reason=answer.reason), action
    return Answer(answer.check, answer.missing, answer.second, not answer.flag, False, answer.reason), action


def uniform(p: float) -> Answerer:
    """Each case fully right with probability ``p``, independently."""

    def answer(
        record: Mapping[str, Any], shown: Mapping[str, Any], rng: random.Random
    ) -> tuple[Answer, str | None]:
        return right(record) if rng.random() < p else slip(record, shown, rng)

    return answer


def wrong_on(rule: str, p: float = 0.99) -> Answerer:
    """Always wrong on the cases ``rule`` decides; otherwise right with probability ``p``."""
    others = uniform(p)

    def answer(
        record: Mapping[str, Any], shown: Mapping[str, Any], rng: random.Random
    ) -> tuple[Answer, str | None]:
        return slip(record, shown, rng) if record["rule"] == rule else others(record, shown, rng)

    return answer


def _fold(value: Any, fold: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return fold(value)
    if isinstance(value, list):
        return [_fold(item, fold) for item in value]
    if isinstance(value, dict):
        folded: dict[str, Any] = {}
        for key, item in value.items():
            folded.setdefault(fold(key), _fold(item, fold))
        return folded
    return value


def _seen_action(
    check: str, out: Mapping[str, Any], reason: str, data: Mapping[str, Any], context: Mapping[str, Any]
) -> str:
    class Seen:
        pass

    seen = Seen()
    seen.check, seen.expected, seen.input, seen.context = check, out, data, context  # type: ignore[attr-defined]
    return keyed_action(seen, reason)


def read_through(record: Mapping[str, Any], fold: Callable[[str], str]) -> tuple[Answer, str]:
    """The answer of a trainee who reads every ID and answer through ``fold``, then works the check exactly."""
    check = record["check"]
    seen = _fold(dict(record["input"]), fold)
    context = _fold(dict(record.get("context") or {}), fold)
    reason = keyed_rule(check, seen, context)
    try:
        out = run_check(check, seen).as_dict()
    except CheckInputError:
        return Answer(check, hold=True, flag=False, reason=reason), ACTIONS[2]
    action = _seen_action(check, out, reason, seen, context)
    if "held" in out:
        return Answer(check, hold=True, flag=False, reason=reason), action
    back = {fold(i): i for i in candidate_ids(key_case(record))}
    first, second, flag = answer_fields(check)
    return (
        Answer(
            check,
            missing=frozenset(back.get(i, i) for i in out[first]),
            second=frozenset(back.get(i, i) for i in out[second]),
            flag=out[flag],
            reason=reason,
        ),
        action,
    )


def blind_to(kind: str, p: float = 0.99) -> Answerer:
    """Reads ``kind`` as no difference at all on every case that turns on it; otherwise right with ``p``.

    ``kind`` may also name the eight common Cyrillic letters (:data:`FOLDS_MORE`): that trainee
    reads every case through the fold, and is right wherever the fold hides nothing that matters.
    """
    others = uniform(p)
    if kind in FOLDS_MORE:
        letters = FOLDS_MORE[kind]

        def partial(
            record: Mapping[str, Any], shown: Mapping[str, Any], rng: random.Random
        ) -> tuple[Answer, str | None]:
            if "homoglyph" in record["lookalike_kinds"]:
                return read_through(record, letters)
            return others(record, shown, rng)

        return partial
    fold = FOLDS[kind]

    def answer(
        record: Mapping[str, Any], shown: Mapping[str, Any], rng: random.Random
    ) -> tuple[Answer, str | None]:
        if kind in record["lookalike_kinds"]:
            return read_through(record, fold)
        return others(record, shown, rng)

    return answer


def never_holds(p: float = 0.99) -> Answerer:
    """Never holds a scope and never refuses a key: accepts instead; otherwise right with ``p``."""
    others = uniform(p)

    def answer(
        record: Mapping[str, Any], shown: Mapping[str, Any], rng: random.Random
    ) -> tuple[Answer, str | None]:
        given, action = others(record, shown, rng)
        if not given.hold:
            return given, action
        return Answer(given.check, flag=True, reason=given.reason), "accept"

    return answer


def sit(answerer: Answerer, seed: int) -> CheckoutResult:
    """One sitting of the key of ``seed``, case by case as the sequential rule serves them, graded by the key."""
    issued = paper(seed)
    rng = random.Random(f"sitting:{seed}")
    sitting = start_sitting(issued, clock=_Clock())
    records = {record["label"]: record for record in issued.key["cases"]}
    while (case := sitting.next_case()) is not None:
        sitting.answer(*answerer(records[case.label], case.shown, rng))
    return sitting.result()


class _Clock:
    """Forty seconds a case: a careful pace."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 20.0
        return self.now


@dataclass(frozen=True)
class Profile:
    """A named trainee, the target its pass rate must meet (``at most`` or ``at least``), and how it answers."""

    name: str
    answerer: Answerer
    bound: str  # "at most" or "at least"
    target: float


def profiles() -> list[Profile]:
    """Every profile of issue 43's table: the weak ones first, then the strong ones."""
    weak = [Profile("uniform p = 0.85", uniform(0.85), "at most", 0.05)]
    weak += [Profile(f"always wrong on {rule}", wrong_on(rule), "at most", 0.05) for rule in RULES]
    weak += [Profile(f"blind to {kind}", blind_to(kind), "at most", 0.05) for kind in (*FACETS, *FOLDS_MORE)]
    weak.append(Profile("never holds or refuses", never_holds(), "at most", 0.05))
    strong = [
        Profile("uniform p = 0.95", uniform(0.95), "at least", 0.90),
        Profile("uniform p = 0.97", uniform(0.97), "at least", 0.97),
        Profile("perfect", uniform(1.0), "at least", 1.0),
    ]
    return weak + strong


def pass_rate(answerer: Answerer, seeds: Iterable[int]) -> tuple[int, int]:
    """(sittings passed, sittings sat) over the keys of ``seeds``."""
    results = [sit(answerer, seed).passed for seed in seeds]
    return sum(results), len(results)


def sittings(answerer: Answerer, seeds: Iterable[int]) -> list[CheckoutResult]:
    """Every sitting's result over the keys of ``seeds``: its verdict and the cases it took."""
    return [sit(answerer, seed) for seed in seeds]


def meets(profile: Profile, passed: int, sat: int) -> bool:
    """True when the measured pass rate meets the profile's target."""
    share = passed / sat
    return share <= profile.target if profile.bound == "at most" else share >= profile.target
