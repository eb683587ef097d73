#!/usr/bin/env python3
"""The engines side by side: the Python route, ``--engine duckdb`` and DuckDB's own SQL.

    .venv/bin/python benchmarks/engines.py                           # 1M records, 1M-row keys
    .venv/bin/python benchmarks/engines.py --records 100000 --key-rows 100000 --repeat 1
    .venv/bin/python benchmarks/engines.py --only records            # the records alone
    .venv/bin/python benchmarks/engines.py --crossover               # where --engine auto should switch

Each peer is a whole process with its output going to a pipe (read and counted here), timed
``--repeat`` times in rounds (every peer once per round, so drift on a shared machine falls on
all), and reported by the median, with the peak memory (GNU time's ``%M``) of the median run:

* 1M small rewrite records (2 or 3 targets, about 1 in 5 not preserved; ``sql_recipe.records``):
  ``python -m helpers target-scope rewrites.jsonl`` on the default route (``auto``: DuckDB at this
  size), the same from standard input as a pipe (``cat FILE |``) and as a redirected file
  (``< FILE``), ``--engine duckdb`` on the file (the default's route from 16 MiB; below it, what DuckDB
  costs at this size), ``--engine python`` on the file (two processes), on a pipe (spooled, then two
  processes) and kept to one process with ``EIC_PARALLEL_MIN_BYTES`` (what the split buys); the same
  table as Parquet on the default route and on the Python route; and DuckDB's own SQL (the recipe's
  refuse and check queries of docs/sql.md, rows to standard output as JSON, unsorted) twice: over
  the Parquet file, and over the very JSON Lines file (``read_json`` with the record's columns, rows
  numbered in file order), so that peer is like for like. The same records as CSV (lists as JSON
  arrays): the default route on the file and on a pipe, ``--engine duckdb`` and ``--engine python``,
  beside DuckDB's SQL over the very CSV file (``read_csv``, the list cells read by ``from_json``). Each of ours is also shown as a ratio to
  the DuckDB peer of its format, by the medians.
* A Parquet key pair of ``--key-rows`` IDs (100 changed, 100 dropped, 1,000 added): the default
  route (``auto``), the Python route (``--skip-python-keys`` leaves it out where it would not
  finish), ``--engine duckdb``, and the recipe's check query in DuckDB.
* ``--crossover``: both routes on JSON Lines, CSV and Parquet rewrites and key pairs of growing size, to
  find the file size from which DuckDB is faster (``--engine auto``'s thresholds).

Run by hand, never as a test. ``--json`` prints the figures as one JSON object as well.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import run_process  # noqa: E402
from sql_recipe import _BLOCK, ROOT, records  # noqa: E402

PYTHON = sys.executable

DUCKDB_SQL = """
import sys, duckdb
sources, refuse, check = sys.argv[1:4]
con = duckdb.connect()
con.execute(sources)
if con.execute(refuse).fetchall():
    sys.exit(4)
con.execute(f"COPY ({check}) TO '/dev/stdout' (FORMAT json)")
"""


def recipe() -> dict[str, str]:
    return dict(_BLOCK.findall((ROOT / "docs" / "sql.md").read_text(encoding="utf-8")))


def write_csv(folder: Path, count: int) -> Path:
    """The records as CSV (``id,original,rewritten,unresolved``, lists as JSON arrays, an empty
    ``unresolved`` cell), written a chunk at a time."""
    import csv

    path = folder / f"rewrites-{count}.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["id", "original", "rewritten", "unresolved"])
        for start in range(0, count, 500_000):
            for r in records(min(500_000, count - start), seed=start + 1):
                lists = (json.dumps(r[k], separators=(",", ":")) for k in ("original", "rewritten"))
                writer.writerow([r["id"], *lists, ""])
    return path


def csv_source(path: Path) -> str:
    """The recipe's ``records`` view over the CSV file: ``read_csv`` with every column text, rows
    numbered in file order, the list cells read as JSON arrays (an empty ``unresolved``: none)."""
    columns = "{id: 'VARCHAR', original: 'VARCHAR', rewritten: 'VARCHAR', unresolved: 'VARCHAR'}"
    lists = "'[\"VARCHAR\"]'"
    return (
        "CREATE OR REPLACE VIEW records AS SELECT row_number() OVER () - 1 AS file_row_number, id, "
        f"from_json(original, {lists}) AS original, from_json(rewritten, {lists}) AS rewritten, "
        f"coalesce(from_json(unresolved, {lists}), []::VARCHAR[]) AS unresolved "
        f"FROM read_csv('{path}', header = true, quote = '\"', escape = '\"', columns = {columns});"
    )


def write_rewrites(folder: Path, count: int) -> tuple[Path, Path]:
    """The records as JSON Lines and as Parquet (written a chunk at a time)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    jsonl, parquet = folder / f"rewrites-{count}.jsonl", folder / f"rewrites-{count}.parquet"
    schema = pa.schema(
        [
            ("id", pa.string()),
            ("original", pa.list_(pa.string())),
            ("rewritten", pa.list_(pa.string())),
            ("unresolved", pa.list_(pa.string())),
        ]
    )
    with open(jsonl, "w", encoding="utf-8") as handle, pq.ParquetWriter(parquet, schema) as writer:
        for start in range(0, count, 500_000):
            chunk = records(min(500_000, count - start), seed=start + 1)
            handle.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in chunk)
            writer.write_table(pa.Table.from_pylist(chunk, schema=schema))
    return jsonl, parquet


def write_keys(folder: Path, rows: int, seed: int = 8) -> tuple[Path, Path]:
    """Two Parquet keys of ``rows`` IDs: 100 answers changed, 100 IDs dropped, 1,000 added."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    ids = pa.array(np.char.add("S", np.arange(rows).astype(str)))
    answers = pa.array(np.array(list("ABCDRS"))[rng.integers(0, 6, rows)])
    step = max(3, rows // 100)
    where = np.arange(rows) % step
    proposed_answers = pa.array(np.where(where == 1, "X", np.asarray(answers)))
    proposed = pa.table({"id": ids, "answer": proposed_answers}).filter(pa.array(where != 2))
    extra = pa.table({"id": [f"C{i}" for i in range(1000)], "answer": ["A"] * 1000})
    b, p = folder / f"baseline-{rows}.parquet", folder / f"proposed-{rows}.parquet"
    pq.write_table(pa.table({"id": ids, "answer": answers}), b)
    pq.write_table(pa.concat_tables([proposed, extra]), p)
    return b, p


def jsonl_source(jsonl: Path) -> str:
    """The recipe's ``records`` view over JSON Lines: ``read_json`` has no ``file_row_number``,
    so rows are numbered in the order they are read (DuckDB keeps a file's order)."""
    columns = "{id: 'VARCHAR', original: 'VARCHAR[]', rewritten: 'VARCHAR[]', unresolved: 'VARCHAR[]'}"
    return (
        "CREATE OR REPLACE VIEW records AS SELECT row_number() OVER () - 1 AS file_row_number, * "
        f"FROM read_json('{jsonl}', format = 'newline_delimited', columns = {columns});"
    )


def key_sources(b: Path, p: Path) -> str:
    return (
        f"CREATE OR REPLACE VIEW baseline AS SELECT id, answer FROM read_parquet('{b}');\n"
        f"CREATE OR REPLACE VIEW proposed AS SELECT id, answer FROM read_parquet('{p}');"
    )


def measure(peers: dict[str, list[str]], repeat: int) -> dict[str, dict[str, Any]]:
    """Each peer ``repeat`` times in rounds; the median run's figures, with every run's seconds."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in peers}
    for _ in range(repeat):
        for name, argv in peers.items():
            runs[name].append(run_process(argv))
    figures = {}
    for name, done in runs.items():
        done.sort(key=lambda r: r["seconds"])
        middle = done[len(done) // 2]
        figures[name] = {
            "median_s": statistics.median(r["seconds"] for r in done),
            "median_cpu_s": statistics.median(r["cpu_seconds"] for r in done),
            "runs_s": [round(r["seconds"], 3) for r in done],
            "peak_mb": (middle["peak_rss_kb"] or 0) / 1024,
            "exit_status": middle["exit_status"],
            "output_lines": middle["output_lines"],
        }
    return figures


def show(title: str, figures: dict[str, dict[str, Any]], peers: dict[str, str] | None = None) -> None:
    """The figures as a table; ``peers`` maps a peer to the one its ratio is taken to."""
    print(f"\n{title} (load average now {os.getloadavg()[0]:.1f})")
    print(f"  {'peer':48} {'median s':>9} {'CPU s':>6} {'peak MB':>8} {'ratio':>6}  exit  runs")
    for name, f in figures.items():
        to = (peers or {}).get(name)
        ratio = f"{f['median_s'] / figures[to]['median_s']:5.2f}x" if to in figures else ""
        f["ratio"] = ratio
        print(
            f"  {name:48} {f['median_s']:9.2f} {f['median_cpu_s']:6.2f} {f['peak_mb']:8.0f} {ratio:>6}"
            f"  {f['exit_status']:>4}  {f['runs_s']}"
        )


def cli(*args: str) -> list[str]:
    return [PYTHON, "-m", "helpers", *args]


def key_args(b: Path, p: Path, engine: str) -> list[str]:
    return cli(
        "sentinels",
        "--baseline",
        str(b),
        "--proposed",
        str(p),
        "--format",
        "parquet",
        "--id-column",
        "id",
        "--answer-column",
        "answer",
        "--max-file-mb",
        "100000",
        "--engine",
        engine,
    )


def crossover(folder: Path, repeat: int, sizes: list[int]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for rows in sizes:
        jsonl, parquet = write_rewrites(folder, rows)
        b, p = write_keys(folder, rows)
        peers = {
            f"JSON Lines {rows:,} ({jsonl.stat().st_size / 2**20:.1f} MiB), {e}": cli(
                "target-scope", str(jsonl), "--engine", e
            )
            for e in ("python", "duckdb")
        }
        peers |= {
            f"rewrites {rows:,} ({parquet.stat().st_size / 2**20:.1f} MiB), {e}": cli(
                "target-scope", str(parquet), "--format", "parquet", "--engine", e
            )
            for e in ("python", "duckdb")
        }
        csv_file = write_csv(folder, rows)
        peers |= {
            f"CSV {rows:,} ({csv_file.stat().st_size / 2**20:.1f} MiB), {e}": cli(
                "target-scope", str(csv_file), "--format", "csv", "--engine", e
            )
            for e in ("python", "duckdb")
        }
        mib = (b.stat().st_size + p.stat().st_size) / 2**20
        peers |= {f"keys {rows:,} ({mib:.1f} MiB), {e}": key_args(b, p, e) for e in ("python", "duckdb")}
        figures = measure(peers, repeat)
        show(f"crossover, {rows:,} rows", figures)
        sys.stdout.flush()
        found[str(rows)] = figures
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--key-rows", type=int, default=1_000_000)
    parser.add_argument("--only", choices=("records", "keys"), help="only the records, or only the keys")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--skip-python-keys", action="store_true", help="leave the Python route out of the keys"
    )
    parser.add_argument("--crossover", action="store_true", help="only the crossover sweep")
    parser.add_argument(
        "--sizes", default="10000,30000,100000,300000", help="the crossover's row counts (comma-separated)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sql = recipe()
    out: dict[str, Any] = {"load_before": os.getloadavg(), "cores": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.crossover:
            out["crossover"] = crossover(folder, args.repeat, [int(n) for n in args.sizes.split(",")])
        else:
            if args.only != "keys":
                began = time.perf_counter()
                jsonl, parquet = write_rewrites(folder, args.records)
                csv_file = write_csv(folder, args.records)
                print(f"{args.records:,} records written in {time.perf_counter() - began:.0f} s")
                scope_sources = f"CREATE OR REPLACE VIEW records AS SELECT * FROM read_parquet('{parquet}', file_row_number = true);"
                pipe = f"cat {jsonl} | {PYTHON} -m helpers target-scope"
                sql_jsonl, sql_parquet, sql_csv = (
                    "DuckDB's own SQL (docs/sql.md), JSON Lines",
                    "DuckDB's own SQL (docs/sql.md), Parquet",
                    "DuckDB's own SQL (docs/sql.md), CSV (read_csv)",
                )
                peers = {
                    "default route: target-scope FILE.jsonl": cli("target-scope", str(jsonl)),
                    "default route: cat FILE.jsonl | target-scope": ["sh", "-c", pipe],
                    "default route: target-scope < FILE.jsonl": [*cli("target-scope"), "<", str(jsonl)],
                    "--engine duckdb: FILE.jsonl": cli("target-scope", str(jsonl), "--engine", "duckdb"),
                    "--engine python: FILE.jsonl": cli("target-scope", str(jsonl), "--engine", "python"),
                    "--engine python: cat FILE.jsonl |": ["sh", "-c", pipe + " --engine python"],
                    # The same, kept to one process: what the two-process split buys (docs/performance.md).
                    "--engine python, one process": [
                        "env",
                        f"EIC_PARALLEL_MIN_BYTES={1 << 62}",
                        *cli("target-scope", str(jsonl), "--engine", "python"),
                    ],
                    "default route: FILE.csv --format csv": cli(
                        "target-scope", str(csv_file), "--format", "csv"
                    ),
                    "default route: cat FILE.csv | --format csv": [
                        "sh",
                        "-c",
                        f"cat {csv_file} | {PYTHON} -m helpers target-scope --format csv",
                    ],
                    "--engine duckdb: FILE.csv": cli(
                        "target-scope", str(csv_file), "--format", "csv", "--engine", "duckdb"
                    ),
                    "--engine python: FILE.csv": cli(
                        "target-scope", str(csv_file), "--format", "csv", "--engine", "python"
                    ),
                    "default route: FILE.parquet --format parquet": cli(
                        "target-scope", str(parquet), "--format", "parquet"
                    ),
                    "Python route: FILE.parquet --format parquet": cli(
                        "target-scope", str(parquet), "--format", "parquet", "--engine", "python"
                    ),
                    sql_parquet: [
                        PYTHON,
                        "-c",
                        DUCKDB_SQL,
                        scope_sources,
                        sql["duckdb scope refuse"],
                        sql["duckdb scope check"],
                    ],
                    sql_jsonl: [
                        PYTHON,
                        "-c",
                        DUCKDB_SQL,
                        jsonl_source(jsonl),
                        sql["duckdb scope refuse"],
                        sql["duckdb scope check"],
                    ],
                    sql_csv: [
                        PYTHON,
                        "-c",
                        DUCKDB_SQL,
                        csv_source(csv_file),
                        sql["duckdb scope refuse"],
                        sql["duckdb scope check"],
                    ],
                }
                ratios = {
                    n: (sql_parquet if "parquet" in n else sql_csv if "csv" in n else sql_jsonl)
                    for n in peers
                    if not n.startswith("DuckDB")
                }
                out["records"] = measure(peers, args.repeat)
                show(f"{args.records:,} small rewrite records", out["records"], ratios)
            if args.only != "records":
                began = time.perf_counter()
                b, p = write_keys(folder, args.key_rows)
                mib = (b.stat().st_size + p.stat().st_size) / 2**20
                print(
                    f"\n{args.key_rows:,}-row key pair ({mib:.0f} MiB) written in {time.perf_counter() - began:.0f} s"
                )
                peers = {"default route (auto)": key_args(b, p, "auto")}
                if not args.skip_python_keys:
                    peers["Python route: sentinels --format parquet"] = key_args(b, p, "python")
                peers["--engine duckdb"] = key_args(b, p, "duckdb")
                peers["DuckDB's own SQL (docs/sql.md)"] = [
                    PYTHON,
                    "-c",
                    DUCKDB_SQL,
                    key_sources(b, p),
                    sql["duckdb sentinels refuse"],
                    sql["duckdb sentinels check"],
                ]
                out["keys"] = measure(peers, args.repeat)
                show(
                    f"{args.key_rows:,}-row Parquet key pair",
                    out["keys"],
                    {n: "DuckDB's own SQL (docs/sql.md)" for n in peers if not n.startswith("DuckDB")},
                )
    out["load_after"] = os.getloadavg()
    print(f"\nload average before {out['load_before']}, after {out['load_after']}; {os.cpu_count()} cores")
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
