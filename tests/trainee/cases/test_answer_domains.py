"""Generated cases are ones an evaluator meets: one task's answer key, a query about its own targets."""

from __future__ import annotations

import re
import unicodedata

import pytest
from budget import examples, sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.cases.generators import GENERATORS, generate, load_vocabulary

VOCAB = load_vocabulary()
SENTINEL_RULES = sorted(r for r, g in GENERATORS.items() if g.check == "sentinels")
SCOPE_RULES = sorted(r for r, g in GENERATORS.items() if g.check == "target-scope")

#: Latin look-alikes from Cyrillic and Greek, written out here on their own.
_LATIN = str.maketrans(
    "аеорсухіјѕһԁАВЕКМНОРСТХЅІЈοικνΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijshdABEKMHOPCTXSIJoikvABEZHIKMNOPTYX",
)


def seen_as(text: str) -> str:
    """What a careless reader sees: format characters gone, compatibility forms folded, case and spaces ignored."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(unicodedata.normalize("NFKC", text).translate(_LATIN).split()).casefold()


#: Each domain word as a reader sees it, with the domain it belongs to (the file says, one domain each).
OWNER = {seen_as(word): domain.name for domain in VOCAB.domains for word in domain.words}


def answers_of(case) -> list[str]:
    """Every answer a sentinel case shows: both keys, the earlier key, the revision's old and new answers."""
    found = [*case.input["baseline"].values(), *case.input["proposed"].values()]
    found += list(case.context.get("earlier_key", {}).values())
    revision = case.context.get("rubric_revision")
    if revision:
        found += [revision["from"], revision["to"]]
    return found


def domains_of(case) -> set[str]:
    return {OWNER.get(seen_as(answer), f"unknown: {answer!r}") for answer in answers_of(case)}


def test_every_domain_word_belongs_to_one_domain_and_reads_apart():
    assert len(OWNER) == sum(len(d.words) for d in VOCAB.domains)
    assert {d.name for d in VOCAB.domains} >= {
        "multiple-choice",
        "verdict",
        "sentiment",
        "support-action",
        "city",
    }
    for domain in VOCAB.domains:
        for old, new in domain.rubric_changes:
            assert OWNER[seen_as(old)] == OWNER[seen_as(new)] == domain.name


@settings(max_examples=examples(1500), deadline=None)
@given(
    rule_id=st.sampled_from(SENTINEL_RULES),
    seed=st.integers(min_value=0, max_value=2 * 10**9),
    data=st.data(),
)
def test_no_generated_key_mixes_answer_domains(rule_id, seed, data):
    facet = data.draw(st.sampled_from([None, *GENERATORS[rule_id].facets]))
    case = generate(rule_id, seed, vocabulary=VOCAB, facet=facet)
    assert len(domains_of(case)) == (1 if answers_of(case) else 0), (case.id, answers_of(case))


@pytest.mark.parametrize("rule_id", SENTINEL_RULES)
def test_each_generator_keeps_one_domain_per_key_over_many_seeds(rule_id):
    used = set()
    for seed in range(sampled(1000, 200)):
        case = generate(rule_id, seed, vocabulary=VOCAB)
        domains = domains_of(case)
        assert len(domains) == (1 if answers_of(case) else 0), (case.id, answers_of(case))
        used |= domains
        revision = case.context.get("rubric_revision")
        if revision:  # a revision's new answer comes from its old answer's domain
            assert OWNER[seen_as(revision["from"])] == OWNER[seen_as(revision["to"])], case.id
    if rule_id not in ("sk-invisible",):  # only cities carry the accents a decomposed form needs
        assert used == {d.name for d in VOCAB.domains}, (rule_id, used)


@pytest.mark.parametrize("rule_id", ["sk-whitespace-case", "sk-invisible"])
def test_every_lookalike_kind_is_made_in_a_domain_that_can_carry_it(rule_id):
    for facet in GENERATORS[rule_id].facets:
        used = set()
        for seed in range(sampled(200, 60)):
            case = generate(rule_id, seed, vocabulary=VOCAB, facet=facet)
            assert facet in case.facets, (case.id, facet)
            used |= domains_of(case)
        assert used and not any(d.startswith("unknown") for d in used), (facet, used)
        if facet in ("case", "outer-space", "no-break-space", "full-width", "homoglyph"):
            assert len(used) >= 4, (facet, used)
    assert set(FACETS) >= set(GENERATORS[rule_id].facets)


def _topics_named(query: str) -> set[str]:
    return {t for t in VOCAB.topics if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", query)}


@pytest.mark.parametrize("rule_id", SCOPE_RULES)
def test_a_rewrites_query_names_only_its_own_targets(rule_id):
    shown = 0
    for seed in range(sampled(1000, 300)):
        case = generate(rule_id, seed, vocabulary=VOCAB)
        if "query" not in case.input:
            continue
        shown += 1
        targets = {seen_as(t) for t in [*case.input["original"], *case.input["rewritten"]]}
        named = _topics_named(case.input["query"])
        assert named, (case.id, case.input["query"])
        assert {seen_as(t) for t in named} <= targets, (case.id, case.input)
        assert case.input["rewritten_query"].startswith(case.input["query"].rstrip("?")), case.id
    assert shown >= (200 if rule_id == "ts-query-unvalidated" else 30), shown
