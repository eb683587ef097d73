"""A proctored sitting, headless: prepared in the trainer's folder, opened and resumed, every answer kept, handed in."""

from __future__ import annotations

import json
import os
import stat

import pytest
from checkout_papers import right_answer

from helpers.core.errors import CheckoutFileError
from helpers.trainer.answer_key import load_key
from helpers.trainer.ledger import Ledger
from helpers.trainer.proctoring import (
    SITTING_ENV,
    TRAINER_ENV,
    grade_sitting,
    open_sitting,
    prepare_sitting,
    resumable_sitting,
    saved_answers,
    sitting_from_environment,
)
from helpers.trainer.secret import TrainerSecret


@pytest.fixture
def trainer(tmp_path) -> TrainerSecret:
    return TrainerSecret.open(tmp_path / "trainer", create=True)


def _answer_next(kept, records) -> str:
    case = kept.current()
    kept.submit(*right_answer(records[case["label"]]))
    return case["label"]


def test_a_sitting_is_prepared_owner_only_in_the_trainers_folder(trainer):
    folder = prepare_sitting("Asha", trainer)
    assert folder.parent == trainer.folder / "proctored"
    assert sorted(p.name for p in folder.iterdir()) == [
        "paper.json",
        "paper.key.baseline.json",
        "paper.key.json",
    ]
    if os.name == "posix":
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    paper = json.loads((folder / "paper.json").read_text(encoding="utf-8"))
    assert folder.name == paper["paper_id"] and paper["trainee"] == "Asha"
    assert Ledger(trainer).read().issued[paper["paper_id"]].proctored is True
    assert resumable_sitting(folder, trainer) == folder and saved_answers(folder) is None


def test_each_answer_is_saved_before_the_next_case_and_a_reopened_sitting_resumes_there(trainer):
    folder = prepare_sitting("Asha", trainer)
    opened = open_sitting(folder, trainer)
    assert opened.resumed is None
    records = {r["label"]: r for r in load_key(folder / "paper.key.json", trainer=trainer)["cases"]}
    kept = opened.sitting()
    given = [_answer_next(kept, records) for _ in range(2)]
    assert [row["label"] for row in saved_answers(folder)["answers"]] == given
    again = open_sitting(folder, trainer)
    assert again.resumed is not None and again.resumed["answered"] == 2
    assert isinstance(again.resumed["gap_seconds"], int) and again.resumed["gap_seconds"] >= 0
    resumed = again.sitting()
    assert list(resumed.answers) == given and resumed.current()["label"] not in given
    assert Ledger(trainer).read().resumes[opened.paper["paper_id"]] == [dict(again.resumed)]


def test_an_unfinished_sitting_is_not_graded_and_a_finished_one_is_handed_in_once(trainer):
    folder = prepare_sitting("Asha", trainer)
    opened = open_sitting(folder, trainer)
    with pytest.raises(CheckoutFileError, match=r"the sitting is not finished \(0 cases answered\)"):
        grade_sitting(folder, trainer)
    records = {r["label"]: r for r in opened.key["cases"]}
    kept = opened.sitting()
    while kept.current() is not None:
        _answer_next(kept, records)
    result = opened.hand_in()
    assert result.passed and result.proctored
    assert json.loads(opened.result_path.read_text(encoding="utf-8"))["proctored"] is True
    with pytest.raises(CheckoutFileError, match="its sitting is over"):
        open_sitting(folder, trainer)
    with pytest.raises(CheckoutFileError, match=r"was handed in and graded at .*; its sitting is over"):
        resumable_sitting(folder, trainer)
    with pytest.raises(CheckoutFileError, match="this paper is handed in already"):
        grade_sitting(folder, trainer)


def test_saved_answers_changed_by_hand_are_refused(trainer):
    folder = prepare_sitting("Asha", trainer)
    (folder / "answers.json").write_text("not json", encoding="utf-8")
    with pytest.raises(CheckoutFileError, match="is not JSON: the saved answers were changed by hand"):
        saved_answers(folder)
    (folder / "answers.json").write_text('{"answers": {}}', encoding="utf-8")
    with pytest.raises(CheckoutFileError, match="holds no list of answers"):
        saved_answers(folder)
    (folder / "answers.json").write_text('{"answers": [{"label": "nowhere"}]}', encoding="utf-8")
    with pytest.raises(CheckoutFileError, match=r"answers\[0\] is not the case this sitting served next"):
        open_sitting(folder, trainer).sitting()


def test_a_folder_not_issued_here_as_proctored_is_refused(tmp_path, trainer):
    folder = prepare_sitting("Asha", trainer)
    other = TrainerSecret.open(tmp_path / "other", create=True)
    with pytest.raises(CheckoutFileError, match="is not a proctored paper this trainer issued"):
        open_sitting(folder, other)
    with pytest.raises(CheckoutFileError, match="is not a proctored sitting in this trainer's folder"):
        resumable_sitting(folder, other)


def test_the_page_opens_the_sitting_its_environment_names(trainer):
    with pytest.raises(CheckoutFileError, match="no proctored sitting was prepared for this page"):
        sitting_from_environment({})
    folder = prepare_sitting("Ben", trainer)
    opened = sitting_from_environment({SITTING_ENV: str(folder), TRAINER_ENV: str(trainer.folder)})
    assert opened.folder == folder and opened.paper["trainee"] == "Ben" and opened.trainer == trainer
