#!/usr/bin/env python3
"""The DuckDB recipe of docs/sql.md beside the command line, on N small rewrite records.

    .venv/bin/python benchmarks/sql_recipe.py              # 10,000,000 records
    .venv/bin/python benchmarks/sql_recipe.py --records 1000000

Writes the records once as JSON Lines and as Parquet (in a temporary folder), then times, each as a
whole process with its output going to a pipe, the median of ``--repeat`` rounds (the peers take
turns within each round, so a busy moment falls on all of them alike):

* ``cli jsonl``: ``python -m helpers target-scope FILE`` (the default route; two processes past 8 MiB);
* ``cli parquet``: ``python -m helpers target-scope FILE --format parquet``;
* ``cli parquet duckdb``: the same with ``--engine duckdb``;
* ``duckdb``: the recipe's refuse and check queries, run by DuckDB on every core, the check's rows
  written to a Parquet file (the client's final sort of the small failing lists is not included).

Run by hand, never as a test. Prints one line per peer and the records per second.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_BLOCK = re.compile(r"<!-- recipe: ([a-z ]+) -->\n```(?:sql|python)\n(.*?)```", re.S)
TOPICS = ["induction", "refresher", "payroll", "safety", "onboarding", "appraisal", "leave", "expenses"]


def records(count: int, seed: int = 1) -> list[dict]:
    """Small rewrites: 2 or 3 targets each; about 1 in 5 loses or adds one."""
    rng = random.Random(seed)
    found = []
    for i in range(count):
        original = rng.sample(TOPICS, rng.choice((2, 3)))
        rewritten = list(reversed(original))
        roll = rng.random()
        if roll < 0.1:
            rewritten.pop()
        elif roll < 0.2:
            rewritten.append(rng.choice(TOPICS))
        found.append({"id": f"r{i}", "original": original, "rewritten": rewritten, "unresolved": []})
    return found


def write_inputs(folder: Path, count: int) -> tuple[Path, Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    jsonl, parquet = folder / "rewrites.jsonl", folder / "rewrites.parquet"
    writer = None
    with open(jsonl, "w", encoding="utf-8") as handle:
        for start in range(0, count, 500_000):
            chunk = records(min(500_000, count - start), seed=start + 1)
            handle.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in chunk)
            table = pa.Table.from_pylist(chunk)
            writer = writer or pq.ParquetWriter(parquet, table.schema)
            writer.write_table(table)
    assert writer is not None
    writer.close()
    return jsonl, parquet


DUCKDB_SCRIPT = """
import sys, duckdb
sources, refuse, check, out = sys.argv[1:5]
con = duckdb.connect()
con.execute(sources)
if con.execute(refuse).fetchall():
    sys.exit(4)
con.execute(f"COPY ({check}) TO '{out}' (FORMAT parquet)")
"""


def timed(command: list[str], cwd: Path) -> tuple[float, int]:
    """One whole run's wall time and exit status, its output read from a pipe and dropped."""
    start = time.perf_counter()
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as run:
        assert run.stdout is not None
        while run.stdout.read(1 << 20):
            pass
    return time.perf_counter() - start, run.returncode


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=5, help="rounds; the median is reported")
    args = parser.parse_args()
    recipe = dict(_BLOCK.findall((ROOT / "docs" / "sql.md").read_text(encoding="utf-8")))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        jsonl, parquet = write_inputs(folder, args.records)
        print(
            f"{args.records:,} records: JSON Lines {jsonl.stat().st_size / 1e6:,.0f} MB, "
            f"Parquet {parquet.stat().st_size / 1e6:,.0f} MB (written in {time.perf_counter() - start:.0f} s)"
        )
        python = sys.executable
        peers = {
            "cli jsonl": [python, "-m", "helpers", "target-scope", str(jsonl)],
            "cli parquet": [python, "-m", "helpers", "target-scope", str(parquet), "--format", "parquet"],
            "cli parquet duckdb": [
                *(python, "-m", "helpers", "target-scope", str(parquet)),
                *("--format", "parquet", "--engine", "duckdb"),
            ],
            "duckdb": [
                python,
                "-c",
                DUCKDB_SCRIPT,
                recipe["duckdb scope sources"],
                recipe["duckdb scope refuse"],
                recipe["duckdb scope check"],
                str(folder / "out.parquet"),
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in peers}
        codes: dict[str, set[int]] = {name: set() for name in peers}
        for _round in range(args.repeat):
            for name, command in peers.items():
                seconds, code = timed(command, folder)
                times[name].append(seconds)
                codes[name].add(code)
        for name, seconds_each in times.items():
            seconds = statistics.median(seconds_each)
            print(
                f"{name:19} {seconds:8.2f} s  {args.records / seconds / 1e6:6.2f} M records/s  "
                f"(exit {', '.join(map(str, sorted(codes[name])))}; each: "
                f"{', '.join(f'{t:.2f}' for t in seconds_each)})"
            )
        print(f"cores: {os.cpu_count()}, python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
