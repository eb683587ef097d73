"""The 1M-ID key pair beside the seeds' reference evaluator: wall and CPU seconds and peak memory.

Issue 45's target for this workload: at least 2.5x the reference's speed, with a peak memory no
larger than the reference's. Each round runs every peer once, as a whole process with its
output read from a pipe, in an order rotated round by round (interleaved); the figures are
medians of the rounds. CPU seconds (user + system) are given beside wall seconds: on a shared
machine they are disturbed less. Peak memory is GNU time's ``%M``.

Peers (``compare.py``'s ``keys-1m`` workload): ``sentinels --baseline FILE --proposed FILE``
(two ``.json`` files), the same keys as one record on standard input and as a file argument,
and ``node reference.mjs sentinels`` over that record. With ``--before TREE`` (a folder
holding another commit's ``helpers/``), our peers run from it too, in the same rounds.

    python benchmarks/keys.py --inputs DIR --repeat 5 [--before TREE] [--python PATH]

``--inputs DIR`` uses (or first writes, with ``compare.py``'s ``write_keys``) ``baseline.json``,
``proposed.json`` and ``keys.jsonl`` in DIR. Every peer writes the same bytes (the table says
whether they did); ours exit 1 (hold before scoring), the reference 0.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # the sibling benchmark's inputs and process runner


def peers(folder: Path, python: str, before: Path | None) -> dict[str, list[str]]:
    """Each peer's command line."""
    ours = [python, "-m", "helpers"]
    plan = {
        "ours: two .json files": [
            *ours,
            "sentinels",
            "--baseline",
            str(folder / "baseline.json"),
            "--proposed",
            str(folder / "proposed.json"),
        ],
        "ours: one record, stdin": [*ours, "sentinels", "<", str(folder / "keys.jsonl")],
        "ours: one record, a file": [*ours, "sentinels", str(folder / "keys.jsonl")],
    }
    if before is not None:
        code = (
            f"import runpy, sys; sys.path.insert(0, {str(before)!r}); "
            "runpy.run_module('helpers', run_name='__main__', alter_sys=True)"
        )
        for name in list(plan):
            plan[name.replace("ours:", "before:")] = [python, "-c", code, *plan[name][3:]]
    plan["reference (node)"] = [
        compare.NODE,
        str(compare.HERE / "reference.mjs"),
        "sentinels",
        str(folder / "keys.jsonl"),
    ]
    return plan


def measure(plan: dict[str, list[str]], repeat: int) -> dict[str, list[dict[str, Any]]]:
    """``repeat`` interleaved rounds of every peer."""
    names = list(plan)
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for round_ in range(repeat):
        order = names[round_ % len(names) :] + names[: round_ % len(names)]
        for name in order:
            run = compare.run_process(plan[name])
            runs[name].append(run)
            print(
                f"  round {round_ + 1} {name}: {run['seconds']:.2f} s wall, {run['cpu_seconds']:.2f} s CPU, "
                f"{(run['peak_rss_kb'] or 0) / 1024:.0f} MB, exit {run['exit_status']}",
                file=sys.stderr,
            )
    return runs


def report(runs: dict[str, list[dict[str, Any]]]) -> str:
    """The table of medians, with each peer's ratio to the reference."""
    reference = runs["reference (node)"]
    ref_wall = statistics.median(r["seconds"] for r in reference)
    ref_cpu = statistics.median(r["cpu_seconds"] for r in reference)
    ref_peak = statistics.median(r["peak_rss_kb"] for r in reference)
    heads = {bytes(r["head"]) for rs in runs.values() for r in rs}
    lines = [
        "| peer | median wall | reference ÷ it | median CPU | reference ÷ it | peak | ÷ reference's | exit | runs (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for name, rs in runs.items():
        wall = statistics.median(r["seconds"] for r in rs)
        cpu = statistics.median(r["cpu_seconds"] for r in rs)
        peak = statistics.median(r["peak_rss_kb"] for r in rs)
        spread = ", ".join(f"{s:.2f}" for s in sorted(r["seconds"] for r in rs))
        codes = ", ".join(str(code) for code in sorted({r["exit_status"] for r in rs}))
        lines.append(
            f"| {name} | {wall:.2f} s | {ref_wall / wall:.2f}× | {cpu:.2f} s | {ref_cpu / cpu:.2f}× | "
            f"{peak / 1024:.0f} MB | {peak / ref_peak:.2f}× | {codes} | {spread} |"
        )
    lines.append("")
    lines.append(f"the same output bytes from every run: {len(heads) == 1}")
    lines.append(f"load average after: {'/'.join(f'{x:.2f}' for x in os.getloadavg())}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--inputs", metavar="DIR", required=True, help="the key pair's folder (written if empty)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--before", metavar="TREE", help="also run the helpers/ of another commit, in TREE")
    parser.add_argument("--python", default=str(compare.OUR_PYTHON), help="the interpreter our peers run on")
    args = parser.parse_args(argv)
    folder = Path(args.inputs).resolve()
    if not (folder / "keys.jsonl").exists():
        folder.mkdir(parents=True, exist_ok=True)
        compare.write_keys(folder, compare.SIZES["full"]["keys"])
    before = Path(args.before).resolve() if args.before else None
    print(f"load average before: {'/'.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    print(report(measure(peers(folder, args.python, before), args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
