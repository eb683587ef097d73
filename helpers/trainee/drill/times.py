"""Times as progress files write them: whole seconds in UTC, such as ``2026-12-01T09:30:00Z``.

Every served and scored case of a drill carries two such times; the drill's review days and the
trainer's time checks read them back. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import functools
import re

from helpers.core.errors import InvalidInputError

__all__ = ["now_text", "parse_time"]


def now_text(moment: _dt.datetime | None = None) -> str:
    """A UTC time as progress files write it: ``2026-12-01T09:30:00Z``."""
    moment = moment or _dt.datetime.now(_dt.UTC)
    return moment.astimezone(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


_TIME_TEXT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", re.ASCII)


def parse_time(text: str) -> _dt.datetime:
    """The inverse of :func:`now_text`; raises :class:`InvalidInputError` for anything else."""
    if isinstance(text, str):
        return _parse_time_text(text)
    raise InvalidInputError(f"{text!r} is not a time like 2026-12-01T09:30:00Z", field="time")


@functools.lru_cache(maxsize=4096)  # a drill's times are read by the load, the time checks and the replay
def _parse_time_text(text: str) -> _dt.datetime:
    try:
        if _TIME_TEXT.fullmatch(text):  # the form now_text writes: ISO 8601 in UTC, read directly
            return _dt.datetime.fromisoformat(text)
        moment = _dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError):
        raise InvalidInputError(f"{text!r} is not a time like 2026-12-01T09:30:00Z", field="time") from None
    return moment.replace(tzinfo=_dt.UTC)
