#!/usr/bin/env python3
"""Zero to ready: expected drill cases, check-out cases, their total, and the expected cooldown wait, by accuracy.

    .venv/bin/python benchmarks/zero_to_ready.py                          # 20 drills and 200 sittings per p
    .venv/bin/python benchmarks/zero_to_ready.py --drills 5 --sittings 50  # quicker

Run by hand, never by the test suite. Each trainee is right with probability p on
every case, independently. The drill is the real ``DrillSession`` on the branch it
runs on (``tests/support/mastery_trainees.py``: cases until "complete", at most
``--limit``); the check-out is the real sequential sitting (``tests/support/checkout_trainees.py``).
A failed check-out is sat again after the cooldown (12 hours, ``helpers.trainer.ledger``), so
the expected sittings are 1 / P(pass), the expected check-out cases are the failed
sittings' mean length times (1 / P(pass) - 1) plus a passing sitting's, and the expected
wait is 12 hours times (1 / P(pass) - 1). Targets (issue 43): a perfect trainee at most
95 cases in all, p = 0.97 at most 130 expected. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support"))

import checkout_trainees as ct  # noqa: E402
import mastery_trainees as mt  # noqa: E402

from helpers.trainer.ledger import COOLDOWN_HOURS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drills", type=int, default=20, help="drill seeds per p (default 20)")
    parser.add_argument("--sittings", type=int, default=200, help="check-out sittings per p (default 200)")
    parser.add_argument(
        "--limit", type=int, default=1000, help="most drill cases before giving up (default 1000)"
    )
    parser.add_argument("--p", type=float, nargs="*", default=[1.0, 0.99, 0.97, 0.95])
    args = parser.parse_args()
    print(
        "| p | drill cases (mean) | drills complete | check-out P(pass) | cases a sitting "
        "| expected check-out cases | expected total | expected cooldown wait |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in args.p:
        drills = [
            mt.completion(mt.perfect if p >= 1 else mt.slipping(p, seed), seed, limit=args.limit)
            for seed in range(args.drills)
        ]
        done = [d for d in drills if d is not None]
        drill = sum(done) / len(done) if done else float("nan")
        results = ct.sittings(ct.uniform(p), range(args.sittings))
        passed = [len(r.cases) for r in results if r.passed]
        failed = [len(r.cases) for r in results if not r.passed]
        share = len(passed) / len(results)
        if not passed:
            print(f"| {p} | {drill:.0f} | {len(done)} of {len(drills)} | 0 | – | never | never | never |")
            continue
        again = 1 / share - 1
        checkout = (sum(failed) / len(failed) if failed else 0) * again + sum(passed) / len(passed)
        print(
            f"| {p} | {drill:.0f} | {len(done)} of {len(drills)} | {share:.1%} "
            f"| {sum(len(r.cases) for r in results) / len(results):.1f} | {checkout:.1f} | {drill + checkout:.0f} "
            f"| {again * COOLDOWN_HOURS:.1f} h |",
            flush=True,
        )


if __name__ == "__main__":
    main()
