"""A mastery drill as a progress file keeps it (``helpers/trainee/drill/record.py``): plain data, no engine."""

from __future__ import annotations

import datetime as dt

from trainees import perfect, run

from helpers.trainee.drill.mastery import drill_facets
from helpers.trainee.drill.model import MASTERY_MODEL
from helpers.trainee.drill.record import DrillRecord
from helpers.trainee.drill.times import parse_time


def test_a_drill_begun_now_holds_its_rules_and_kinds_and_nothing_worked() -> None:
    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    record = DrillRecord.begun(["ts-lost", "ts-exact-ids"], seed=7, trainee="Ada", seed_kind="fresh")
    assert record.mastery.rules == ("ts-lost", "ts-exact-ids") and record.mastery.seed == 7
    assert record.mastery.facets == tuple(drill_facets(["ts-lost", "ts-exact-ids"])) != ()
    assert (
        record.mastery.attempts == [] and record.mastery.step == 0 and record.mastery.model == MASTERY_MODEL
    )
    assert (record.trainee, record.seed_kind, record.check, record.model_since) == ("Ada", "fresh", None, 1)
    assert before <= parse_time(record.started) <= dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1)


def test_rules_no_look_alike_decides_give_a_drill_without_kinds() -> None:
    assert DrillRecord.begun(["ts-lost", "sk-missing"], seed=1, seed_kind="unrecorded").mastery.facets == ()


def test_a_running_drill_writes_itself_back_as_a_record_of_what_it_served() -> None:
    session, _ = run(perfect, 5, limit=4)
    record = session.record()
    assert isinstance(record, DrillRecord)
    assert [a.number for a in record.mastery.attempts] == [1, 2, 3, 4]
    assert all(a.outcome == "correct" for a in record.mastery.attempts)
    assert record.mastery.seed == 5 and record.started
