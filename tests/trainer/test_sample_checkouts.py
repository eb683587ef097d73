"""The sample check-outs: one signed, verified sequential result per trainee, its counts fixed by the misses."""

from __future__ import annotations

import json
import os
import stat

import pytest

from helpers.trainer.sample_checkouts import SAMPLE_CHECKOUTS, SampleCheckouts, sample_checkouts
from helpers.trainer.secret import SECRET_NAME, TrainerSecret
from helpers.trainer.verified_results import verified_results


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> SampleCheckouts:
    """Ben's sample (six misses), and a trainee with none: the default Asha is sat in ``test_certified_bound.py``."""
    return sample_checkouts(tmp_path_factory.mktemp("samples"), {"Ben": SAMPLE_CHECKOUTS["Ben"], "Chen": 0})


def test_each_sample_trainee_has_one_result_verified_by_the_trainers_secret(made) -> None:
    assert SAMPLE_CHECKOUTS == {"Asha": 3, "Ben": 6}
    assert made.results == made.trainer_dir.parent / "results"
    assert stat.S_IMODE(os.stat(made.trainer_dir / SECRET_NAME).st_mode) == 0o600
    found, refused = verified_results([made.results], TrainerSecret.open(made.trainer_dir))
    assert refused == []
    assert sorted((r.trainee, r.passed, r.practice, r.proctored) for r in found) == [
        ("Ben", False, False, False),
        ("Chen", True, False, False),
    ]


def test_the_counts_are_decided_by_the_misses_alone(made) -> None:
    counts = {}
    for path in made.results.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        counts[data["trainee"]] = (data["fully_correct"], data["cases_total"], data["sequential"])
    assert counts["Ben"] == (30, 36, True)
    assert counts["Chen"][0] == counts["Chen"][1] and counts["Chen"][2] is True


def test_the_folder_holds_the_trainer_the_papers_and_the_results(made) -> None:
    folder = made.trainer_dir.parent
    assert sorted(p.name for p in folder.iterdir()) == ["papers", "results", "trainer"]
    names = sorted(p.name for p in (folder / "papers").iterdir())
    stems = sorted({n.split(".")[0] for n in names})
    assert [s.split("-")[0] for s in stems] == ["Ben", "Chen"]
    suffixes = [".json", ".answers.json", ".key.json", ".key.baseline.json"]
    assert names == sorted(stem + suffix for stem in stems for suffix in suffixes)
