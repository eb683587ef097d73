#!/usr/bin/env python3
"""Benchmarks of the batch checks, run by hand (never by the test suite).

    .venv/bin/python benchmarks/run.py            # everything, best of 3 runs each
    .venv/bin/python benchmarks/run.py --quick    # smaller files, one run each (a smoke test)
    .venv/bin/python benchmarks/run.py --json     # the figures as one JSON object

Inputs are generated deterministically (fixed seeds) into a temporary folder.
Every measurement runs in its own Python process, so its peak memory (peak
resident set size, ``VmHWM`` on Linux) belongs to that workload alone. Times exclude
interpreter start-up and imports, and are the best of ``--repeat`` runs.

Workloads, as in the issue "Check real data at scale":

* ``scope-100k``: one target-scope record with 100,000 IDs on each side;
* ``key-1m``: a baseline answer key and a proposed key with 1,000,000 IDs each
  (two ``.json`` files; 50 answers changed, 50 missing, 1,000 new cases);
* ``records-1m`` and ``records-10k``: JSON Lines of small rewrite records.

For each: ``parse`` is reading and parsing alone, with the same strict parser
the check uses (``orjson``, duplicate keys refused); ``check`` is the project's
whole run: reading, parsing, checking and summarising. ``stdlib json`` is
parsing alone with Python's ``json`` module, for comparison with the issue's
reference figures. Finally the command line runs a million-line file with 1%
corrupt lines, and every corrupt line must be reported.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: The seeds' reference evaluators on Node 20, and the targets, from the issue (seconds).
REFERENCE = {"scope-100k": 10.8, "key-1m": 3.3, "records-1m": 4.5}
TARGETS = {
    "scope-100k": REFERENCE["scope-100k"] / 100,  # at least 100x faster
    "key-1m": REFERENCE["key-1m"] / 2,  # at most half the reference's time
    "records-1m": REFERENCE["records-1m"] / 2,
}
MAX_OVERHEAD = 1.20  # check time / parse time
MAX_MEMORY_RATIO = 2.0  # peak memory, 1M records / 10k records

TARGETS_POOL = [
    "induction",
    "refresher",
    "payroll",
    "first-aid",
    "fire-safety",
    "manual-handling",
    "onboarding",
    "appraisal",
    "leave-policy",
    "expenses",
    "security",
    "data-protection",
]


# --- deterministic inputs -----------------------------------------------------------


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def write_scope_100k(path: Path, seed: int = 1) -> None:
    """One record: 100,000 IDs each side, shuffled; 10 lost and 10 added."""
    rng = random.Random(seed)
    ids = [f"target-{i:06d}" for i in range(100_000)]
    original = ids[:]
    rng.shuffle(original)
    rewritten = ids[10:] + [f"extra-{i:06d}" for i in range(10)]
    rng.shuffle(rewritten)
    path.write_bytes(_dump({"id": "big", "original": original, "rewritten": rewritten}) + b"\n")


def write_keys_1m(baseline: Path, proposed: Path, seed: int = 2) -> None:
    """Seed-shaped keys: IDs S1..S1000000, one-letter answers; some changed, missing, new."""
    rng = random.Random(seed)
    letters = "ABCDRS"
    base = {f"S{i}": rng.choice(letters) for i in range(1, 1_000_001)}
    prop = dict(base)
    sentinels = list(base)
    for sentinel in rng.sample(sentinels, 50):
        prop[sentinel] = prop[sentinel] + " "
    for sentinel in rng.sample(sentinels, 50):
        prop.pop(sentinel, None)
    for i in range(1, 1001):
        prop[f"C{i}"] = rng.choice(letters)
    baseline.write_bytes(_dump(base))
    proposed.write_bytes(_dump(prop))


def write_records(path: Path, count: int, seed: int = 3, corrupt: float = 0.0) -> set[int]:
    """Small rewrite records: 70% same order, 15% reordered, 8% lost, 5% added, 2% both.

    With ``corrupt`` > 0, that share of lines is broken in one of several ways;
    returns their line numbers.
    """
    rng = random.Random(seed)
    bad = set(rng.sample(range(1, count + 1), int(count * corrupt))) if corrupt else set()
    broken = [
        b'{"original":["a"],"rewritten":["a"]',
        b'{"original":["a"],"original":["b"],"rewritten":["a"]}',
        b'{"original":["a"],"rewritten":[7]}',
        b"",
        b'{"original":["\xff"],"rewritten":["a"]}',
        b'{"original":["a"],"rewriten":["a"]}',
    ]
    with open(path, "wb") as out:
        for number in range(1, count + 1):
            if number in bad:
                out.write(rng.choice(broken) + b"\n")
                continue
            original = rng.sample(TARGETS_POOL, rng.choice((2, 2, 3)))
            roll = rng.random()
            if roll < 0.70:
                rewritten = list(original)
            elif roll < 0.85:
                rewritten = original[::-1]
            elif roll < 0.93:
                rewritten = original[1:]
            elif roll < 0.98:
                rewritten = [*original, rng.choice(TARGETS_POOL)]
            else:
                rewritten = [*original[1:], rng.choice(TARGETS_POOL)]
            record = {
                "id": f"r{number:07d}",
                "query": f"Compare {original[0]} with {original[-1]}",
                "original": original,
                "rewritten": rewritten,
            }
            out.write(_dump(record) + b"\n")
    return bad


# --- one measurement, in a fresh process ------------------------------------------------


def _rss_kb() -> int:
    """This process's peak resident set size in KiB.

    Linux's ``VmHWM`` starts afresh with each program; ``ru_maxrss`` would carry
    over the benchmark runner's own peak through ``exec``, so it is the fallback only.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _parse_lines(path: str) -> int:
    from helpers.core.jsonio import parse_json_line as parse_line
    from helpers.team.fastpath import loads_fast

    count = 0
    with open(path, "rb") as stream:
        for number, raw in enumerate(stream, 1):
            if loads_fast(raw) is None:
                parse_line(raw, number, path)
            count += 1
    return count


def _parse_lines_stdlib(path: str) -> int:
    count = 0
    with open(path, "rb") as stream:
        for raw in stream:
            with contextlib.suppress(ValueError):
                json.loads(raw)
            count += 1
    return count


def _parse_keys(baseline: str, proposed: str) -> int:
    from helpers.core.jsonio import load_json_file
    from helpers.team.fastpath import loads_fast

    sizes = 0
    for path in (baseline, proposed):
        value = loads_fast(Path(path).read_bytes())
        if value is None:
            value = load_json_file(path)
        sizes += len(value)
    return sizes


def _parse_keys_stdlib(baseline: str, proposed: str) -> int:
    return sum(len(json.loads(Path(path).read_bytes())) for path in (baseline, proposed))


def _check_lines(path: str) -> int:
    from helpers.team.batch import BatchSummary, check_records

    summary = BatchSummary("target-scope", path)
    with open(path, "rb") as stream:
        check_records(stream, summary)
    return summary.records


def _check_keys(baseline: str, proposed: str) -> int:
    from helpers.team.batch import check_key_files

    result = check_key_files(baseline, proposed)
    assert result.result is not None, result.errors[:3]
    return len(result.result.missing) + len(result.result.changed)


WORK = {
    ("lines", "parse"): _parse_lines,
    ("lines", "stdlib"): _parse_lines_stdlib,
    ("lines", "check"): _check_lines,
    ("keys", "parse"): _parse_keys,
    ("keys", "stdlib"): _parse_keys_stdlib,
    ("keys", "check"): _check_keys,
}


def worker(kind: str, mode: str, paths: list[str]) -> None:
    """Run one measurement; print its wall and CPU seconds, peak and starting memory, and result."""
    import helpers.team.batch
    import helpers.team.fastpath
    import helpers.team.reports  # noqa: F401

    start_rss = _rss_kb()
    began, began_cpu = time.perf_counter(), time.process_time()
    result = WORK[(kind, mode)](*paths)
    seconds, cpu = time.perf_counter() - began, time.process_time() - began_cpu
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu_seconds": cpu,
                "peak_rss_kb": _rss_kb(),
                "start_rss_kb": start_rss,
                "result": result,
            }
        )
    )


def measure(kind: str, mode: str, paths: list[Path], repeat: int) -> dict[str, Any]:
    """Best wall time of ``repeat`` fresh processes, the best CPU time, and the best run's peak memory."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, __file__, "--worker", kind, mode, *map(str, paths)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        runs.append(json.loads(done.stdout))
    best = min(runs, key=lambda r: r["seconds"])
    best["all_seconds"] = [round(r["seconds"], 3) for r in runs]
    best["best_cpu_seconds"] = min(r["cpu_seconds"] for r in runs)
    return best


# --- the million-line file with 1% corrupt lines ------------------------------------------


def corrupt_run(path: Path, expected: set[int]) -> dict[str, Any]:
    """The command line on the corrupt file: time, exit status, and every bad line reported?"""
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "target-scope", str(path)],
        capture_output=True,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - began
    reported = set()
    lines = 0
    for line in done.stdout.splitlines():
        lines += 1
        if line.startswith(b'{"line":'):
            reported.add(json.loads(line)["line"])
    return {
        "seconds": seconds,
        "exit_status": done.returncode,
        "output_lines": lines,
        "bad_lines_reported": len(reported),
        "bad_lines_written": len(expected),
        "all_reported": reported == expected,
    }


def cli_run(args: list[str]) -> float:
    """Wall time of one command-line run with its output thrown away."""
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "helpers", *args], stdout=subprocess.DEVNULL, cwd=ROOT, check=False)
    return time.perf_counter() - began


# --- the report --------------------------------------------------------------------------


def run_all(repeat: int, quick: bool) -> dict[str, Any]:
    scale = 100 if quick else 1
    with tempfile.TemporaryDirectory(prefix="eic-bench-") as tmp:
        folder = Path(tmp)
        print(f"generating inputs in {folder} ...", file=sys.stderr)
        write_scope_100k(folder / "scope.jsonl")
        write_keys_1m(folder / "baseline.json", folder / "proposed.json")
        write_records(folder / "records-1m.jsonl", 1_000_000 // scale)
        write_records(folder / "records-10k.jsonl", 10_000 // scale)
        expected_bad = write_records(folder / "corrupt.jsonl", 1_000_000 // scale, seed=4, corrupt=0.01)
        workloads = {
            "scope-100k": ("lines", [folder / "scope.jsonl"]),
            "key-1m": ("keys", [folder / "baseline.json", folder / "proposed.json"]),
            "records-1m": ("lines", [folder / "records-1m.jsonl"]),
            "records-10k": ("lines", [folder / "records-10k.jsonl"]),
        }
        figures: dict[str, Any] = {}
        for name, (kind, paths) in workloads.items():
            print(f"measuring {name} ...", file=sys.stderr)
            figures[name] = {
                mode: measure(kind, mode, paths, repeat) for mode in ("parse", "check", "stdlib")
            }
        print("running the command line ...", file=sys.stderr)
        figures["cli"] = {
            "records-1m default output": cli_run(["target-scope", str(folder / "records-1m.jsonl")]),
            "records-1m --summary-json": cli_run(
                ["target-scope", "--summary-json", str(folder / "records-1m.jsonl")]
            ),
            "key-1m two files": cli_run(
                [
                    "sentinels",
                    "--baseline",
                    str(folder / "baseline.json"),
                    "--proposed",
                    str(folder / "proposed.json"),
                ]
            ),
        }
        figures["corrupt-1m"] = corrupt_run(folder / "corrupt.jsonl", expected_bad)
    figures["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0], "quick": quick}
    return figures


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(figures: dict[str, Any]) -> str:
    out = [
        "wall seconds (best run); best CPU seconds in brackets (steadier on a shared machine)",
        f"{'workload':<13}{'parse':>16}{'check':>16}{'ratio':>7}{'stdlib json':>13}"
        f"{'peak MB':>9}{'start MB':>10}",
    ]
    for name in ("scope-100k", "key-1m", "records-1m", "records-10k"):
        f = figures[name]
        parse, check = f["parse"], f["check"]
        cell = lambda r: f"{r['seconds']:.3f} ({r['best_cpu_seconds']:.3f})"  # noqa: E731
        out.append(
            f"{name:<13}{cell(parse):>16}{cell(check):>16}{check['seconds'] / parse['seconds']:>7.2f}"
            f"{f['stdlib']['seconds']:>13.3f}"
            f"{check['peak_rss_kb'] / 1024:>9.1f}{check['start_rss_kb'] / 1024:>10.1f}"
        )
    out.append("")
    out.append("targets (reference: the seeds' evaluators on Node 20, figures from the issue)")
    for name, limit in TARGETS.items():
        check = figures[name]["check"]["seconds"]
        out.append(
            f"  {name:<11} check {check:.3f} s <= {limit:.3f} s "
            f"(reference {REFERENCE[name]} s, {REFERENCE[name] / check:.1f}x faster): {_verdict(check <= limit)}"
        )
    for name in ("scope-100k", "key-1m", "records-1m"):
        ratio = figures[name]["check"]["seconds"] / figures[name]["parse"]["seconds"]
        out.append(
            f"  {name:<11} check/parse {ratio:.2f} <= {MAX_OVERHEAD:.2f}: {_verdict(ratio <= MAX_OVERHEAD)}"
        )
    big, small = figures["records-1m"]["check"]["peak_rss_kb"], figures["records-10k"]["check"]["peak_rss_kb"]
    out.append(
        f"  peak memory 1M/10k records {big / 1024:.1f} MB / {small / 1024:.1f} MB = {big / small:.2f} "
        f"<= {MAX_MEMORY_RATIO:.1f}: {_verdict(big / small <= MAX_MEMORY_RATIO)}"
    )
    out.append("")
    out.append("command line (wall time, including start-up)")
    for label, seconds in figures["cli"].items():
        out.append(f"  {label:<28}{seconds:>7.2f} s")
    c = figures["corrupt-1m"]
    out.append(
        f"  1%-corrupt file             {c['seconds']:>7.2f} s, exit status {c['exit_status']}, "
        f"{c['bad_lines_reported']} of {c['bad_lines_written']} bad lines reported "
        f"({'all' if c['all_reported'] else 'NOT all'}), {c['output_lines']} output lines"
    )
    m = figures["machine"]
    out.append(
        f"\n{m['cpus']} CPUs, Python {m['python']}{', quick run: smaller files' if m['quick'] else ''}"
    )
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per measurement; the best counts (default 3)"
    )
    parser.add_argument("--quick", action="store_true", help="files 100 times smaller, one run each")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker[0], args.worker[1], args.worker[2:])
        return 0
    figures = run_all(1 if args.quick else args.repeat, args.quick)
    print(json.dumps(figures, indent=1) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
