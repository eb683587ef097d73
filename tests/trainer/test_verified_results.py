"""Graded check-outs the trainer can trust: signed, in the ledger, counted once; and the bound their counts certify."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from signed_checkouts import sit

from helpers.trainee.confidence import accuracy_lower_bound
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.verified_results import certified_bound, counting_result, verified_results


def _result(correct: int, total: int, **extra) -> dict:
    """A graded result's counts as ``checkout grade --json`` writes them."""
    cases = [{"label": f"Check-out case {i + 1}", "correct": i < correct} for i in range(total)]
    return {"fully_correct": correct, "cases_total": total, "confidence": 0.95, "cases": cases, **extra}


@given(st.integers(1, 200).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_bound_is_the_clopper_pearson_bound_of_the_counts_never_shown_higher(counts):
    correct, total = counts
    bound = certified_bound(_result(correct, total))
    assert bound is not None and (bound.correct, bound.total) == (correct, total)
    assert bound.lower == accuracy_lower_bound(correct, total, 0.95)
    shown = float(bound.shown)
    assert shown <= bound.lower < shown + 0.01
    assert bound.to_data()["lower_bound"] <= bound.lower
    assert bound.text == f"accuracy ≥ {bound.shown} at 95% confidence, {correct} of {total}"


def test_a_stated_bound_or_statement_is_never_what_is_shown():
    stated = _result(50, 56, accuracy_lower_bound=0.99, statement="Proves accuracy at least 0.99")
    bound = certified_bound(stated)
    assert bound is not None and bound.text == "accuracy ≥ 0.79 at 95% confidence, 50 of 56"


@pytest.mark.parametrize(
    "result",
    [
        None,
        _result(53, 56, verified=False),
        _result(53, 56, fully_correct=56),
        _result(53, 56, cases_total=60),
        _result(53, 56, cases=[]),
        _result(53, 56, confidence=True),
        _result(53, 56, confidence=1.5),
        {**_result(53, 56), "cases": [{"correct": "yes"}] * 56},
    ],
    ids=[
        "none",
        "unverified",
        "correct-disagrees",
        "total-disagrees",
        "no-cases",
        "bool",
        "over-1",
        "not-bool",
    ],
)
def test_a_result_whose_counts_do_not_agree_certifies_nothing(result):
    assert certified_bound(result) is None


@pytest.fixture
def trainer(tmp_path) -> TrainerSecret:
    return TrainerSecret.open(tmp_path / "trainer", create=True)


def test_a_signed_result_in_the_ledger_counts_once_however_many_copies(tmp_path, trainer):
    data = sit(trainer, "Asha", tmp_path / "papers")
    results = tmp_path / "results"
    results.mkdir()
    for name in ("a.json", "b.json"):
        (results / name).write_text(json.dumps(data), encoding="utf-8")
    found, refused = verified_results([results], trainer)
    assert [(r.trainee, r.paper_id, r.passed, r.practice) for r in found] == [
        ("Asha", data["paper_id"], True, False)
    ]
    ((source, why),) = refused
    assert source.endswith("b.json")
    assert why == (
        f"check-out result: a second copy of paper {data['paper_id']}'s result (it counts once, from "
        f"{found[0].file})"
    )


def test_an_edited_result_and_a_file_that_is_no_result_are_refused_with_reasons(tmp_path, trainer):
    data = sit(trainer, "Ben", tmp_path / "papers", wrong=["Check-out case 1"])
    edited = {**data, "passed": not data["passed"]}  # the verdict turned round, whichever it was
    (tmp_path / "edited.json").write_text(json.dumps(edited), encoding="utf-8")
    (tmp_path / "list.json").write_text("[]", encoding="utf-8")
    found, refused = verified_results([tmp_path / "edited.json", tmp_path / "list.json"], trainer)
    assert found == []
    reasons = dict(refused)
    assert "its signature does not match" in reasons[str(tmp_path / "edited.json")]
    assert reasons[str(tmp_path / "list.json")].startswith("check-out result: ")


def test_a_practice_paper_never_decides_and_the_newest_counting_paper_does(tmp_path, trainer):
    results = tmp_path / "results"
    results.mkdir()
    for name, seed in (("counting.json", None), ("practice.json", 7)):
        data = sit(trainer, "Asha", tmp_path / "papers", seed=seed)
        (results / name).write_text(json.dumps(data), encoding="utf-8")
    found, refused = verified_results([results], trainer)
    assert refused == [] and sorted(r.practice for r in found) == [False, True]
    chosen = counting_result(found)
    assert chosen is not None and chosen.practice is False and chosen.counts
    assert counting_result(found, require_proctored=True) is None
    assert counting_result([r for r in found if r.practice]) is None
