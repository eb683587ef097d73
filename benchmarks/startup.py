#!/usr/bin/env python3
"""Start-up cost of the helpers and the command line, as whole processes; run by hand (never by the tests).

    python3 benchmarks/startup.py            # 15 runs each, best and median
    python3 benchmarks/startup.py --quick    # best of 3 (a smoke test)
    python3 benchmarks/startup.py --json     # the raw figures as one JSON object

Standard library only. Times the project venv's interpreter (``.venv/bin/python``), from the
project's folder, with standard output to a pipe that is read to the end:

* ``python -c pass``: bare start-up, the floor for the others;
* ``python -c "import helpers"``;
* ``python -m helpers target-scope``, reading one JSON line on standard input.

The runs take turns (bare, import, command line, bare, ...), so drift on a shared machine
spreads evenly; the best and the median of each are shown, and the time over bare by both.
Then ``python -X importtime`` says where the import time goes: ``helpers``'s cumulative
microseconds for ``import helpers``, and, for the command-line run, the helpers modules and the
slowest imports by their own time.

Bytecode: the runs are timed as users run them, with each module's bytecode cached, as pip
writes it on install and Python on a first run. ``PYTHONDONTWRITEBYTECODE`` is dropped from the
runs' environment and each case runs once untimed first, so a stale or missing cache (a
checkout whose environment sets ``PYTHONDONTWRITEBYTECODE``, as this development machine's does)
is written before timing instead of compiling every module in every timed run.
``--no-bytecode-cache`` times them the other way: every helpers module compiled at every run
(``-B``, with the cache of ``helpers/`` ignored), for comparison.

Targets: ``import helpers`` at most 10 ms over bare, the one-line command-line run at most
60 ms over bare (aim: 45 ms by the median).
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


#: The environment of every timed run (see the module notes on bytecode).
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], stdin: bytes | None) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    began = time.perf_counter()
    done = subprocess.run(
        argv,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
        env=ENV,
    )
    return time.perf_counter() - began, done


def from_tree(
    cases: dict[str, tuple[list[str], bytes | None]], tree: Path | None, *, cache: bool = True
) -> dict[str, tuple[list[str], bytes | None]]:
    """The cases run with the ``helpers/`` of ``tree`` (another commit's, say) put first on the path;
    without ``cache``, from a copy without caches, under ``-B``: every helpers module compiled at every run."""
    import shutil
    import tempfile

    if not cache:
        folder = Path(tempfile.mkdtemp(prefix="eic-startup-"))
        shutil.copytree(
            (tree or ROOT) / "helpers", folder / "helpers", ignore=shutil.ignore_patterns("__pycache__")
        )
        tree = folder
    assert tree is not None
    flags = [] if cache else ["-B"]
    prefix = f"import sys; sys.path.insert(0, {str(tree)!r}); "
    found = {}
    for name, (argv, stdin) in cases.items():
        if argv[1:2] == ["-m"]:
            run = "import runpy; runpy.run_module('helpers', run_name='__main__', alter_sys=True)"
            found[name] = ([argv[0], *flags, "-c", prefix + run, *argv[3:]], stdin)
        else:
            found[name] = ([argv[0], *flags, "-c", prefix + argv[2]], stdin)
    return found


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
        env=ENV,
    )
    return parse_importtime(done.stderr.decode("utf-8", "replace"))


def measure(repeat: int, cases: dict[str, tuple[list[str], bytes | None]] = CASES) -> dict[str, Any]:
    walls: dict[str, list[float]] = {name: [] for name in cases}
    problems: list[str] = []
    for argv, stdin in cases.values():  # untimed: the bytecode cache is written here if it must be
        timed(argv, stdin)
    for _ in range(repeat):
        for name, (argv, stdin) in cases.items():
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
        rows = importtime(*cases["import helpers"])
        helpers_us += [r["cumulative_us"] for r in rows if r["module"] == "helpers" and r["depth"] == 0]
        rows = importtime(*cases["bare"])
        bare_total.append(sum(r["cumulative_us"] for r in rows if r["depth"] == 0))
        rows = importtime(*cases["CLI, one line"])
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
        f"load average {'/'.join(f'{x:.2f}' for x in m['loadavg'])}; {figures['repeat']} runs each"
        f"{'; QUICK RUN' if figures['quick'] else ''}"
        f"{'; every module compiled at every run (--no-bytecode-cache)' if figures.get('uncached') else ''}"
        f"{'; helpers from ' + str(figures['tree']) if figures.get('tree') else ''}",
        "",
        "| Process | best ms | median ms | over bare ms (best) | over bare ms (median) | target | verdict |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name in CASES:
        over = best[name] - best["bare"]
        over_median = median[name] - median["bare"]
        target = TARGETS_MS.get(name)
        out.append(
            f"| {LABELS[name]} | {best[name]:.1f} | {median[name]:.1f} | "
            f"{'—' if name == 'bare' else f'+{over:.1f}'} | "
            f"{'—' if name == 'bare' else f'+{over_median:.1f}'} | "
            f"{f'<= {target:.0f}' if target else ''} | "
            f"{('met' if max(over, over_median) <= target else '**missed**') if target else ''} |"
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
    parser.add_argument("--repeat", type=int, default=15, help="runs of each process (default 15)")
    parser.add_argument("--quick", action="store_true", help="3 runs each (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="compile every helpers module at every run"
    )
    parser.add_argument(
        "--tree",
        metavar="DIR",
        help="time the helpers/ in DIR instead (e.g. `git archive COMMIT helpers | tar -x -C DIR`)",
    )
    args = parser.parse_args(argv)
    if not Path(PYTHON).exists():
        raise SystemExit(f"{PYTHON} is missing: create the project's venv first")
    repeat = 3 if args.quick else args.repeat
    tree = Path(args.tree).resolve() if args.tree else None
    cases = (
        CASES
        if tree is None and not args.no_bytecode_cache
        else from_tree(CASES, tree, cache=not args.no_bytecode_cache)
    )
    figures = {
        "machine": machine(),
        "repeat": repeat,
        "quick": args.quick,
        "uncached": args.no_bytecode_cache,
        "tree": args.tree,
        **measure(repeat, cases),
    }
    print(json.dumps(figures, indent=1) if args.json else report(figures))
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
