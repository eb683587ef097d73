"""Simulated trainees for the drill engine: shortcuts, blind spots, and a perfect one.

Trainees who take a shortcut (constant answers, a reason picked by position,
length or shared words, copying the last revealed answer by position, taking
every hint) must not complete the drill in 300 cases, and hold at most two
mastered rules at case 300. A trainee blind to one kind of look-alike never
completes it. A perfect trainee masters every rule within four cases per rule,
in one sitting. Each trainee sees only what a :class:`CaseView` shows.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError
from helpers.trainee.cases.deciding_rule import keyed_rule
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.grading import Answer

#: Ten seeds with ``python3 tasks.py test --all`` (CI); three in the fast loop.
SEEDS = range(10) if os.environ.get("EIC_ALL_TESTS") == "1" else range(3)
HORIZON = 300
CHECK_KEYS = {"original", "rewritten", "unresolved", "query", "rewritten_query", "baseline", "proposed"}

Strategy = Callable[[DrillSession, CaseView], Answer | None]


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _split(view: CaseView) -> tuple[dict[str, Any], dict[str, Any]]:
    record = _plain(view.input)
    return (
        {k: v for k, v in record.items() if k in CHECK_KEYS},
        {k: v for k, v in record.items() if k not in CHECK_KEYS},
    )


def _answer_for(view: CaseView, record: dict[str, Any], context: dict[str, Any], reason: str) -> Answer:
    """The answer a trainee gives who reads ``record`` as the input (exact check, then the rule)."""
    try:
        out = run_check(view.check, record).as_dict()
    except CheckInputError:
        return Answer(view.check, hold=True, flag=False, reason=reason)
    if "held" in out:
        return Answer(view.check, hold=True, flag=False, reason=reason)
    first, second, flag = view.fields
    return Answer(
        view.check,
        missing=frozenset(out[first]),
        second=frozenset(out[second]),
        flag=out[flag],
        reason=reason,
    )


def _blind_answer(view: CaseView, fold: Callable[[str], str] | None) -> Answer:
    """The answer of a trainee who reads every ID and answer through ``fold`` (None: reads exactly)."""
    record, context = _split(view)
    if fold is None:
        return _answer_for(view, record, context, keyed_rule(view.check, record, context))
    seen = _fold_record(record, fold)
    folded_context = _fold_record(context, fold)
    reason = keyed_rule(view.check, seen, folded_context)
    blind = _answer_for(view, seen, folded_context, reason)
    # Map the folded IDs the trainee ticked back to the IDs on screen.
    back = {fold(i): i for i in view.ids}
    return Answer(
        view.check,
        missing=frozenset(back.get(i, i) for i in blind.missing),
        second=frozenset(back.get(i, i) for i in blind.second),
        flag=blind.flag,
        hold=blind.hold,
        reason=blind.reason,
    )


def _fold_record(value: Any, fold: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return fold(value)
    if isinstance(value, list):
        return [_fold_record(item, fold) for item in value]
    if isinstance(value, dict):
        folded: dict[str, Any] = {}
        for key, item in value.items():
            folded.setdefault(fold(key), _fold_record(item, fold))
        return folded
    return value


# --- the blind spots: each an independent reading of one look-alike kind as "the same" -----------

_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
_HOMOGLYPHS = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "і": "i", "ј": "j",
        "ѕ": "s", "һ": "h", "ԁ": "d", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H",
        "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J",
        "ο": "o", "α": "a", "ν": "v", "ι": "i", "κ": "k", "Ο": "O", "Α": "A", "Β": "B", "Ε": "E",
        "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ρ": "P", "Τ": "T", "Χ": "X",
        "Υ": "Y",
    }
)  # fmt: skip


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) - 0xFEE0) if 0xFF01 <= ord(c) <= 0xFF5E else c for c in text)


BLIND_SPOTS: dict[str, Callable[[str], str]] = {
    "nfd": lambda s: unicodedata.normalize("NFC", s),
    "case": str.casefold,
    "outer-space": lambda s: s.strip(" "),
    "zero-width": lambda s: _ZERO_WIDTH.sub("", s),
    "full-width": _full_width,
    "homoglyph": lambda s: s.translate(_HOMOGLYPHS),
}


# --- the drill loop ------------------------------------------------------------------------------


class Clock:
    """A fake clock: one minute per case, all in one sitting."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(seconds=30)
        return self.now


def run(strategy: Strategy, seed: int, *, limit: int = HORIZON, after: Callable[..., None] | None = None):
    session = DrillSession.start(seed=seed, clock=Clock())
    completed_at = None
    for _ in range(limit):
        view = session.next_case()
        answer = strategy(session, view)
        if answer is not None:
            session.check(answer)
        if after is not None:
            after(session, view)
        if session.complete and completed_at is None:
            completed_at = session.mastery.step
            break
    return session, completed_at


def perfect(_session: DrillSession, view: CaseView) -> Answer:
    return _blind_answer(view, None)


def blind(kind: str) -> Strategy:
    return lambda _session, view: _blind_answer(view, BLIND_SPOTS[kind])


def constant(ticked: bool, flag: bool | None) -> Strategy:
    def answer(_session: DrillSession, view: CaseView) -> Answer:
        ids = frozenset(view.ids) if ticked else frozenset()
        return Answer(view.check, missing=ids, second=ids, flag=flag, reason=view.reason_options[0][1])

    return answer


def reason_by(pick: Callable[[CaseView], str]) -> Strategy:
    """Perfect lists and flag, the reason chosen by a shortcut."""

    def answer(_session: DrillSession, view: CaseView) -> Answer:
        right = _blind_answer(view, None)
        return Answer(view.check, right.missing, right.second, right.flag, right.hold, pick(view))

    return answer


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def shared_words(view: CaseView) -> str:
    seen = _words(f"{view.label} {view.check}")
    return max(view.reason_options, key=lambda option: len(seen & _words(option[0])))[1]


REASON_SHORTCUTS: dict[str, Callable[[CaseView], str]] = {
    "first": lambda view: view.reason_options[0][1],
    "last": lambda view: view.reason_options[-1][1],
    "longest": lambda view: max(view.reason_options, key=lambda o: len(o[0]))[1],
    "shortest": lambda view: min(view.reason_options, key=lambda o: len(o[0]))[1],
    "shared-words": shared_words,
}


class CopyAfterReveal:
    """Answers each case with the positions that were right on the last revealed case, then reveals."""

    def __init__(self) -> None:
        self.ticks: tuple[set[int], set[int]] = (set(), set())
        self.flag: bool | None = None
        self.hold = False
        self.reason_at = 0

    def answer(self, _session: DrillSession, view: CaseView) -> Answer:
        def at(positions: set[int]) -> frozenset[str]:
            return frozenset(view.ids[i] for i in positions if i < len(view.ids))

        options = view.reason_options
        return Answer(
            view.check,
            at(self.ticks[0]),
            at(self.ticks[1]),
            self.flag,
            self.hold,
            options[min(self.reason_at, len(options) - 1)][1],
        )

    def learn(self, session: DrillSession, view: CaseView) -> None:
        session.reveal()
        case = session.worked_case()
        assert case is not None
        expected = case.expected
        first, second, flag = view.fields
        if "missing" in expected:
            self.ticks = (
                {view.ids.index(i) for i in expected[first]},
                {view.ids.index(i) for i in expected[second]},
            )
            self.flag, self.hold = expected[flag], False
        else:
            self.ticks, self.flag, self.hold = (set(), set()), False, True
        self.reason_at = [rule for _text, rule in view.reason_options].index(case.rules[0])


def every_hint(session: DrillSession, view: CaseView) -> Answer:
    while session.hints_left:
        session.hint()
    return _blind_answer(view, None)
