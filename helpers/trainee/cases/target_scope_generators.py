"""The target-scope case generators, one per rule, and the decoys every target-scope case may carry.

Each maker draws a case its rule decides (:mod:`helpers.trainee.cases.generators`
checks it); the decoys (a reworded query) show that the shape of a case never
decides it. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence

from helpers.core.ordering import sorted_ids
from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.cases.lookalike_forms import HOW as _HOW
from helpers.trainee.cases.lookalike_forms import formable as _formable
from helpers.trainee.cases.lookalike_forms import lookalike as _lookalike
from helpers.trainee.cases.made import (
    DECOY_CHANCE,
    Made,
    careless_form,
    draw_topics,
    facet_for,
    insert_randomly,
    maybe_shuffled,
    names_text,
    plain_words,
    repeat_one,
    verb_for,
    visible,
)
from helpers.trainee.cases.vocabulary import Vocabulary

#: Rules whose own cases always carry the block (so a decoy would be no decoy).
_OWN_BLOCK = {
    "unresolved": "ts-unresolved",
    "query": "ts-query-unvalidated",
    "earlier_key": "sk-nonsentinel-changed",
    "rubric_revision": "sk-rubric-change",
}


def ts_lost(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    original = draw_topics(rng, vocab, rng.randint(2, 8))
    lost = rng.sample(original, rng.randint(1, min(3, len(original) - 1)))
    rewritten = maybe_shuffled(rng, [t for t in original if t not in lost])
    note = ""
    if rng.random() < 0.25:
        rewritten, repeated = repeat_one(rng, rewritten)
        note = f" {visible(repeated)} is listed twice in the rewrite, but a target counts once."
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{names_text(sorted_ids(lost))} {verb_for(lost, 'is', 'are')} in the original but not in the rewrite, "
        f"so the scope is not kept.{note}",
    )


def ts_added(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    count = rng.randint(2, 8)
    words = draw_topics(rng, vocab, count)
    added = words[: rng.randint(1, min(3, count - 1))]
    original = words[len(added) :]
    rewritten = insert_randomly(rng, maybe_shuffled(rng, original, 0.4), added)
    note = ""
    if rng.random() < 0.2:
        original, repeated = repeat_one(rng, original)
        note = f" {visible(repeated)} is listed twice in the original, but a target counts once."
    return Made(
        {"original": original, "rewritten": rewritten},
        f"Every original target survives, but {names_text(sorted_ids(added))} "
        f"{verb_for(added, 'is', 'are')} only in the rewrite, which widens what it retrieves.{note}",
    )


def ts_order(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    original = draw_topics(rng, vocab, rng.randint(2, 8))
    rewritten = list(original)
    while rewritten == original:
        rng.shuffle(rewritten)
    note = ""
    marked = [t for t in original if unicodedata.normalize("NFD", t) != t]
    if marked:
        note = f" {names_text(marked)} {verb_for(marked, 'is', 'are')} written the same way in both lists."
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{names_text(original)} are all still there; the targets are a set, so the new order changes nothing.{note}",
    )


def ts_duplicates(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    words = draw_topics(rng, vocab, rng.randint(2, 8))
    original, rewritten = list(words), maybe_shuffled(rng, words, 0.5)
    where = rng.choice(["original", "rewrite", "both"])
    repeated: list[str] = []
    for side in ("original", "rewrite"):
        if where in (side, "both"):
            count = rng.randint(1, 2)
            target = original if side == "original" else rewritten
            for item in rng.sample(words, count):
                target[:] = insert_randomly(rng, target, [item])
                repeated.append(item)
    if sorted(original) == sorted(rewritten):  # the same repeats on both sides: repeat one more
        original[:] = insert_randomly(rng, original, [original[0]])
        repeated.append(original[0])
    shown = sorted_ids(set(repeated))
    places = {"original": "the original", "rewrite": "the rewrite", "both": "the lists"}[where]
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{names_text(shown)} {verb_for(shown, 'appears', 'appear')} more than once in {places}, but a target "
        "counts once, so the two sets match.",
    )


def ts_exact_ids(rng: random.Random, vocab: Vocabulary, facet: str | None) -> Made:
    kind = facet_for(rng, facet, FACETS, "ts-exact-ids")
    formable = _formable(vocab.topics, kind)
    size = rng.randint(1, 7)
    swapped_count = rng.randint(1, min(3, size, 8 - size))
    swapped = rng.sample(formable, swapped_count)
    kept = rng.sample([w for w in plain_words(vocab) if w not in swapped], size - swapped_count)
    original = maybe_shuffled(rng, [*swapped, *kept], 1.0)
    forms = {w: _lookalike(w, kind, rng) for w in swapped}
    rewritten = maybe_shuffled(rng, [forms.get(w, w) for w in original], 0.5)
    pairs = "; ".join(f"{visible(forms[w])} differs from {visible(w)}" for w in sorted_ids(swapped))
    missing, added = sorted_ids(swapped), sorted_ids(forms.values())
    return Made(
        {"original": original, "rewritten": rewritten},
        f"In the rewrite, {pairs}, by {_HOW[kind]}. IDs compare exactly, so {names_text(missing)} "
        f"{verb_for(missing, 'is', 'are')} missing and {names_text(added)} {verb_for(added, 'was', 'were')} added.",
    )


def ts_empty(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    shape = rng.choices(["rewrite", "original", "both"], weights=[4, 4, 2])[0]
    if shape == "both":
        return Made(
            {"original": [], "rewritten": []},
            "Two empty lists are the same set, so nothing is missing and nothing was added; a pass "
            "with no declared targets says very little about the query.",
        )
    words = draw_topics(rng, vocab, rng.randint(1, 6))
    listed = words
    if len(words) > 1 and rng.random() < 0.2:
        listed, _repeated = repeat_one(rng, words)
    if shape == "rewrite":
        return Made(
            {"original": listed, "rewritten": []},
            f"An empty rewrite is still a set: it loses {names_text(sorted_ids(words))}.",
        )
    return Made(
        {"original": [], "rewritten": listed},
        f"With an empty original, every rewrite target is added: {names_text(sorted_ids(words))}.",
    )


def ts_several(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    lost_n, added_n = rng.randint(1, 3), rng.randint(1, 3)
    kept_n = rng.randint(0, 8 - lost_n - added_n)
    words = draw_topics(rng, vocab, lost_n + added_n + kept_n)
    lost, added, kept = words[:lost_n], words[lost_n : lost_n + added_n], words[lost_n + added_n :]
    original = maybe_shuffled(rng, [*lost, *kept], 1.0)
    rewritten = insert_randomly(rng, maybe_shuffled(rng, kept, 0.5), added)
    if kept and rng.random() < 0.2:
        rewritten, _repeated = repeat_one(rng, rewritten)
    lost_s, added_s = sorted_ids(lost), sorted_ids(added)
    return Made(
        {"original": original, "rewritten": rewritten},
        f"{names_text(lost_s)} {verb_for(lost_s, 'is', 'are')} missing and {names_text(added_s)} "
        f"{verb_for(added_s, 'was', 'were')} added; each goes in its own field.",
    )


def ts_unresolved(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    shape = rng.choice(["same", "lost", "added", "both"])
    words = draw_topics(rng, vocab, rng.randint(3 if shape == "both" else 2, 8))
    original, rewritten = words[:-1] if shape in ("added", "both") else list(words), list(words)
    if shape in ("lost", "both"):
        rewritten = [w for w in rewritten if w != original[0]]
    rewritten = maybe_shuffled(rng, rewritten, 0.5)
    mentions = rng.sample(list(vocab.unresolved_mentions), rng.randint(1, 3))
    shown = sorted_ids(mentions)
    return Made(
        {"original": original, "rewritten": rewritten, "unresolved": mentions},
        f"{names_text(shown)} could not be resolved to a canonical ID, so the rewrite is held for staff "
        "labels, whatever the lists say.",
    )


def ts_query_unvalidated(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    words = draw_topics(rng, vocab, rng.randint(2, 8))
    a, b = words[0], words[1]
    condition = rng.choice(vocab.query_conditions)
    query = rng.choice(vocab.query_templates).format(a=a, b=b)
    end = "?" if query.endswith("?") else ""
    rewritten_query = f"{query.rstrip('?')} {condition}{end}"
    original = maybe_shuffled(rng, words, 1.0)
    rewritten = maybe_shuffled(rng, original, 0.6)
    if rng.random() < 0.2:
        rewritten, _repeated = repeat_one(rng, rewritten)
    return Made(
        {"query": query, "rewritten_query": rewritten_query, "original": original, "rewritten": rewritten},
        f"The targets {names_text(sorted_ids(words))} are all kept, so the set passes; the added condition "
        f"({condition}) is prose the check never reads, so the wording still needs review.",
    )


#: Target-scope rules that decide before a reworded query would (keyed_rule's order).
_BEFORE_QUERY = {"ts-unresolved", "ts-exact-ids", "ts-empty", "ts-several", "ts-lost", "ts-added"}


def _query_about(named: Sequence[str], rng: random.Random, vocab: Vocabulary) -> str | None:
    """A query about the case's own targets (as a reader sees them), or None when it names none."""
    if not named:
        return None
    if len(named) == 1:
        return rng.choice(vocab.single_target_queries).format(a=careless_form(named[0]))
    a, b = rng.sample(list(named), 2)
    return rng.choice(vocab.query_templates).format(a=careless_form(a), b=careless_form(b))


def ts_decoys(rule_id: str, made: Made, rng: random.Random, vocab: Vocabulary) -> Made:
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
