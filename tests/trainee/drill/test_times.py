"""Times as progress files write them: UTC to the second, read back exactly, anything else refused."""

from __future__ import annotations

import datetime as dt

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.trainee.drill.times import now_text, parse_time


def test_now_text_is_utc_to_the_second() -> None:
    moment = dt.datetime(2026, 12, 1, 10, 30, 5, 999, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    assert now_text(moment) == "2026-12-01T09:30:05Z"


@settings(max_examples=examples(200), deadline=None)
@given(
    st.datetimes(
        min_value=dt.datetime(1, 1, 2),
        max_value=dt.datetime(9999, 12, 30),
        timezones=st.sampled_from([dt.UTC, dt.timezone(dt.timedelta(hours=5, minutes=30))]),
    )
)
def test_a_time_text_reads_back_as_the_same_second(moment: dt.datetime) -> None:
    text = now_text(moment)
    assert parse_time(text) == moment.replace(microsecond=0)
    assert now_text(parse_time(text)) == text


@pytest.mark.parametrize(
    "text",
    ["2026-12-01T09:30:00", "2026-12-01 09:30:00Z", "2026-12-01T09:30:00+00:00", "2026-13-01T09:30:00Z", ""],
)
def test_any_other_form_is_refused_naming_the_time(text: str) -> None:
    with pytest.raises(InvalidInputError, match="is not a time like 2026-12-01T09:30:00Z"):
        parse_time(text)


def test_a_time_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="is not a time like"):
        parse_time(20261201)  # type: ignore[arg-type]
