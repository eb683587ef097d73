"""The trainer's view over progress files: trainees × rules, the hardest rules, completion."""

from __future__ import annotations

import csv
import io
import json
import shutil

from helpers.core.paths import fixtures_dir
from helpers.teach.cohort import (
    CSV_FIELDS,
    cohort_csv,
    cohort_table,
    cohort_text,
    hardest_table,
    load_cohort,
    mastery_numbers,
)
from helpers.teach.rules import load_rules

SAMPLES = fixtures_dir() / "sample_progress"
RULES = load_rules()


def test_the_sample_cohort_reads_every_file():
    cohort = load_cohort([SAMPLES])
    assert [t.name for t in cohort.trainees] == ["Asha", "Ben", "Chen", "dana-v1", "Erin", "Fran"]
    assert cohort.unreadable == ()
    asha, ben, _chen, dana, erin, fran = cohort.trainees
    assert not asha.problems and not ben.problems
    assert any("verdicts do not match their attempts" in p for p in erin.problems)
    assert any("the claimed state does not match its attempts" in p for p in erin.problems)
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


def test_without_matplotlib_the_cohort_chart_is_its_numbers_and_a_message(monkeypatch):
    import builtins

    from helpers.teach.chart import NO_MATPLOTLIB
    from helpers.teach.cohort import cohort_chart

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    chart = cohort_chart(load_cohort([SAMPLES]))
    assert not chart.drawn and repr(chart).startswith(NO_MATPLOTLIB)
    assert "ts-lost: " in repr(chart)
