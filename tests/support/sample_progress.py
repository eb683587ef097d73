"""The sample progress files in ``fixtures/sample_progress/``, made by simulated trainees,
and the sample check-out paper in ``fixtures/checkout/``.

Run ``.venv/bin/python tests/support/sample_progress.py`` after the course changes (the
rules, the vocabulary or the generators); ``test_samples.py`` fails while the
committed files differ from what this writes. ``dana-v1.json`` (a version 1
file) and ``fran-old-course.json`` (a version 2 file from an older course) are
kept as they were.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trainees import BLIND_SPOTS, _blind_answer

from helpers.core.paths import fixtures_dir
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.grading import Answer
from helpers.trainee.progress.files import TraineeProgress, trainee_progress_to_data

FOLDER = fixtures_dir() / "sample_progress"
SAVED = "2026-11-30T12:00:00Z"


class _Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(seconds=40)
        return self.now


def _drill(trainee: str, seed: int, cases: int, answer) -> DrillSession:
    s = DrillSession.start(seed=seed, trainee=trainee, clock=_Clock())
    for number in range(1, cases + 1):
        view = s.next_case()
        given = answer(s, view, number)
        if given is None:
            s.reveal()
        else:
            s.check(given)
        if s.complete:
            break
    return s


def _asha(_s, view, _n):
    return _blind_answer(view, None)


def _ben(_s, view, _n):
    return _blind_answer(view, BLIND_SPOTS["case"])


def _chen(s, view, n):
    if n % 7 == 0:
        return None
    if n % 4 == 0:
        s.hint()
    if n % 5 == 0:
        return Answer(view.check, flag=None, reason=view.reason_options[0][1])
    return _blind_answer(view, None)


def samples() -> dict[str, dict[str, Any]]:
    """Each sample file's name and content."""
    made = {
        "asha.json": (_drill("Asha", 11, 200, _asha), "a5a1000000000001"),
        "ben.json": (_drill("Ben", 12, 70, _ben), "b3b2000000000002"),
        "chen.json": (_drill("Chen", 13, 45, _chen), "c4c3000000000003"),
    }
    files = {
        name: trainee_progress_to_data(TraineeProgress(s.record(), attempt_id=attempt_id), saved=SAVED)
        for name, (s, attempt_id) in made.items()
    }
    # A forgery: Erin's own drill (worked as Chen works, from a seed of her own, so it is no copy)
    # with every verdict turned right and every rule claimed mastered.
    erin = _drill("Erin", 14, 45, _chen)
    forged = trainee_progress_to_data(
        TraineeProgress(erin.record(), attempt_id="e5e4000000000004"), saved=SAVED
    )
    for attempt in forged["mastery"]["attempts"]:
        attempt.update(outcome="correct", correct=True, hints=0, revealed=False, rules_missed=[])
        if attempt["answer"] is None:
            attempt["answer"] = {
                "check": "sentinels",
                "missing": [],
                "second": [],
                "flag": True,
                "hold": False,
                "reason": None,
            }
    for state in forged["mastery"]["states"]:
        state.update(
            streak=3, mastered_on="2026-11-30T10:00:00Z", times_mastered=1, unaided=state["attempts"]
        )
    files["erin-forged.json"] = forged
    return files


def sample_checkout() -> Any:
    """The sample check-out paper and its key (seed 7, issued on a fixed day)."""
    from helpers.trainer.paper import issue_checkout

    return issue_checkout("Sample trainee", seed=7, issued="2026-12-01T09:00:00Z", count=56, sequential=False)


def text(data: Any) -> str:
    """A fixture file's text."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    import shutil
    import tempfile

    from helpers.trainer.checkout import sample_paper_path
    from helpers.trainer.issued_files import write_checkout

    for name, data in samples().items():
        (FOLDER / name).write_text(text(data), encoding="utf-8")
        print(f"wrote {FOLDER / name}")
    paper = sample_paper_path()
    with tempfile.TemporaryDirectory() as scratch:
        written = write_checkout(sample_checkout(), Path(scratch) / paper.name)
        for path in written:
            shutil.copyfile(path, paper.parent / path.name)
            print(f"wrote {paper.parent / path.name}")


if __name__ == "__main__":
    main()
