"""A rule's spaced review in days: FSRS-6 (the ``fsrs`` package, pure Python, so it also runs in the
browser edition) over the rule's scored cases, a card made only when it is asked for.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import functools
from array import array
from typing import Any

__all__ = ["LEAST_INTERVAL", "SECOND", "YEAR_ONE", "Schedule", "latest_review_time"]


@functools.cache
def _scheduler() -> Any:
    """FSRS-6 with default parameters, whole days and no fuzz, so a replay is exact."""
    from fsrs import Scheduler

    return Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


@functools.cache
def latest_review_time() -> _dt.datetime:
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
YEAR_ONE = _dt.datetime(1, 1, 1, tzinfo=_dt.UTC)
SECOND = _dt.timedelta(seconds=1)
#: The shortest interval, in seconds, FSRS schedules with no learning or relearning steps: a whole day
#: (``Scheduler._next_interval`` is at least 1 day; ``tests/trainee/test_schedule.py`` holds it).
LEAST_INTERVAL = 86_400


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


class Schedule:
    """A rule's FSRS card as the scored cases that make it, reviewed only when the card is asked for.

    A trainer re-grading a cohort never asks, so no card is made there; a drill asks for the due
    ones. Cards are kept once made. Equal when the cards are equal.
    """

    __slots__ = ("_count", "_log")

    def __init__(self, log: _ReviewLog, count: int) -> None:
        self._log, self._count = log, count

    @classmethod
    def after(cls, before: Schedule | None, index: int, unaided: bool, moment: _dt.datetime) -> Schedule:
        """The schedule after one more scored case."""
        if before is None:
            log = _ReviewLog(index)
        elif len(before._log.good) == before._count:
            log = before._log
        else:  # another drill went on from the same state (a copy): this one branches off
            old = before._log
            log = _ReviewLog(index, old.seconds[: before._count], old.good[: before._count])
            log.cards = {n: card for n, card in old.cards.items() if n <= before._count}
        log.seconds.append((moment - YEAR_ONE) // SECOND)
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
                moment = YEAR_ONE + _dt.timedelta(seconds=log.seconds[n])
                card = _review(card, log.index, bool(log.good[n]), moment)
            log.cards[count] = card
        return card

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Schedule):
            return NotImplemented
        return bool(self.card() == other.card())

    __hash__ = None  # type: ignore[assignment]
