#!/usr/bin/env python3
"""The check-out's operating characteristic: each simulated trainee's pass rate and cases, over real sittings.

    .venv/bin/python benchmarks/checkout_validity.py                 # 400 sittings per profile
    .venv/bin/python benchmarks/checkout_validity.py --sittings 100  # fewer
    .venv/bin/python benchmarks/checkout_validity.py --only 0.85 0.95 perfect

Run by hand, never by the test suite (``tests/trainer/test_checkout_validity.py``
asserts the same targets under ``--all``). Each profile of
``tests/support/checkout_trainees.py`` sits the keys of seeds 0..N-1, issued by
``issue_checkout`` and sat case by case through ``start_sitting`` (the sequential
rule serving), each graded by ``grade_checkout``; prints a Markdown table with the
pass rate, the mean and longest sitting.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support"))

import checkout_trainees as ct  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sittings", type=int, default=400, help="sittings per profile (default 400)")
    parser.add_argument("--only", nargs="*", default=None, help="profiles whose name holds one of these")
    args = parser.parse_args()
    print("| profile | target | passed | P(pass) | mean cases | most cases | meets |")
    print("|---|---|---:|---:|---:|---:|---|")
    for profile in ct.profiles():
        if args.only and not any(word in profile.name for word in args.only):
            continue
        results = ct.sittings(profile.answerer, range(args.sittings))
        passed, sat = sum(r.passed for r in results), len(results)
        lengths = [len(r.cases) for r in results]
        meets = "yes" if ct.meets(profile, passed, sat) else "**no**"
        print(
            f"| {profile.name} | {profile.bound} {profile.target:.0%} | {passed} of {sat} "
            f"| {passed / sat:.1%} | {sum(lengths) / sat:.1f} | {max(lengths)} | {meets} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
