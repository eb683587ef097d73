"""The benchmarks still run against today's helpers (a few records each; the figures are never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers.core.paths import project_root

#: Each runs a benchmark script end to end: only with ``python3 tasks.py test --all`` (CI).
pytestmark = pytest.mark.slow

ROOT = project_root()


def test_the_cohort_benchmark_runs_and_the_trainer_reads_its_cohort(tmp_path):
    script = ROOT / "benchmarks" / "cohort_scale.py"
    args = ["--trainees", "3", "--attempts", "12", "--no-copied", "--no-rerun", "--keep", str(tmp_path)]
    run = subprocess.run(
        [sys.executable, script, *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert run.returncode == 0, run.stderr
    (figure,) = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert (figure["figure"], figure["trainees"], figure["exit"], figure["lines"]) == ("distinct", 3, 0, 3)
    (folder,) = [path for path in tmp_path.iterdir() if path.is_dir()]
    cohort = subprocess.run(
        [sys.executable, "-m", "helpers", "cohort", str(folder), "--json", "--no-cache"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    rows = [json.loads(line) for line in cohort.stdout.splitlines()]
    assert [row["trainee"] for row in rows] == ["Trainee 0000", "Trainee 0001", "Trainee 0002"], cohort.stderr
    assert all(row["cases_worked"] == 12 and row["problems"] == [] for row in rows), rows
    floor = subprocess.run(
        [sys.executable, ROOT / "benchmarks" / "cohort_floor.py", str(folder), "--files", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert floor.returncode == 0, floor.stderr
    steps = [json.loads(line) for line in floor.stdout.splitlines()]
    parts = ["reading", "remaking", "offered", "regrade", "times", "replay", "rest", "whole"]
    assert [(s["part"], s["files"], s["attempts"]) for s in steps] == [(part, 2, 24) for part in parts]
    by_part = {s["part"]: s for s in steps}
    assert by_part["remaking"]["to_remaking"] == 1.0 and by_part["whole"]["us_per_attempt"] > 0


def test_the_engines_benchmark_runs_every_peer_on_the_same_records():
    """Each peer, DuckDB's own SQL over the JSON Lines file included, writes one line a record."""
    pytest.importorskip("duckdb")
    script = ROOT / "benchmarks" / "engines.py"
    args = ["--records", "300", "--key-rows", "300", "--repeat", "1", "--json"]
    run = subprocess.run(
        [sys.executable, script, *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout.splitlines()[-1])
    records = figures["records"]
    assert "DuckDB's own SQL (docs/sql.md), JSON Lines" in records
    assert {peer: f["output_lines"] for peer, f in records.items()} == dict.fromkeys(records, 300)
    assert {f["exit_status"] for f in figures["keys"].values()} <= {0, 1}


def test_the_sql_recipe_benchmark_runs_every_peer_and_says_how_each_exited():
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    script = ROOT / "benchmarks" / "sql_recipe.py"
    run = subprocess.run(
        [sys.executable, script, "--records", "200", "--repeat", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    peers = {line.split("  ")[0]: line for line in run.stdout.splitlines()[1:-1]}
    assert list(peers) == ["cli jsonl", "cli parquet", "cli parquet duckdb", "duckdb"], run.stdout
    # the command line exits 1 when a rewrite loses a target, never 2 (a refused input) or a crash
    assert all("(exit 1;" in peers[name] for name in ("cli jsonl", "cli parquet", "cli parquet duckdb"))
    assert "(exit 0;" in peers["duckdb"]
