"""One generator per rule: fresh cases whose expected output the exact checks compute."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.teach.generators import (
    GENERATORS,
    generate,
    generate_many,
    generated_case_data,
    generators_fingerprint,
    load_vocabulary,
)
from helpers.teach.rules import load_rules

RULES = {rule.id: rule for rule in load_rules()}
VOCAB = load_vocabulary()
rule_ids = st.sampled_from(sorted(GENERATORS))
seeds = st.integers(min_value=0, max_value=10**9)


def test_every_rule_has_exactly_one_generator():
    assert set(GENERATORS) == set(RULES)
    for rule_id, generator in GENERATORS.items():
        assert generator.check == RULES[rule_id].check


@settings(max_examples=300)
@given(rule_id=rule_ids, seed=seeds)
def test_the_expected_output_is_the_checks_output(rule_id, seed):
    case = generate(rule_id, seed, vocabulary=VOCAB)
    assert case.expected == case.actual()


@settings(max_examples=300)
@given(rule_id=rule_ids, seed=seeds)
def test_each_case_changes_its_outcome_when_its_rule_is_broken(rule_id, seed):
    """The case really exercises the rule: the check with that rule broken gets it wrong."""
    case = generate(rule_id, seed, vocabulary=VOCAB)
    broken = GENERATORS[rule_id].broken(VOCAB)
    assert broken(dict(case.input)) != case.expected, (rule_id, case.input)


@given(rule_id=rule_ids, seed=seeds)
def test_the_same_seed_gives_the_same_case(rule_id, seed):
    first = generate(rule_id, seed, vocabulary=VOCAB)
    again = generate(rule_id, seed)
    assert first == again
    assert json.dumps(generated_case_data(first)) == json.dumps(generated_case_data(again))


@given(rule_id=rule_ids, seed=seeds)
def test_a_case_is_tagged_with_its_rule_and_only_rules_of_its_check(rule_id, seed):
    case = generate(rule_id, seed, vocabulary=VOCAB)
    assert case.rules[0] == rule_id
    assert len(set(case.rules)) == len(case.rules)
    assert all(RULES[tag].check == case.check for tag in case.rules)
    assert case.reason.strip() and case.decision.strip() and case.title.strip()


def test_different_seeds_give_fresh_cases():
    for rule_id in GENERATORS:
        inputs = {json.dumps(generate(rule_id, seed, vocabulary=VOCAB).input) for seed in range(30)}
        assert len(inputs) >= 5, rule_id


def test_lookalike_rules_make_lookalike_ids():
    """The exact-ID generator makes IDs that differ only in ways a reader may not see."""
    kinds = set()
    for seed in range(200):
        case = generate("ts-exact-ids", seed, vocabulary=VOCAB)
        (lost,), (added,) = case.expected["missing"], case.expected["added"]
        if added.casefold() == lost.casefold():
            kinds.add("case")
        elif added.strip() == lost:
            kinds.add("space")
        elif "\u200b" in added:
            kinds.add("zero-width")
        else:
            kinds.add("decomposed")
    assert kinds == {"case", "space", "zero-width", "decomposed"}


def test_generate_many_covers_every_rule_in_order():
    cases = list(generate_many("all", 7, 2, vocabulary=VOCAB))
    assert [c.rules[0] for c in cases] == list(GENERATORS) * 2
    first, second, *_ = GENERATORS
    assert [c.id for c in cases[:2]] == [f"{first}-7", f"{second}-7"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: generate("no-such-rule", 1), "no generator for rule 'no-such-rule'"),
        (lambda: generate("ts-lost", -1), "seed is -1"),
        (lambda: generate("ts-lost", True), "seed is True"),
        (lambda: list(generate_many("ts-lost", 1, 0)), "count is 0"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(call, message):
    with pytest.raises(InvalidInputError, match=message):
        call()


def test_a_broken_vocabulary_names_the_list(tmp_path):
    path = tmp_path / "vocabulary.json"
    data = json.loads(json.dumps(VOCAB.__dict__))
    data["topics"] = ["induction"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="topics must be a list of at least 4"):
        load_vocabulary(path)


def test_the_fingerprint_is_stable_and_short():
    assert generators_fingerprint() == generators_fingerprint()
    assert len(generators_fingerprint()) == 16
