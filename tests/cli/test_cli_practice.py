"""``python -m helpers practice generate`` and ``python -m helpers cohort`` as subprocesses."""

from __future__ import annotations

import csv
import io
import json
import shutil

from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.generators import GENERATORS, generate, generated_case_data

SAMPLES = fixtures_dir() / "sample_progress"


def test_generate_prints_the_cases_the_generators_make(run_cli):
    done = run_cli("practice", "generate", "--rule", "sk-invisible", "--seed", "3", "--count", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        json.loads(json.dumps(generated_case_data(generate("sk-invisible", seed)))) for seed in (3, 4, 5)
    ]
    first = json.loads(lines[0])
    assert list(first) == ["check", "id", "title", "rule_ids", "input", "expected", "decision", "reason"]


def test_generate_all_covers_every_rule_and_repeats_exactly(run_cli):
    once = run_cli("practice", "generate", "--rule", "all", "--seed", "9", "--count", "2")
    again = run_cli("practice", "generate", "--rule", "all", "--seed", "9", "--count", "2")
    assert once.returncode == 0 and once.stdout == again.stdout
    rules = [json.loads(line)["rule_ids"][0] for line in once.stdout.decode().splitlines()]
    assert rules == list(GENERATORS) * 2


def test_generate_refuses_an_unknown_rule_with_the_list(run_cli):
    done = run_cli("practice", "generate", "--rule", "ts-nope")
    assert done.returncode == 2 and done.stdout == b""
    assert b"no rule 'ts-nope'" in done.stderr and b"ts-lost" in done.stderr


def test_cohort_prints_the_table_and_writes_the_csv(run_cli, tmp_path):
    out = tmp_path / "cohort.csv"
    done = run_cli("cohort", str(SAMPLES), "--csv", str(out))
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("utf-8")
    assert (
        text.startswith("Progress files re-graded from their attempts") and "; complete on 2026-11-" in text
    )
    rows = list(csv.DictReader(io.StringIO(out.read_text("utf-8"))))
    assert {row["trainee"] for row in rows} == {"Asha", "Ben", "Chen", "dana-v1", "Erin", "Fran"}


def test_cohort_lists_an_unreadable_file_and_exits_4(run_cli, tmp_path):
    shutil.copy(SAMPLES / "ben.json", tmp_path / "ben.json")
    (tmp_path / "junk.json").write_text("[1, 2", encoding="utf-8")
    done = run_cli("cohort", str(tmp_path))
    assert done.returncode == 4
    assert "not read: " in done.stdout.decode() and "Ben" in done.stdout.decode()


def test_cohort_never_writes_its_csv_over_a_progress_file(run_cli, tmp_path):
    target = tmp_path / "ben.json"
    shutil.copy(SAMPLES / "ben.json", target)
    before = target.read_bytes()
    done = run_cli("cohort", str(target), "--csv", str(target))
    assert done.returncode == 2 and b"is one of the progress files" in done.stderr
    assert target.read_bytes() == before


def test_cohort_with_no_files_is_bad_input(run_cli, tmp_path):
    done = run_cli("cohort", str(tmp_path))
    assert done.returncode == 4 and b"no progress files found" in done.stderr
