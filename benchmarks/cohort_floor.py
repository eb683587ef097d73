#!/usr/bin/env python3
"""The floor under the trainer's re-grade: what making each case again and its offered reasons cost alone.

    .venv/bin/python benchmarks/cohort_floor.py DIR            # the progress files in DIR (20 of them)
    .venv/bin/python benchmarks/cohort_floor.py DIR --files 50

Run by hand, never by the test suite, on the files ``cohort_scale.py --keep DIR`` writes (in
DIR/templates-N). In one process it reads the files, then times (``time.process_time``) two things
over the same attempts:

* ``remake``: each attempt's case made again from its (rule, seed, look-alike kind), with its right
  answer and deciding rule, and the reasons the drill offered for it: what the re-grade cannot skip
  (``RemadeCases.case`` and ``RemadeCases.offered``, a fresh instance, so nothing is reused);
* ``regrade``: the whole re-grade of the same files in one process (``load_cohort(..., workers=1)``,
  without the verdict cache): reading, the schema check, the re-grade, the engine's replay, the time checks.

It prints the microseconds per attempt of each, and what they come to for 1,000 drills of 1,000
attempts on two cores with nothing else in the way (CPU seconds / 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from helpers.teach.cases.generators import load_vocabulary  # noqa: E402
from helpers.teach.cases.rules import load_rules  # noqa: E402
from helpers.teach.drill.remade import RemadeCases  # noqa: E402
from helpers.teach.trainer.cohort import load_cohort, read_progress_file  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--files", type=int, default=20)
    args = parser.parse_args()
    files = sorted(args.folder.glob("*.json"))[: args.files]
    if not files:
        parser.error(f"no progress files (*.json) in {args.folder}")
    rules = tuple(load_rules())
    asked = []
    for path in files:
        mastery = read_progress_file(path).mastery
        asked += [(a.rule, a.seed, a.facet, f"{mastery.seed}:{a.number}") for a in mastery.attempts]
    remade = RemadeCases(load_vocabulary(), rules)
    remade.case(*asked[0][:3])  # the course's words and look-alikes are worked out once per process
    start = time.process_time()
    for rule, seed, facet, salt in asked:
        remade.case(rule, seed, facet)
        remade.offered(rule, seed, facet, salt)
    remake = time.process_time() - start
    start = time.process_time()
    cohort = load_cohort(files, workers=1)
    regrade = time.process_time() - start
    assert len(cohort.trainees) == len(files), cohort.unreadable
    attempts = len(asked)
    for name, seconds in (("remake", remake), ("regrade", regrade)):
        each = seconds / attempts * 1e6
        print(
            json.dumps(
                {
                    "step": name,
                    "files": len(files),
                    "attempts": attempts,
                    "cpu_seconds": round(seconds, 2),
                    "us_per_attempt": round(each, 1),
                    "wall_for_1000x1000_on_2_cores_s": round(each * 1_000_000 / 1e6 / 2, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
