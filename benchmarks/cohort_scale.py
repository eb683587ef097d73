#!/usr/bin/env python3
"""The trainer's view at scale: a synthetic cohort of progress files, read and re-graded by ``cohort``.

    .venv/bin/python benchmarks/cohort_scale.py                 # 1,000 trainees x 1,000 attempts
    .venv/bin/python benchmarks/cohort_scale.py --trainees 50   # a smaller cohort
    .venv/bin/python benchmarks/cohort_scale.py --keep DIR      # write the cohort to DIR and keep it

Run by hand, never by the test suite. The cohort is written into a temporary
folder: each trainee drills with a fixed-seed simulated learner (right about
85% of the time) through :class:`helpers.teach.session.DrillSession`, so every
attempt is a genuine generated case with an honestly graded verdict, saved as a
version 3 file. Ten such drills (seeds 1-10) are made and copied under different
names and attempt ids, as a class whose trainees start from a handful of seeds
would be; ``cohort`` makes each (rule, seed, look-alike kind) case once per process,
so copies share their cases, while ``--templates N`` gives N distinct drills.

Then the command line runs as a trainer runs it, measured from outside with
``/usr/bin/time -v`` (wall and CPU time, and the peak resident set size of the largest
process), with the resident sets of the process and its workers summed every 0.2 s:

    python -m helpers cohort DIR --json > /dev/null
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from trainees import _blind_answer  # noqa: E402

from helpers.teach.grading import Answer  # noqa: E402
from helpers.teach.progress_v2 import TraineeProgress, trainee_progress_to_data  # noqa: E402
from helpers.teach.session import DrillSession  # noqa: E402


def _drill(seed: int, attempts: int) -> dict:
    """One simulated trainee's version 3 progress object with ``attempts`` attempts."""
    rng = random.Random(seed)
    moment = [dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)]

    def clock() -> dt.datetime:
        moment[0] += dt.timedelta(seconds=30)
        return moment[0]

    session = DrillSession.start(seed=seed, trainee=f"template {seed}", clock=clock)
    for _ in range(attempts):
        view = session.next_case()
        right = _blind_answer(view, None)
        session.check(right if rng.random() < 0.85 else Answer(view.check))
    progress = TraineeProgress(session, attempt_id=f"{seed:016x}")
    return trainee_progress_to_data(progress, saved="2026-11-30T09:00:00Z")


def write_cohort(folder: Path, trainees: int, attempts: int, templates: int = 10) -> int:
    """Write the cohort; returns its size in bytes."""
    made = [_drill(seed, attempts) for seed in range(1, templates + 1)]
    size = 0
    for number in range(trainees):
        data = dict(made[number % templates])
        data["trainee"] = f"Trainee {number:04d}"
        data["attempt_id"] = f"{number:016x}"
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        (folder / f"trainee-{number:04d}.json").write_text(text, encoding="utf-8")
        size += len(text.encode("utf-8"))
    return size


def _tree_rss_kb(pid: int) -> int:
    """The resident set of ``pid`` and every process under it, in KiB (Linux ``/proc``; 0 elsewhere)."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text(encoding="utf-8")
            children = Path(f"/proc/{current}/task/{current}/children").read_text(encoding="utf-8")
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        pending += [int(child) for child in children.split()]
    return total


def measure(folder: Path, output: str = "json") -> dict[str, float]:
    """Run ``cohort`` (``--json``, or the text table) under ``/usr/bin/time -v``.

    Wall seconds, CPU seconds, the peak resident set of the largest single process (what
    ``/usr/bin/time`` reports) and of the whole process tree summed (sampled every 0.2 s), in MB.
    """
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "helpers", "cohort", str(folder)]
    command += ["--json"] if output == "json" else []
    with tempfile.TemporaryFile() as err:
        run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, cwd=ROOT)
        stream = run.stdout
        assert stream is not None
        counted: list[int] = []  # the output goes to a pipe, read as it comes

        def count_lines() -> None:
            counted.append(sum(block.count(b"\n") for block in stream))

        reader = threading.Thread(target=count_lines)
        reader.start()
        tree_peak = 0
        while run.poll() is None:
            tree_peak = max(tree_peak, _tree_rss_kb(run.pid))
            time.sleep(0.2)
        reader.join()
        lines = counted[0]
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    user = re.search(r"User time \(seconds\): ([\d.]+)", stderr)
    system = re.search(r"System time \(seconds\): ([\d.]+)", stderr)
    if wall is None or peak is None or user is None or system is None:
        raise SystemExit(f"/usr/bin/time gave no figures:\n{stderr[-2000:]}")
    hours, minutes, seconds = wall.groups()
    total = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    return {
        "seconds": round(total, 1),
        "cpu_seconds": round(float(user.group(1)) + float(system.group(1)), 1),
        "peak_mb": round(int(peak.group(1)) / 1024, 1),
        "tree_peak_mb": round(tree_peak / 1024, 1),
        "exit": run.returncode,
        "lines": lines,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trainees", type=int, default=1000)
    parser.add_argument("--attempts", type=int, default=1000)
    parser.add_argument("--templates", type=int, default=10, help="distinct drills the cohort copies")
    parser.add_argument("--output", choices=("json", "text"), default="json", help="what cohort prints")
    parser.add_argument("--keep", metavar="DIR", help="write the cohort here and keep it (reused if present)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep) if args.keep else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        if not any(folder.glob("*.json")):
            size = write_cohort(folder, args.trainees, args.attempts, args.templates)
        else:
            size = sum(p.stat().st_size for p in folder.glob("*.json"))
        figures = measure(folder, args.output)
    print(
        json.dumps(
            {
                "trainees": args.trainees,
                "attempts": args.attempts,
                "templates": args.templates,
                "cohort_mb": round(size / 2**20, 1),
                "output": args.output,
                **figures,
            }
        )
    )


if __name__ == "__main__":
    main()
