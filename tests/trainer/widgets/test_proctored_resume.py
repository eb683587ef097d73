"""One sitting means one paper, not one page load: answers saved as given, resumed, recorded, graded in order.

Driven headless as the proctored page would: the widget's buttons clicked; a culled kernel or a
restarted proctor is the sitting and its widget dropped and opened again from the trainer's folder.
Every callback that raises fails the test (``tests/conftest.py``).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import CheckoutFileError
from helpers.trainee.grading import Answer, correct_answer
from helpers.trainer import proctoring
from helpers.trainer.answers import parse_answer
from helpers.trainer.cohort import load_checkouts
from helpers.trainer.ledger import Ledger
from helpers.trainer.marking import key_case
from helpers.trainer.next_actions import ACTIONS
from helpers.trainer.proctoring import (
    ProctoredSitting,
    grade_sitting,
    open_sitting,
    prepare_sitting,
)
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.sitting import Sitting
from helpers.trainer.widgets.proctored import ProctoredCheckoutWidget, proctored_page


@pytest.fixture
def trainer(tmp_path) -> TrainerSecret:
    return TrainerSecret.open(tmp_path / "trainer", create=True)


def _right(record: dict) -> tuple[Answer, str | None]:
    """The key's own answer to a case (fully right)."""
    a = correct_answer(key_case(record))
    return Answer(a.check, a.missing, a.second, a.flag, a.hold, record["rule"]), record["action"]


def _answer(widget: ProctoredCheckoutWidget, records: dict, *, wrong: bool = False) -> str:
    """Answer the case on screen (right, or with the next action unset and confirmed); its label."""
    label = widget.sitting.current()["label"]
    if wrong:
        widget.submit_button.click()
        widget.confirm_button.click()
        return label
    widget.set_answer(*_right(records[label]))
    widget.submit_button.click()
    return label


def _records(sitting: ProctoredSitting) -> dict[str, dict]:
    assert sitting.key is not None
    return {r["label"]: r for r in sitting.key["cases"]}


def _saved(folder: Path) -> list[dict]:
    return json.loads((folder / "answers.json").read_text())["answers"]


def _events(trainer: TrainerSecret, event: str) -> list[dict]:
    lines = (trainer.folder / "ledger.jsonl").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["event"] == event]


def test_every_answer_is_saved_owner_only_before_the_next_case_is_shown(trainer, monkeypatch):
    folder = prepare_sitting("Asha", trainer)
    sitting = open_sitting(folder, trainer)
    records = _records(sitting)
    widget = ProctoredCheckoutWidget(sitting)
    assert not (folder / "answers.json").exists()
    for n in range(1, 5):
        label = _answer(widget, records, wrong=n == 2)
        assert [row["label"] for row in _saved(folder)][-1] == label and len(_saved(folder)) == n
        assert stat.S_IMODE((folder / "answers.json").stat().st_mode) == 0o600
    on_screen = widget.sitting.current()["label"]

    def full(path, data, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(proctoring, "write_atomically", full)
    widget.set_answer(*_right(records[on_screen]))
    widget.submit_button.click()
    assert "Not sent" in widget.message.value and "No space left" in widget.message.value
    assert widget.sitting.current()["label"] == on_screen  # not saved, so not taken: the same case
    assert len(widget.sitting.answers) == len(_saved(folder)) == 4
    monkeypatch.undo()
    widget.submit_button.click()  # the trainee's answer is still set: sent again, now saved
    assert len(_saved(folder)) == 5 and _saved(folder)[-1]["label"] == on_screen


def test_a_culled_kernel_resumes_at_the_next_case_with_the_same_schedule_and_every_answer_kept(
    trainer, monkeypatch
):
    times = iter(["2026-12-07T01:00:00Z", "2026-12-07T01:10:00Z"])
    monkeypatch.setattr(proctoring, "_now", lambda: next(times))
    monkeypatch.setattr(
        "helpers.trainer.answers.utc_now", lambda: "2026-12-07T01:07:55Z"
    )  # each answer saved at this time
    folder = prepare_sitting("Asha", trainer)
    sitting = open_sitting(folder, trainer)
    records = _records(sitting)
    widget = ProctoredCheckoutWidget(sitting)
    wrong = {2, 5}
    order = [_answer(widget, records, wrong=i in wrong) for i in range(7)]
    del widget, sitting  # the kernel is culled: nothing in memory survives
    again = open_sitting(folder, trainer)
    assert again.resumed == {"resumed": "2026-12-07T01:10:00Z", "answered": 7, "gap_seconds": 125}
    widget = ProctoredCheckoutWidget(again)
    assert "Resumed: your 7 answers so far are kept" in widget.message.value
    assert widget.sitting.schedule.served == order and [r["label"] for r in _saved(folder)] == order
    i = len(order)
    while not widget.sitting.done:
        order.append(_answer(widget, records, wrong=i in wrong))
        i += 1
    reference = Sitting(again.paper, again.key or {})  # the same answers, sat without a break
    for i, label in enumerate(order):
        case = reference.next_case()
        assert case is not None and case.label == label
        given = _saved(folder)[i]
        reference.answer(*parse_answer(given, records[label]["check"], "row", "saved"))
    assert reference.done
    widget.save_button.click()
    assert "Handed in" in widget.message.value
    result = json.loads(again.result_path.read_text())
    assert result["resumes"] == [again.resumed] and result["cases_total"] == len(order)
    assert _events(trainer, "resumed") == [
        {**again.resumed, "event": "resumed", "paper_id": again.paper["paper_id"]}
        | {k: v for k, v in _events(trainer, "resumed")[0].items() if k in ("prev", "signature")}
    ]
    assert Ledger(trainer).read().resumes[again.paper["paper_id"]] == [again.resumed]
    found, refused = load_checkouts([again.result_path.parent], trainer=trainer, require_proctored=True)
    assert set(found) == {"Asha"} and refused == []  # the signature covers the resumes


def test_no_answer_already_given_can_be_changed(trainer):
    folder = prepare_sitting("Asha", trainer)
    first = open_sitting(folder, trainer)
    records = _records(first)
    stale = ProctoredCheckoutWidget(first)  # the page before the reload, its kernel still alive
    for _ in range(3):
        _answer(stale, records)
    fresh = ProctoredCheckoutWidget(open_sitting(folder, trainer))
    _answer(fresh, records, wrong=True)
    before = _saved(folder)
    _answer(stale, records)  # the old page answers the same case again: refused, nothing changes
    assert "changed since this page opened" in stale.message.value and _saved(folder) == before
    data = json.loads((folder / "answers.json").read_text())
    data["answers"][0], data["answers"][1] = data["answers"][1], data["answers"][0]
    (folder / "answers.json").write_text(json.dumps(data))
    with pytest.raises(CheckoutFileError, match="answers\\[0\\] is not the case this sitting served next"):
        first.sitting()
    with pytest.raises(CheckoutFileError, match="the saved answers were changed"):
        grade_sitting(folder, first.trainer)  # nothing is graded from answers changed by hand


def _finished(trainer: TrainerSecret) -> tuple[Path, ProctoredCheckoutWidget]:
    folder = prepare_sitting("Asha", trainer)
    sitting = open_sitting(folder, trainer)
    records = _records(sitting)
    widget = ProctoredCheckoutWidget(sitting)
    while not widget.sitting.done:
        _answer(widget, records)
    return folder, widget


def test_the_ledger_says_graded_only_after_the_result_is_on_disk_and_a_failed_write_grades_again(
    trainer, monkeypatch, run_cli, tmp_path
):
    folder, widget = _finished(trainer)
    paper_id = folder.name
    real = proctoring.write_atomically

    def full(path, data, **kwargs):
        if Path(path).parent.name == "results":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data, **kwargs)

    monkeypatch.setattr(proctoring, "write_atomically", full)
    widget.save_button.click()
    assert "Not handed in" in widget.message.value and "nothing was recorded" in widget.message.value
    assert paper_id not in Ledger(trainer).read().graded and not widget.proctored.result_path.exists()
    monkeypatch.undo()
    del widget  # the kernel is gone: the trainer grades the saved answers
    usage = run_cli("checkout", "grade", "--trainer-dir", str(trainer.folder))
    assert usage.returncode == 2 and b"or --sitting DIR" in usage.stderr
    graded = run_cli(
        "checkout", "grade", "--sitting", str(folder), "--trainer-dir", str(trainer.folder), "--json"
    )
    assert graded.returncode == 0, graded.stderr
    result = json.loads(graded.stdout)
    assert result["passed"] is True and result["proctored"] is True and result["resumes"] == []
    assert json.loads((trainer.folder / "results" / f"{paper_id}.json").read_text()) == result
    assert Ledger(trainer).read().graded[paper_id].passed
    twice = run_cli("checkout", "grade", "--sitting", str(folder), "--trainer-dir", str(trainer.folder))
    assert twice.returncode == 4 and b"handed in already" in twice.stderr


def test_a_graded_ledger_line_without_its_result_is_written_again(trainer):
    """The fault as it stood: the ledger said graded, the result was never written."""
    folder, widget = _finished(trainer)
    widget.save_button.click()
    widget.proctored.result_path.unlink()
    result = grade_sitting(folder, trainer)
    assert result.passed and widget.proctored.result_path.exists()
    assert len(_events(trainer, "graded")) == 1  # the same answers: recorded once


def test_an_unfinished_sitting_is_not_graded(trainer):
    folder = prepare_sitting("Asha", trainer)
    open_sitting(folder, trainer)
    with pytest.raises(CheckoutFileError, match=r"not finished \(0 cases answered\)"):
        grade_sitting(folder, trainer)


def test_a_restarted_proctor_serves_the_same_sitting_which_resumes(trainer, monkeypatch, capsys):
    from helpers import cli
    from helpers.trainer import commands as trainer_commands

    served: list[dict[str, str]] = []

    def fake_execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        served.append(env)
        os.close(int(env["EIC_SERVE_SOCKET_FD"]))  # the socket Voilà would have served on

    monkeypatch.setattr(trainer_commands.os, "execve", fake_execve)
    monkeypatch.setattr(trainer_commands.os, "chdir", lambda _path: None)
    folder = prepare_sitting("Asha", trainer)
    sitting = open_sitting(folder, trainer)
    widget = ProctoredCheckoutWidget(sitting)
    _answer(widget, _records(sitting))
    base = ["checkout", "proctor", "--trainer-dir", str(trainer.folder)]
    assert cli.main([*base, "--sitting", str(folder)]) == 0
    assert served[-1][proctoring.SITTING_ENV] == str(folder)
    assert "served again: the page resumes" in capsys.readouterr().err
    monkeypatch.setenv(proctoring.SITTING_ENV, served[-1][proctoring.SITTING_ENV])
    monkeypatch.setenv(proctoring.TRAINER_ENV, served[-1][proctoring.TRAINER_ENV])
    page = proctored_page()  # the restarted proctor's page
    assert isinstance(page, ProctoredCheckoutWidget) and len(page.sitting.answers) == 1
    assert sorted(p.name for p in (trainer.folder / "proctored").iterdir()) == [folder.name]  # no new paper
    assert cli.main([*base, "--sitting", str(folder), "--trainee", "Asha"]) == 2
    assert cli.main([*base, "--sitting", str(trainer.folder)]) == 2  # not a sitting
    while not page.sitting.done:
        _answer(page, _records(sitting))
    page.save_button.click()
    assert (
        cli.main([*base, "--sitting", str(folder)]) == 2 and "its sitting is over" in capsys.readouterr().err
    )
    assert len(served) == 1


def _policy(record: dict, wrong: bool) -> tuple[Answer, str | None]:
    answer, action = _right(record)
    return answer, (next(a for a in ACTIONS if a != action) if wrong else action)


@settings(max_examples=examples(20), deadline=None)
@given(
    wrong=st.sets(st.integers(0, 40), max_size=4),
    breaks=st.sets(st.integers(0, 40), max_size=4),
)
def test_any_breaks_anywhere_serve_the_cases_an_unbroken_sitting_serves(wrong, breaks):
    with tempfile.TemporaryDirectory() as scratch:
        trainer = TrainerSecret.open(Path(scratch) / "trainer", create=True)
        folder = prepare_sitting("Asha", trainer)
        opened = open_sitting(folder, trainer)
        records = _records(opened)
        kept = opened.sitting()
        order: list[str] = []
        while (case := kept.current()) is not None:
            if len(order) in breaks:  # the kernel is culled here: a new one opens the sitting again
                kept = open_sitting(folder, trainer).sitting()
                assert kept.current()["label"] == case["label"] and len(kept.answers) == len(order)
            kept.submit(*_policy(records[case["label"]], len(order) in wrong))
            order.append(case["label"])
        reference = Sitting(opened.paper, opened.key or {})
        unbroken: list[str] = []
        while (served := reference.next_case()) is not None:
            reference.answer(*_policy(records[served.label], len(unbroken) in wrong))
            unbroken.append(served.label)
        assert order == unbroken == [row["label"] for row in _saved(folder)]
        resumes = Ledger(trainer).read().resumes.get(folder.name, [])
        assert [r["answered"] for r in resumes] == sorted(b for b in breaks if b < len(order))
        assert grade_sitting(folder, trainer).passed == reference.result().passed
