"""A check-out paper: the cases issued, and what the paper shows and hides."""

from __future__ import annotations

import collections
import itertools
import json
import re
import unicodedata

import pytest
from budget import examples
from checkout_papers import answers_for, fixed_paper
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import CheckInputError
from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import candidate_ids
from helpers.trainer.answer_key import key_digests, verify_key
from helpers.trainer.marking import grade_checkout, key_case
from helpers.trainer.next_actions import ACTIONS
from helpers.trainer.paper import (
    CHECKOUT_SEEDS,
    DEFAULT_COUNT,
    LOOKALIKE_RULES,
    PER_GROUP,
    Issued,
    issue_checkout,
    minimum_count,
)

RULE_IDS = {rule.id for rule in load_rules()}


def _fold_char(char: str) -> str:
    name = unicodedata.name(char, "")
    for script in ("CYRILLIC", "GREEK"):
        if name.startswith(script + " "):
            try:
                return unicodedata.lookup("LATIN" + name[len(script) :])
            except KeyError:
                return char
    return char


def _looks(text: str) -> str:
    """``text`` as a careless reader sees it: case, spaces, width, form, invisibles and homoglyphs ignored."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(_fold_char(c) for c in text if unicodedata.category(c) != "Cf" and not c.isspace())
    return text.casefold()


def _has_lookalikes(case) -> bool:
    """Whether two of a case's IDs, or a sentinel's two answers, look alike to a careless reader."""
    folded = [_looks(i) for i in candidate_ids(case)]
    if len(set(folded)) < len(folded):
        return True
    if case.check == "sentinels":
        base, prop = case.input.get("baseline") or {}, case.input.get("proposed") or {}
        return any(
            k in prop and prop[k] != v and _looks(str(prop[k])) == _looks(str(v)) for k, v in base.items()
        )
    return False


@pytest.fixture(scope="module")
def issued() -> Issued:
    return fixed_paper()


def test_a_paper_mixes_every_rule_interleaved_from_checkout_seeds(issued):
    rules = [rec["made_for"] for rec in issued.key["cases"]]
    assert set(rules) == RULE_IDS
    assert all(a != b for a, b in itertools.pairwise(rules))
    assert all(rec["seed"] in CHECKOUT_SEEDS for rec in issued.key["cases"])
    assert all(rec["seed"] >= 10**9 for rec in issued.key["cases"])
    assert {rec["check"] for rec in issued.key["cases"]} == {"target-scope", "sentinels"}
    n = DEFAULT_COUNT
    assert [c["label"] for c in issued.paper["cases"]] == [f"Check-out case {n}" for n in range(1, n + 1)]
    assert any(rec["lookalike"] for rec in issued.key["cases"])
    assert {rec["stream"] for rec in issued.key["cases"]} == {"cover", "more"}


@settings(max_examples=examples(10))
@given(seed=st.integers(min_value=0, max_value=2**63), extra=st.integers(min_value=0, max_value=14))
def test_every_paper_covers_every_rule_once_and_lookalike_kind_twice(seed, extra):
    count = minimum_count() + extra
    issued = issue_checkout("T", count=count, seed=seed, sequential=False)
    records = issued.key["cases"]
    assert len(records) == count
    cover = [rec for rec in records if rec["stream"] == "cover"]
    assert len(cover) == minimum_count() and records[: len(cover)] == cover
    by_rule = collections.Counter(rec["rule"] for rec in cover)
    by_kind = collections.Counter(k for rec in cover for k in rec["lookalike_kinds"])
    assert set(by_rule) == RULE_IDS and min(by_rule.values()) >= 1
    assert set(by_kind) == set(FACETS) and min(by_kind.values()) >= PER_GROUP
    assert all(rec["rule"] == rec["made_for"] for rec in records)
    # Each kind is shown on both checks: a look-alike ID in a target list and a look-alike answer in a key.
    for kind in FACETS:
        assert {rec["check"] for rec in records if kind in rec["lookalike_kinds"]} == {
            "target-scope",
            "sentinels",
        }
    assert set(issued.key["verdict_rule"]["rules"]) == RULE_IDS
    assert issued.key["verdict_rule"]["lookalike_kinds"] == list(FACETS)


def test_a_paper_too_short_to_cover_every_rule_is_refused_naming_the_minimum(run_cli):
    least = minimum_count()
    assert least == 30
    with pytest.raises(CheckInputError, match=f"at least {least} cases to show every rule"):
        issue_checkout("T", count=least - 1, seed=1, sequential=False)
    short = run_cli("checkout", "issue", "--trainee", "T", "--count", "24", "-o", "exam.json")
    assert short.returncode == 2
    assert f"count is 24, expected {least} to 200".encode() in short.stderr


def _strings_and_numbers(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key
            yield from _strings_and_numbers(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            yield from _strings_and_numbers(item, path)
    else:
        yield path, value


def test_the_paper_holds_no_rule_seed_title_or_expected_output(issued):
    text = json.dumps(issued.paper, ensure_ascii=False)
    for path, value in _strings_and_numbers(issued.paper):
        if "reason_options" in path:
            continue
        assert value not in RULE_IDS, (path, value)
        if isinstance(value, str):
            assert not any(rule in value for rule in RULE_IDS), (path, value)
        if isinstance(value, int) and not isinstance(value, bool):
            assert value < 10**9, (path, value)
    for rec in issued.key["cases"]:
        assert str(rec["seed"]) not in text
        assert rec["title"] not in text
        assert rec["case_id"] not in text
    for case in issued.paper["cases"]:
        assert set(case) <= {"label", "check", "input", "context", "reason_options", "actions"}
        assert re.fullmatch(r"Check-out case [1-9][0-9]?", case["label"])
        assert sorted(case["actions"]) == sorted(ACTIONS)
    assert str(issued.key["seed"]) not in text
    assert {"seed", "expected", "rule", "cases_total"}.isdisjoint(issued.paper)


def test_the_keyed_reason_is_always_offered_and_moves_around():
    positions = set()
    for seed in range(8):
        paper = issue_checkout("B", seed=seed, sequential=False)
        for shown, rec in zip(paper.paper["cases"], paper.key["cases"], strict=True):
            options = [o["rule"] for o in shown["reason_options"]]
            assert rec["rule"] in options
            assert len(options) >= 2
            positions.add(options.index(rec["rule"]))
    assert len(positions) >= 3


@settings(max_examples=examples(15))
@given(seed=st.integers(min_value=0, max_value=2**63), count=st.integers(min_value=46, max_value=60))
def test_any_paper_verifies_against_its_own_digests_and_hides_its_seeds(seed, count):
    issued = issue_checkout("T", count=count, seed=seed, sequential=False)
    assert len(issued.paper["cases"]) == count
    verify_key(issued.key, key_digests(issued.key))
    text = json.dumps(issued.paper)
    numbers = {int(n) for n in re.findall(r"\d+", text)}  # every run of digits, dates' years included
    hidden = [seed, *(r["seed"] for r in issued.key["cases"])]
    # No seed shows as a number of its own; a long one shows nowhere, not even inside a string.
    assert all(s not in numbers or s < 10_000 for s in hidden), "a seed shows on the paper"
    assert all(str(s) not in text for s in hidden if s >= 10**6)
    rules = [r["made_for"] for r in issued.key["cases"]]
    assert all(a != b for a, b in itertools.pairwise(rules))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_case_turning_on_a_lookalike_kind_is_a_lookalike_case_whatever_its_keyed_rule(seed):
    """The flag is not the keyed rule's alone: a case keyed to, say, ts-lost whose missing ID has a
    look-alike on the other side is a look-alike case, and counts among the look-alike cases graded."""
    issued = issue_checkout("Asha", seed=seed, issued="2026-12-01T09:00:00Z", sequential=False)
    cases = issued.key["cases"]
    for record in cases:
        expected = bool(record["lookalike_kinds"]) or record["rule"] in LOOKALIKE_RULES
        assert record["lookalike"] is expected, record["label"]
        # No case holds look-alikes its kinds do not name: a careless reader's view of its IDs
        # (and answers) tells them apart wherever the flag is down.
        assert expected or not _has_lookalikes(key_case(record)), record["label"]
    by_kind_only = [r for r in cases if r["lookalike_kinds"] and r["rule"] not in LOOKALIKE_RULES]
    label = by_kind_only[0]["label"] if by_kind_only else None
    result = grade_checkout(answers_for(issued, {label} if label else set()), issued.key)
    served = {c.label for c in result.cases}
    flagged = sum(r["lookalike"] for r in cases if r["label"] in served)
    assert result.lookalikes == (flagged - (1 if label in served else 0), flagged)


@pytest.mark.parametrize("name", ["\udc80", "Asha\ud800", "\udfff trainee"])
def test_a_trainee_name_with_a_lone_surrogate_is_refused_before_anything_is_made(name: str) -> None:
    """Such a name could never be saved as UTF-8: it is refused at issue, naming the field, not at the first save."""
    with pytest.raises(CheckInputError) as refused:
        issue_checkout(name, seed=3, sequential=False)
    assert refused.value.field == "trainee"
    assert "not UTF-8" in str(refused.value)
