#!/usr/bin/env python3
"""Where the trainer's re-grade spends its CPU time: microseconds per attempt, by part.

    .venv/bin/python benchmarks/cohort_floor.py DIR            # the progress files in DIR (20 of them)
    .venv/bin/python benchmarks/cohort_floor.py DIR --files 50 --passes 5

Run by hand, never by the test suite, on the files ``cohort_scale.py --keep DIR`` writes (in
DIR/templates-N). In one process, over the same files, each pass times with
``time.process_time_ns`` (CPU time, so other work on the machine counts for little):

* ``whole``: the whole re-grade, ``load_cohort(files, workers=1)`` without the verdict cache;
* then each part of it, file by file, in the order the re-grade takes them, with the cases made
  afresh (the process's :class:`RemadeCases` emptied first, so nothing is carried from the pass before):

  - ``reading``: the bounded read, the strict JSON parse, the schema check, the states rebuilt;
  - ``remaking``: each attempt's case made again from its (rule, seed, look-alike kind), with its
    right answer and deciding rules (``RemadeCases.case``): what the re-grade cannot skip;
  - ``offered``: the reasons the drill offered for each case (``RemadeCases.offered``);
  - ``regrade``: the re-grade's walk over the attempts, each answer graded (``replay_v3``, its cases made);
  - ``times``: the time checks (``time_problems``);
  - ``replay``: the engine's replay of the drill's schedule (``replay_drill``, its cases made);
  - ``rest``: ``whole`` less the parts in the same pass (the trainee's summary, the copies and names
    flagged, …; it moves with the machine's load, as the two runs are timed apart).

The cycle collector is set as :func:`load_cohort`'s worker processes set it (where a large cohort
is re-graded), unless ``--default-gc``. It prints one JSON line per part, the median over
``--passes`` passes, in µs per attempt and as a share of remaking in the same pass (steadier on a
busy machine), and the total with what it comes to for 1,000 drills of 1,000 attempts on two cores (CPU seconds / 2).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from helpers.trainee.cases.generators import load_vocabulary  # noqa: E402
from helpers.trainee.cases.rules import load_rules  # noqa: E402
from helpers.trainee.drill.remade import remade_cases  # noqa: E402
from helpers.trainee.drill.replay import replay_drill  # noqa: E402
from helpers.trainee.progress.timing import time_problems  # noqa: E402
from helpers.trainer.cohort import load_cohort, read_progress_data  # noqa: E402
from helpers.trainer.regrade import replay_v3  # noqa: E402

PARTS = ("reading", "remaking", "offered", "regrade", "times", "replay")


def _one_pass(files: list[Path]) -> tuple[dict[str, int], int]:
    """CPU nanoseconds of the whole re-grade and of each part, over ``files``; and the attempts."""
    rules = load_rules()
    clock = time.process_time_ns
    remade_cases.cache_clear()
    start = clock()
    cohort = load_cohort(files, workers=1)
    whole = clock() - start
    assert len(cohort.trainees) == len(files), cohort.unreadable
    remade_cases.cache_clear()
    spent = dict.fromkeys(PARTS, 0)
    attempts = 0
    for path in files:
        start = clock()
        progress, data = read_progress_data(path, rules=rules)
        spent["reading"] += clock() - start
        m = progress.mastery
        attempts += len(m.attempts)
        cases = remade_cases(load_vocabulary(), tuple(rules))
        start = clock()
        for a in m.attempts:
            cases.case(a.rule, a.seed, a.facet)
        spent["remaking"] += clock() - start
        start = clock()
        for a in m.attempts:
            cases.offered(a.rule, a.seed, a.facet, f"{m.seed}:{a.number}")
        spent["offered"] += clock() - start
        start = clock()
        replay_v3(progress, data, rules=rules)
        spent["regrade"] += clock() - start
        start = clock()
        time_problems(data)
        spent["times"] += clock() - start
        start = clock()
        replay_drill(progress, rules=rules, cases=cases)
        spent["replay"] += clock() - start
    spent["rest"] = whole - sum(spent.values())
    spent["whole"] = whole
    return spent, attempts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--passes", type=int, default=5, help="passes over the files; the median is shown")
    parser.add_argument(
        "--default-gc", action="store_true", help="keep Python's own cycle-collector thresholds"
    )
    args = parser.parse_args()
    if not args.default_gc:
        gc.set_threshold(50_000, 20, 10)  # as helpers.trainer.cohort._worker_start sets it
    files = sorted(args.folder.glob("*.json"))[: args.files]
    if not files:
        parser.error(f"no progress files (*.json) in {args.folder}")
    load_cohort(files[:1], workers=1)  # the course's words and look-alikes are worked out once per process
    passes = [_one_pass(files) for _ in range(args.passes)]
    attempts = passes[0][1]
    for part in (*PARTS, "rest", "whole"):
        each = statistics.median(spent[part] for spent, _ in passes) / attempts / 1e3
        line = {"part": part, "files": len(files), "attempts": attempts, "passes": args.passes}
        line["us_per_attempt"] = round(each, 1)
        # against remaking in the same pass: a load on the machine slows both alike
        line["to_remaking"] = round(statistics.median(s[part] / s["remaking"] for s, _ in passes), 3)
        if part == "whole":
            line["wall_for_1000x1000_on_2_cores_s"] = round(each * 1_000_000 / 1e6 / 2, 1)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
