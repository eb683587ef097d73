"""Does "mastered" mean something? The drill's completion rate per simulated trainee, as a table.

Runs the profiles of ``tests/support/mastery_trainees.py`` (uniform slips at p = 0.8, 0.85, 0.95 and
0.99, a perfect trainee, one blind to the eight common Cyrillic letters а е о р с у х і, one blind to
35 of the 44 confusable letters) through the real ``DrillSession``, each over every seed
(``--seeds N``, 200 by default), and prints how many complete within the profile's case limit,
against the targets of issue 43 item 3 (about 8 minutes on a free core).

    .venv/bin/python benchmarks/mastery_validity.py [--seeds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from mastery_trainees import ALL_SEEDS, PROFILES, TARGETS, share_completing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=len(ALL_SEEDS), help="seeds per profile (default 200)")
    seeds = range(parser.parse_args().seeds)
    print("| profile | limit | completes | target | cases to complete (median, max) | met |")
    print("|---|---|---|---|---|---|")
    failed = 0
    started = time.perf_counter()
    for profile in PROFILES:
        name, _make, limit = profile
        share, results = share_completing(profile, seeds)
        done = [r for r in results if r is not None]
        bound, value = TARGETS[name]
        met = share <= value if bound == "max" else share >= value
        failed += not met
        spread = f"{statistics.median(done):.0f}, {max(done)}" if done else "-"
        target = f"{'at most' if bound == 'max' else 'at least'} {value:.0%}"
        print(
            f"| {name} | {limit} | {len(done)} of {len(results)} ({share:.0%}) | {target} | {spread} |"
            f" {'yes' if met else 'NO'} |",
            flush=True,
        )
    print(f"\n{len(seeds)} seeds per profile, {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
