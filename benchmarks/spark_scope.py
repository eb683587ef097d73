#!/usr/bin/env python3
"""``target-scope --engine spark`` beside the default route, on N small rewrite records.

    .venv/bin/python benchmarks/spark_scope.py                      # 1,000,000 records, median of 3
    .venv/bin/python benchmarks/spark_scope.py --records 100000 --repeat 1

Writes the records of benchmarks/sql_recipe.py (2 or 3 targets each, about 1 in 5 not preserved)
once as JSON Lines in a temporary folder, then times, each as a whole process with its output going to
a pipe, interleaved in every round, the median of ``--repeat`` rounds:

* ``python``: ``python -m helpers target-scope FILE`` (the default route);
* ``spark``: ``python -m helpers target-scope FILE --engine spark --spark-master MASTER`` (JVM start-up
  included: a fresh process pays it every time);
* ``spark, start-up``: the same command on a one-record file, so the start-up can be taken off.

Also prints the CPU seconds of each command's Python process (the JVM is not waited for by it, so its
CPU is not counted; on a shared machine, compare the start-up peer's wall time instead) and checks that
both routes wrote the same bytes. Run by hand, never as a test. Needs the spark extra and Java.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sql_recipe import ROOT, records


def run(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and the children it waited for, sha256 of its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    digest = hashlib.sha256()
    assert done.stdout is not None
    while chunk := done.stdout.read(1 << 20):
        digest.update(chunk)
    done.wait()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--spark-master", default="local[2]")
    args = parser.parse_args()
    import json

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        jsonl, one = folder / "rewrites.jsonl", folder / "one.jsonl"
        with open(jsonl, "w", encoding="utf-8") as handle:
            for start in range(0, args.records, 500_000):
                chunk = records(min(500_000, args.records - start), seed=start + 1)
                handle.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in chunk)
        one.write_text('{"original":["a"],"rewritten":["a"]}\n', encoding="utf-8")
        print(f"{args.records:,} records: JSON Lines {jsonl.stat().st_size / 1e6:,.0f} MB")
        python = sys.executable
        spark = ["--engine", "spark", "--spark-master", args.spark_master]
        peers = {
            "python": [python, "-m", "helpers", "target-scope", str(jsonl)],
            "spark": [python, "-m", "helpers", "target-scope", str(jsonl), *spark],
            "spark, start-up": [python, "-m", "helpers", "target-scope", str(one), *spark],
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in peers}
        digests: dict[str, set[str]] = {name: set() for name in peers}
        for _ in range(args.repeat):
            for name, command in peers.items():
                wall, cpu, digest = run(command, ROOT)
                times[name].append((wall, cpu))
                digests[name].add(digest)
        for name, runs in times.items():
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            print(
                f"{name:16} {wall:8.2f} s wall  {cpu:8.2f} s CPU (Python)  (runs: {', '.join(f'{w:.1f}' for w, _ in runs)})"
            )
        same = digests["python"] == digests["spark"] and len(digests["python"]) == 1
        print(f"same output bytes: {same}")
        print(
            f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}, python {sys.version.split()[0]}"
        )


if __name__ == "__main__":
    main()
