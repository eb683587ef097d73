#!/usr/bin/env python3
"""The trainer's view at scale: a synthetic cohort of progress files, read and re-graded by ``cohort``.

    .venv/bin/python benchmarks/cohort_scale.py                 # 1,000 trainees x 1,000 attempts
    .venv/bin/python benchmarks/cohort_scale.py --trainees 50   # a smaller cohort
    .venv/bin/python benchmarks/cohort_scale.py --keep DIR      # write the cohort to DIR and keep it

Run by hand, never by the test suite. The cohort is written into a temporary
folder: each trainee drills with a fixed-seed simulated learner (right about
85% of the time) through :class:`helpers.trainee.drill.engine.DrillSession`, so every
attempt is a genuine generated case with an honestly graded verdict, saved as a
version 3 file. By default every trainee has a drill of their own (its own seed, as
real trainees' fresh seeds give): the headline figure. ``--templates N`` copies N
drills under the trainees' names instead; ``cohort`` makes each (rule, seed,
look-alike kind) case once per process, so copies share their cases and cost less.

Then the command line runs as a trainer runs it, measured from outside with
``/usr/bin/time -v`` (wall and CPU time, and the peak resident set size of the largest
process), with the resident sets of the process and its workers summed every 0.2 s:

    python -m helpers cohort DIR --json --no-cache > /dev/null     # "distinct": every file re-graded

and prints one JSON line per figure: ``distinct`` (the headline), ``copied`` (the same
cohort size from 10 template drills, unless ``--no-copied``), and ``rerun``: with a
trainer's secret in a scratch folder, a first run fills the verdict cache, one new
trainee's file is added, and the second run is timed (only that file is re-graded).
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

from helpers.trainee.drill.engine import DrillSession  # noqa: E402
from helpers.trainee.grading import Answer  # noqa: E402
from helpers.trainee.progress.files import TraineeProgress, trainee_progress_to_data  # noqa: E402


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
    progress = TraineeProgress(session.record(), attempt_id=f"{seed:016x}")
    return trainee_progress_to_data(progress, saved="2026-11-30T09:00:00Z")


def _drill_job(job: tuple[int, int]) -> dict:
    return _drill(*job)


def write_cohort(folder: Path, trainees: int, attempts: int, templates: int | None = None) -> int:
    """Write the cohort (``templates`` distinct drills, by default one per trainee); its size in bytes."""
    from concurrent.futures import ProcessPoolExecutor

    templates = trainees if templates is None else templates
    jobs = [(seed, attempts) for seed in range(1, templates + 1)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        made = list(pool.map(_drill_job, jobs, chunksize=4))
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


def measure(folder: Path, output: str = "json", trainer_dir: Path | None = None) -> dict[str, float]:
    """Run ``cohort`` (``--json``, or the text table) under ``/usr/bin/time -v``.

    Without ``trainer_dir`` every file is re-graded (``--no-cache``); with it, the verdict cache
    in that trainer's folder is used. Wall seconds, CPU seconds, the peak resident set of the
    largest single process (what ``/usr/bin/time`` reports) and of the whole process tree summed
    (sampled every 0.2 s), in MB.
    """
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "helpers", "cohort", str(folder)]
    command += ["--json"] if output == "json" else []
    command += ["--no-cache"] if trainer_dir is None else ["--trainer-dir", str(trainer_dir)]
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


def _cohort_figures(folder: Path, args: argparse.Namespace, templates: int | None) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    if not any(folder.glob("*.json")):
        size = write_cohort(folder, args.trainees, args.attempts, templates)
    else:
        size = sum(p.stat().st_size for p in folder.glob("*.json"))
    return {"cohort_mb": round(size / 2**20, 1), **measure(folder, args.output)}


def _rerun_figures(folder: Path, args: argparse.Namespace) -> dict:
    """A first run fills the cache; one new trainee's file is added; the second run is measured."""
    from helpers.trainer.secret import TrainerSecret

    with tempfile.TemporaryDirectory() as trainer:
        TrainerSecret.open(trainer, create=True)
        first = measure(folder, args.output, Path(trainer))
        new = _drill(99_991, args.attempts)
        new["trainee"], new["attempt_id"] = "New trainee", f"{99_991:016x}"
        added = folder / "trainee-new.json"
        added.write_text(json.dumps(new, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        try:
            again = measure(folder, args.output, Path(trainer))
        finally:
            added.unlink()
    return {"first_run_seconds": first["seconds"], "new_files": 1, **again}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trainees", type=int, default=1000)
    parser.add_argument("--attempts", type=int, default=1000)
    parser.add_argument(
        "--templates", type=int, default=None, help="copy N drills (default: one distinct drill per trainee)"
    )
    parser.add_argument("--no-copied", action="store_true", help="skip the copied-template figure")
    parser.add_argument("--no-rerun", action="store_true", help="skip the cached re-run figure")
    parser.add_argument("--output", choices=("json", "text"), default="json", help="what cohort prints")
    parser.add_argument("--keep", metavar="DIR", help="write the cohort here and keep it (reused if present)")
    args = parser.parse_args()
    common = {"trainees": args.trainees, "attempts": args.attempts, "output": args.output}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(args.keep) if args.keep else Path(scratch)
        distinct = args.templates if args.templates is not None else args.trainees
        main_folder = root / f"templates-{distinct}"
        figures = _cohort_figures(main_folder, args, args.templates)
        print(json.dumps({"figure": "distinct", "templates": distinct, **common, **figures}), flush=True)
        if not args.no_copied and args.templates is None:
            copied = _cohort_figures(root / "templates-10", args, 10)
            print(json.dumps({"figure": "copied", "templates": 10, **common, **copied}), flush=True)
        if not args.no_rerun:
            rerun = _rerun_figures(main_folder, args)
            print(json.dumps({"figure": "rerun", "templates": distinct, **common, **rerun}), flush=True)


if __name__ == "__main__":
    main()
