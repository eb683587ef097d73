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

The tests hold the check *with each rule broken* (``tests/support/broken_checks.py``)
and show that every generated case changes its outcome under it, which proves
the case really exercises the rule. The same seed always gives the same case.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import hashlib
import random
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from typing import Any

from helpers.core.chardiff import visible_id
from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError, InvalidInputError
from helpers.core.jsonio import dumps_compact
from helpers.core.ordering import sorted_ids
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.deciding_rule import FACETS, INVISIBLE_FACETS, WHITESPACE_CASE_FACETS
from helpers.trainee.cases.lookalike_forms import HOW as _HOW
from helpers.trainee.cases.lookalike_forms import can_form as _can_form
from helpers.trainee.cases.lookalike_forms import formable as _formable
from helpers.trainee.cases.lookalike_forms import lookalike as _lookalike
from helpers.trainee.cases.practice_cases import PracticeCase
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

Record = dict[str, Any]
Output = dict[str, Any]


#: :func:`~helpers.core.chardiff.visible_id`, kept per ID: cases are made of a few hundred words and their look-alikes.
visible = functools.lru_cache(maxsize=16384)(visible_id)


def _reader(text: str) -> str:
    """What a careless comparison sees: every look-alike difference ignored."""
    return keyed.reader_form(text)


# --- wording that agrees with its count ---------------------------------------------------


def _names(ids: Sequence[str]) -> str:
    shown = [visible(i) for i in ids]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _verb(ids: Sized, one: str, many: str) -> str:
    return one if len(ids) == 1 else many


def _count(n: int, noun: str) -> str:
    return f"no {noun}s" if n == 0 else f"1 {noun}" if n == 1 else f"{n} {noun}s"


# --- the generators -------------------------------------------------------------------------


@dataclass(frozen=True)
class Made:
    """What a generator makes before the exact check runs: the input, its context and its reason.

    ``domain`` is the answer domain a sentinel case's answers come from (None for target scope).
    """

    input: Record
    reason: str
    context: Record = field(default_factory=dict)
    domain: AnswerDomain | None = None


Maker = Callable[[random.Random, Vocabulary, str | None], Made]


@dataclass(frozen=True)
class Generator:
    """A rule's case generator and the look-alike kinds it makes.

    ``facets`` lists the kinds :func:`generate` can be asked for with ``facet=``
    (empty for a rule that is not about look-alikes). Taught in ``04_practice.ipynb``.
    """

    rule_id: str
    check: str
    make: Maker
    facets: tuple[str, ...] = ()


def _plain(vocab: Vocabulary) -> list[str]:
    return list(vocab.topics)


def _topics(rng: random.Random, vocab: Vocabulary, count: int) -> list[str]:
    return rng.sample(_plain(vocab), count)


def _maybe_shuffled(rng: random.Random, items: list[str], chance: float = 0.6) -> list[str]:
    items = list(items)
    if len(items) > 1 and rng.random() < chance:
        rng.shuffle(items)
    return items


def _insert_randomly(rng: random.Random, items: list[str], extra: Iterable[str]) -> list[str]:
    items = list(items)
    for item in extra:
        items.insert(rng.randint(0, len(items)), item)
    return items


def _repeat_one(rng: random.Random, items: list[str]) -> tuple[list[str], str]:
    repeated = rng.choice(items)
    return _insert_randomly(rng, items, [repeated]), repeated


def _ts_lost(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    original = _topics(rng, vocab, rng.randint(2, 8))
    lost = rng.sample(original, rng.randint(1, min(3, len(original) - 1)))
    rewritten = _maybe_shuffled(rng, [t for t in original if t not in lost])
    note = ""
    if rng.random() < 0.25:
        rewritten, repeated = _repeat_one(rng, rewritten)
        note = f" {visible(repeated)} is listed twice in the rewrite, but a target counts once."
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{_names(sorted_ids(lost))} {_verb(lost, 'is', 'are')} in the original but not in the rewrite, "
        f"so the scope is not kept.{note}",
    )


def _ts_added(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    count = rng.randint(2, 8)
    words = _topics(rng, vocab, count)
    added = words[: rng.randint(1, min(3, count - 1))]
    original = words[len(added) :]
    rewritten = _insert_randomly(rng, _maybe_shuffled(rng, original, 0.4), added)
    note = ""
    if rng.random() < 0.2:
        original, repeated = _repeat_one(rng, original)
        note = f" {visible(repeated)} is listed twice in the original, but a target counts once."
    return Made(
        {"original": original, "rewritten": rewritten},
        f"Every original target survives, but {_names(sorted_ids(added))} "
        f"{_verb(added, 'is', 'are')} only in the rewrite, which widens what it retrieves.{note}",
    )


def _ts_order(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    original = _topics(rng, vocab, rng.randint(2, 8))
    rewritten = list(original)
    while rewritten == original:
        rng.shuffle(rewritten)
    note = ""
    marked = [t for t in original if unicodedata.normalize("NFD", t) != t]
    if marked:
        note = f" {_names(marked)} {_verb(marked, 'is', 'are')} written the same way in both lists."
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{_names(original)} are all still there; the targets are a set, so the new order changes nothing.{note}",
    )


def _ts_duplicates(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    words = _topics(rng, vocab, rng.randint(2, 8))
    original, rewritten = list(words), _maybe_shuffled(rng, words, 0.5)
    where = rng.choice(["original", "rewrite", "both"])
    repeated: list[str] = []
    for side in ("original", "rewrite"):
        if where in (side, "both"):
            count = rng.randint(1, 2)
            target = original if side == "original" else rewritten
            for item in rng.sample(words, count):
                target[:] = _insert_randomly(rng, target, [item])
                repeated.append(item)
    if sorted(original) == sorted(rewritten):  # the same repeats on both sides: repeat one more
        original[:] = _insert_randomly(rng, original, [original[0]])
        repeated.append(original[0])
    shown = sorted_ids(set(repeated))
    places = {"original": "the original", "rewrite": "the rewrite", "both": "the lists"}[where]
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{_names(shown)} {_verb(shown, 'appears', 'appear')} more than once in {places}, but a target "
        "counts once, so the two sets match.",
    )


def _facet_for(rng: random.Random, facet: str | None, allowed: tuple[str, ...], rule_id: str) -> str:
    if facet is None:
        return rng.choice(allowed)
    if facet not in allowed:
        raise InvalidInputError(
            f"the generator for {rule_id} cannot make the look-alike kind {facet!r}; "
            f"it makes {', '.join(allowed)}",
            field="facet",
        )
    return facet


def _ts_exact_ids(rng: random.Random, vocab: Vocabulary, facet: str | None) -> Made:
    kind = _facet_for(rng, facet, FACETS, "ts-exact-ids")
    formable = _formable(vocab.topics, kind)
    size = rng.randint(1, 7)
    swapped_count = rng.randint(1, min(3, size, 8 - size))
    swapped = rng.sample(formable, swapped_count)
    kept = rng.sample([w for w in _plain(vocab) if w not in swapped], size - swapped_count)
    original = _maybe_shuffled(rng, [*swapped, *kept], 1.0)
    forms = {w: _lookalike(w, kind, rng) for w in swapped}
    rewritten = _maybe_shuffled(rng, [forms.get(w, w) for w in original], 0.5)
    pairs = "; ".join(f"{visible(forms[w])} differs from {visible(w)}" for w in sorted_ids(swapped))
    missing, added = sorted_ids(swapped), sorted_ids(forms.values())
    return Made(
        {"original": original, "rewritten": rewritten},
        f"In the rewrite, {pairs}, by {_HOW[kind]}. IDs compare exactly, so {_names(missing)} "
        f"{_verb(missing, 'is', 'are')} missing and {_names(added)} {_verb(added, 'was', 'were')} added.",
    )


def _ts_empty(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    shape = rng.choices(["rewrite", "original", "both"], weights=[4, 4, 2])[0]
    if shape == "both":
        return Made(
            {"original": [], "rewritten": []},
            "Two empty lists are the same set, so nothing is missing and nothing was added; a pass "
            "with no declared targets says very little about the query.",
        )
    words = _topics(rng, vocab, rng.randint(1, 6))
    listed = words
    if len(words) > 1 and rng.random() < 0.2:
        listed, _repeated = _repeat_one(rng, words)
    if shape == "rewrite":
        return Made(
            {"original": listed, "rewritten": []},
            f"An empty rewrite is still a set: it loses {_names(sorted_ids(words))}.",
        )
    return Made(
        {"original": [], "rewritten": listed},
        f"With an empty original, every rewrite target is added: {_names(sorted_ids(words))}.",
    )


def _ts_several(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    lost_n, added_n = rng.randint(1, 3), rng.randint(1, 3)
    kept_n = rng.randint(0, 8 - lost_n - added_n)
    words = _topics(rng, vocab, lost_n + added_n + kept_n)
    lost, added, kept = words[:lost_n], words[lost_n : lost_n + added_n], words[lost_n + added_n :]
    original = _maybe_shuffled(rng, [*lost, *kept], 1.0)
    rewritten = _insert_randomly(rng, _maybe_shuffled(rng, kept, 0.5), added)
    if kept and rng.random() < 0.2:
        rewritten, _repeated = _repeat_one(rng, rewritten)
    lost_s, added_s = sorted_ids(lost), sorted_ids(added)
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{_names(lost_s)} {_verb(lost_s, 'is', 'are')} missing and {_names(added_s)} "
        f"{_verb(added_s, 'was', 'were')} added; each goes in its own field.",
    )


def _ts_unresolved(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    shape = rng.choice(["same", "lost", "added", "both"])
    words = _topics(rng, vocab, rng.randint(3 if shape == "both" else 2, 8))
    original, rewritten = words[:-1] if shape in ("added", "both") else list(words), list(words)
    if shape in ("lost", "both"):
        rewritten = [w for w in rewritten if w != original[0]]
    rewritten = _maybe_shuffled(rng, rewritten, 0.5)
    mentions = rng.sample(list(vocab.unresolved_mentions), rng.randint(1, 3))
    shown = sorted_ids(mentions)
    return Made(
        {"original": original, "rewritten": rewritten, "unresolved": mentions},
        f"{_names(shown)} could not be resolved to a canonical ID, so the rewrite is held for staff "
        "labels, whatever the lists say.",
    )


def _ts_query_unvalidated(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    words = _topics(rng, vocab, rng.randint(2, 8))
    a, b = words[0], words[1]
    condition = rng.choice(vocab.query_conditions)
    query = rng.choice(vocab.query_templates).format(a=a, b=b)
    end = "?" if query.endswith("?") else ""
    rewritten_query = f"{query.rstrip('?')} {condition}{end}"
    original = _maybe_shuffled(rng, words, 1.0)
    rewritten = _maybe_shuffled(rng, original, 0.6)
    if rng.random() < 0.2:
        rewritten, _repeated = _repeat_one(rng, rewritten)
    return Made(
        {"query": query, "rewritten_query": rewritten_query, "original": original, "rewritten": rewritten},
        f"The targets {_names(sorted_ids(words))} are all kept, so the set passes; the added condition "
        f"({condition}) is prose the check never reads, so the wording still needs review.",
    )


def _domain(rng: random.Random, vocab: Vocabulary, facet: str | None = None) -> AnswerDomain:
    """One task's answer domain, drawn evenly; with ``facet``, among the domains that have an answer
    with a look-alike of that kind (only cities carry accents to decompose, only words a zero-width
    character)."""
    if facet is None:
        return rng.choice(vocab.domains)
    able = [d for d in vocab.domains if _formable(d.answers, facet)]
    if not able:
        raise InvalidInputError(
            f"no answer domain has an answer with a look-alike of kind {facet!r}", field="answer_domains"
        )
    return rng.choice(able)


def _sentinels(rng: random.Random, vocab: Vocabulary, count: int, domain: AnswerDomain) -> dict[str, str]:
    """``count`` sentinels in ID order, each with an answer of ``domain`` (answers repeat, as in a real key)."""
    ids = sorted_ids(rng.sample(list(vocab.sentinel_ids), count))
    return {i: rng.choice(domain.answers) for i in ids}


def _proposed(rng: random.Random, items: Mapping[str, str], shuffle: float = 0.4) -> dict[str, str]:
    keys = list(items)
    if rng.random() < shuffle:
        rng.shuffle(keys)
    return {k: items[k] for k in keys}


def _new_cases(rng: random.Random, vocab: Vocabulary, count: int, domain: AnswerDomain) -> dict[str, str]:
    """``count`` non-sentinel cases of the same task: answers from ``domain``."""
    ids = sorted_ids(rng.sample(list(vocab.case_ids), count))
    return {c: rng.choice(domain.answers) for c in ids}


def _with_new(rng: random.Random, key: Mapping[str, str], new: Mapping[str, str]) -> dict[str, str]:
    keys = list(key)
    for case_id in new:
        keys.insert(rng.randint(0, len(keys)), case_id)
    merged = {**key, **new}
    return {k: merged[k] for k in keys}


def _plain_change(old: str, domain: AnswerDomain, rng: random.Random, avoid: Iterable[str] = ()) -> str:
    """Another answer of ``domain``, no look-alike of ``old`` (nor one of ``avoid``)."""
    skip = set(avoid)
    return rng.choice([a for a in _plain_answers(old, domain.answers) if a not in skip])


@functools.lru_cache(maxsize=4096)
def _plain_answers(old: str, answers: tuple[str, ...]) -> tuple[str, ...]:
    """The answers that differ from ``old`` and are no look-alike of it, in the vocabulary's order."""
    return tuple(
        a
        for a in answers
        if a != old
        and not keyed.differs_only_in_case_or_space(old, a)
        and not keyed.differs_only_invisibly(old, a)
    )


def _sizes(rng: random.Random, faulty_max: int = 3, least: int = 1) -> tuple[int, int]:
    """A baseline size (1 to 8) and how many of its sentinels a fault touches (1 to 3)."""
    size = rng.randint(least, 8)
    return size, rng.randint(1, min(faulty_max, size))


def _sk_changed(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    size, count = _sizes(rng, least=2)
    baseline = _sentinels(rng, vocab, size, domain)
    targets = sorted_ids(rng.sample(sorted(baseline), count))
    proposed = dict(baseline)
    for s in targets:
        proposed[s] = _plain_change(baseline[s], domain, rng)
    room = 8 - size
    new = _new_cases(rng, vocab, rng.randint(1, min(2, room)), domain) if room and rng.random() < 0.15 else {}
    edits = "; ".join(f"{s} went from {visible(baseline[s])} to {visible(proposed[s])}" for s in targets)
    return Made(
        {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, proposed), new)},
        f"{edits}, with no new baseline, so {_names(targets)} {_verb(targets, 'is', 'are')} changed.",
        domain=domain,
    )


def _sk_lookalike(rule_id: str, allowed: tuple[str, ...], ending: str) -> Maker:
    def make(rng: random.Random, vocab: Vocabulary, facet: str | None) -> Made:
        kind = _facet_for(rng, facet, allowed, rule_id)
        domain = _domain(rng, vocab, kind)
        size, count = _sizes(rng)
        if size == 1:
            size, count = 2, 1
        baseline = _sentinels(rng, vocab, size, domain)
        targets = sorted_ids(rng.sample(sorted(baseline), count))
        formable = _formable(domain.answers, kind)
        proposed = dict(baseline)
        for s in targets:
            baseline[s] = rng.choice(formable)
            proposed[s] = _lookalike(baseline[s], kind, rng)
        room = 8 - size
        new = (
            _new_cases(rng, vocab, rng.randint(1, min(2, room)), domain)
            if room and rng.random() < 0.3
            else {}
        )
        edits = "; ".join(
            f"{s}'s answer {visible(baseline[s])} now reads {visible(proposed[s])}" for s in targets
        )
        return Made(
            {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, proposed), new)},
            f"{edits}: {_HOW[kind]} {ending}, so {_names(targets)} {_verb(targets, 'is', 'are')} changed.",
            domain=domain,
        )

    return make


def _sk_missing(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    size, count = _sizes(rng, least=2)
    count = min(count, size - 1)
    baseline = _sentinels(rng, vocab, size, domain)
    gone = sorted_ids(rng.sample(sorted(baseline), count))
    kept = {s: a for s, a in baseline.items() if s not in gone}
    new: dict[str, str] = {}
    note = ""
    roll = rng.random()
    if roll < 0.25 and size < 8:
        new = _new_cases(rng, vocab, rng.randint(1, min(2, 8 - size)), domain)
    elif roll < 0.45 and size < 8:
        kind = rng.choice([k for k in FACETS if _can_form(gone[0], k)])
        twin = _lookalike(gone[0], kind, rng)
        new = {twin: baseline[gone[0]]}
        note = f" The proposed {visible(twin)} only looks like {visible(gone[0])}: IDs compare exactly."
    return Made(
        {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, kept), new)},
        f"{_names(gone)} {_verb(gone, 'is', 'are')} absent from the proposed key: a hole in the key, not a "
        f"wrong answer.{note}",
        domain=domain,
    )


def _sk_all_missing(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    baseline = _sentinels(rng, vocab, rng.randint(1, 6), domain)
    others = _new_cases(
        rng, vocab, rng.randint(0 if len(baseline) > 1 else 1, min(3, 7 - len(baseline))), domain
    )
    if rng.random() < 0.3:
        first = next(iter(baseline))
        kind = rng.choice([k for k in FACETS if _can_form(first, k)])
        others[_lookalike(first, kind, rng)] = baseline[first]
    proposed = _proposed(rng, others, 0.5)
    return Made(
        {"baseline": baseline, "proposed": proposed},
        f"Every sentinel ({_names(list(baseline))}) is missing from the proposed key, however many other "
        "cases it holds.",
        domain=domain,
    )


def _sk_new_case(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    new_n = rng.randint(1, 3)
    baseline = _sentinels(rng, vocab, rng.randint(1, 8 - new_n), domain)
    new = _new_cases(rng, vocab, new_n, domain)
    names = sorted_ids(new)
    what = "a new non-sentinel case" if len(names) == 1 else "new non-sentinel cases"
    return Made(
        {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, baseline), new)},
        f"{_names(names)} {_verb(names, 'is', 'are')} {what}: allowed, and every sentinel keeps its answer.",
        domain=domain,
    )


def _sk_nonsentinel_changed(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    others_n = rng.randint(1, 3)
    baseline = _sentinels(rng, vocab, rng.randint(1, 8 - others_n), domain)
    current = _new_cases(rng, vocab, others_n, domain)
    edited = sorted_ids(rng.sample(sorted(current), rng.randint(1, others_n)))
    earlier = dict(baseline)
    for case_id, answer in current.items():
        earlier[case_id] = _plain_change(answer, domain, rng) if case_id in edited else answer
    edits = "; ".join(
        f"the earlier key gave {c} {visible(earlier[c])} and the proposed key gives {visible(current[c])}"
        for c in edited
    )
    what = "a sentinel" if len(edited) == 1 else "sentinels"
    return Made(
        {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, baseline), current)},
        f"{edits[0].upper()}{edits[1:]}. {_names(edited)} {_verb(edited, 'is', 'are')} not {what}, so "
        "the check does not read the edit and the key is intact.",
        {"earlier_key": earlier},
        domain=domain,
    )


def _sk_empty_baseline(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    pool = [*vocab.sentinel_ids, *vocab.case_ids]
    proposed = {i: rng.choice(domain.answers) for i in rng.sample(pool, rng.randint(0, 8))}
    return Made(
        {"baseline": {}, "proposed": proposed},
        "An empty baseline would check nothing, so the check refuses the input instead of calling the key intact.",
        domain=domain,
    )


def _approval(rng: random.Random, vocab: Vocabulary, sentinel: str, old: str, new: str) -> Record:
    """A rubric revision record: ``sentinel``'s answer ``old`` approved as ``new``, no new baseline yet."""
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    return {
        "id": sentinel,
        "from": old,
        "to": new,
        "approved": f"by {rng.choice(vocab.approvers)} on 2026-{month:02d}-{day:02d}",
        "new_baseline_written": False,
    }


def _sk_rubric_change(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    """The approved change is the key's only fault: any other fault would decide the case instead."""
    domain = _domain(rng, vocab)
    baseline = _sentinels(rng, vocab, rng.randint(1, 6), domain)
    target = rng.choice(sorted(baseline))
    old, new = rng.choice(domain.rubric_changes)
    baseline[target] = old
    proposed = {**baseline, target: new}
    extra = (
        _new_cases(rng, vocab, rng.randint(1, 2), domain) if len(baseline) == 1 or rng.random() < 0.3 else {}
    )
    extra = dict(list(extra.items())[: 8 - len(baseline)])
    return Made(
        {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, proposed), extra)},
        f"The rubric revision approves exactly this change, {visible(old)} to {visible(new)} for {target}, "
        "and no other sentinel is missing or changed. No new baseline has been written: until a new explicit "
        f"baseline is issued (keeping the old one), {target} is reported changed and the key is held.",
        {"rubric_revision": _approval(rng, vocab, target, old, new)},
        domain=domain,
    )


def _sk_several(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    gone_n, changed_n = rng.randint(1, 3), rng.randint(1, 3)
    size = rng.randint(gone_n + changed_n, 8)
    baseline = _sentinels(rng, vocab, size, domain)
    picked = rng.sample(sorted(baseline), gone_n + changed_n)
    gone, changed = sorted_ids(picked[:gone_n]), sorted_ids(picked[gone_n:])
    proposed = {s: a for s, a in baseline.items() if s not in gone}
    for s in changed:
        proposed[s] = _plain_change(baseline[s], domain, rng)
    new = _new_cases(rng, vocab, 1, domain) if size < 8 and rng.random() < 0.1 else {}
    return Made(
        {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, proposed), new)},
        f"{_names(gone)} {_verb(gone, 'is', 'are')} absent from the proposed key and {_names(changed)} "
        f"{_verb(changed, 'has', 'have')} a different answer; each goes in its own field.",
        domain=domain,
    )


# --- context on every rule: the shape of a case never decides it ----------------------------

#: How often a case of another rule carries each block that some rule turns on.
DECOY_CHANCE = 0.3
#: Rules whose own cases always carry the block (so a decoy would be no decoy).
_OWN_BLOCK = {
    "unresolved": "ts-unresolved",
    "query": "ts-query-unvalidated",
    "earlier_key": "sk-nonsentinel-changed",
    "rubric_revision": "sk-rubric-change",
}
#: Target-scope rules that decide before a reworded query would (keyed_rule's order).
_BEFORE_QUERY = {"ts-unresolved", "ts-exact-ids", "ts-empty", "ts-several", "ts-lost", "ts-added"}


def _query_about(named: Sequence[str], rng: random.Random, vocab: Vocabulary) -> str | None:
    """A query about the case's own targets (as a reader sees them), or None when it names none."""
    if not named:
        return None
    if len(named) == 1:
        return rng.choice(vocab.single_target_queries).format(a=_reader(named[0]))
    a, b = rng.sample(list(named), 2)
    return rng.choice(vocab.query_templates).format(a=_reader(a), b=_reader(b))


def _ts_decoys(rule_id: str, made: Made, rng: random.Random, vocab: Vocabulary) -> Made:
    record, notes = dict(made.input), []
    if "unresolved" not in record and rng.random() < DECOY_CHANCE:
        record["unresolved"] = []
        notes.append("The unresolved list is empty, so nothing is held and the lists are compared as usual.")
    if "query" not in record and rule_id != _OWN_BLOCK["query"] and rng.random() < DECOY_CHANCE:
        named = [*dict.fromkeys([*record["original"], *record["rewritten"]])]
        query = _query_about(named, rng, vocab)
        if query is not None:
            if rule_id in _BEFORE_QUERY:
                end = "?" if query.endswith("?") else ""
                rewritten_query = f"{query.rstrip('?')} {rng.choice(vocab.query_conditions)}{end}"
                notes.append("The query's wording is shown too, but the lists decide this case.")
            else:
                rewritten_query = query
                notes.append("The query's wording is shown too, unchanged by the rewrite.")
            record = {"query": query, "rewritten_query": rewritten_query, **record}
    if not notes:
        return made
    return Made(record, " ".join([made.reason, *notes]), made.context, made.domain)


#: Rules whose cases may show a revision that approves one of their changes exactly: another fault
#: the revision does not cover still decides them (``deciding_rule.approved_change``).
_BESIDE_A_FAULT = {"sk-changed", "sk-several"}


def _sk_revision_decoy(
    rule_id: str, made: Made, rng: random.Random, vocab: Vocabulary, domain: AnswerDomain
) -> tuple[Record, str] | None:
    """A rubric revision shown as what it is, never one that changes the keyed rule.

    Of an unchanged sentinel (it approves nothing here); of a missing one (a revision covers a
    changed answer, never a hole); of a changed sentinel but to another answer than the proposed
    one (it does not cover the change); or, beside another fault the
    revision does not cover, approving one change exactly (that change alone needs a new baseline).
    """
    baseline, proposed = made.input["baseline"], made.input["proposed"]
    changed = sorted_ids(s for s in baseline if s in proposed and proposed[s] != baseline[s])
    missing = [s for s in baseline if s not in proposed]
    unchanged = sorted_ids(s for s in baseline if s not in changed and s not in missing)
    kinds = ["unchanged"] if unchanged else []
    if missing:
        kinds.append("missing")
    if changed and len(_plain_answers(baseline[changed[0]], domain.answers)) > 1:
        kinds.append("other-answer")
    if rule_id in _BESIDE_A_FAULT and changed and len(changed) + len(missing) > 1:
        kinds += ["exact", "exact"]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    if kind == "unchanged":
        target = rng.choice(unchanged)
        revision = _approval(
            rng, vocab, target, baseline[target], _plain_change(baseline[target], domain, rng)
        )
        return revision, (
            f"The rubric revision shown covers {visible(target)}, whose answer the proposed key has not "
            "changed, so it approves nothing here."
        )
    if kind == "missing":
        target = rng.choice(sorted_ids(missing))
        revision = _approval(
            rng, vocab, target, baseline[target], _plain_change(baseline[target], domain, rng)
        )
        return revision, (
            f"The rubric revision shown approves a new answer for {visible(target)}, but "
            f"{visible(target)} is absent from the proposed key: a revision covers a changed answer, "
            "never a missing sentinel."
        )
    target = rng.choice(changed)
    old, now = baseline[target], proposed[target]
    if kind == "other-answer":
        approved = [a for a in _plain_answers(old, domain.answers) if a != now]
        if not approved:
            return None
        to = rng.choice(approved)
        return _approval(rng, vocab, target, old, to), (
            f"The rubric revision shown approves {visible(to)} for {visible(target)}, but the proposed key "
            f"gives {visible(now)}: the revision does not cover that change, so it is held like any other."
        )
    faults = sorted_ids([*missing, *(s for s in changed if s != target)])
    return _approval(rng, vocab, target, old, now), (
        f"The rubric revision shown approves {visible(target)}'s change exactly, so {visible(target)} alone "
        f"needs a new explicit baseline, keeping the old one; {_names(faults)} "
        f"{_verb(faults, 'has', 'have')} no approved revision, so the key is held."
    )


def _sk_decoys(rule_id: str, made: Made, rng: random.Random, vocab: Vocabulary) -> Made:
    context, notes = dict(made.context), []
    baseline, proposed = made.input["baseline"], made.input["proposed"]
    domain = made.domain or vocab.domains[0]
    changed = {s for s in baseline if s in proposed and proposed[s] != baseline[s]}
    intact = not changed and all(s in proposed for s in baseline)
    if "earlier_key" not in context and rng.random() < DECOY_CHANCE:
        earlier = dict(baseline)
        others = [i for i in proposed if i not in baseline]
        for case_id in others:
            edit = not intact and rng.random() < 0.5
            earlier[case_id] = _plain_change(proposed[case_id], domain, rng) if edit else proposed[case_id]
        context["earlier_key"] = earlier
        notes.append("The earlier key shown does not change what the check reads here.")
    if "rubric_revision" not in context and baseline and rng.random() < DECOY_CHANCE:
        decoy = _sk_revision_decoy(rule_id, made, rng, vocab, domain)
        if decoy is not None:
            context["rubric_revision"], note = decoy
            notes.append(note)
    if not notes:
        return made
    return Made(made.input, " ".join([made.reason, *notes]), context, made.domain)


def _with_decoys(rule_id: str, check: str, made: Made, rng: random.Random, vocab: Vocabulary) -> Made:
    """``made`` with, now and then, a block that another rule turns on: never one that changes its keyed rule.

    An empty ``unresolved`` list, query wording (reworded where the lists decide first,
    unchanged where the scope is kept), an earlier key that changes nothing the check
    reads, a rubric revision covering an unchanged sentinel. So no block's presence
    alone tells which rule decides. An empty baseline stays the refusal rule's own.
    Taught in ``04_practice.ipynb``.
    """
    if check == "target-scope":
        return _ts_decoys(rule_id, made, rng, vocab)
    return _sk_decoys(rule_id, made, rng, vocab)


#: One generator per rule, in the order of ``fixtures/rules.json``.
GENERATORS: dict[str, Generator] = {
    g.rule_id: g
    for g in (
        Generator("ts-lost", "target-scope", _ts_lost),
        Generator("ts-added", "target-scope", _ts_added),
        Generator("ts-order", "target-scope", _ts_order),
        Generator("ts-duplicates", "target-scope", _ts_duplicates),
        Generator("ts-exact-ids", "target-scope", _ts_exact_ids, FACETS),
        Generator("ts-empty", "target-scope", _ts_empty),
        Generator("ts-several", "target-scope", _ts_several),
        Generator("ts-unresolved", "target-scope", _ts_unresolved),
        Generator(
            "ts-query-unvalidated",
            "target-scope",
            _ts_query_unvalidated,
        ),
        Generator("sk-changed", "sentinels", _sk_changed),
        Generator(
            "sk-whitespace-case",
            "sentinels",
            _sk_lookalike("sk-whitespace-case", WHITESPACE_CASE_FACETS, "alone is still a change"),
            WHITESPACE_CASE_FACETS,
        ),
        Generator(
            "sk-invisible",
            "sentinels",
            _sk_lookalike("sk-invisible", INVISIBLE_FACETS, "is a change a reader cannot see"),
            INVISIBLE_FACETS,
        ),
        Generator("sk-missing", "sentinels", _sk_missing),
        Generator("sk-all-missing", "sentinels", _sk_all_missing),
        Generator("sk-new-case", "sentinels", _sk_new_case),
        Generator("sk-nonsentinel-changed", "sentinels", _sk_nonsentinel_changed),
        Generator("sk-empty-baseline", "sentinels", _sk_empty_baseline),
        Generator(
            "sk-rubric-change",
            "sentinels",
            _sk_rubric_change,
        ),
        Generator("sk-several", "sentinels", _sk_several),
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
        f"Hold the key for {_names(faults)}, which no approved revision covers; issue a new explicit "
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
            f"A rewrite to review: the original lists {_count(len(record['original']), 'target')}, "
            f"the rewrite {_count(len(record['rewritten']), 'target')}"
        )
    return (
        f"A proposed answer key to review: the baseline holds {_count(len(record['baseline']), 'sentinel')}, "
        f"the proposed key {_count(len(record['proposed']), 'answer')}"
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
