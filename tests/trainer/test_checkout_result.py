"""A graded check-out: counts per case, field, rule and look-alike kind, the bound it proves and the words it states."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.confidence import accuracy_lower_bound
from helpers.trainer.checkout_format import RESULT_FORMAT
from helpers.trainer.checkout_result import ACCURACY_BOUND, CONFIDENCE, CaseVerdict, CheckoutResult
from helpers.trainer.sequential import operating_characteristic_words


def _case(n: int, rule: str, ok: bool, kinds: tuple[str, ...] = (), answered: bool = True) -> CaseVerdict:
    return CaseVerdict(
        label=f"Case {n}",
        rule=rule,
        lookalike=bool(kinds),
        answered=answered,
        fields={"output": True, "reason": ok, "action": True},
        rules_missed=() if ok else (rule,),
        kinds=kinds,
    )


def _result(cases, **kw) -> CheckoutResult:
    return CheckoutResult("Asha", "p1", "d" * 64, tuple(cases), graded="2026-12-01T09:00:00Z", **kw)


def test_a_case_is_correct_only_answered_with_every_field_right() -> None:
    assert _case(1, "r", True).correct
    assert not _case(1, "r", False).correct
    assert not _case(1, "r", True, answered=False).correct


def test_the_counts_per_rule_kind_and_field() -> None:
    result = _result(
        [
            _case(1, "r1", True, ("nfd",)),
            _case(2, "r1", False, ("case", "nfd")),
            _case(3, "r2", False),
            _case(4, "r2", True, answered=False),
        ],
        rules_covered=("r1", "r2", "r3"),
        kinds_covered=("nfd", "zero-width"),
    )
    assert (result.fully_correct, result.lookalikes) == (1, (1, 2))
    assert result.per_rule() == {"r1": (1, 2), "r2": (0, 2), "r3": (0, 0)}
    assert result.per_kind() == {"case": (0, 1), "nfd": (1, 2), "zero-width": (0, 0)}  # in FACETS' order
    assert result.per_field() == {"output": (3, 4), "reason": (1, 4), "action": (3, 4)}
    assert result.never_right() == {
        "rules_never_right": ["r2"],
        "kinds_never_right": ["case"],
        "not_on_paper": ["r3", "zero-width"],
    }
    assert result.evidence_lines() == [
        "per rule (right/served): r1 1/2, r2 0/2, r3 0/0",
        "per look-alike kind (right/served): case 0/1, nfd 1/2, zero-width 0/0",
    ]


@given(st.integers(1, 120).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_bound_is_clopper_pearsons_and_the_statement_never_shows_it_higher(counts) -> None:
    right, total = counts
    result = _result([_case(i, "r", i < right) for i in range(total)], decision="failed")
    assert result.accuracy_lower_bound == accuracy_lower_bound(right, total, CONFIDENCE)
    assert result.accuracy_proved is (result.accuracy_lower_bound >= ACCURACY_BOUND)
    shown = result.statement().split("they prove accuracy at least ")[1][:4]
    assert float(shown) <= result.accuracy_lower_bound < float(shown) + 0.01


def test_an_empty_paper_proves_nothing() -> None:
    empty = _result([])
    assert (empty.accuracy_lower_bound, empty.accuracy_proved, empty.passed) == (0.0, False, False)


def test_the_statement_says_the_verdict_why_and_any_flag() -> None:
    cases = [_case(i, "r", True) for i in range(32)]
    passed = _result(cases, decision="passed", why="the evidence reached the pass boundary")
    assert passed.statement() == (
        "Passed after 32 cases (32 fully correct): the evidence reached the pass boundary; they prove accuracy "
        f"at least 0.91 with 95% confidence. {operating_characteristic_words()}"
    )
    flagged = _result(cases[:3], too_fast="3 cases under 2 s")
    assert flagged.statement().startswith(
        "Not passed after 3 cases (3 fully correct); they prove accuracy at least 0.36 with 95% confidence. "
        "Flagged: answered faster than a person reads (3 cases under 2 s). This check-out"
    )


def test_the_json_carries_the_verdict_and_its_counts() -> None:
    result = _result(
        [_case(1, "r1", True, ("nfd",)), _case(2, "r1", False)], decision="failed", evidence=-0.9
    )
    data = result.to_data()
    assert data["format"] == RESULT_FORMAT and data["passed"] is False and data["decision"] == "failed"
    assert (
        data["fully_correct"],
        data["cases_total"],
        data["lookalike_correct"],
        data["lookalike_total"],
    ) == (
        1,
        2,
        1,
        1,
    )
    assert data["per_rule"] == {"r1": [1, 2]} and data["evidence"] == -0.9
    assert data["accuracy_lower_bound"] == pytest.approx(result.accuracy_lower_bound, abs=1e-6)
    assert data["cases"][1] == {
        "label": "Case 2",
        "rule": "r1",
        "lookalike": False,
        "lookalike_kinds": [],
        "answered": True,
        "correct": False,
        "fields": {"output": True, "reason": False, "action": True},
        "rules_missed": ["r1"],
    }
