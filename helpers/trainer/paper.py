"""A check-out paper: the cases issued for one trainee with their key, and the paper read back.

* The paper holds only what a trainee may see: a neutral label per case
  ("Check-out case 7"), the check, the supplied input (and any context the
  case shows), the reason options in a shuffled order, and the next actions in
  a shuffled order. No rule id outside the options, no title, no seed, no
  expected output.
* A **sequential** key (the default; the proctored page sits it case by case) holds
  every case a sitting may serve: the covering cases (every rule once, every
  look-alike kind :data:`PER_GROUP` times, once on each check, interleaved), each
  rule's and kind's :data:`FOLLOW_UPS` follow-ups, and cases for more evidence; its
  labels are numbered in a shuffled order. A **fixed** paper (``sequential=False``,
  the trainee's own machine) is the covering cases, then cases round every rule.
  Seeds come from :data:`CHECKOUT_SEEDS`, ``[10**9, 2*10**9)``, disjoint from
  practice, whose case seeds are below 10**9 or from 2*10**9 on; look-alike letters
  are drawn as real data has them, by the generators' own weights
  (:data:`helpers.trainee.cases.lookalike_forms.HOMOGLYPH_WEIGHTS`), the same as in the drill.
* The key holds each case whole (input, expected output, keyed rule, the
  reasons the grader accepts, the keyed next action, seed), so grading never
  depends on the generators still making the same case
  (:mod:`helpers.trainer.answer_key` guards it). Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import random
import re
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckInputError, CheckoutFileError, describe_value
from helpers.trainee import grading
from helpers.trainee.cases import generators
from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.cases.deciding_rule import facets as deciding_kinds
from helpers.trainee.cases.practice_cases import PracticeCase
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.grading import decisive_rules
from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES, read_bounded
from helpers.trainer.checkout_format import KEY_FORMAT, PAPER_FORMAT, VERSION, parse_file, utc_now
from helpers.trainer.checkout_result import ACCURACY_BOUND, CONFIDENCE, CheckoutResult
from helpers.trainer.marking import grade_checkout
from helpers.trainer.next_actions import ACTIONS, keyed_action
from helpers.trainer.sequential import DESIGN

__all__ = [
    "CHECKOUT_SEEDS",
    "PER_GROUP",
    "DEFAULT_COUNT",
    "MAX_COUNT",
    "FOLLOW_UPS",
    "LOOKALIKE_RULES",
    "minimum_count",
    "Issued",
    "new_paper_id",
    "issue_checkout",
    "paper_from_bytes",
    "MAX_LISTED",
    "paper_files",
    "load_paper",
    "paper_case",
]

#: Check-out seeds: disjoint from practice, whose case seeds are below 10**9 or from 2*10**9 on
#: (:attr:`helpers.trainee.drill.mastery.Mastery.RESERVED_SEEDS`).
CHECKOUT_SEEDS = range(10**9, 2 * 10**9)
#: How many covering cases each look-alike kind has (once on each check); each rule has one at least.
PER_GROUP = 2
#: Cases a fixed paper (the trainee's own machine) has by default: as many as a sitting may serve at most.
DEFAULT_COUNT = DESIGN.max_cases
#: The most cases a paper may have.
MAX_COUNT = 200
#: Cases in each rule's and each look-alike kind's follow-up stream of a sequential key.
FOLLOW_UPS = 4
#: Rules whose cases turn on IDs or answers that look alike.
LOOKALIKE_RULES = frozenset({"ts-exact-ids", "sk-whitespace-case", "sk-invisible"})


def _facets(rule_id: str) -> list[str]:
    """The look-alike kinds the rule's generator can be asked for."""
    return list(generators.GENERATORS[rule_id].facets)


def _generate(rule_id: str, seed: int, facet: str | None) -> PracticeCase:
    return generators.generate(rule_id, seed, facet=facet)


def _makers(rules: Sequence[Rule]) -> tuple[list[str], dict[str, list[str]]]:
    """The rules a paper can draw from, and for each look-alike kind the rules that can make it."""
    ids = [r.id for r in rules if r.id in generators.GENERATORS]
    makers = {kind: [rule for rule in ids if kind in _facets(rule)] for kind in FACETS}
    # A rule made for fewer kinds first: the sentinel rules, then ts-exact-ids, so each kind is seen on both checks.
    return ids, {k: sorted(v, key=lambda r: (len(_facets(r)), ids.index(r))) for k, v in makers.items() if v}


def _covering(rules: Sequence[Rule]) -> list[tuple[str, str | None]]:
    """The covering cases: each look-alike kind :data:`PER_GROUP` times (once on each check), then each rule once."""
    ids, makers = _makers(rules)
    items: list[tuple[str, str | None]] = []
    for kind, makes in makers.items():
        items += [(makes[i % len(makes)], kind) for i in range(PER_GROUP)]
    counts = Counter(rule for rule, _ in items)
    for rule in ids:
        items += [(rule, None)] * max(0, 1 - counts[rule])
    return items


def minimum_count(rules: Sequence[Rule] | None = None) -> int:
    """The covering cases a sitting serves first: every rule once and every look-alike kind :data:`PER_GROUP` times."""
    return len(_covering(list(rules) if rules is not None else load_rules()))


def _plan(
    count: int | None, rng: random.Random, rules: Sequence[Rule], *, sequential: bool
) -> list[tuple[str, str, str | None]]:
    """Which (stream, rule, facet) each case of the key is made for.

    Every key starts with the covering cases, interleaved (stream ``cover``), then
    cases for more evidence going round every rule in a shuffled order (``more``).
    A sequential key adds, for each rule and each look-alike kind, :data:`FOLLOW_UPS`
    cases of it (``rule:ID``, ``kind:KIND``) that a miss on it brings; a fixed paper
    (the trainee's own machine) is the covering cases and ``more`` up to ``count``.
    """
    ids, makers = _makers(rules)
    plan = [("cover", rule, facet) for rule, facet in _interleave(_covering(rules), rng)]
    order = list(ids)
    rng.shuffle(order)
    if sequential:
        for rule in ids:
            plan += [(f"rule:{rule}", rule, None)] * FOLLOW_UPS
        for kind, makes in makers.items():
            plan += [(f"kind:{kind}", makes[i % len(makes)], kind) for i in range(FOLLOW_UPS)]
        extra = DESIGN.max_cases - len(_covering(rules))
    else:
        extra = (count or DESIGN.max_cases) - len(plan)
    if len(order) > 1 and order[0] == plan[-1][1]:
        order = order[1:] + order[:1]  # no rule twice in a row where the covering cases end
    plan += [("more", order[i % len(order)], None) for i in range(max(0, extra))]
    return plan


def _interleave(items: list[tuple[str, str | None]], rng: random.Random) -> list[tuple[str, str | None]]:
    """A random order with no rule twice in a row wherever the counts allow it."""
    rest = list(items)
    rng.shuffle(rest)
    out: list[tuple[str, str | None]] = []
    while rest:
        counts = Counter(rule for rule, _ in rest)
        last = out[-1][0] if out else None
        allowed = [i for i, (rule, _) in enumerate(rest) if rule != last] or list(range(len(rest)))
        top = max(counts[rest[i][0]] for i in allowed)
        if 2 * top > len(rest):  # one rule would otherwise be left to follow itself
            allowed = [i for i in allowed if counts[rest[i][0]] == top]
        out.append(rest.pop(rng.choice(allowed)))
    return out


def _reason_ids(case: PracticeCase, rules: Sequence[Rule], rng: random.Random) -> list[str]:
    """The reasons offered: the keyed rule among rules that don't apply, shuffled for this paper."""
    ids = [rule.id for rule in grading.reason_options(case, rules=rules)]
    rng.shuffle(ids)
    return ids


def _keyed_rule(case: PracticeCase, made_for: str) -> str:
    """The rule that decides the case (the generated case's first rule)."""
    right = decisive_rules(case)
    return right[0] if right else made_for


@dataclass(frozen=True)
class Issued:
    """A paper and its key, as JSON-ready objects. Taught in ``07_checkout.ipynb``."""

    paper: dict[str, Any]
    key: dict[str, Any]

    def grade(self, answers: Mapping[str, Any]) -> CheckoutResult:
        """Grade an answers object against this key, as :func:`grade_checkout` does (unsigned)."""
        return grade_checkout(answers, self.key)


def new_paper_id() -> str:
    """A fresh paper id from :mod:`secrets`, for a paper whose seed was chosen (a practice paper)."""
    return secrets.token_hex(8)


def issue_checkout(
    trainee: str,
    *,
    count: int | None = None,
    seed: int | None = None,
    rules: Sequence[Rule] | None = None,
    issued: str | None = None,
    paper_id: str | None = None,
    sequential: bool = True,
) -> Issued:
    """Make a check-out for ``trainee``: the paper and its key.

    A **sequential** key (the default; what the proctored page sits, case by case)
    holds every case a sitting may serve: the covering cases, each rule's and each
    look-alike kind's follow-ups, and cases for more evidence; which of them are
    served is decided by :mod:`helpers.trainer.sequential` as the sitting goes.
    Its labels are numbered in a shuffled order, so no label tells what it is for.
    With ``sequential=False`` it is a **fixed paper** of ``count`` cases (default
    :data:`DEFAULT_COUNT`, at least :func:`minimum_count`) for the trainee's own
    machine, graded by the same rule case by case in the paper's order.
    ``seed`` makes it reproducible (a fresh random one by default); it is kept in
    the key only. ``paper_id`` replaces the id made from the seed (:func:`new_paper_id`
    gives a fresh one: two papers from one seed must not share an id in the trainer's
    ledger). Taught in ``07_checkout.ipynb``.
    """
    if not isinstance(trainee, str) or not trainee.strip():
        raise CheckInputError("trainee must be a non-empty name", field="trainee")
    if any("\ud800" <= char <= "\udfff" for char in trainee):
        raise CheckInputError("trainee is not UTF-8 text (it holds a lone surrogate)", field="trainee")
    rules = list(rules) if rules is not None else load_rules()
    least = minimum_count(rules)
    if sequential and count is not None:
        raise CheckInputError(
            "count is for a fixed paper; a sequential sitting decides its own", field="count"
        )
    if not sequential:
        if count is None:
            count = max(DEFAULT_COUNT, least)
        if isinstance(count, bool) or not isinstance(count, int) or not least <= count <= MAX_COUNT:
            raise CheckInputError(
                f"count is {describe_value(count)}, expected {least} to {MAX_COUNT}: a paper needs at least "
                f"{least} cases to show every rule once and every look-alike kind {PER_GROUP} times",
                field="count",
            )
    if seed is None:
        seed = secrets.randbelow(2**63)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise CheckInputError(f"seed is {describe_value(seed)}, expected a whole number from 0", field="seed")
    by_id = {r.id: r for r in rules}
    rng = random.Random(f"checkout:{seed}")
    made_id = f"{rng.getrandbits(64):016x}"  # drawn whatever the id, so the seed makes the same cases
    if paper_id is None:
        paper_id = made_id
    elif not isinstance(paper_id, str) or not re.fullmatch(r"[0-9a-f]{16}", paper_id):
        raise CheckInputError(
            f"paper_id is {describe_value(paper_id)}, expected 16 hex digits", field="paper_id"
        )
    plan = _plan(count, rng, rules, sequential=sequential)
    case_seeds = rng.sample(CHECKOUT_SEEDS, len(plan))
    numbers = list(range(1, len(plan) + 1))
    if sequential:
        rng.shuffle(numbers)
    paper_cases, key_cases = [], []
    for number, (stream, rule_id, facet), case_seed in zip(numbers, plan, case_seeds, strict=True):
        case = _generate(rule_id, case_seed, facet)
        label = f"Check-out case {number}"
        local = random.Random(f"checkout:{seed}:{label}")
        options = _reason_ids(case, rules, local)
        actions = list(ACTIONS)
        local.shuffle(actions)
        keyed = _keyed_rule(case, rule_id)
        context = dict(getattr(case, "context", None) or {})
        kinds = set(deciding_kinds(case.check, case.input, context)) | ({facet} if facet else set())
        shown: dict[str, Any] = {"label": label, "check": case.check, "input": dict(case.input)}
        if context:
            shown["context"] = context
        shown["reason_options"] = [
            {"rule": r, "statement": by_id[r].statement if r in by_id else r} for r in options
        ]
        shown["actions"] = actions
        paper_cases.append((number, shown))
        key_cases.append(
            {
                "label": label,
                "check": case.check,
                "input": dict(case.input),
                "context": context,
                "expected": dict(case.expected),
                "rule": keyed,
                "reasons_accepted": list(decisive_rules(case)) or [keyed],
                "action": keyed_action(case, keyed),
                "lookalike": keyed in LOOKALIKE_RULES or bool(kinds),
                "lookalike_kinds": [k for k in FACETS if k in kinds],
                "made_for": rule_id,
                "facet": facet,
                "stream": stream,
                "seed": case_seed,
                "case_id": case.id,
                "title": case.title,
            }
        )
    when = issued or utc_now()
    paper = {
        "format": PAPER_FORMAT,
        "version": VERSION,
        "paper_id": paper_id,
        "trainee": trainee,
        "issued": when,
        "sequential": sequential,
        # A sequential paper lists its cases by label, so their order says nothing; the sitting picks.
        "cases": [shown for _n, shown in sorted(paper_cases, key=lambda item: item[0])],
    }
    key = {
        "format": KEY_FORMAT,
        "version": VERSION,
        "paper_id": paper_id,
        "trainee": trainee,
        "issued": when,
        "seed": seed,
        "sequential": sequential,
        "content_hash": generators.generators_fingerprint(),
        "verdict_rule": {
            "confidence": CONFIDENCE,
            "accuracy_bound": ACCURACY_BOUND,
            "rules": [r.id for r in rules if r.id in generators.GENERATORS],
            "lookalike_kinds": list(_makers(rules)[1]),
            "design": DESIGN.to_data(),
        },
        "cases": sorted(key_cases, key=lambda record: int(str(record["label"]).rsplit(" ", 1)[1])),
    }
    return Issued(paper, key)


def paper_from_bytes(raw: bytes, *, source: str, max_bytes: int = MAX_CHECKOUT_BYTES) -> dict[str, Any]:
    """A check-out paper read strictly from its bytes (an uploaded file), as :func:`load_paper` reads one.

    Raises :class:`~helpers.core.errors.CheckoutFileError` naming ``source`` and the field.
    Taught in ``07_checkout.ipynb``.
    """
    if len(raw) > max_bytes:
        raise CheckoutFileError(
            f"is {len(raw):,} bytes, over the {max_bytes // 2**20} MB limit for a check-out file", path=source
        )
    paper = parse_file(raw, PAPER_FORMAT, source)
    labels = [case["label"] for case in paper["cases"]]
    if len(set(labels)) != len(labels):
        raise CheckoutFileError("two cases share one label", path=source)
    return paper


#: The most files :func:`paper_files` looks at in one folder.
MAX_LISTED = 200


def paper_files(folder: str | Path) -> list[tuple[Path, dict[str, Any]]]:
    """The check-out papers in ``folder``: each ``*.json`` there that reads as a paper, by name.

    Keys, answers, results and any other file that is not a paper are left out of the list (each
    is still refused with its reason when opened by name). At most :data:`MAX_LISTED` files are
    looked at; a folder that cannot be listed lists nothing. Taught in ``07_checkout.ipynb``.
    """
    try:
        names = sorted(Path(folder).glob("*.json"))[:MAX_LISTED]
    except OSError:
        return []
    found = []
    for path in names:
        try:
            found.append((path, load_paper(path)))
        except CheckoutFileError:
            continue  # not a paper: the list shows papers only
    return found


def load_paper(path: str | Path) -> dict[str, Any]:
    """Read a check-out paper strictly (:func:`paper_from_bytes`). Taught in ``07_checkout.ipynb``."""
    return paper_from_bytes(read_bounded(path, limit=MAX_CHECKOUT_BYTES), source=str(path))


def paper_case(case: Mapping[str, Any]) -> PracticeCase:
    """A paper's case as a case object with no answer in it (for the IDs to offer and the input shown)."""
    return PracticeCase(
        check=case["check"],
        id=case["label"],
        title="",
        input=case["input"],
        expected={},
        decision="",
        reason="",
    )
