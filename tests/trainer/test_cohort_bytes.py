"""The cohort's output bytes, pinned: a faster re-grade must show every file exactly as before.

A corpus of progress files (the samples, genuine drills worked through the engine, and edits
of them drawn from fixed seeds: verdicts, outcomes, hints, times, reasons offered, seeds,
look-alike kinds, answers, claimed states, order, bytes) is re-graded file by file and as one
cohort; the text table, the JSON lines, the CSV, the HTML table and the exit status
``cohort`` gives are hashed and compared with the digests the re-grade gave before it was
made faster (``06_trainer.ipynb`` teaches the views). Run this file with ``-s`` and
``COHORT_BYTES_PRINT=1`` to print the digests, only when an output is meant to change.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import shutil
from pathlib import Path

import pytest
from forgers import at_rate, consistent, drill, every_hint_drill, hints_erased, misses_made_right

from helpers.core.paths import fixtures_dir
from helpers.trainer.cohort import Cohort, load_cohort
from helpers.trainer.views.cohort_views import cohort_csv, cohort_json_lines, cohort_table, cohort_text


def _genuine() -> list[tuple[str, dict]]:
    return [
        ("g-low.json", drill(401, 50, at_rate(0.55, 401), stop_when_complete=False)),
        ("g-mid.json", drill(402, 70, at_rate(0.8, 402), stop_when_complete=False)),
        ("g-high.json", drill(403, 60, at_rate(0.97, 403))),
        ("g-hints.json", every_hint_drill(404, 25)),
    ]


def _edit(data: dict, draw: random.Random) -> tuple[str, dict]:
    """One edit a forger (or a broken disk) makes, drawn from ``draw``; its name and the file."""
    data = copy.deepcopy(data)
    attempts = data["mastery"]["attempts"]
    a = draw.choice(attempts)
    kind = draw.choice(
        [
            "flip", "outcome", "hints", "early", "options", "seed", "facet", "reason", "check",
            "swap", "drop", "state", "facet_state", "hash", "consistent-flip", "missing-field",
        ]
    )  # fmt: skip
    if kind == "flip":
        a["correct"] = not a["correct"]
    elif kind == "outcome":
        a["outcome"] = draw.choice(["correct", "missed", "helped", "revealed", "skipped"])
    elif kind == "hints":
        a["hints"] = draw.choice([0, 1, 2, 5, 40])
    elif kind == "early":
        a["answered"] = "2026-11-30T08:00:00Z"
    elif kind == "options":
        draw.shuffle(a["options"])
    elif kind == "seed":
        a["seed"] += draw.choice([1, -1, 10_000])
    elif kind == "facet":
        a["facet"] = draw.choice([None, "case", "confusable", "spacing"])
    elif kind == "reason" and a.get("answer"):
        a["answer"]["reason"] = draw.choice(a["options"])
    elif kind == "check" and a.get("answer"):
        a["answer"]["check"] = "target_scope" if a["answer"]["check"] != "target_scope" else "stop_key"
    elif kind == "swap" and len(attempts) > 2:
        i = draw.randrange(len(attempts) - 1)
        attempts[i], attempts[i + 1] = attempts[i + 1], attempts[i]
    elif kind == "drop":
        attempts.remove(a)
    elif kind == "state" and data["mastery"]["states"]:
        state = draw.choice(data["mastery"]["states"])
        state[draw.choice(["attempts", "unaided", "streak", "times_lost"])] += 1
    elif kind == "facet_state" and data["mastery"].get("facet_states"):
        state = draw.choice(data["mastery"]["facet_states"])
        state["secured"] = not state["secured"]
    elif kind == "hash":
        data["content_hash"] = "0" * len(data["content_hash"])
    elif kind == "consistent-flip":
        a.update(correct=True, outcome="correct", hints=0, revealed=False, fields_wrong=[], rules_missed=[])
        data = consistent(data)
    elif kind == "missing-field":
        del a[draw.choice(sorted(a))]
    return kind, data


def _corpus(folder: Path) -> list[Path]:
    """The corpus written into ``folder``, each file under its own name."""
    samples = fixtures_dir() / "sample_progress"
    for path in sorted(samples.glob("*.json")):
        shutil.copy(path, folder / f"sample-{path.name}")
    genuine = _genuine()
    files = dict(genuine)
    files["f-misses-made-right.json"] = misses_made_right(copy.deepcopy(genuine[0][1]))
    files["f-hints-erased.json"] = hints_erased(copy.deepcopy(genuine[3][1]))
    draw = random.Random(45)
    for number in range(36):
        kind, data = _edit(genuine[number % len(genuine)][1], draw)
        data["trainee"] = f"Edited {number:02d}"
        data["attempt_id"] = f"{number:016x}"
        files[f"e{number:02d}-{kind}.json"] = data
    for name, data in files.items():
        (folder / name).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (folder / "b-not-utf8.json").write_bytes(b'{"format": "\xff"}')
    (folder / "b-cut.json").write_bytes((folder / "g-mid.json").read_bytes()[:5000])
    return sorted(folder.glob("*.json"))


def _digest(cohort: Cohort) -> str:
    """One hash over every surface ``cohort`` shows, and the exit status it gives."""
    status = 1 if cohort.unreadable or not cohort.trainees else 0
    shown = [
        cohort_text(cohort),
        cohort_json_lines(cohort),
        cohort_csv(cohort),
        str(cohort_table(cohort)),
        str(status),
    ]
    return hashlib.sha256("\x00".join(shown).encode("utf-8", "backslashreplace")).hexdigest()[:16]


@pytest.fixture(scope="module")
def digests(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("corpus")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)  # the file names the views show are the same on every machine
        found = {path.name: _digest(load_cohort([path.name], workers=1)) for path in _corpus(folder)}
        found["(the whole cohort)"] = _digest(load_cohort([p.name for p in sorted(folder.glob("*.json"))]))
    if os.environ.get("COHORT_BYTES_PRINT") == "1":
        print(json.dumps(found, indent=1))
    return found


#: The digests the re-grade gave before it was made faster.
BEFORE: dict[str, str] = {
    "b-cut.json": "555b87f63b76ce6f",
    "b-not-utf8.json": "4f7e40a664177b25",
    "e00-hash.json": "9680d32dea3c0f4d",
    "e01-check.json": "0e6c54a582b108e9",
    "e02-swap.json": "00b5541e931b52ce",
    "e03-hints.json": "13398cef6ecd621f",
    "e04-early.json": "7a1d35abd6853f85",
    "e05-early.json": "465f48726a8d374a",
    "e06-outcome.json": "68a9cd093a177f3d",
    "e07-options.json": "6b5ce0c9a2f695d8",
    "e08-hash.json": "7add0799f8d44a41",
    "e09-outcome.json": "0d6dd1d53af8d27c",
    "e10-drop.json": "ce015c8d03ff41ad",
    "e11-state.json": "fe1b5d86311e6544",
    "e12-hints.json": "e1f72c7ce19c1b70",
    "e13-drop.json": "2ddc2502e14b4905",
    "e14-facet_state.json": "e47156d1d3a9fd1a",
    "e15-check.json": "75c47e728ee8a1f7",
    "e16-outcome.json": "efd5c5cefc7349dc",
    "e17-facet.json": "bacf467bdbbbcca2",
    "e18-flip.json": "cceaef0009d72f2f",
    "e19-missing-field.json": "162efe8bb149248c",
    "e20-hash.json": "b5edbacc041779b6",
    "e21-facet.json": "fbb1d71c64f3327f",
    "e22-facet_state.json": "231caa402ded61fb",
    "e23-consistent-flip.json": "7cb4a82c25bc25db",
    "e24-hints.json": "cd2fbd2e5e137f41",
    "e25-outcome.json": "10d79af555555776",
    "e26-flip.json": "843d7be04c991f58",
    "e27-swap.json": "06ac9376d4d93984",
    "e28-seed.json": "2cf8d91e8228b2fd",
    "e29-check.json": "b230a682d716dfc0",
    "e30-facet_state.json": "e5e7e54e3841d314",
    "e31-flip.json": "189eea9329ff1e65",
    "e32-state.json": "536b94305c37d3bf",
    "e33-facet.json": "7b1bffa3e505b793",
    "e34-reason.json": "b673eb8d170632d9",
    "e35-reason.json": "bd7735824b350947",
    "f-hints-erased.json": "e575e036128e171f",
    "f-misses-made-right.json": "1df37cfdfe54fe51",
    "g-high.json": "408f18a80cc47292",
    "g-hints.json": "a614225821655042",
    "g-low.json": "77e9a4b5cd8571d5",
    "g-mid.json": "e90300c8da8f7095",
    "sample-asha.json": "8f36b2d88f8591ad",
    "sample-ben.json": "a3df5b9234199192",
    "sample-chen.json": "5634090465583eb8",
    "sample-dana-v1.json": "19cb95911fb21cc3",
    "sample-erin-forged.json": "8264c36dacc1118b",
    "sample-fran-old-course.json": "4f8e52476d9dcbea",
    "(the whole cohort)": "b33f16e90b56675b",
}


def test_every_file_and_the_whole_cohort_show_the_same_bytes_as_before(digests):
    assert BEFORE, "no digests pinned"
    assert {name: digests.get(name) for name in BEFORE} == BEFORE
    assert sorted(digests) == sorted(BEFORE)
