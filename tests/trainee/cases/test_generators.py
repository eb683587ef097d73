"""One generator per rule: fresh, varied cases whose expected output the exact checks compute."""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections import Counter

import pytest
from broken_checks import BROKEN
from budget import examples, sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.chardiff import visible_id
from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.deciding_rule import FACETS, INVISIBLE_FACETS, WHITESPACE_CASE_FACETS, keyed_rule
from helpers.trainee.cases.generators import (
    GENERATORS,
    case_shape,
    generate,
    generate_many,
    generated_case_data,
    generator_stats,
    generators_fingerprint,
    load_vocabulary,
)
from helpers.trainee.cases.rules import load_rules

RULES = {rule.id: rule for rule in load_rules()}
VOCAB = load_vocabulary()
rule_ids = st.sampled_from(sorted(GENERATORS))
seeds = st.integers(min_value=0, max_value=10**9)
SEEDS = range(1000)


@functools.cache
def many(rule_id: str) -> tuple:
    """The rule's cases for seeds 0 to 999, made once per test run."""
    return tuple(generate(rule_id, seed, vocabulary=VOCAB) for seed in SEEDS)


def test_every_rule_has_exactly_one_generator():
    assert set(GENERATORS) == set(RULES)
    for rule_id, generator in GENERATORS.items():
        assert generator.check == RULES[rule_id].check


@settings(max_examples=examples(300))
@given(rule_id=rule_ids, seed=seeds)
def test_the_expected_output_is_the_checks_output(rule_id, seed):
    case = generate(rule_id, seed, vocabulary=VOCAB)
    assert case.expected == case.actual()


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_each_case_changes_its_outcome_when_its_rule_is_broken(rule_id):
    """The case really exercises the rule: the check with that rule broken gets it wrong."""
    broken = BROKEN[rule_id](VOCAB)
    for case in many(rule_id):
        assert broken(json.loads(json.dumps(case.input))) != case.expected, (rule_id, case.input)


@given(rule_id=rule_ids, seed=seeds)
def test_the_same_seed_gives_the_same_case(rule_id, seed):
    first = generate(rule_id, seed, vocabulary=VOCAB)
    again = generate(rule_id, seed)
    assert first == again
    assert json.dumps(generated_case_data(first)) == json.dumps(generated_case_data(again))


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_a_case_is_keyed_to_its_rule_then_tagged_with_rules_of_its_check(rule_id):
    for case in many(rule_id):
        assert case.rules[0] == rule_id == keyed_rule(case.check, case.input, case.context)
        assert case.id == f"{rule_id}-{case.id.rsplit('-', 1)[1]}"
        assert len(set(case.rules)) == len(case.rules)
        assert all(RULES[tag].check == case.check for tag in case.rules)
        assert case.reason.strip() and case.decision.strip() and case.title.strip()


_NEUTRAL_TITLE = {
    "target-scope": re.compile(
        r"A rewrite to review: the original lists (no targets|1 target|(?:[2-9]|[1-9]\d+) targets), "
        r"the rewrite (no targets|1 target|(?:[2-9]|[1-9]\d+) targets)"
    ),
    "sentinels": re.compile(
        r"A proposed answer key to review: the baseline holds (no sentinels|1 sentinel|(?:[2-9]|[1-9]\d+) sentinels), "
        r"the proposed key (no answers|1 answer|(?:[2-9]|[1-9]\d+) answers)"
    ),
}


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_titles_are_neutral_counts_that_never_name_the_rule(rule_id):
    """A title says only what is reviewed and how long its lists are: the same shape for every rule."""
    for case in many(rule_id):
        assert _NEUTRAL_TITLE[case.check].fullmatch(case.title), case.title
        assert rule_id not in case.title
    # Two rules of a check can share a title: it cannot tell them apart.
    titles = {case.title for case in many(rule_id)}
    others = {case.title for other in GENERATORS if other != rule_id for case in many(other)[:300]}
    if rule_id not in ("ts-empty", "sk-empty-baseline"):  # an empty list is what these are about
        assert titles & others, rule_id


# --- variety ---------------------------------------------------------------------------------


def _id_count(case) -> int:
    data = case.input
    if case.check == "target-scope":
        return len(set(data["original"]) | set(data["rewritten"]))
    return len(set(data["baseline"]) | set(data["proposed"]))


#: Rules whose cases can hold fewer than two IDs (an empty list or key is what they are about).
_FEW_IDS = {"ts-empty", "sk-empty-baseline"}


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_cases_hold_two_to_eight_ids_and_every_size_appears(rule_id):
    sizes = Counter(_id_count(case) for case in many(rule_id))
    if rule_id in _FEW_IDS:
        assert max(sizes) <= 8
        return
    assert set(sizes) == set(range(2, 9)), (rule_id, sizes)


#: How many IDs each rule puts in each output list: every count from 1 to 3 appears.
_COUNTS = {
    "ts-lost": ("missing",),
    "ts-added": ("added",),
    "ts-exact-ids": ("missing", "added"),
    "ts-several": ("missing", "added"),
    "ts-empty": ("missing", "added"),
    "sk-changed": ("changed",),
    "sk-whitespace-case": ("changed",),
    "sk-invisible": ("changed",),
    "sk-missing": ("missing",),
    "sk-all-missing": ("missing",),
    "sk-several": ("missing", "changed"),
}


@pytest.mark.parametrize("rule_id", list(_COUNTS))
def test_one_to_three_ids_are_missing_added_or_changed(rule_id):
    for name in _COUNTS[rule_id]:
        counts = {len(case.expected[name]) for case in many(rule_id)}
        assert {1, 2, 3} <= counts, (rule_id, name, counts)


def test_combined_faults_appear():
    several = [c for c in many("ts-several") if c.expected["missing"] and c.expected["added"]]
    assert len(several) == 1000
    both = [c for c in many("sk-several") if c.expected["missing"] and c.expected["changed"]]
    assert len(both) == 1000
    assert any(len(c.expected["changed"]) >= 2 for c in many("sk-changed"))
    assert any(len(c.expected["changed"]) == 3 for c in many("sk-changed"))


def _repeats(items) -> bool:
    return len(set(items)) != len(items)


def test_near_misses_appear():
    """Equal strings that only look suspicious, and repeated or reordered lists around one real change."""
    accented_alike = [
        c
        for c in many("ts-order")
        if any(
            unicodedata.normalize("NFD", t) != t for t in set(c.input["original"]) & set(c.input["rewritten"])
        )
    ]
    assert accented_alike
    for rule_id in ("ts-lost", "ts-added", "ts-several"):
        cases = many(rule_id)
        assert any(_repeats(c.input["original"]) or _repeats(c.input["rewritten"]) for c in cases), rule_id
        assert any(
            [t for t in c.input["rewritten"] if t in c.input["original"]]
            != [t for t in c.input["original"] if t in c.input["rewritten"]]
            for c in cases
        ), rule_id
    repeated_both = [
        c for c in many("ts-duplicates") if _repeats(c.input["original"]) and _repeats(c.input["rewritten"])
    ]
    assert repeated_both
    # a sentinel ID dropped while a look-alike of it arrives as a new case
    assert any(c.facets for c in many("sk-missing"))
    assert any(c.facets for c in many("sk-all-missing"))


@pytest.mark.parametrize(
    ("rule_id", "kinds"),
    [
        ("ts-exact-ids", FACETS),
        ("sk-whitespace-case", WHITESPACE_CASE_FACETS),
        ("sk-invisible", INVISIBLE_FACETS),
    ],
)
def test_every_lookalike_kind_appears(rule_id, kinds):
    assert GENERATORS[rule_id].facets == kinds
    seen = Counter(kind for case in many(rule_id) for kind in case.facets)
    assert set(seen) == set(kinds), seen
    assert min(seen.values()) >= 1000 / len(kinds) / 2, seen
    for case in many(rule_id):
        assert len(case.facets) == 1, (case.input, case.facets)


@pytest.mark.parametrize("rule_id", ["ts-exact-ids", "sk-whitespace-case", "sk-invisible"])
def test_a_facet_can_be_asked_for(rule_id):
    for kind in GENERATORS[rule_id].facets:
        for seed in range(40):
            case = generate(rule_id, seed, vocabulary=VOCAB, facet=kind)
            assert case.facets == (kind,) and case.rules[0] == rule_id
    other = (
        next(k for k in FACETS if k not in GENERATORS[rule_id].facets) if rule_id != "ts-exact-ids" else None
    )
    if other:
        with pytest.raises(InvalidInputError, match="cannot make the look-alike kind"):
            generate(rule_id, 1, facet=other)


def test_rules_not_about_lookalikes_make_no_facet():
    assert [r for r, g in GENERATORS.items() if g.facets] == [
        "ts-exact-ids",
        "sk-whitespace-case",
        "sk-invisible",
    ]
    with pytest.raises(InvalidInputError, match="it makes no look-alike kinds"):
        generate("ts-lost", 1, facet="case")
    with pytest.raises(InvalidInputError, match="cannot make"):
        generate("ts-exact-ids", 1, facet="bold")


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_the_rubric_and_history_rules_show_their_context(rule_id):
    for case in many(rule_id):
        if rule_id == "sk-nonsentinel-changed":
            earlier = case.context["earlier_key"]
            assert any(
                i not in case.input["baseline"] and case.input["proposed"].get(i, a) != a
                for i, a in earlier.items()
            )
        elif rule_id == "sk-rubric-change":
            revision = case.context["rubric_revision"]
            assert revision["new_baseline_written"] is False
            assert case.input["baseline"][revision["id"]] == revision["from"]
            assert case.input["proposed"][revision["id"]] == revision["to"]
            assert case.decision == "Hold the key; issue a new explicit baseline, keeping the old one"
        else:  # a decoy block, shown so that its presence alone never decides the case
            assert set(case.context) <= {"earlier_key", "rubric_revision"}
            baseline, proposed = case.input.get("baseline", {}), case.input.get("proposed", {})
            if "rubric_revision" in case.context:
                revision = case.context["rubric_revision"]
                sentinel = revision["id"]
                assert revision["from"] == baseline[sentinel], case.id
                exact = proposed.get(sentinel) == revision["to"] != revision["from"]
                others = [s for s in baseline if s != sentinel and proposed.get(s) != baseline[s]]
                # Of an unchanged sentinel, or to another answer than the proposed one: it covers
                # nothing. An exact one always stands beside a fault it does not cover.
                assert not exact or others, case.id
                assert ("new explicit baseline" in case.decision) == exact, (case.id, case.decision)
            if "earlier_key" in case.context and case.expected.get("intact"):
                earlier = case.context["earlier_key"]
                assert all(proposed.get(i, a) == a for i, a in earlier.items() if i not in baseline), case.id


# --- grammar ---------------------------------------------------------------------------------

_SINGULAR = {"is", "was", "has", "appears"}
_PLURAL = {"are", "were", "have", "appear"}


def _agreement_errors(case) -> list[str]:
    """Every list of IDs followed by a verb that does not agree with how many IDs it names."""
    data = case.input
    if case.check == "target-scope":
        ids = {*data["original"], *data["rewritten"], *data.get("unresolved", [])}
    else:
        ids = {*data["baseline"], *data["proposed"]}
    shown = sorted((re.escape(visible_id(i)) for i in ids), key=len, reverse=True)
    one = "(?:" + "|".join(shown) + ")"
    run = re.compile(rf"(?<![\w·⟩])({one}(?:, {one})*(?: and {one})?) (\w+)\b")
    errors = []
    text = f"{case.title}. {case.reason}"
    for match in run.finditer(text):
        names, verb = match.group(1), match.group(2)
        plural = " and " in names
        if (plural and verb in _SINGULAR) or (not plural and verb in _PLURAL):
            errors.append(match.group(0))
    # Counts: with every ID and answer taken out, a number must agree with its noun.
    words = {
        *ids,
        *(v for v in data.get("baseline", {}).values()),
        *(v for v in data.get("proposed", {}).values()),
    }
    for key in ("earlier_key",):
        words |= set(case.context.get(key, {}).values())
    for key in ("from", "to", "approved"):
        words.add(str(case.context.get("rubric_revision", {}).get(key, "")))
    for word in sorted(words - {""}, key=len, reverse=True):
        text = text.replace(visible_id(word), "X")
    errors += re.findall(r"(?<![\w-])1 \w+s\b", text)
    errors += [m for m in re.findall(r"(?<![\w-])([2-9]|\d\d+) (\w+)\b", text) if not m[1].endswith("s")]
    errors += re.findall(r"\bno \w+(?<!s)\b(?! (?:new|baseline|sentinel)\b)", case.title)
    return errors


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_grammar_agrees_with_every_count(rule_id):
    bad = [(case.id, err) for case in many(rule_id)[: sampled(1000, 250)] for err in _agreement_errors(case)]
    assert bad == []


def test_the_agreement_check_catches_what_it_should():
    from dataclasses import replace

    case = many("sk-missing")[0]
    gone = case.expected["missing"]
    wrong = replace(
        case, reason=f"{visible_id(gone[0])} and {visible_id(gone[0])} is absent. 1 cases worked."
    )
    assert len(_agreement_errors(wrong)) == 2
    single = replace(case, reason=f"{visible_id(gone[0])} are absent.")
    assert _agreement_errors(single) == [f"{visible_id(gone[0])} are"]


# --- the rest ----------------------------------------------------------------------------------


def test_generate_many_covers_every_rule_in_order():
    cases = list(generate_many("all", 7, 2, vocabulary=VOCAB))
    assert [c.rules[0] for c in cases] == list(GENERATORS) * 2
    first, second, *_ = GENERATORS
    assert [c.id for c in cases[:2]] == [f"{first}-7", f"{second}-7"]


def test_generated_case_data_carries_the_context_only_when_there_is_one():
    plain = generated_case_data(generate("sk-invisible", 3))  # a case with no decoy block
    assert list(plain) == ["check", "id", "title", "rule_ids", "input", "expected", "decision", "reason"]
    revised = generated_case_data(generate("sk-rubric-change", 4))
    assert list(revised)[5] == "context" and "rubric_revision" in revised["context"]


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


def _vocabulary_file() -> dict:
    from helpers.trainee.cases.vocabulary import vocabulary_json

    return json.loads(vocabulary_json().read_text(encoding="utf-8"))


def test_a_broken_vocabulary_names_the_list(tmp_path):
    path = tmp_path / "vocabulary.json"
    data = _vocabulary_file()
    data["topics"] = ["induction"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="topics must be a list of at least 12"):
        load_vocabulary(path)


def _broken(data: dict, domain: str, field: str, value) -> dict:
    data = json.loads(json.dumps(data))
    data["answer_domains"][domain][field] = value
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: {k: v for k, v in d.items() if k != "answer_domains"}, "answer_domains must be an object"),
        (
            lambda d: _broken(d, "city", "answers", ["Paris", "Lyon"]),
            r"answer_domains\.city\.answers must be",
        ),
        (
            lambda d: _broken(d, "city", "answers", ["Paris", "paris", "Lyon", "Genève"]),
            "answer_domains.city.answers has look-alikes",
        ),
        (
            lambda d: _broken(d, "verdict", "rubric_changes", [["true", "false"]]),
            r"answer_domains\.verdict\.rubric_changes item 1 must be an \[old, new\] pair",
        ),
        (
            lambda d: _broken(d, "verdict", "rubric_changes", [["refuted", "Refuted"]]),
            "changes 'refuted' into a look-alike",
        ),
        (
            lambda d: _broken(d, "sentiment", "rubric_changes", [["neutral", "Paris"]]),
            "the answer 'Paris' is in both answer_domains.sentiment and answer_domains.city",
        ),
        (lambda d: _broken(d, "city", "task", " "), "answer_domains.city.task must say"),
        (lambda d: {**d, "answers": ["A"]}, "unknown field 'answers'"),
        (
            lambda d: {**d, "single_target_queries": ["Compare {a} and {b}", *d["single_target_queries"]]},
            r"single_target_queries item 'Compare \{a\} and \{b\}' must name the targets as \{a\}",
        ),
    ],
)
def test_a_broken_answer_domain_is_named(tmp_path, change, message):
    path = tmp_path / "vocabulary.json"
    path.write_text(json.dumps(change(_vocabulary_file())), encoding="utf-8")
    with pytest.raises(InvalidInputError, match=message):
        load_vocabulary(path)


def test_the_vocabulary_has_no_lookalikes_within_a_list():
    from helpers.trainee.cases.deciding_rule import lookalike_kind

    for name in ("topics", "sentinel_ids", "case_ids"):
        words = getattr(VOCAB, name)
        assert [(a, b) for a in words for b in words if a < b and lookalike_kind(a, b)] == [], name


def test_the_fingerprint_is_stable_and_short():
    assert generators_fingerprint() == generators_fingerprint()
    assert len(generators_fingerprint()) == 16


def test_generator_stats_counts_inputs_outputs_and_shapes():
    stats = generator_stats("ts-several", range(200))
    assert stats["cases"] == 200 and stats["rule"] == "ts-several"
    assert 150 <= stats["distinct_inputs"] <= 200
    assert stats["distinct_outputs"] >= 100
    assert sum(stats["shapes"].values()) == 200 and sum(stats["sizes"].values()) == 200
    assert "missing=1 added=1" in stats["shapes"]
    assert case_shape(generate("ts-exact-ids", 0, facet="case")).endswith("facets=case")


#: Rules whose output is the same by definition: the scope is preserved, the key intact, or the input refused.
_ONE_OUTPUT = {
    "ts-order",
    "ts-duplicates",
    "ts-query-unvalidated",
    "sk-new-case",
    "sk-nonsentinel-changed",
    "sk-empty-baseline",
}


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_each_rule_varies_its_input_and_expected_output(rule_id):
    """Inputs hardly ever repeat, and every rule whose outcome can vary does (ts-unresolved varies what is held)."""
    stats = generator_stats(rule_id, range(300))
    # an empty list or key repeats more often: it is what those rules are about
    assert stats["distinct_inputs"] >= (200 if rule_id in _FEW_IDS else 270), stats
    if rule_id in _ONE_OUTPUT:
        assert stats["distinct_outputs"] == 1, stats
    elif rule_id == "sk-rubric-change":
        # the approved change is the key's only fault, so the output is that one sentinel changed
        assert stats["distinct_outputs"] == len(VOCAB.sentinel_ids), stats
    else:
        assert stats["distinct_outputs"] >= 30, stats
