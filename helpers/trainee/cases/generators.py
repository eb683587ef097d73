"""Endless fresh practice: one case generator per rule in ``fixtures/rules.json``.

Each generator builds a new case from a seed, with realistic IDs from
``fixtures/vocabulary.json`` (:mod:`.vocabulary`: training topics, sentinel IDs,
and answer domains). A sentinel key is one task's answer key: every answer in
it, and every answer a revision gives, comes from one domain. Within
a rule the cases vary: how many IDs (2 to 8) and where they stand, how many are
missing, added or changed, combined faults, near-misses (equal strings that
only look suspicious, reordered or repeated lists around one real change) and
every kind of look-alike the notebooks teach (:data:`~helpers.trainee.cases.deciding_rule.FACETS`).

The expected output is always computed by the exact checks, never written by
hand. The case's first rule is its keyed rule (:func:`helpers.trainee.cases.deciding_rule.keyed_rule`,
computed from what the trainee sees), then tags. The title is neutral: it
never names or implies the rule. The decision and reason come from templates
that name the IDs; a sentinel case's decision follows the revision shown only
where it approves a change exactly (:func:`sentinel_decision`).

The makers live beside this module, one family each
(:mod:`~helpers.trainee.cases.target_scope_generators`,
:mod:`~helpers.trainee.cases.sentinel_generators`, with :mod:`~helpers.trainee.cases.made`).

The tests hold the check *with each rule broken* (``tests/support/broken_checks.py``)
and show that every generated case changes its outcome under it, which proves
the case really exercises the rule. The same seed always gives the same case.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError, InvalidInputError
from helpers.core.jsonio import dumps_compact
from helpers.core.ordering import sorted_ids
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.deciding_rule import FACETS, INVISIBLE_FACETS, WHITESPACE_CASE_FACETS
from helpers.trainee.cases.made import Generator, Made, Output, Record, count_text, names_text, visible
from helpers.trainee.cases.practice_cases import PracticeCase
from helpers.trainee.cases.sentinel_generators import (
    sk_all_missing,
    sk_changed,
    sk_decoys,
    sk_empty_baseline,
    sk_lookalike,
    sk_missing,
    sk_new_case,
    sk_nonsentinel_changed,
    sk_rubric_change,
    sk_several,
)
from helpers.trainee.cases.target_scope_generators import (
    ts_added,
    ts_decoys,
    ts_duplicates,
    ts_empty,
    ts_exact_ids,
    ts_lost,
    ts_order,
    ts_query_unvalidated,
    ts_several,
    ts_unresolved,
)
from helpers.trainee.cases.vocabulary import AnswerDomain, Vocabulary, load_vocabulary, vocabulary_json

__all__ = [
    "AnswerDomain",
    "Vocabulary",
    "Generator",
    "GENERATORS",
    "vocabulary_json",
    "load_vocabulary",
    "generate",
    "generate_many",
    "generated_case_data",
    "sentinel_decision",
    "REBASELINE_DECISION",
    "generators_fingerprint",
    "generator_stats",
    "case_shape",
]


def _with_decoys(rule_id: str, check: str, made: Made, rng: random.Random, vocab: Vocabulary) -> Made:
    """``made`` with, now and then, a block that another rule turns on: never one that changes its keyed rule.

    An empty ``unresolved`` list, query wording (reworded where the lists decide first,
    unchanged where the scope is kept), an earlier key that changes nothing the check
    reads, a rubric revision covering an unchanged sentinel. So no block's presence
    alone tells which rule decides. An empty baseline stays the refusal rule's own.
    Taught in ``04_practice.ipynb``.
    """
    if check == "target-scope":
        return ts_decoys(rule_id, made, rng, vocab)
    return sk_decoys(rule_id, made, rng, vocab)


#: One generator per rule, in the order of ``fixtures/rules.json``.
GENERATORS: dict[str, Generator] = {
    g.rule_id: g
    for g in (
        Generator("ts-lost", "target-scope", ts_lost),
        Generator("ts-added", "target-scope", ts_added),
        Generator("ts-order", "target-scope", ts_order),
        Generator("ts-duplicates", "target-scope", ts_duplicates),
        Generator("ts-exact-ids", "target-scope", ts_exact_ids, FACETS),
        Generator("ts-empty", "target-scope", ts_empty),
        Generator("ts-several", "target-scope", ts_several),
        Generator("ts-unresolved", "target-scope", ts_unresolved),
        Generator(
            "ts-query-unvalidated",
            "target-scope",
            ts_query_unvalidated,
        ),
        Generator("sk-changed", "sentinels", sk_changed),
        Generator(
            "sk-whitespace-case",
            "sentinels",
            sk_lookalike("sk-whitespace-case", WHITESPACE_CASE_FACETS, "alone is still a change"),
            WHITESPACE_CASE_FACETS,
        ),
        Generator(
            "sk-invisible",
            "sentinels",
            sk_lookalike("sk-invisible", INVISIBLE_FACETS, "is a change a reader cannot see"),
            INVISIBLE_FACETS,
        ),
        Generator("sk-missing", "sentinels", sk_missing),
        Generator("sk-all-missing", "sentinels", sk_all_missing),
        Generator("sk-new-case", "sentinels", sk_new_case),
        Generator("sk-nonsentinel-changed", "sentinels", sk_nonsentinel_changed),
        Generator("sk-empty-baseline", "sentinels", sk_empty_baseline),
        Generator(
            "sk-rubric-change",
            "sentinels",
            sk_rubric_change,
        ),
        Generator("sk-several", "sentinels", sk_several),
    )
}


def _expected(check: str, record: Record) -> Output:
    try:
        return run_check(check, record).as_dict()
    except CheckInputError as exc:
        return {"error": exc.message}


#: The decision of a key whose one fault is a change a rubric revision approves exactly.
REBASELINE_DECISION = "Hold the key; issue a new explicit baseline, keeping the old one"


def sentinel_decision(expected: Output, record: Record, context: Mapping[str, Any]) -> str:
    """The decision a sentinel case calls for, from its output and the revision shown beside it.

    A change a revision approves exactly (``deciding_rule.approved_change``) calls for a new
    explicit baseline, the old one kept; any other fault holds the key, and never calls for a new
    baseline. Where both are there, the decision names both, each with its sentinels.
    Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
    """
    if "error" in expected:
        return "Refuse the input: supply the sentinel baseline"
    if expected["intact"]:
        return "Key intact: scoring may go ahead"
    approved = keyed.approved_change(record, context)
    if approved is None:
        return "Hold the key before scoring"
    missing, changed = keyed.unapproved_faults(record, context)
    faults = sorted_ids([*missing, *changed])
    if not faults:
        return REBASELINE_DECISION
    return (
        f"Hold the key for {names_text(faults)}, which no approved revision covers; issue a new explicit "
        f"baseline, keeping the old one, for the approved change to {visible(approved)} alone"
    )


def _decision(check: str, expected: Output, record: Record, context: Mapping[str, Any]) -> str:
    if check == "sentinels":
        return sentinel_decision(expected, record, context)
    if "error" in expected:
        return "Refuse the input: supply the sentinel baseline"
    if "held" in expected:
        return "Hold the rewrite: needs staff labels"
    if check == "target-scope":
        if expected["preserved"]:
            if record.get("rewritten_query", record.get("query")) != record.get("query"):
                return "Accept the target scope; have the wording reviewed"
            return "Accept the rewrite: scope preserved"
        return "Reject the rewrite: scope not preserved"
    raise ValueError(f"unknown check {check!r}")


def _tags(keyed_id: str, check: str, expected: Output, record: Record) -> tuple[str, ...]:
    """The keyed rule first, then the other rules the outcome shows."""
    tags = [keyed_id]
    if check == "target-scope" and "missing" in expected:
        if expected["missing"]:
            tags.append("ts-lost")
        if expected["added"]:
            tags.append("ts-added")
        if expected["missing"] and expected["added"]:
            tags.append("ts-several")
    elif check == "sentinels" and "missing" in expected:
        if expected["changed"]:
            tags.append("sk-changed")
        if expected["missing"]:
            tags.append("sk-missing")
        if expected["missing"] and expected["changed"]:
            tags.append("sk-several")
        if any(i not in record["baseline"] for i in record["proposed"]):
            tags.append("sk-new-case")
    return tuple(dict.fromkeys(tags))


def _title(check: str, record: Record) -> str:
    """A neutral title: what is to be reviewed and how long its lists are, never the rule."""
    if check == "target-scope":
        return (
            f"A rewrite to review: the original lists {count_text(len(record['original']), 'target')}, "
            f"the rewrite {count_text(len(record['rewritten']), 'target')}"
        )
    return (
        f"A proposed answer key to review: the baseline holds {count_text(len(record['baseline']), 'sentinel')}, "
        f"the proposed key {count_text(len(record['proposed']), 'answer')}"
    )


def _rng(rule_id: str, seed: int) -> random.Random:
    digest = hashlib.sha256(f"{rule_id}:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def generate(
    rule_id: str, seed: int, *, vocabulary: Vocabulary | None = None, facet: str | None = None
) -> PracticeCase:
    """A fresh case for ``rule_id`` from ``seed``; the same seed always gives the same case.

    ``facet`` asks a look-alike rule's generator for a case that turns on that
    kind of look-alike (one of its :attr:`Generator.facets`). The case's first
    rule is its keyed rule, and it always equals ``rule_id``: a generator that
    made a case decided by another rule is a bug, and raises.
    Taught in ``04_practice.ipynb``.
    """
    if rule_id not in GENERATORS:
        raise InvalidInputError(
            f"no generator for rule {rule_id!r}; the rules are {', '.join(GENERATORS)}", field="rule"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidInputError(f"seed is {seed!r}, expected a whole number from 0", field="seed")
    generator = GENERATORS[rule_id]
    if facet is not None and facet not in generator.facets:
        makes = ", ".join(generator.facets) or "no look-alike kinds"
        raise InvalidInputError(
            f"the generator for {rule_id} cannot make the look-alike kind {facet!r}; it makes {makes}",
            field="facet",
        )
    vocab = vocabulary or load_vocabulary()
    made = generator.make(_rng(rule_id if facet is None else f"{rule_id}/{facet}", seed), vocab, facet)
    made = _with_decoys(rule_id, generator.check, made, _rng(f"{rule_id}/{facet}/decoys", seed), vocab)
    decided_by = keyed.keyed_rule(generator.check, made.input, made.context)
    if decided_by != rule_id:
        raise AssertionError(f"the {rule_id} generator made a case keyed {decided_by} (seed {seed})")
    expected = _expected(generator.check, made.input)
    return PracticeCase(
        check=generator.check,
        id=f"{rule_id}-{seed}",
        title=_title(generator.check, made.input),
        input=made.input,
        expected=expected,
        decision=_decision(generator.check, expected, made.input, made.context),
        reason=made.reason,
        rules=_tags(decided_by, generator.check, expected, made.input),
        facets=keyed.facets(generator.check, made.input, made.context),
        context=made.context,
    )


def generate_many(
    rule: str, seed: int, count: int, *, vocabulary: Vocabulary | None = None
) -> Iterator[PracticeCase]:
    """``count`` cases for one rule (or every rule with ``"all"``), seeds ``seed``, ``seed + 1``, …

    Taught in ``04_practice.ipynb``.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidInputError(f"count is {count!r}, expected a whole number from 1", field="count")
    vocab = vocabulary or load_vocabulary()
    rules = list(GENERATORS) if rule == "all" else [rule]
    for offset in range(count):
        for rule_id in rules:
            yield generate(rule_id, seed + offset, vocabulary=vocab)


def generated_case_data(case: PracticeCase) -> dict[str, Any]:
    """A generated case as one JSON Lines record: the fields a fixture case has, plus ``rule_ids``.

    A case with context (an earlier key, a rubric revision) carries it after its input.
    """
    context = {"context": dict(case.context)} if case.context else {}
    return {
        "check": case.check,
        "id": case.id,
        "title": case.title,
        "rule_ids": list(case.rules),
        "input": case.input,
        **context,
        "expected": case.expected,
        "decision": case.decision,
        "reason": case.reason,
    }


def generators_fingerprint() -> str:
    """A content hash of the rules, the vocabulary and the generators' sample cases.

    A progress file records it, so a trainer can see which version a trainee used.
    """
    digest = hashlib.sha256()
    for path in (fixtures_dir() / "rules.json", vocabulary_json()):
        digest.update(path.read_bytes())
    vocab = load_vocabulary()
    for rule_id in GENERATORS:
        digest.update(dumps_compact(generated_case_data(generate(rule_id, 0, vocabulary=vocab))).encode())
    return digest.hexdigest()[:16]


def case_shape(case: PracticeCase) -> str:
    """A short description of a case's shape, e.g. ``"ids=5 missing=2 added=1 facets=case"``."""
    data = case.input
    if case.check == "target-scope":
        ids = set(data["original"]) | set(data["rewritten"])
    else:
        ids = set(data["baseline"]) | set(data["proposed"])
    parts = [f"ids={len(ids)}"]
    expected = case.expected
    if "error" in expected:
        parts.append("refused")
    elif "held" in expected:
        parts.append(f"unresolved={len(expected['unresolved'])}")
    else:
        first, second = ("missing", "added") if case.check == "target-scope" else ("missing", "changed")
        parts.append(f"{first}={len(expected[first])} {second}={len(expected[second])}")
    if case.facets:
        parts.append("facets=" + "+".join(case.facets))
    return " ".join(parts)


def generator_stats(rule_id: str, seeds: Iterable[int] = range(1000)) -> dict[str, Any]:
    """How varied a rule's cases are over ``seeds``: distinct inputs and outputs, and a shape histogram.

    ``shapes`` counts :func:`case_shape` without the ID count; ``sizes`` counts
    the number of distinct IDs. Taught in ``04_practice.ipynb``.
    """
    vocab = load_vocabulary()
    inputs: set[str] = set()
    outputs: set[str] = set()
    shapes: Counter[str] = Counter()
    sizes: Counter[int] = Counter()
    count = 0
    for seed in seeds:
        case = generate(rule_id, seed, vocabulary=vocab)
        count += 1
        inputs.add(dumps_compact({"input": case.input, "context": case.context}))
        outputs.add(dumps_compact(case.expected))
        size, _space, shape = case_shape(case).partition(" ")
        shapes[shape] += 1
        sizes[int(size.removeprefix("ids="))] += 1
    return {
        "rule": rule_id,
        "cases": count,
        "distinct_inputs": len(inputs),
        "distinct_outputs": len(outputs),
        "shapes": dict(shapes.most_common()),
        "sizes": dict(sorted(sizes.items())),
    }
