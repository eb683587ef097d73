#!/usr/bin/env python3
"""Start-up cost of the helpers and the command line, as whole processes; run by hand (never by the tests).

    python3 benchmarks/startup.py            # best of 15 runs each
    python3 benchmarks/startup.py --quick    # best of 3 (a smoke test)
    python3 benchmarks/startup.py --json     # the raw figures as one JSON object

Standard library only. Times the project venv's interpreter (``.venv/bin/python``), from the
project's folder, with standard output to a pipe that is read to the end:

* ``python -c pass``: bare start-up, the floor for the others;
* ``python -c "import helpers"``;
* ``python -m helpers target-scope``, reading one JSON line on standard input.

The runs take turns (bare, import, command line, bare, ...), so drift on a shared machine
spreads evenly; the best of each counts. Then ``python -X importtime`` says where the import
time goes: ``helpers``'s cumulative microseconds for ``import helpers``, and, for the
command-line run, the helpers modules and the slowest imports by their own time.

Targets: ``import helpers`` at most 10 ms over bare, the one-line command-line run at most
60 ms over bare.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
LINE = b'{"original":["induction","refresher"],"rewritten":["induction"]}\n'
EXPECTED = b'{"missing":["refresher"],"added":[],"preserved":false}\n'

CASES = {
    "bare": ([PYTHON, "-c", "pass"], None),
    "import helpers": ([PYTHON, "-c", "import helpers"], None),
    "CLI, one line": ([PYTHON, "-m", "helpers", "target-scope"], LINE),
}
TARGETS_MS = {"import helpers": 10.0, "CLI, one line": 60.0}
LABELS = {
    "bare": "`python -c pass`",
    "import helpers": '`python -c "import helpers"`',
    "CLI, one line": "`python -m helpers target-scope`, one line on stdin",
}

_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \| ( *)(\S+)\s*$")


def timed(argv: list[str], stdin: bytes | None) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    began = time.perf_counter()
    done = subprocess.run(
        argv,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
    )
    return time.perf_counter() - began, done


def parse_importtime(stderr: str) -> list[dict[str, Any]]:
    rows = []
    for line in stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match:
            rows.append(
                {
                    "self_us": int(match[1]),
                    "cumulative_us": int(match[2]),
                    "depth": len(match[3]) // 2,
                    "module": match[4],
                }
            )
    return rows


def importtime(argv: list[str], stdin: bytes | None) -> list[dict[str, Any]]:
    done = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
    )
    return parse_importtime(done.stderr.decode("utf-8", "replace"))


def measure(repeat: int) -> dict[str, Any]:
    walls: dict[str, list[float]] = {name: [] for name in CASES}
    problems: list[str] = []
    for _ in range(repeat):
        for name, (argv, stdin) in CASES.items():
            seconds, done = timed(argv, stdin)
            walls[name].append(seconds)
            if name == "CLI, one line":
                if done.returncode != 1 or done.stdout != EXPECTED:
                    problems.append(
                        f"CLI: exit {done.returncode}, output {done.stdout[:200]!r}, "
                        f"stderr {done.stderr[-300:]!r}"
                    )
            elif done.returncode != 0:
                problems.append(f"{name}: exit {done.returncode}, stderr {done.stderr[-300:]!r}")

    # -X importtime: the best (smallest) figure over the runs, and the slowest imports of the best CLI run.
    runs = max(3, repeat // 3)
    helpers_us, bare_total, cli_total, cli_helpers = [], [], [], []
    best_cli: list[dict[str, Any]] = []
    for _ in range(runs):
        rows = importtime(*CASES["import helpers"])
        helpers_us += [r["cumulative_us"] for r in rows if r["module"] == "helpers" and r["depth"] == 0]
        rows = importtime(*CASES["bare"])
        bare_total.append(sum(r["cumulative_us"] for r in rows if r["depth"] == 0))
        rows = importtime(*CASES["CLI, one line"])
        top = [r for r in rows if r["depth"] == 0]
        total = sum(r["cumulative_us"] for r in top)
        cli_total.append(total)
        cli_helpers.append(sum(r["cumulative_us"] for r in top if r["module"].split(".")[0] == "helpers"))
        if not best_cli or total <= min(cli_total):
            best_cli = rows
    slowest = sorted(best_cli, key=lambda r: r["self_us"], reverse=True)[:12]
    helpers_modules = [r for r in best_cli if r["module"].split(".")[0] == "helpers"]
    return {
        "wall_seconds": walls,
        "importtime": {
            "runs": runs,
            "helpers_cumulative_us": helpers_us,
            "bare_all_imports_us": bare_total,
            "cli_all_imports_us": cli_total,
            "cli_helpers_top_level_us": cli_helpers,
            "cli_slowest_self_us": slowest,
            "cli_helpers_modules": helpers_modules,
        },
        "problems": problems,
    }


def machine() -> dict[str, Any]:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    version = subprocess.run(
        [PYTHON, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True
    ).stdout.strip()
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "nproc": len(os.sched_getaffinity(0)),
        "cpu_model": model,
        "python": version,
        "loadavg": os.getloadavg(),
    }


def report(figures: dict[str, Any]) -> str:
    m, walls = figures["machine"], figures["wall_seconds"]
    best = {name: min(values) * 1000 for name, values in walls.items()}
    median = {name: statistics.median(values) * 1000 for name, values in walls.items()}
    out = [
        f"{m['date']}, {m['nproc']} CPUs ({m['cpu_model']}), Python {m['python']}, "
        f"load average {'/'.join(f'{x:.2f}' for x in m['loadavg'])}; best of {figures['repeat']} runs each"
        f"{'; QUICK RUN' if figures['quick'] else ''}",
        "",
        "| Process | best ms | median ms | over bare ms (best) | target | verdict |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name in CASES:
        over = best[name] - best["bare"]
        target = TARGETS_MS.get(name)
        out.append(
            f"| {LABELS[name]} | {best[name]:.1f} | {median[name]:.1f} | "
            f"{'—' if name == 'bare' else f'+{over:.1f}'} | "
            f"{f'<= {target:.0f}' if target else ''} | "
            f"{('met' if over <= target else '**missed**') if target else ''} |"
        )
    it = figures["importtime"]
    lo = lambda values: f"{min(values):,}" if values else "?"  # noqa: E731
    med = lambda values: f"{int(statistics.median(values)):,}" if values else "?"  # noqa: E731
    out += [
        "",
        f"| `-X importtime` (best / median of {it['runs']}) | best µs | median µs |",
        "|---|---:|---:|",
        f"| `helpers`, cumulative, for `import helpers` | {lo(it['helpers_cumulative_us'])} | "
        f"{med(it['helpers_cumulative_us'])} |",
        f"| bare `python -c pass`: every import (site, encodings, ...) | {lo(it['bare_all_imports_us'])} | "
        f"{med(it['bare_all_imports_us'])} |",
        f"| CLI run: every import | {lo(it['cli_all_imports_us'])} | {med(it['cli_all_imports_us'])} |",
        f"| CLI run: top-level `helpers*` imports, cumulative | {lo(it['cli_helpers_top_level_us'])} | "
        f"{med(it['cli_helpers_top_level_us'])} |",
        "",
        "slowest imports of the CLI run by their own time (best run), µs: "
        + ", ".join(f"{r['module']} {r['self_us']:,}" for r in it["cli_slowest_self_us"]),
    ]
    if figures["problems"]:
        out += ["", "problems:"] + [f"* {p}" for p in figures["problems"][:10]]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--repeat", type=int, default=15, help="runs of each process; the best counts (default 15)"
    )
    parser.add_argument("--quick", action="store_true", help="3 runs each (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    if not Path(PYTHON).exists():
        raise SystemExit(f"{PYTHON} is missing: create the project's venv first")
    repeat = 3 if args.quick else args.repeat
    figures = {"machine": machine(), "repeat": repeat, "quick": args.quick, **measure(repeat)}
    print(json.dumps(figures, indent=1) if args.json else report(figures))
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
