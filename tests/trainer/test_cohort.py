"""The trainer's view over progress files: trainees × rules, the hardest rules, completion."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil

from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.rules import load_rules
from helpers.trainer.cohort import load_cohort
from helpers.trainer.views.cohort_views import (
    CSV_FIELDS,
    cohort_csv,
    cohort_table,
    cohort_text,
    hardest_table,
    mastery_numbers,
)

SAMPLES = fixtures_dir() / "sample_progress"
RULES = load_rules()


def test_the_sample_cohort_reads_every_file():
    cohort = load_cohort([SAMPLES])
    assert [t.name for t in cohort.trainees] == ["Asha", "Ben", "Chen", "dana-v1", "Erin", "Fran"]
    assert cohort.unreadable == ()
    asha, ben, _chen, dana, erin, fran = cohort.trainees
    assert not asha.problems and not ben.problems
    assert any("verdicts do not match their attempts" in p for p in erin.problems)
    claimed = [p for p in erin.problems if "the claimed state does not match its attempts" in p]
    assert claimed and all(not re.search(r"\b(True|False|None)\b|'", p) for p in claimed)  # JSON, not reprs
    assert any("(its attempts give null)" in p for p in claimed)
    assert fran.version == 2 and any("older course" in p for p in fran.problems)
    assert asha.completion().startswith("complete on 2026-11-")
    assert all(asha.status(rule.id) == "mastered" for rule in RULES)
    assert ben.completion() == f"{len(ben.mastered)} of {len(RULES)} rules mastered"
    assert dana.version == 1 and dana.completion().startswith("set course only: ")


def test_the_text_table_has_a_row_per_rule_and_says_it_is_self_reported():
    text = cohort_text(load_cohort([SAMPLES]))
    assert text.startswith("Progress files re-graded from their attempts")
    for rule in RULES:
        assert any(line.startswith(rule.id + " ") for line in text.splitlines())
    assert "hardest rules" in text and "content hash" in text


def test_the_csv_is_one_row_per_trainee_and_rule_and_agrees_with_the_states():
    cohort = load_cohort([SAMPLES])
    rows = list(csv.DictReader(io.StringIO(cohort_csv(cohort))))
    assert tuple(rows[0]) == CSV_FIELDS
    assert len(rows) == len(cohort.trainees) * len(RULES)
    for trainee in cohort.trainees:
        for row in (r for r in rows if r["trainee"] == trainee.name):
            state = trainee.states[row["rule"]]
            assert int(row["attempts"]) == state.attempts and int(row["correct"]) == state.correct
            assert row["status"] == trainee.status(row["rule"])


def test_the_hardest_rules_are_ranked_by_miss_rate():
    cohort = load_cohort([SAMPLES])
    hardest = cohort.hardest(limit=len(RULES))
    rates = [misses / attempts for _, misses, attempts, _ in hardest]
    assert rates == sorted(rates, reverse=True)
    assert hardest_table(cohort).text.count("taught in") == min(5, len(hardest))


def test_a_damaged_file_is_listed_and_the_rest_still_shown(tmp_path):
    shutil.copy(SAMPLES / "ben.json", tmp_path / "ben.json")
    (tmp_path / "broken.json").write_text('{"format": "eval-integrity-practice-progress", "version": 9}')
    cohort = load_cohort([tmp_path])
    assert [t.name for t in cohort.trainees] == ["Ben"]
    ((path, reason),) = cohort.unreadable
    assert path.endswith("broken.json") and "version 9" in reason
    assert "not read: " in cohort_text(cohort)


def test_names_are_escaped_in_the_html(tmp_path):
    data = json.loads((SAMPLES / "chen.json").read_text("utf-8"))
    data["trainee"] = "<img src=x onerror=alert(1)>"
    (tmp_path / "x.json").write_text(json.dumps(data), encoding="utf-8")
    html = cohort_table(load_cohort([tmp_path])).html
    assert "<img" not in html and "&lt;img src=x" in html


def test_mastery_numbers_count_trainees():
    cohort = load_cohort([SAMPLES])
    for _rule, done, rest in mastery_numbers(cohort):
        assert done + rest == len(cohort.trainees)


def test_without_matplotlib_the_cohort_chart_is_its_numbers_and_a_message(without_matplotlib):
    from helpers.team.views.batch_chart import NO_MATPLOTLIB
    from helpers.trainer.views.cohort_views import cohort_chart

    chart = cohort_chart(load_cohort([SAMPLES]))
    assert not chart.drawn and repr(chart).startswith(NO_MATPLOTLIB)
    assert "ts-lost: " in repr(chart)


#: What :func:`_dies_in_a_worker` needs, set before the pool forks (a worker sees the same).
_DYING: dict = {}


def _dies_in_a_worker(job):
    """``_load_one`` in this process; in a worker, a marker file and then an abrupt exit."""
    if os.getpid() != _DYING["parent"]:
        _DYING["marker"].touch()
        os._exit(3)
    return _DYING["real"](job)


def test_a_broken_worker_pool_falls_back_to_reading_in_this_process(tmp_path, monkeypatch):
    """A worker killed mid-run breaks the pool; the cohort is read here instead, in the same order."""
    from helpers.trainer import cohort as module

    folder, died = tmp_path / "cohort", tmp_path / "a worker died"
    folder.mkdir()
    for number in range(20):
        shutil.copy(SAMPLES / ("asha.json" if number % 2 else "ben.json"), folder / f"t{number:02}.json")
    monkeypatch.setitem(_DYING, "parent", os.getpid())
    monkeypatch.setitem(_DYING, "marker", died)
    monkeypatch.setitem(_DYING, "real", module._load_one)
    monkeypatch.setattr(module, "_load_one", _dies_in_a_worker)
    pooled = load_cohort([folder], workers=2)
    assert died.exists()
    serial = load_cohort([folder], workers=1)
    assert [t.file for t in pooled.trainees] == [t.file for t in serial.trainees]
    assert len(pooled.trainees) == 20 and not pooled.unreadable
    assert [t.problems for t in pooled.trainees] == [t.problems for t in serial.trainees]
