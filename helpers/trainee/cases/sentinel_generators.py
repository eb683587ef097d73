"""The sentinel case generators, one per rule, and the decoys every sentinel case may carry.

Each maker draws a case its rule decides (:mod:`helpers.trainee.cases.generators`
checks it); the decoys (an earlier key, a rubric revision) show that the shape of
a case never decides it. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping

from helpers.core.errors import InvalidInputError
from helpers.core.ordering import sorted_ids
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.cases.lookalike_forms import HOW as _HOW
from helpers.trainee.cases.lookalike_forms import can_form as _can_form
from helpers.trainee.cases.lookalike_forms import formable as _formable
from helpers.trainee.cases.lookalike_forms import lookalike as _lookalike
from helpers.trainee.cases.made import (
    DECOY_CHANCE,
    Made,
    Maker,
    Record,
    facet_for,
    names_text,
    verb_for,
    visible,
)
from helpers.trainee.cases.vocabulary import AnswerDomain, Vocabulary


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


def sk_changed(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
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
        f"{edits}, with no new baseline, so {names_text(targets)} {verb_for(targets, 'is', 'are')} changed.",
        domain=domain,
    )


def sk_lookalike(rule_id: str, allowed: tuple[str, ...], ending: str) -> Maker:
    def make(rng: random.Random, vocab: Vocabulary, facet: str | None) -> Made:
        kind = facet_for(rng, facet, allowed, rule_id)
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
            f"{edits}: {_HOW[kind]} {ending}, so {names_text(targets)} {verb_for(targets, 'is', 'are')} changed.",
            domain=domain,
        )

    return make


def sk_missing(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
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
        f"{names_text(gone)} {verb_for(gone, 'is', 'are')} absent from the proposed key: a hole in the key, not a "
        f"wrong answer.{note}",
        domain=domain,
    )


def sk_all_missing(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
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
        f"Every sentinel ({names_text(list(baseline))}) is missing from the proposed key, however many other "
        "cases it holds.",
        domain=domain,
    )


def sk_new_case(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
    domain = _domain(rng, vocab)
    new_n = rng.randint(1, 3)
    baseline = _sentinels(rng, vocab, rng.randint(1, 8 - new_n), domain)
    new = _new_cases(rng, vocab, new_n, domain)
    names = sorted_ids(new)
    what = "a new non-sentinel case" if len(names) == 1 else "new non-sentinel cases"
    return Made(
        {"baseline": baseline, "proposed": _with_new(rng, _proposed(rng, baseline), new)},
        f"{names_text(names)} {verb_for(names, 'is', 'are')} {what}: allowed, and every sentinel keeps its answer.",
        domain=domain,
    )


def sk_nonsentinel_changed(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
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
        f"{edits[0].upper()}{edits[1:]}. {names_text(edited)} {verb_for(edited, 'is', 'are')} not {what}, so "
        "the check does not read the edit and the key is intact.",
        {"earlier_key": earlier},
        domain=domain,
    )


def sk_empty_baseline(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
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


def sk_rubric_change(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
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


def sk_several(rng: random.Random, vocab: Vocabulary, _facet: str | None) -> Made:
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
        f"{names_text(gone)} {verb_for(gone, 'is', 'are')} absent from the proposed key and {names_text(changed)} "
        f"{verb_for(changed, 'has', 'have')} a different answer; each goes in its own field.",
        domain=domain,
    )


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
        f"needs a new explicit baseline, keeping the old one; {names_text(faults)} "
        f"{verb_for(faults, 'has', 'have')} no approved revision, so the key is held."
    )


def sk_decoys(rule_id: str, made: Made, rng: random.Random, vocab: Vocabulary) -> Made:
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
