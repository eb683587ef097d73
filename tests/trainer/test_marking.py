"""Marking a sitting: the sequential rule over the cases served, per field, rule and kind; bad answers refused."""

from __future__ import annotations

import json

import pytest
from checkout_papers import answers_for, fixed_paper, right_answer

from helpers.core.errors import CheckoutFileError
from helpers.trainee.grading import Answer, answer_fields
from helpers.trainer.answers import answers_data
from helpers.trainer.marking import grade_checkout
from helpers.trainer.paper import Issued, issue_checkout
from helpers.trainer.result_report import result_text


@pytest.fixture(scope="module")
def issued() -> Issued:
    return fixed_paper()


def _one_per_rule(issued: Issued, how_many: int) -> set[str]:
    """Labels of ``how_many`` cases, each of another rule and no look-alike kind."""
    picked: dict[str, str] = {}
    for rec in issued.key["cases"]:
        if rec["rule"] not in picked and not rec["lookalike_kinds"] and len(picked) < how_many:
            picked[rec["rule"]] = rec["label"]
    return set(picked.values())


def test_the_pass_rests_on_the_sequential_rule_and_every_rule_and_kind(issued):
    perfect = grade_checkout(answers_for(issued), issued.key)
    # A fixed paper is graded case by case in its order: always right, the rule passes at case 32.
    assert perfect.passed and len(perfect.cases) == perfect.fully_correct == 32
    assert perfect.statement().startswith("Passed after 32 cases (32 fully correct)")
    assert "passes someone right 85% of the time or less at most 5 times in 100" in perfect.statement()
    one = grade_checkout(answers_for(issued, _one_per_rule(issued, 1)), issued.key)
    assert one.passed and len(one.cases) > 32  # one slip costs more cases, not the pass
    rule = issued.key["cases"][0]["rule"]
    whole = {r["label"] for r in issued.key["cases"] if r["rule"] == rule}
    whole_rule = grade_checkout(answers_for(issued, whole), issued.key)
    assert not whole_rule.passed and rule in whole_rule.why
    assert whole_rule.never_right()["rules_never_right"] == [rule]
    kind_cases = {r["label"] for r in issued.key["cases"] if "zero-width" in r["lookalike_kinds"]}
    blind = grade_checkout(answers_for(issued, kind_cases), issued.key)
    assert not blind.passed and "zero-width" in blind.why
    assert blind.never_right()["kinds_never_right"] == ["zero-width"]


def test_a_key_from_before_is_graded_and_cannot_pass_a_short_paper():
    old = issue_checkout("Old", seed=5, sequential=False)
    key = json.loads(json.dumps(old.key))
    key.pop("verdict_rule")
    key["pass_share"] = 0.9
    for rec in key["cases"]:
        rec.pop("lookalike_kinds")
    result = grade_checkout(answers_for(Issued(old.paper, key)), key)
    assert result.passed and result.per_kind() == grade_checkout(answers_for(old), old.key).per_kind()
    key["cases"] = [rec for rec in key["cases"] if rec["rule"] != "ts-order"]
    paper = {
        **old.paper,
        "cases": [c for c in old.paper["cases"] if c["label"] in {r["label"] for r in key["cases"]}],
    }
    short = grade_checkout(answers_for(Issued(paper, key)), key)
    assert not short.passed and short.never_right()["not_on_paper"] == ["ts-order"]
    assert "with ts-order not cleared" in short.statement()


def test_verdicts_per_field_and_rule_name_what_was_wrong(issued):
    target = issued.key["cases"][0]
    answer, action = right_answer(target)
    _first, _second, _flag = answer_fields(target["check"])
    bad = Answer(
        answer.check,
        answer.missing,
        answer.second,
        not answer.flag if answer.flag is not None else True,
        answer.hold,
        None,
    )
    data = answers_data(issued.paper, {target["label"]: (bad, action)})
    result = grade_checkout(data, issued.key)
    verdict = result.cases[0]
    assert verdict.answered and not verdict.correct
    assert verdict.fields["reason"] is False and verdict.fields["action"] is True
    assert all(not c.answered and not c.correct for c in result.cases[1:])
    assert result.per_rule()[target["rule"]][0] == 0
    # Unanswered cases are wrong: three misses reach the fail boundary at case 3.
    assert not result.passed and result.per_field()["reason"] == (0, len(result.cases)) == (0, 3)
    assert "not answered" in result_text(result)


def test_answers_for_another_paper_or_malformed_are_refused(issued):
    data = answers_for(issued)
    with pytest.raises(CheckoutFileError, match="key is for paper"):
        grade_checkout({**data, "paper_id": "0" * 16}, issued.key)
    twice = {**data, "answers": [data["answers"][0], data["answers"][0]]}
    with pytest.raises(CheckoutFileError, match="answered twice"):
        grade_checkout(twice, issued.key)
    odd = {**data, "answers": [{**data["answers"][0], "hold": "yes"}]}
    with pytest.raises(CheckoutFileError, match="hold"):
        grade_checkout(odd, issued.key)
