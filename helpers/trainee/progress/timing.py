"""The times in a progress file: real dates, in order, not in the future, and not too fast to be read.

Every attempt of a version 3 drill keeps when its case was ``served`` and when
it was ``answered`` (``null`` for a case revealed or skipped without a check).
:func:`time_problems` lists, one line each:

* a time that is no date (``2026-02-30``, ``T25:00``), or one before
  :data:`EARLIEST` (``0001``, ``1970``: a clock that was never set), or later
  than the re-grade by more than :data:`FUTURE_GRACE` (``2100``, ``9999``);
* a case served before the case before it was answered (the drill serves one
  case at a time);
* **too fast**: cases answered less than :data:`MIN_CASE_SECONDS` after they
  were served, and a drill whose answered cases took less than
  :data:`MIN_DRILL_SECONDS_PER_CASE` a case on average, with the numbers.

The floors are set well below an honest pace (a case shows two lists of IDs and
up to nineteen reasons to choose from; the sample trainees take 40 to 80 s a
case), so only a scripted or edited file comes under them. Taught in
``06_trainer.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Mapping
from typing import Any

from helpers.core.errors import InvalidInputError
from helpers.trainee.drill.times import parse_time

__all__ = [
    "MIN_CASE_SECONDS",
    "MIN_DRILL_SECONDS_PER_CASE",
    "EARLIEST",
    "FUTURE_GRACE",
    "time_problems",
]

#: A case answered sooner than this after it was served is "too fast": reading its IDs, ticking them,
#: setting the flag and choosing a reason takes longer.
MIN_CASE_SECONDS = 3
#: A drill whose answered cases took less than this a case on average is "too fast" as a whole.
MIN_DRILL_SECONDS_PER_CASE = 8
#: No drill of this course is older: an earlier time is a clock that was never set, or an edit.
EARLIEST = _dt.datetime(2024, 1, 1, tzinfo=_dt.UTC)
#: How far past the re-grade's own clock a time may be (clocks drift) before it is "in the future".
FUTURE_GRACE = _dt.timedelta(days=1)


def _moment(text: Any) -> _dt.datetime | str:
    """The time ``text`` names (read as the drill reads its own times), or why it names none."""
    if not isinstance(text, str):
        return "is not a time"
    try:
        return parse_time(text)
    except InvalidInputError:
        return "is not a real date and time"


def _times(data: Mapping[str, Any]) -> Iterator[tuple[tuple[str, Any, str], Any, bool]]:
    """Every time the file holds: (where, as the parts :func:`_named` names; value; may it lie in the future)."""
    yield ("file", None, "saved"), data.get("saved"), False
    mastery = data.get("mastery") or {}
    yield ("file", None, "mastery.started"), mastery.get("started"), False
    for state in mastery.get("states") or []:
        for key in ("last_practised", "mastered_on"):
            if state.get(key) is not None:
                yield ("state", state.get("rule"), key), state[key], False
        if state.get("review_due") is not None:
            yield ("state", state.get("rule"), "review_due"), state["review_due"], True
    for attempt in mastery.get("attempts") or []:
        for key in ("served", "answered"):
            if attempt.get(key) is not None:
                yield ("case", attempt.get("number"), key), attempt[key], False


def _named(parts: tuple[str, Any, str]) -> str:
    """Where a time is, as a problem names it: ``saved``, ``ts-lost mastered_on``, ``case 7 served``."""
    kind, owner, key = parts
    if kind == "file":
        return key
    return f"case {owner} {key}" if kind == "case" else f"{owner} {key}"


def time_problems(data: Mapping[str, Any], *, now: _dt.datetime | None = None) -> list[str]:
    """What is wrong with the times of a version 3 progress object (already schema-checked).

    ``now`` is the re-grade's clock (the current time unless given). Taught in ``06_trainer.ipynb``.
    """
    now = now or _dt.datetime.now(_dt.UTC)
    latest = now + FUTURE_GRACE
    problems: list[str] = []
    for parts, value, future_ok in _times(data):
        moment = _moment(value)
        if isinstance(moment, _dt.datetime) and moment >= EARLIEST and (moment <= latest or future_ok):
            continue
        where = _named(parts)
        if isinstance(moment, str):
            problems.append(f"{where} {value!r} {moment}")
        elif moment < EARLIEST:
            problems.append(
                f"{where} {value} is before {EARLIEST:%Y-%m-%d}, when no drill of this course ran"
            )
        elif moment > latest and not future_ok:
            problems.append(
                f"{where} {value} is in the future (the re-grade ran at {now:%Y-%m-%dT%H:%M:%SZ})"
            )
    if problems:
        return problems[:5] + (
            [f"and {len(problems) - 5} more times like these"] if len(problems) > 5 else []
        )
    attempts = (data.get("mastery") or {}).get("attempts") or []
    previous: _dt.datetime | None = None
    fast: list[tuple[int, int]] = []
    taken = 0
    for attempt in attempts:
        served = _moment(attempt["served"])
        answered = _moment(attempt["answered"]) if attempt.get("answered") is not None else None
        if isinstance(served, str) or isinstance(answered, str):  # not reached: every time was read above
            continue
        if previous is not None and served < previous:
            problems.append(
                f"case {attempt['number']} was served before the case before it was done: times out of order"
            )
            break
        previous = answered or served
        if answered is not None:
            seconds = int((answered - served).total_seconds())
            taken += seconds
            if seconds < MIN_CASE_SECONDS:
                fast.append((attempt["number"], seconds))
    if fast:
        number, seconds = fast[0]
        problems.append(
            f"too fast: {len(fast)} cases answered under the floor of {MIN_CASE_SECONDS} s a case "
            f"(first: case {number}, in {seconds} s)"
        )
    answered_count = sum(1 for a in attempts if a.get("answered") is not None)
    if answered_count and taken < MIN_DRILL_SECONDS_PER_CASE * answered_count:
        problems.append(
            f"too fast: the drill's {answered_count} answered cases took {taken} s in all, under the floor "
            f"of {MIN_DRILL_SECONDS_PER_CASE} s a case ({MIN_DRILL_SECONDS_PER_CASE * answered_count} s)"
        )
    return problems
