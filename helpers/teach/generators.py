"""Endless fresh practice: one case generator per rule in ``fixtures/rules.json``.

Each generator builds a new case from a seed, with realistic IDs from
``fixtures/vocabulary.json`` (training topics, sentinel IDs and answers),
including look-alike IDs where the rule is about them. The expected output is
always computed by the exact checks, never written by hand; the decision and
reason come from templates that name the IDs; and each case is tagged with the
rule ids it exercises.

Each generator also carries the check *with its rule broken* (``broken``): the
tests show every generated case changes its outcome under it, which proves the
case really exercises the rule. The same seed always gives the same case.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import hashlib
import random
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.chardiff import visible
from ..core.checks import run_check
from ..core.errors import CheckInputError, InvalidInputError
from ..core.jsonio import dumps_compact, load_json_file
from ..core.ordering import sorted_ids
from ..core.paths import fixtures_dir
from .practice_cases import PracticeCase

__all__ = [
    "Vocabulary",
    "Generator",
    "GENERATORS",
    "vocabulary_json",
    "load_vocabulary",
    "generate",
    "generate_many",
    "generated_case_data",
    "generators_fingerprint",
]

Record = dict[str, Any]
Output = dict[str, Any]


def vocabulary_json() -> Path:
    """``fixtures/vocabulary.json``: the words generated cases are made of."""
    return fixtures_dir() / "vocabulary.json"


@dataclass(frozen=True)
class Vocabulary:
    """Training topics, query wording, unresolved mentions, sentinel IDs and answers.

    Taught in ``04_practice.ipynb``.
    """

    topics: tuple[str, ...]
    query_templates: tuple[str, ...]
    query_conditions: tuple[str, ...]
    unresolved_mentions: tuple[str, ...]
    sentinel_ids: tuple[str, ...]
    case_ids: tuple[str, ...]
    answers: tuple[str, ...]
    rubric_changes: tuple[tuple[str, str], ...]


_VOCAB_LISTS = (
    "topics",
    "query_templates",
    "query_conditions",
    "unresolved_mentions",
    "sentinel_ids",
    "case_ids",
    "answers",
)


def load_vocabulary(path: str | Path | None = None) -> Vocabulary:
    """Read the vocabulary strictly; a missing or empty list is an error naming it."""
    source = Path(path) if path is not None else vocabulary_json()
    data = load_json_file(source)
    if not isinstance(data, Mapping):
        raise InvalidInputError(f"{source}: expected a JSON object", field="vocabulary")
    lists: dict[str, tuple[str, ...]] = {}
    for name in _VOCAB_LISTS:
        value = data.get(name)
        if not isinstance(value, list) or len(value) < 4 or not all(isinstance(v, str) and v for v in value):
            raise InvalidInputError(
                f"{source}: {name} must be a list of at least 4 non-empty strings", field=name
            )
        if len(set(value)) != len(value):
            raise InvalidInputError(f"{source}: {name} lists a word twice", field=name)
        lists[name] = tuple(value)
    changes = data.get("rubric_changes")
    if (
        not isinstance(changes, list)
        or not changes
        or not all(
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(v, str) and v for v in pair)
            and pair[0] != pair[1]
            for pair in changes
        )
    ):
        raise InvalidInputError(
            f"{source}: rubric_changes must be a list of [old, new] answer pairs", field="rubric_changes"
        )
    return Vocabulary(**lists, rubric_changes=tuple((old, new) for old, new in changes))


# --- look-alike forms ---------------------------------------------------------------------

_ZERO_WIDTH = "\u200b"


def _decomposed(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _lookalikes(word: str) -> list[tuple[str, str]]:
    """Different IDs that a reader may take for ``word``: (form, how it differs)."""
    forms = [
        (word.capitalize() if word[:1].islower() else word.lower(), "a change of case"),
        (word + " ", "a trailing space"),
        (word[:2] + _ZERO_WIDTH + word[2:], "a zero-width space inside it"),
    ]
    if _decomposed(word) != word:
        forms.append((_decomposed(word), "the same letters in decomposed Unicode form"))
    return [(form, how) for form, how in forms if form != word]


def _loose(text: str) -> str:
    """What a careless comparison would see: case, spacing, Unicode form and zero-width ignored."""
    return unicodedata.normalize("NFC", text).replace(_ZERO_WIDTH, "").strip().casefold()


def _show(ids: Sequence[str]) -> str:
    shown = [visible(i) for i in ids]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


# --- broken checks: the check with one rule broken ----------------------------------------


def _scope(original: Sequence[str], rewritten: Sequence[str]) -> Output:
    a, b = set(original), set(rewritten)
    missing, added = sorted_ids(a - b), sorted_ids(b - a)
    return {"missing": missing, "added": added, "preserved": not missing and not added}


def _broken_ignores_missing(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    return {**out, "missing": [], "preserved": not out["added"]}


def _broken_ignores_added(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    return {**out, "added": [], "preserved": not out["missing"]}


def _broken_in_order(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    return {**out, "preserved": list(record["original"]) == list(record["rewritten"])}


def _broken_counts_repeats(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    same = sorted(record["original"]) == sorted(record["rewritten"])
    return {**out, "preserved": same}


def _broken_loose_ids(record: Record) -> Output:
    return _scope([_loose(i) for i in record["original"]], [_loose(i) for i in record["rewritten"]])


def _broken_empty_is_no_constraint(record: Record) -> Output:
    if not record["original"] or not record["rewritten"]:
        return {"missing": [], "added": [], "preserved": True}
    return _scope(record["original"], record["rewritten"])


def _broken_first_only(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    return {**out, "missing": out["missing"][:1], "added": out["added"][:1]}


def _broken_ignores_unresolved(record: Record) -> Output:
    return _scope(record["original"], record["rewritten"])


def _broken_reads_the_query(conditions: Sequence[str]) -> Callable[[Record], Output]:
    def check(record: Record) -> Output:
        out = _scope(record["original"], record["rewritten"])
        extra = any(condition in record.get("rewritten_query", "") for condition in conditions)
        return {**out, "preserved": out["preserved"] and not extra}

    return check


def _key(
    baseline: Mapping[str, str], proposed: Mapping[str, str], same: Callable[[str, str], bool]
) -> Output:
    missing = sorted_ids(s for s in baseline if s not in proposed)
    changed = sorted_ids(s for s in baseline if s in proposed and not same(baseline[s], proposed[s]))
    return {"missing": missing, "changed": changed, "intact": not missing and not changed}


def _exact(a: str, b: str) -> bool:
    return a == b


def _broken_ignores_changed(record: Record) -> Output:
    return _key(record["baseline"], record["proposed"], lambda _a, _b: True)


def _broken_trims_and_folds(record: Record) -> Output:
    return _key(
        record["baseline"], record["proposed"], lambda a, b: a.strip().casefold() == b.strip().casefold()
    )


def _broken_normalises(record: Record) -> Output:
    return _key(record["baseline"], record["proposed"], lambda a, b: _loose(a) == _loose(b))


def _broken_ignores_missing_sentinels(record: Record) -> Output:
    out = _key(record["baseline"], record["proposed"], _exact)
    return {**out, "missing": [], "intact": not out["changed"]}


def _broken_walks_the_overlap(record: Record) -> Output:
    """Checks only the sentinels the proposed key still has, so an all-missing key looks intact."""
    shared = {s: a for s, a in record["baseline"].items() if s in record["proposed"]}
    return _key(shared, record["proposed"], _exact)


def _broken_flags_new_ids(record: Record) -> Output:
    out = _key(record["baseline"], record["proposed"], _exact)
    new = sorted_ids(i for i in record["proposed"] if i not in record["baseline"])
    changed = sorted_ids([*out["changed"], *new])
    return {**out, "changed": changed, "intact": not out["missing"] and not changed}


def _broken_empty_baseline_intact(record: Record) -> Output:
    return _key(record["baseline"], record["proposed"], _exact)


def _broken_accepts_rubric_changes(changes: Sequence[tuple[str, str]]) -> Callable[[Record], Output]:
    allowed = set(changes)
    return lambda record: _key(
        record["baseline"], record["proposed"], lambda a, b: a == b or (a, b) in allowed
    )


# --- the generators -------------------------------------------------------------------------


@dataclass(frozen=True)
class Made:
    """What a generator makes before the exact check runs: the input and its wording."""

    input: Record
    title: str
    reason: str


@dataclass(frozen=True)
class Generator:
    """A rule's case generator and the check with that rule broken.

    Taught in ``04_practice.ipynb``.
    """

    rule_id: str
    check: str
    make: Callable[[random.Random, Vocabulary], Made]
    broken: Callable[[Vocabulary], Callable[[Record], Output]]


def _topics(rng: random.Random, vocab: Vocabulary, count: int) -> list[str]:
    return rng.sample(list(vocab.topics), count)


def _ts_lost(rng: random.Random, vocab: Vocabulary) -> Made:
    original = _topics(rng, vocab, rng.randint(2, 4))
    lost = rng.sample(original, rng.randint(1, len(original) - 1))
    rewritten = [t for t in original if t not in lost]
    rng.shuffle(rewritten)
    return Made(
        {"original": original, "rewritten": rewritten},
        "A comparison target drops out",
        f"The rewrite no longer asks about {_show(sorted_ids(lost))}, so it is missing and the scope is not kept.",
    )


def _ts_added(rng: random.Random, vocab: Vocabulary) -> Made:
    words = _topics(rng, vocab, 5)
    original = words[: rng.randint(1, 3)]
    added = words[3 : 3 + rng.randint(1, 2)]
    rewritten = [*original, *added]
    rng.shuffle(rewritten)
    return Made(
        {"original": original, "rewritten": rewritten},
        "An unrelated target slips in",
        f"Every original target survives, but {_show(sorted_ids(added))} joined the rewrite and widens what it retrieves.",
    )


def _ts_order(rng: random.Random, vocab: Vocabulary) -> Made:
    original = _topics(rng, vocab, rng.randint(2, 4))
    rewritten = original[::-1] if rng.random() < 0.5 else [*original[1:], original[0]]
    return Made(
        {"original": original, "rewritten": rewritten},
        "The same targets in another order",
        f"{_show(original)} are all still there; the targets are a set, so the new order changes nothing.",
    )


def _ts_duplicates(rng: random.Random, vocab: Vocabulary) -> Made:
    original = _topics(rng, vocab, rng.randint(1, 3))
    repeated = rng.choice(original)
    rewritten = [*original, repeated]
    rng.shuffle(rewritten)
    where = "rewrite"
    if rng.random() < 0.4:
        original, rewritten, where = [*original, repeated], list(original), "original"
    return Made(
        {"original": original, "rewritten": rewritten},
        f"A target repeated in the {where}",
        f"{visible(repeated)} appears twice in the {where}, but a target counts once, so the two sets match.",
    )


def _ts_exact_ids(rng: random.Random, vocab: Vocabulary) -> Made:
    words = [*vocab.topics, "café-rota", "crèche-cover"]
    kept, changed = rng.sample(words, 2)
    form, how = rng.choice(_lookalikes(changed))
    return Made(
        {"original": [kept, changed], "rewritten": [form, kept]},
        "A look-alike target ID",
        f"The rewrite's {visible(form)} differs from {visible(changed)} by {how}: IDs compare exactly, "
        "so one is missing and the other added.",
    )


def _ts_empty(rng: random.Random, vocab: Vocabulary) -> Made:
    words = _topics(rng, vocab, rng.randint(1, 3))
    if rng.random() < 0.5:
        return Made(
            {"original": words, "rewritten": []},
            "The rewrite lists no targets",
            f"An empty rewrite is still a set: it loses {_show(sorted_ids(words))}.",
        )
    return Made(
        {"original": [], "rewritten": words},
        "The original lists no targets",
        f"With an empty original, every rewrite target is added: {_show(sorted_ids(words))}.",
    )


def _ts_several(rng: random.Random, vocab: Vocabulary) -> Made:
    words = _topics(rng, vocab, 6)
    original = words[:3]
    lost = original[: rng.randint(1, 2)]
    added = words[3 : 3 + (2 if len(lost) == 1 else rng.randint(1, 2))]
    rewritten = [*(t for t in original if t not in lost), *added]
    rng.shuffle(rewritten)
    return Made(
        {"original": original, "rewritten": rewritten},
        "Targets swapped for others",
        f"{_show(sorted_ids(lost))} went missing and {_show(sorted_ids(added))} were added; "
        "each goes in its own field.",
    )


def _ts_unresolved(rng: random.Random, vocab: Vocabulary) -> Made:
    original = _topics(rng, vocab, rng.randint(1, 3))
    rewritten = list(original) if rng.random() < 0.5 else original[:-1] or list(original)
    mentions = rng.sample(list(vocab.unresolved_mentions), rng.randint(1, 2))
    return Made(
        {"original": original, "rewritten": rewritten, "unresolved": mentions},
        "A target mention nobody has labelled",
        f"{_show(sorted_ids(mentions))} could not be resolved to a canonical ID, so the rewrite is held "
        "for staff labels, whatever the lists say.",
    )


def _ts_query_unvalidated(rng: random.Random, vocab: Vocabulary) -> Made:
    a, b = _topics(rng, vocab, 2)
    condition = rng.choice(vocab.query_conditions)
    query = rng.choice(vocab.query_templates).format(a=a, b=b)
    rewritten_query = f"{query.rstrip('?')} {condition}"
    return Made(
        {"query": query, "rewritten_query": rewritten_query, "original": [a, b], "rewritten": [b, a]},
        "The wording changes, the targets do not",
        f"The targets {a} and {b} are kept, so the set passes; the added condition ({condition}) "
        "is prose the check never reads, so the wording still needs review.",
    )


def _sentinels(rng: random.Random, vocab: Vocabulary, count: int) -> dict[str, str]:
    ids = sorted(rng.sample(list(vocab.sentinel_ids), count))
    return {i: rng.choice(vocab.answers) for i in ids}


def _sk_changed(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(1, 3))
    target = rng.choice(sorted(baseline))
    new = rng.choice([a for a in vocab.answers if a != baseline[target]])
    return Made(
        {"baseline": baseline, "proposed": {**baseline, target: new}},
        "A sentinel's answer is edited",
        f"{target} went from {visible(baseline[target])} to {visible(new)} with no new baseline, so it is changed.",
    )


def _recased_or_spaced(answer: str, rng: random.Random) -> tuple[str, str]:
    options = [(answer + " ", "a trailing space"), (" " + answer, "a leading space")]
    for form in (answer.lower(), answer.upper(), answer.swapcase()):
        if form != answer:
            options.append((form, "a change of case"))
    return rng.choice(options)


def _sk_whitespace_case(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(1, 3))
    target = rng.choice(sorted(baseline))
    form, how = _recased_or_spaced(baseline[target], rng)
    return Made(
        {"baseline": baseline, "proposed": {**baseline, target: form}},
        "An answer recased or respaced",
        f"{target}'s answer {visible(baseline[target])} became {visible(form)}: {how} alone is still a change.",
    )


def _sk_invisible(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(1, 3))
    target = rng.choice(sorted(baseline))
    answer = rng.choice(["café", "naïve", "résumé", "approve", "escalate"])
    baseline[target] = answer
    if _decomposed(answer) != answer and rng.random() < 0.5:
        form, how = _decomposed(answer), "the same letters in decomposed Unicode form"
    else:
        cut = rng.randint(1, len(answer) - 1)
        form, how = answer[:cut] + _ZERO_WIDTH + answer[cut:], "a zero-width space"
    return Made(
        {"baseline": baseline, "proposed": {**baseline, target: form}},
        "An answer changed invisibly",
        f"{target} now reads {visible(form)} instead of {visible(answer)}: {how} is a change a reader cannot see.",
    )


def _sk_missing(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(2, 4))
    gone = rng.sample(sorted(baseline), rng.randint(1, len(baseline) - 1))
    proposed = {s: a for s, a in baseline.items() if s not in gone}
    return Made(
        {"baseline": baseline, "proposed": proposed},
        "A sentinel is left out",
        f"{_show(sorted_ids(gone))} is absent from the proposed key: a hole in the key, not a wrong answer.",
    )


def _sk_all_missing(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(1, 3))
    others = rng.sample(list(vocab.case_ids), rng.randint(0, 3))
    proposed = {c: rng.choice(vocab.answers) for c in others}
    return Made(
        {"baseline": baseline, "proposed": proposed},
        "No sentinel is left",
        f"Every sentinel ({_show(sorted(baseline))}) is missing, however many other cases the key holds.",
    )


def _sk_new_case(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(1, 3))
    new = {c: rng.choice(vocab.answers) for c in rng.sample(list(vocab.case_ids), rng.randint(1, 3))}
    return Made(
        {"baseline": baseline, "proposed": {**baseline, **new}},
        "New cases join the key",
        f"{_show(sorted_ids(new))} are new non-sentinel cases: allowed, and every sentinel keeps its answer.",
    )


def _sk_nonsentinel_changed(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(1, 2))
    case_id = rng.choice(vocab.case_ids)
    old, new = rng.sample(list(vocab.answers), 2)
    return Made(
        {"baseline": baseline, "proposed": {**baseline, case_id: new}},
        "A non-sentinel's answer was edited",
        f"{case_id} changed from {visible(old)} to {visible(new)} since the last key, but it is not a "
        "sentinel, so the check cannot see it and the key is intact.",
    )


def _sk_empty_baseline(rng: random.Random, vocab: Vocabulary) -> Made:
    proposed = {i: rng.choice(vocab.answers) for i in rng.sample(list(vocab.sentinel_ids), rng.randint(0, 3))}
    return Made(
        {"baseline": {}, "proposed": proposed},
        "The baseline holds no sentinels",
        "An empty baseline would check nothing, so the check refuses the input instead of calling the key intact.",
    )


def _sk_rubric_change(rng: random.Random, vocab: Vocabulary) -> Made:
    baseline = _sentinels(rng, vocab, rng.randint(1, 3))
    target = rng.choice(sorted(baseline))
    old, new = rng.choice(vocab.rubric_changes)
    baseline[target] = old
    return Made(
        {"baseline": baseline, "proposed": {**baseline, target: new}},
        "A rubric change before its new baseline",
        f"The rubric now expects {visible(new)} for {target}, but until a new explicit baseline is written "
        f"(keeping the old one), {target} is reported changed.",
    )


#: One generator per rule, in the order of ``fixtures/rules.json``.
GENERATORS: dict[str, Generator] = {
    g.rule_id: g
    for g in (
        Generator("ts-lost", "target-scope", _ts_lost, lambda v: _broken_ignores_missing),
        Generator("ts-added", "target-scope", _ts_added, lambda v: _broken_ignores_added),
        Generator("ts-order", "target-scope", _ts_order, lambda v: _broken_in_order),
        Generator("ts-duplicates", "target-scope", _ts_duplicates, lambda v: _broken_counts_repeats),
        Generator("ts-exact-ids", "target-scope", _ts_exact_ids, lambda v: _broken_loose_ids),
        Generator("ts-empty", "target-scope", _ts_empty, lambda v: _broken_empty_is_no_constraint),
        Generator("ts-several", "target-scope", _ts_several, lambda v: _broken_first_only),
        Generator("ts-unresolved", "target-scope", _ts_unresolved, lambda v: _broken_ignores_unresolved),
        Generator(
            "ts-query-unvalidated",
            "target-scope",
            _ts_query_unvalidated,
            lambda v: _broken_reads_the_query(v.query_conditions),
        ),
        Generator("sk-changed", "sentinels", _sk_changed, lambda v: _broken_ignores_changed),
        Generator("sk-whitespace-case", "sentinels", _sk_whitespace_case, lambda v: _broken_trims_and_folds),
        Generator("sk-invisible", "sentinels", _sk_invisible, lambda v: _broken_normalises),
        Generator("sk-missing", "sentinels", _sk_missing, lambda v: _broken_ignores_missing_sentinels),
        Generator("sk-all-missing", "sentinels", _sk_all_missing, lambda v: _broken_walks_the_overlap),
        Generator("sk-new-case", "sentinels", _sk_new_case, lambda v: _broken_flags_new_ids),
        Generator(
            "sk-nonsentinel-changed", "sentinels", _sk_nonsentinel_changed, lambda v: _broken_flags_new_ids
        ),
        Generator(
            "sk-empty-baseline", "sentinels", _sk_empty_baseline, lambda v: _broken_empty_baseline_intact
        ),
        Generator(
            "sk-rubric-change",
            "sentinels",
            _sk_rubric_change,
            lambda v: _broken_accepts_rubric_changes(v.rubric_changes),
        ),
    )
}


def _expected(check: str, record: Record) -> Output:
    try:
        return run_check(check, record).as_dict()
    except CheckInputError as exc:
        return {"error": exc.message}


def _decision(check: str, expected: Output, record: Record) -> str:
    if "error" in expected:
        return "Refuse the input: supply the sentinel baseline"
    if "held" in expected:
        return "Hold the rewrite: needs staff labels"
    if check == "target-scope":
        if expected["preserved"]:
            if "rewritten_query" in record:
                return "Accept the target scope; have the wording reviewed"
            return "Accept the rewrite: scope preserved"
        return "Reject the rewrite: scope not preserved"
    return "Key intact: scoring may go ahead" if expected["intact"] else "Hold the key before scoring"


def _tags(rule_id: str, check: str, expected: Output, record: Record) -> tuple[str, ...]:
    """The rule itself, then the other rules the outcome shows."""
    tags = [rule_id]
    if check == "target-scope" and "missing" in expected:
        if expected["missing"]:
            tags.append("ts-lost")
        if expected["added"]:
            tags.append("ts-added")
        if len(expected["missing"]) + len(expected["added"]) >= 2:
            tags.append("ts-several")
    elif check == "sentinels" and "missing" in expected:
        if expected["changed"]:
            tags.append("sk-changed")
        if expected["missing"]:
            tags.append("sk-missing")
        if any(i not in record["baseline"] for i in record["proposed"]):
            tags.append("sk-new-case")
    return tuple(dict.fromkeys(tags))


def _rng(rule_id: str, seed: int) -> random.Random:
    digest = hashlib.sha256(f"{rule_id}:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def generate(rule_id: str, seed: int, *, vocabulary: Vocabulary | None = None) -> PracticeCase:
    """A fresh case for ``rule_id`` from ``seed``; the same seed always gives the same case.

    Taught in ``04_practice.ipynb``.
    """
    if rule_id not in GENERATORS:
        raise InvalidInputError(
            f"no generator for rule {rule_id!r}; the rules are {', '.join(GENERATORS)}", field="rule"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidInputError(f"seed is {seed!r}, expected a whole number from 0", field="seed")
    generator = GENERATORS[rule_id]
    vocab = vocabulary or load_vocabulary()
    made = generator.make(_rng(rule_id, seed), vocab)
    expected = _expected(generator.check, made.input)
    return PracticeCase(
        check=generator.check,
        id=f"{rule_id}-{seed}",
        title=made.title,
        input=made.input,
        expected=expected,
        decision=_decision(generator.check, expected, made.input),
        reason=made.reason,
        rules=_tags(rule_id, generator.check, expected, made.input),
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
    """A generated case as one JSON Lines record: the fields a fixture case has, plus ``rule_ids``."""
    return {
        "check": case.check,
        "id": case.id,
        "title": case.title,
        "rule_ids": list(case.rules),
        "input": case.input,
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
