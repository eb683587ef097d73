#!/usr/bin/env python3
"""The check-out's validity table: each simulated trainee's pass rate over real papers.

    .venv/bin/python benchmarks/checkout_validity.py              # 200 papers per profile
    .venv/bin/python benchmarks/checkout_validity.py --papers 50  # fewer

Run by hand, never by the test suite (``tests/teach/test_checkout_validity.py``
asserts the same targets under ``--all``). Each profile of
``tests/support/checkout_trainees.py`` sits the papers of seeds 0..N-1, issued by
``issue_checkout`` and graded by ``grade_checkout``; prints a Markdown table.
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
    parser.add_argument("--papers", type=int, default=200, help="papers per profile (default 200)")
    args = parser.parse_args()
    print("| profile | target | passed | P(pass) | meets |")
    print("|---|---|---:|---:|---|")
    for profile in ct.profiles():
        passed, sat = ct.pass_rate(profile.answerer, range(args.papers))
        meets = "yes" if ct.meets(profile, passed, sat) else "**no**"
        print(
            f"| {profile.name} | {profile.bound} {profile.target:.0%} | {passed} of {sat} "
            f"| {passed / sat:.1%} | {meets} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
