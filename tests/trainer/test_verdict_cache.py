"""The trainer's verdict cache: a re-run re-grades only what changed, and nothing in it is trusted unsigned."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

import helpers.trainer.cohort as module
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.generators import generators_fingerprint
from helpers.trainer.cohort import load_cohort
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.verdict_cache import CACHE_NAME, VerdictCache, grading_sources
from helpers.trainer.views.cohort_views import cohort_csv, cohort_json_lines, cohort_table, cohort_text

SAMPLES = fixtures_dir() / "sample_progress"


def _surfaces(cohort) -> tuple[str, ...]:
    return (cohort_json_lines(cohort), cohort_text(cohort), cohort_csv(cohort), cohort_table(cohort).html)


@pytest.fixture
def trainer(tmp_path: Path) -> Path:
    folder = tmp_path / "trainer"
    TrainerSecret.open(folder, create=True)
    return folder


@pytest.fixture
def cohort_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "cohort"
    shutil.copytree(SAMPLES, folder)
    return folder


def _cache(trainer: Path, course: str | None = None, helpers: str | None = None) -> VerdictCache:
    secret = TrainerSecret.open(trainer)
    return VerdictCache(secret, course or generators_fingerprint(), helpers)


@pytest.fixture
def regraded(monkeypatch) -> list[str]:
    """The names of the files re-graded (not taken from the cache) in this test."""
    seen: list[str] = []
    real = module._summarise

    def counting(path, *args):
        seen.append(path.name)
        return real(path, *args)

    monkeypatch.setattr(module, "_summarise", counting)
    return seen


def test_a_rerun_takes_unchanged_files_from_the_cache_and_shows_the_same(trainer, cohort_dir, regraded):
    plain = load_cohort([cohort_dir], workers=1)
    assert len(regraded) == 6
    first = load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    assert len(regraded) == 12 and (trainer / CACHE_NAME).is_file()
    cache = _cache(trainer)
    again = load_cohort([cohort_dir], workers=1, cache=cache)
    assert len(regraded) == 12 and cache.hits == 6 and again.notes == ()
    assert _surfaces(plain) == _surfaces(first) == _surfaces(again)
    assert (trainer / CACHE_NAME).stat().st_mode & 0o077 == 0


def test_a_changed_file_and_a_new_one_are_regraded_and_the_rest_are_not(trainer, cohort_dir, regraded):
    load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    data = json.loads((cohort_dir / "ben.json").read_text(encoding="utf-8"))
    data["trainee"] = "Ben renamed"
    (cohort_dir / "ben.json").write_text(json.dumps(data), encoding="utf-8")
    shutil.copy(SAMPLES / "asha.json", cohort_dir / "zed.json")  # new name, bytes already graded
    (cohort_dir / "new.json").write_text(json.dumps({**data, "trainee": "New"}), encoding="utf-8")
    del regraded[:]
    cache = _cache(trainer)
    cohort = load_cohort([cohort_dir], workers=1, cache=cache)
    assert sorted(regraded) == ["ben.json", "new.json"] and cache.hits == 6
    assert _surfaces(cohort) == _surfaces(load_cohort([cohort_dir], workers=1))
    zed = next(t for t in cohort.trainees if t.file.endswith("zed.json"))
    assert zed.name == "Asha" and any("attempt id" in p for p in zed.problems)  # flagged afresh


def test_a_file_that_names_no_trainee_is_named_by_its_path_from_the_cache(trainer, tmp_path, regraded):
    folder = tmp_path / "unnamed"
    folder.mkdir()
    data = json.loads((SAMPLES / "ben.json").read_text(encoding="utf-8"))
    data["trainee"] = ""
    (folder / "first.json").write_text(json.dumps(data), encoding="utf-8")
    load_cohort([folder], workers=1, cache=_cache(trainer))
    (folder / "first.json").rename(folder / "second.json")
    cohort = load_cohort([folder], workers=1, cache=_cache(trainer))
    assert regraded == ["first.json"] and [t.name for t in cohort.trainees] == ["second"]


@pytest.mark.parametrize("changed", ["course", "helpers"])
def test_another_course_or_helpers_version_regrades_everything(trainer, cohort_dir, regraded, changed):
    load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    del regraded[:]
    other = _cache(trainer, helpers="9.9.9+other") if changed == "helpers" else None
    if changed == "course":  # the course the cache was made for is not the one the cohort grades now
        other = _cache(trainer, course="0123456789abcdef")
        load_cohort([cohort_dir], workers=1, cache=other)
        assert len(regraded) == 6 and other.hits == 0  # a cache for another course is not used at all
        return
    assert other is not None
    load_cohort([cohort_dir], workers=1, cache=other)
    assert len(regraded) == 6 and other.hits == 0 and other.notes == []
    del regraded[:]
    load_cohort([cohort_dir], workers=1, cache=_cache(trainer, helpers="9.9.9+other"))
    assert regraded == []  # the new version's verdicts were kept


def _entries(trainer: Path) -> dict:
    return json.loads((trainer / CACHE_NAME).read_text(encoding="ascii"))["entries"]


def _rewrite(trainer: Path, change) -> None:
    whole = json.loads((trainer / CACHE_NAME).read_text(encoding="ascii"))
    change(whole["entries"])
    (trainer / CACHE_NAME).write_text(json.dumps(whole), encoding="ascii")


def test_an_edited_entry_is_refused_with_a_line_and_its_file_regraded(trainer, cohort_dir, regraded):
    plain = load_cohort([cohort_dir], workers=1)
    load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    ben = next(k for k, e in _entries(trainer).items() if e["summary"]["name"] == "Ben")

    def make_ben_ready(entries):  # every rule mastered, no problems: what a forger wants
        summary = entries[ben]["summary"]
        summary["problems"] = []
        for state in summary["states"]:
            state["mastered_on"] = "2026-11-20T10:00:00Z"

    _rewrite(trainer, make_ben_ready)
    del regraded[:]
    cache = _cache(trainer)
    cohort = load_cohort([cohort_dir], workers=1, cache=cache)
    assert regraded == ["ben.json"] and cache.hits == 5
    (note,) = cohort.notes
    assert "ben.json" in note and "does not match its signature" in note and "re-graded" in note
    assert _surfaces(cohort) == _surfaces(plain)
    del regraded[:]
    load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    assert regraded == []  # the refused entry was replaced by a signed one


def test_an_entry_signed_by_another_trainer_or_moved_to_another_file_is_refused(
    trainer, tmp_path, cohort_dir, regraded
):
    other = tmp_path / "other-trainer"
    TrainerSecret.open(other, create=True)
    load_cohort([cohort_dir], workers=1, cache=_cache(other))
    shutil.copy(other / CACHE_NAME, trainer / CACHE_NAME)
    del regraded[:]
    cohort = load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    assert len(regraded) == 6 and len(cohort.notes) == 6
    entries = _entries(trainer)
    asha, ben = (k for k, e in entries.items() if e["summary"]["name"] in ("Asha", "Ben"))

    def swap(entries):  # Asha's signed verdict filed under Ben's file
        entries[ben] = entries[asha]

    _rewrite(trainer, swap)
    del regraded[:]
    cohort = load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    assert regraded == ["ben.json"] and len(cohort.notes) == 1


def test_a_damaged_cache_is_a_line_and_a_full_regrade(trainer, cohort_dir, regraded):
    (trainer / CACHE_NAME).write_text("{not json", encoding="ascii")
    cohort = load_cohort([cohort_dir], workers=1, cache=_cache(trainer))
    assert len(regraded) == 6 and len(cohort.notes) == 1 and "damaged" in cohort.notes[0]
    del regraded[:]
    assert load_cohort([cohort_dir], workers=1, cache=_cache(trainer)).notes == ()
    assert regraded == []


def test_no_secret_means_no_cache(tmp_path):
    assert VerdictCache.open(tmp_path / "nobody", course="x") is None
    assert not (tmp_path / "nobody").exists()


def test_two_runs_at_once_keep_both_their_entries(trainer, tmp_path):
    halves = [tmp_path / "a", tmp_path / "b"]
    for half, names in zip(
        halves, (["asha", "ben", "chen"], ["erin-forged", "fran-old-course"]), strict=True
    ):
        half.mkdir()
        for name in names:
            shutil.copy(SAMPLES / f"{name}.json", half / f"{name}.json")
    errors: list[BaseException] = []

    def run(folder: Path) -> None:
        try:
            load_cohort([folder], workers=1, cache=_cache(trainer))
        except BaseException as exc:  # pragma: no cover - shown by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(half,)) for half in halves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    names = sorted(e["summary"]["name"] for e in _entries(trainer).values())
    assert names == ["Asha", "Ben", "Chen", "Erin", "Fran"]
    assert not [p for p in trainer.iterdir() if p.name.endswith(".tmp")]


def test_progress_counts_every_file_cached_or_not(trainer, cohort_dir):
    load_cohort([cohort_dir / "ben.json"], workers=1, cache=_cache(trainer))
    calls: list[tuple[int, int]] = []
    load_cohort([cohort_dir], workers=1, cache=_cache(trainer), progress=lambda *a: calls.append(a))
    assert calls[0] == (1, 6) and calls[-1] == (6, 6) and [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_the_helpers_version_covers_every_module_that_grades_at_any_depth(tmp_path):
    """A fix to the re-grade anywhere in the package is another key: no verdict by older code stands."""
    package = Path(module.__file__).resolve().parent.parent
    assert package.name == "helpers"
    names = {name for name, _path in grading_sources(package, fixtures_dir())}
    for needed in (
        "core/checks.py",
        "team/batch.py",
        "trainee/grading.py",
        "trainer/regrade.py",
        "trainer/cohort.py",
        "trainee/drill/replay.py",
        "trainee/drill/mastery.py",
        "trainee/progress/files.py",
        "trainee/progress/timing.py",
        "trainee/cases/generators.py",
        "fixtures/rules.json",
        "fixtures/vocabulary.json",
        "fixtures/schemas/progress-v3.schema.json",
    ):
        assert needed in names, needed
    assert not any(name.startswith("cli/") or "/widgets/" in name for name in names)
    fake = tmp_path / "helpers"
    (fake / "trainer" / "a" / "b").mkdir(parents=True)
    (fake / "trainer" / "a" / "b" / "deep.py").write_text("x = 1\n", encoding="utf-8")
    (fake / "trainee" / "widgets").mkdir(parents=True)
    (fake / "trainee" / "widgets" / "view.py").write_text("y = 2\n", encoding="utf-8")
    assert [name for name, _ in grading_sources(fake, tmp_path / "none")] == ["trainer/a/b/deep.py"]
