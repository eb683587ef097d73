"""A sequential check-out sat case by case through the headless contract: served, answered, timed, saved, graded."""

from __future__ import annotations

import functools
import json
from dataclasses import replace

import pytest
from checkout_papers import right_answer

from helpers.core.errors import CheckInputError, CheckoutFileError
from helpers.trainer.paper import Issued
from helpers.trainer.sitting import Sitting, issue_checkout, start_sitting


@functools.cache
def _issued() -> Issued:
    return issue_checkout("Asha", seed=7, issued="2026-12-01T09:00:00Z")


def _clock(step: float):
    ticks = iter(range(0, 10**6))
    return lambda: float(next(ticks)) * step


def _sat_right(sitting: Sitting) -> list[str]:
    served = []
    while (case := sitting.next_case()) is not None:
        served.append(case.label)
        sitting.answer(*right_answer(sitting.records[case.label]))
    return served


def test_a_case_is_served_until_answered_and_shows_only_the_papers_side() -> None:
    sitting = start_sitting(_issued())
    first = sitting.next_case()
    assert first is not None and first.number == 1 and sitting.next_case() == first
    assert sitting.position() == "Case 1 (at most 90)" and sitting.index == 0 and not sitting.done
    assert first.shown == sitting.shown[first.label] and sitting.current() == first.shown
    assert not {"rule", "stream", "action", "lookalike_kinds"} & set(first.shown)
    sitting.answer(*right_answer(sitting.records[first.label]))
    assert (
        sitting.index == 1 and sitting.cases == [first.shown] and sitting.position() == "Case 2 (at most 90)"
    )


def test_every_case_right_passes_and_the_result_is_the_graded_file() -> None:
    sitting = start_sitting(_issued(), clock=_clock(30))
    served = _sat_right(sitting)
    assert sitting.done and sitting.current() is None and sitting.next_case() is None
    result = sitting.result()
    assert result.passed and [c.label for c in result.cases] == served
    with pytest.raises(CheckInputError, match="the sitting is decided; no more cases are served"):
        sitting.answer(*right_answer(sitting.records[served[0]]))


def test_each_answer_carries_the_seconds_it_took_in_the_order_served() -> None:
    sitting = start_sitting(_issued(), clock=_clock(20))
    for _ in range(3):
        case = sitting.next_case()
        assert case is not None
        sitting.answer(*right_answer(sitting.records[case.label]))
    rows = sitting.answers_data()["answers"]
    assert [row["label"] for row in rows] == [c["label"] for c in sitting.cases]
    assert [row["seconds"] for row in rows] == [20.0, 20.0, 20.0]


def test_an_answer_for_another_check_is_refused_and_nothing_is_counted() -> None:
    sitting = start_sitting(_issued())
    case = sitting.next_case()
    assert case is not None
    answer, action = right_answer(sitting.records[case.label])
    other = "sentinels" if answer.check != "sentinels" else "target-scope"
    with pytest.raises(CheckInputError, match=f"answer is for '{other}', the case is '{case.check}'"):
        sitting.answer(replace(answer, check=other), action)
    assert sitting.index == 0 and sitting.answers == {}


def test_a_paper_and_a_key_of_different_papers_are_refused() -> None:
    other = issue_checkout("Ben", seed=8)
    with pytest.raises(CheckInputError, match="the paper and the key are for different papers"):
        Sitting(_issued().paper, other.key)


def test_the_answers_file_is_written_once_unless_told_to_replace_it(tmp_path) -> None:
    sitting = start_sitting(_issued())
    path = sitting.save(tmp_path / "answers.json")
    assert sitting.saved_to == path and json.loads(path.read_text(encoding="utf-8")) == sitting.answers_data()
    with pytest.raises(CheckoutFileError):
        sitting.save(path)
    assert sitting.save(path, overwrite=True) == path
