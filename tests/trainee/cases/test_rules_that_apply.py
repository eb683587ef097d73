"""The rules that apply to a case, tested together, are those :func:`applies` says apply one by one.

:func:`helpers.trainee.cases.deciding_rule.rules_that_apply` works every rule of a check out at
once (the reason question asks for all of them, for every case of every drill); the reasons each
drill offered depend on it, so it is held here to the rule-by-rule tests, over generated cases of
every rule and over inputs built of look-alike IDs and answers.
"""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.rules import project_rules

CHECKS = ("target-scope", "sentinels")
IDS = {check: [rule.id for rule in project_rules(check)] for check in CHECKS}

#: A few words and their look-alikes of every kind (case, spaces, Unicode form, invisible, wide, script).
WORDS = st.sampled_from(
    [
        "payroll",
        "Payroll",
        " payroll",
        "pay\u00a0roll",
        "pay\u200broll",
        "p\u0430yroll",
        "\uff50ayroll",
        "caf\u00e9",
        "cafe\u0301",
        "overtime",
        "",
        "  ",
    ]
)
KEYS = st.dictionaries(st.sampled_from(["s1", "s2", "s3", "S1", "s\u200b1"]), WORDS, max_size=4)
ANY = st.one_of(st.none(), st.integers(), WORDS, st.lists(st.one_of(WORDS, st.integers()), max_size=3))


def _one_by_one(check: str, record: dict, context: dict) -> set[str]:
    return {rule for rule in IDS[check] if keyed.applies(rule, check, record, context)}


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(WORDS, max_size=5),
    st.lists(WORDS, max_size=5),
    st.one_of(st.none(), st.lists(WORDS, max_size=2), ANY),
    st.one_of(st.none(), WORDS, ANY),
    st.one_of(st.none(), WORDS),
)
def test_target_scope_rules_together_are_the_rules_one_by_one(
    original, rewritten, unresolved, query, reworded
):
    record = {"original": original, "rewritten": rewritten}
    for field, value in (("unresolved", unresolved), ("query", query), ("rewritten_query", reworded)):
        if value is not None:
            record[field] = value
    found = keyed.rules_that_apply(IDS["target-scope"], "target-scope", record)
    assert found == _one_by_one("target-scope", record, {})


@settings(max_examples=examples(400), deadline=None)
@given(
    KEYS,
    KEYS,
    st.one_of(st.none(), KEYS),
    st.one_of(
        st.none(),
        st.fixed_dictionaries({"id": st.sampled_from(["s1", "s2", "s9", 3]), "from": WORDS, "to": WORDS}),
        ANY,
    ),
)
def test_sentinel_rules_together_are_the_rules_one_by_one(baseline, proposed, earlier, revision):
    record = {"baseline": baseline, "proposed": proposed}
    context = {}
    if earlier is not None:
        context["earlier_key"] = earlier
    if revision is not None:
        context["rubric_revision"] = revision
    found = keyed.rules_that_apply(IDS["sentinels"], "sentinels", record, context)
    assert found == _one_by_one("sentinels", record, context)


@pytest.mark.parametrize("rule", sorted(GENERATORS))
def test_every_rules_cases_have_the_rules_one_by_one(rule: str) -> None:
    for seed in range(12):
        case = generate(rule, seed)
        context = case.context if isinstance(case.context, dict) else {}
        found = keyed.rules_that_apply(IDS[case.check], case.check, case.input, context)
        assert found == _one_by_one(case.check, case.input, context)


def test_a_subset_is_tested_and_an_unknown_rule_is_refused_as_one_by_one() -> None:
    record = {"original": ["a", "b"], "rewritten": ["a"]}
    assert keyed.rules_that_apply(["ts-lost", "ts-added"], "target-scope", record) == {"ts-lost"}
    with pytest.raises(KeyError, match="sk-missing"):
        keyed.rules_that_apply(["ts-lost", "sk-missing"], "target-scope", record)
    with pytest.raises(KeyError, match="sk-missing"):
        keyed.applies("sk-missing", "target-scope", record)
    with pytest.raises(ValueError, match="unknown check"):
        keyed.rules_that_apply(["ts-lost"], "other", record)
