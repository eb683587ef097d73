"""The checks with one rule broken each: a generated case for a rule must change its outcome under its broken check.

Test oracles only (``tests/trainee/cases/test_generators.py``), so they live with the tests, not in the package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from helpers.core.ordering import sorted_ids
from helpers.trainee.cases.deciding_rule import reader_form
from helpers.trainee.cases.generators import Vocabulary

Record = dict[str, Any]
Output = dict[str, Any]


def _scope(original: Sequence[str], rewritten: Sequence[str]) -> Output:
    a, b = set(original), set(rewritten)
    missing, added = sorted_ids(a - b), sorted_ids(b - a)
    return {"missing": missing, "added": added, "preserved": not missing and not added}


def ignores_missing(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    return {**out, "missing": [], "preserved": not out["added"]}


def ignores_added(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    return {**out, "added": [], "preserved": not out["missing"]}


def in_order(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    return {**out, "preserved": list(record["original"]) == list(record["rewritten"])}


def counts_repeats(record: Record) -> Output:
    out = _scope(record["original"], record["rewritten"])
    same = sorted(record["original"]) == sorted(record["rewritten"])
    return {**out, "preserved": same}


def loose_ids(record: Record) -> Output:
    return _scope([reader_form(i) for i in record["original"]], [reader_form(i) for i in record["rewritten"]])


def empty_lists(record: Record) -> Output:
    """One empty list reads as "no constraint"; two empty lists read as a failure."""
    original, rewritten = record["original"], record["rewritten"]
    if not original and not rewritten:
        return {"missing": [], "added": [], "preserved": False}
    if not original or not rewritten:
        return {"missing": [], "added": [], "preserved": True}
    return _scope(original, rewritten)


def one_kind_at_a_time(record: Record) -> Output:
    """Reports only the missing targets when some are missing, as if the added ones could wait."""
    out = _scope(record["original"], record["rewritten"])
    return {**out, "added": [] if out["missing"] else out["added"]}


def ignores_unresolved(record: Record) -> Output:
    return _scope(record["original"], record["rewritten"])


def reads_the_query(conditions: Sequence[str]) -> Callable[[Record], Output]:
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


def ignores_changed(record: Record) -> Output:
    return _key(record["baseline"], record["proposed"], lambda _a, _b: True)


def trims_and_folds(record: Record) -> Output:
    return _key(
        record["baseline"],
        record["proposed"],
        lambda a, b: "".join(a.split()).casefold() == "".join(b.split()).casefold(),
    )


def normalises(record: Record) -> Output:
    return _key(record["baseline"], record["proposed"], lambda a, b: reader_form(a) == reader_form(b))


def ignores_missing_sentinels(record: Record) -> Output:
    out = _key(record["baseline"], record["proposed"], _exact)
    return {**out, "missing": [], "intact": not out["changed"]}


def walks_the_overlap(record: Record) -> Output:
    """Checks only the sentinels the proposed key still has, so an all-missing key looks intact."""
    shared = {s: a for s, a in record["baseline"].items() if s in record["proposed"]}
    return _key(shared, record["proposed"], _exact)


def flags_new_ids(record: Record) -> Output:
    out = _key(record["baseline"], record["proposed"], _exact)
    new = sorted_ids(i for i in record["proposed"] if i not in record["baseline"])
    changed = sorted_ids([*out["changed"], *new])
    return {**out, "changed": changed, "intact": not out["missing"] and not changed}


def empty_baseline_intact(record: Record) -> Output:
    return _key(record["baseline"], record["proposed"], _exact)


def accepts_rubric_changes(changes: Sequence[tuple[str, str]]) -> Callable[[Record], Output]:
    allowed = set(changes)
    return lambda record: _key(
        record["baseline"], record["proposed"], lambda a, b: a == b or (a, b) in allowed
    )


def one_fault_at_a_time(record: Record) -> Output:
    """Reports only the missing sentinels when some are missing, as if the changed ones could wait."""
    out = _key(record["baseline"], record["proposed"], _exact)
    return {**out, "changed": [] if out["missing"] else out["changed"]}


#: The check with each rule broken, by rule id; given the vocabulary, as two of them need it.
BROKEN: dict[str, Callable[[Vocabulary], Callable[[Record], Output]]] = {
    "ts-lost": lambda v: ignores_missing,
    "ts-added": lambda v: ignores_added,
    "ts-order": lambda v: in_order,
    "ts-duplicates": lambda v: counts_repeats,
    "ts-exact-ids": lambda v: loose_ids,
    "ts-empty": lambda v: empty_lists,
    "ts-several": lambda v: one_kind_at_a_time,
    "ts-unresolved": lambda v: ignores_unresolved,
    "ts-query-unvalidated": lambda v: reads_the_query(v.query_conditions),
    "sk-changed": lambda v: ignores_changed,
    "sk-whitespace-case": lambda v: trims_and_folds,
    "sk-invisible": lambda v: normalises,
    "sk-missing": lambda v: ignores_missing_sentinels,
    "sk-all-missing": lambda v: walks_the_overlap,
    "sk-new-case": lambda v: flags_new_ids,
    "sk-nonsentinel-changed": lambda v: flags_new_ids,
    "sk-empty-baseline": lambda v: empty_baseline_intact,
    "sk-rubric-change": lambda v: accepts_rubric_changes(v.rubric_changes),
    "sk-several": lambda v: one_fault_at_a_time,
}
