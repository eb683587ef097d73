"""A check-out graded by the trainer: signed over every field, entered in the ledger once, and read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from signed_checkouts import answer_all, issue

from helpers.core.errors import CheckoutFileError
from helpers.trainer.checkout_result import CheckoutResult
from helpers.trainer.ledger import Ledger
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.signed_result import SignedCheckoutResult, grade_files, load_result


@pytest.fixture
def trainer(tmp_path) -> TrainerSecret:
    return TrainerSecret.open(tmp_path / "trainer", create=True)


def _answered(trainer: TrainerSecret, folder: Path, *, seed: int | None = None) -> tuple[Path, Path]:
    issued, key = issue(trainer, "Asha", folder, seed=seed)
    answers = folder / "answers.json"
    answers.write_text(json.dumps(answer_all(issued)), encoding="utf-8")
    return answers, key


def test_a_graded_result_is_signed_over_every_field_and_entered_in_the_ledger(tmp_path, trainer):
    answers, key = _answered(trainer, tmp_path / "p")
    result = grade_files(answers, key, trainer=trainer)
    assert isinstance(result, SignedCheckoutResult) and result.passed
    assert (result.practice, result.proctored, len(result.answers_digest)) == (False, False, 64)
    data = result.to_data()
    assert data["signature"] == trainer.sign("result", result.unsigned_data())
    assert "resumes" not in data and data["practice"] is False
    graded = Ledger(trainer).read().graded[result.paper_id]
    assert graded.passed is True and graded.proctored is False


def test_without_the_trainer_the_result_is_graded_but_neither_signed_nor_recorded(tmp_path, trainer):
    answers, key = _answered(trainer, tmp_path / "p")
    result = grade_files(answers, key)
    assert type(result) is CheckoutResult and result.passed
    assert Ledger(trainer).read().graded == {}


def test_grading_the_same_answers_again_is_kept_but_recorded_once(tmp_path, trainer):
    answers, key = _answered(trainer, tmp_path / "p", seed=11)
    kept: list[tuple[bool, bool]] = []
    first = grade_files(answers, key, trainer=trainer, keep=lambda r, again: kept.append((r.practice, again)))
    lines = Ledger(trainer).read().lines
    second = grade_files(
        answers, key, trainer=trainer, keep=lambda r, again: kept.append((r.practice, again))
    )
    assert kept == [(True, False), (True, True)] and Ledger(trainer).read().lines == lines
    assert first.paper_id == second.paper_id


def test_a_result_the_keeper_could_not_write_is_not_recorded(tmp_path, trainer):
    answers, key = _answered(trainer, tmp_path / "p")

    def full(result, again):
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        grade_files(answers, key, trainer=trainer, keep=full)
    assert Ledger(trainer).read().graded == {}


def test_answers_holding_a_number_json_cannot_carry_are_refused(tmp_path, trainer):
    answers, key = _answered(trainer, tmp_path / "p")
    answers.write_text(
        answers.read_text(encoding="utf-8").replace('"version": 1', '"version": 1e999'), "utf-8"
    )
    with pytest.raises(CheckoutFileError, match="holds a number JSON cannot carry"):
        grade_files(answers, key, trainer=trainer)


def test_a_result_is_read_back_without_its_signature_and_refused_once_edited(tmp_path, trainer):
    answers, key = _answered(trainer, tmp_path / "p")
    data = grade_files(answers, key, trainer=trainer).to_data()
    path = tmp_path / "result.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    read = load_result(path, trainer=trainer)
    assert read == {k: v for k, v in data.items() if k != "signature"}
    path.write_text(json.dumps({**data, "trainee": "Ben"}), encoding="utf-8")
    assert load_result(path)["trainee"] == "Ben"  # no trainer: its shape alone is read
    with pytest.raises(CheckoutFileError, match="its signature does not match"):
        load_result(path, trainer=trainer)
