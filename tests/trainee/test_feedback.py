"""Findings on a graded answer (``helpers/trainee/feedback.py``): one per wrong field or ID, each naming its rule."""

from __future__ import annotations

from helpers.trainee.answers import Answer, correct_answer
from helpers.trainee.cases.filled import filled_cases, get_case
from helpers.trainee.feedback import Feedback, Grade, sentinel_feedback, target_scope_feedback


def _feedback(case, answer):
    if case.check == "target-scope":
        return target_scope_feedback(case, case.expected, answer)
    return sentinel_feedback(case, case.expected, answer)


def test_the_right_answer_has_no_findings() -> None:
    for case in filled_cases():
        assert _feedback(case, correct_answer(case)) == [], case.id


def test_a_target_scope_answer_gets_one_finding_per_wrong_field_and_id() -> None:
    case = get_case("lost-comparison")
    answer = Answer("target-scope", missing=frozenset({"induction"}), flag=True)
    assert target_scope_feedback(case, case.expected, answer) == [
        Feedback(
            "missing", None, "`missing` is incomplete: one original target is not in the rewrite.", "ts-lost"
        ),
        Feedback(
            "missing",
            "induction",
            "`missing` has `induction`, which is in both lists: order doesn't matter",
            "ts-order",
        ),
        Feedback(
            "preserved",
            None,
            "`preserved` is wrong: the scope is preserved exactly when nothing is missing and nothing was added",
            "ts-lost",
        ),
    ]


def test_feedback_never_names_an_id_left_unmarked() -> None:
    case = get_case("sentinel-missing")
    messages = [f.message for f in _feedback(case, Answer("sentinels", flag=False))]
    assert messages == ["`missing` is incomplete: one baseline sentinel is absent from the proposed key."]
    assert not any("S2" in message for message in messages)


def test_holding_or_refusing_a_case_the_check_can_run_is_its_own_finding() -> None:
    lost = get_case("lost-comparison")
    assert [f.field for f in _feedback(lost, Answer("target-scope", hold=True))] == ["held"]
    mutated = get_case("sentinel-mutated")
    (refused,) = _feedback(mutated, Answer("sentinels", hold=True))
    assert refused.message == "`refused` is wrong: the baseline holds sentinels, so the check can run"
    assert refused.rule == "sk-empty-baseline"
    (not_refused,) = sentinel_feedback(mutated, {"error": "no sentinels"}, Answer("sentinels"))
    assert not_refused.field == "refused" and "how many sentinels the baseline holds" in not_refused.message


def test_a_grade_lists_each_missed_rule_once_in_first_met_order() -> None:
    mistakes = tuple(
        Feedback(name, None, "m", rule) for name, rule in [("a", "r2"), ("b", "r1"), ("c", "r2")]
    )
    assert Grade(False, mistakes).rules_missed == ["r2", "r1"]
    assert Grade(True).rules_missed == [] and Grade(True).mistakes == ()
