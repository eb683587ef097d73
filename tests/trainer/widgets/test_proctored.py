"""The proctored check-out, headless: prepared in the trainer's folder, opened, handed in, signed, counted."""

from __future__ import annotations

import json

import pytest
from signed_checkouts import answer_all

from helpers.core.errors import CheckoutFileError
from helpers.trainee.grading import Answer, answer_fields
from helpers.trainer.answer_key import load_key
from helpers.trainer.cohort import load_checkouts
from helpers.trainer.paper import Issued
from helpers.trainer.proctoring import SITTING_ENV, TRAINER_ENV, open_sitting, prepare_sitting
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.widgets.proctored import ProctoredCheckoutWidget, proctored_page


@pytest.fixture
def trainer(tmp_path) -> TrainerSecret:
    return TrainerSecret.open(tmp_path / "trainer", create=True)


def test_a_proctored_paper_is_sat_once_handed_in_and_counted_as_proctored(tmp_path, trainer):
    folder = prepare_sitting("Asha", trainer)
    assert folder.parent == trainer.folder / "proctored"
    sitting = open_sitting(folder, trainer)
    key = load_key(folder / "paper.key.json", trainer=trainer)
    widget = ProctoredCheckoutWidget(sitting)
    assert widget.save_area.children == (widget.save_button,)  # no file name to type, nothing to download
    widget.save_button.click()
    assert "Answer every case" in widget.message.value
    records = {r["label"]: r for r in key["cases"]}
    rows = {row["label"]: row for row in answer_all(Issued(sitting.paper, key))["answers"]}
    while not widget.sitting.done:  # each case the sequential rule serves, answered right
        record = records[widget.sitting.current()["label"]]
        row = rows[record["label"]]
        first, second, flag = answer_fields(record["check"])
        widget.set_answer(
            Answer(
                record["check"],
                frozenset(row[first]),
                frozenset(row[second]),
                row[flag],
                row["hold"],
                row["reason"],
            ),
            row["action"],
        )
        widget.submit_button.click()
    served = len(widget.sitting.answers)
    assert served < len(key["cases"]) and "There is no file to save or send" in widget.heading.value
    widget.save_button.click()
    assert f"Handed in: your {served} answers are graded and signed" in widget.message.value
    right = widget.sitting.answers_data()
    assert "PASSED" not in widget.widget.children[-1].value  # the verdict is the trainer's to give
    widget.save_button.click()
    assert "already handed in" in widget.message.value
    result = json.loads(sitting.result_path.read_text())
    assert result["proctored"] is True and result["passed"] is True and result["trainee"] == "Asha"
    found, refused = load_checkouts([sitting.result_path.parent], trainer=trainer, require_proctored=True)
    assert set(found) == {"Asha"} and refused == []
    assert json.loads((folder / "answers.json").read_text())["answers"] == right["answers"]
    with pytest.raises(CheckoutFileError, match="handed in already"):  # once
        sitting.hand_in()
    with pytest.raises(CheckoutFileError, match="handed in and graded"):  # the sitting is over
        open_sitting(folder, trainer)


def test_a_hand_in_that_failed_part_way_can_be_tried_again(tmp_path, trainer, monkeypatch):
    from helpers.trainer import proctoring

    sitting = open_sitting(prepare_sitting("Asha", trainer), trainer)
    widget = ProctoredCheckoutWidget(sitting)
    for _ in sitting.paper["cases"]:  # every case sent with everything unset, as confirmed
        widget.submit_button.click()
        widget.confirm_button.click()
    real = proctoring.grade_files

    def busy(*args, **kwargs):
        raise CheckoutFileError("the ledger is in use by another command", path="ledger")

    monkeypatch.setattr(proctoring, "grade_files", busy)
    widget.save_button.click()
    assert "Not handed in" in widget.message.value and not sitting.result_path.exists()
    monkeypatch.setattr(proctoring, "grade_files", real)
    widget.save_button.click()
    assert "Handed in" in widget.message.value and sitting.result_path.exists()


def test_the_page_says_why_when_there_is_no_sitting(monkeypatch, tmp_path, trainer):
    monkeypatch.delenv(SITTING_ENV, raising=False)
    assert "no proctored sitting was prepared" in proctored_page().children[-1].value
    folder = prepare_sitting("Asha", trainer)
    monkeypatch.setenv(SITTING_ENV, str(folder))
    monkeypatch.setenv(TRAINER_ENV, str(trainer.folder))
    assert isinstance(proctored_page(), ProctoredCheckoutWidget)
    again = proctored_page()  # a reloaded page resumes, and says so
    assert isinstance(again, ProctoredCheckoutWidget) and "Resumed: your 0 answers" in again.message.value
