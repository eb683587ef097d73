"""The check-out: an unaided paper of generated cases, its guarded answer key, and grading.

A trainer issues a **paper** for one trainee and keeps its **key**:

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
  depends on the generators still making the same case. It is an answer key,
  so it is guarded the way the project guards its own worked answers: a
  baseline beside it (``KEY.baseline.json``, written through
  :func:`helpers.core.baselines.revise_baseline`) maps each label to a digest of
  its case, and grading runs :func:`helpers.core.sentinels.check_sentinels` over
  it; a changed, missing or extra entry refuses the key.

Each case asks for the output (the drill's :class:`~helpers.trainee.grading.Answer`
fields), the reason and the next action. A check-out **passes** by the sequential rule
(:mod:`helpers.trainer.sequential`): the evidence for right 95% of the time against 85%
reaches its pass boundary with every rule and look-alike kind seen and cleared. Grading replays
the sitting's schedule from the key, so the cases counted are those a sitting serves.

The result states in words what it proves (the simulated operating characteristic), with the
number of cases and the evidence per rule and per kind.

A trainee with a live kernel can compute any check: the check-out measures
their own reading, on their honour. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as _dt
import functools
import hashlib
import io
import json
import math
import os
import random
import re
import secrets
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from helpers.core.baselines import baseline_from_data, revise_baseline
from helpers.core.chardiff import visible_text
from helpers.core.errors import CheckInputError, CheckoutFileError, JSONLoadError, describe_value
from helpers.core.files import PendingFile, write_atomically
from helpers.core.jsonio import dumps_compact, loads_document
from helpers.core.paths import fixtures_dir
from helpers.core.sentinels import check_sentinels
from helpers.trainee import grading
from helpers.trainee.cases import generators
from helpers.trainee.cases.deciding_rule import FACETS, approved_change, unapproved_faults
from helpers.trainee.cases.deciding_rule import facets as deciding_kinds
from helpers.trainee.cases.filled import spreadsheet_safe
from helpers.trainee.cases.practice_cases import PracticeCase
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.confidence import accuracy_lower_bound
from helpers.trainee.grading import Answer, answer_fields, decisive_rules
from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES, read_bounded
from helpers.trainer.file_schemas import check_schema, schema_problem
from helpers.trainer.sequential import DESIGN, Schedule, Slot, operating_characteristic_words

__all__ = [
    "CHECKOUT_SEEDS",
    "ACTIONS",
    "CONFIDENCE",
    "ACCURACY_BOUND",
    "PER_GROUP",
    "DEFAULT_COUNT",
    "MAX_COUNT",
    "PAPER_FORMAT",
    "KEY_FORMAT",
    "ANSWERS_FORMAT",
    "RESULT_FORMAT",
    "Issued",
    "CaseVerdict",
    "CheckoutResult",
    "SignedCheckoutResult",
    "issue_checkout",
    "minimum_count",
    "keyed_action",
    "key_baseline_path",
    "new_paper_id",
    "key_digests",
    "verify_key",
    "write_checkout",
    "load_paper",
    "paper_from_bytes",
    "paper_files",
    "answers_file_name",
    "load_key",
    "answers_data",
    "write_answers",
    "grade_checkout",
    "grade_files",
    "result_text",
    "result_csv",
    "load_result",
    "paper_case",
    "key_case",
    "CheckoutSitting",
    "sample_paper_path",
]

#: Check-out seeds: disjoint from practice, whose case seeds are below 10**9 or from 2*10**9 on
#: (:attr:`helpers.trainee.drill.mastery.Mastery.RESERVED_SEEDS`).
CHECKOUT_SEEDS = range(10**9, 2 * 10**9)
#: The next actions a check-out case offers; the key holds one of them.
ACTIONS: tuple[str, ...] = (
    "repair the target list",
    "hold for staff labels",
    "hold the key before scoring",
    "accept",
    "issue a new baseline with the old one kept",
    "hold the key, and issue a new baseline with the old one kept for the approved change only",
)
#: The confidence with which a pass proves its accuracy bound (one-sided).
CONFIDENCE = 0.95
#: The accuracy a pass proves at least, with :data:`CONFIDENCE` confidence: cases fully correct
#: (output, reason and next action) as a share of all cases.
ACCURACY_BOUND = 0.85
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

PAPER_FORMAT = "eval-integrity-checkout-paper"
KEY_FORMAT = "eval-integrity-checkout-key"
ANSWERS_FORMAT = "eval-integrity-checkout-answers"
RESULT_FORMAT = "eval-integrity-checkout-result"
VERSION = 1
#: The baseline entry that guards the key's own fields (trainee, paper id, seed, …).
_HEADER = "(key)"


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def sample_paper_path() -> Path:
    """``fixtures/checkout/sample-paper.json``: a committed sample paper (its key beside it)."""
    return fixtures_dir() / "checkout" / "sample-paper.json"


def keyed_action(case: Any, keyed_rule: str) -> str:
    """The next action a case calls for, from its expected output and keyed rule.

    A change a rubric revision approves exactly calls for a new baseline (old
    one kept) when it is the key's only fault, and for holding the key and a new
    baseline for that change alone when another sentinel is missing or changed
    with no such revision (:func:`~helpers.trainee.cases.deciding_rule.approved_change`);
    an unresolved target for staff labels; a refused empty baseline for holding
    the key (nothing can be scored until the sentinel baseline is supplied); a
    preserved scope or an intact key for accepting; else repairing the target
    list or holding the key before scoring. ``keyed_rule`` is the case's keyed
    rule, which agrees with the revision's part. Taught in ``07_checkout.ipynb``.
    """
    expected = case.expected
    record = getattr(case, "input", None)
    context = getattr(case, "context", None) or {}
    if (
        case.check == "sentinels"
        and isinstance(record, Mapping)
        and approved_change(record, context) is not None
    ):
        missing, changed = unapproved_faults(record, context)
        return ACTIONS[5] if missing or changed else ACTIONS[4]
    if keyed_rule == "sk-rubric-change":
        return ACTIONS[4]
    if "held" in expected:
        return ACTIONS[1]
    if "error" in expected:
        return ACTIONS[2]
    if case.check == "target-scope":
        return ACTIONS[3] if expected.get("preserved") else ACTIONS[0]
    return ACTIONS[3] if expected.get("intact") else ACTIONS[2]


# --- building a paper -------------------------------------------------------------------


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


def _has_lookalikes(case: Any) -> bool:
    ids = grading.candidate_ids(case)
    folded = [_looks(i) for i in ids]
    if len(set(folded)) < len(folded):
        return True
    if case.check == "sentinels":
        base, prop = case.input.get("baseline") or {}, case.input.get("proposed") or {}
        if isinstance(base, Mapping) and isinstance(prop, Mapping):
            return any(
                k in prop and prop[k] != v and _looks(str(prop[k])) == _looks(str(v)) for k, v in base.items()
            )
    return False


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
                "lookalike": keyed in LOOKALIKE_RULES or _has_lookalikes(case) or bool(kinds),
                "lookalike_kinds": [k for k in FACETS if k in kinds],
                "made_for": rule_id,
                "facet": facet,
                "stream": stream,
                "seed": case_seed,
                "case_id": case.id,
                "title": case.title,
            }
        )
    when = issued or _now()
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


# --- the key and its baseline ---------------------------------------------------------------


def _digest(value: Any) -> str:
    return hashlib.sha256(dumps_compact(value).encode("utf-8")).hexdigest()


def key_digests(key: Mapping[str, Any]) -> dict[str, str]:
    """Each case label's digest, and the key's own fields under ``"(key)"``: the key as a sentinel answer key."""
    header = {k: v for k, v in key.items() if k not in ("cases", "signature")}
    found = {_HEADER: _digest(header)}
    for case in key.get("cases") or []:
        label = case.get("label") if isinstance(case, Mapping) else None
        if not isinstance(label, str) or label in found:
            raise CheckoutFileError(
                f"has a case with the label {describe_value(label)}, expected distinct labels", path="key"
            )
        found[label] = _digest(case)
    return found


def key_baseline_path(key_path: str | Path) -> Path:
    """``EXAM.key.json`` → ``EXAM.key.baseline.json``: where the key's baseline lives."""
    path = Path(key_path)
    stem = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
    return path.with_name(f"{stem}.baseline.json")


def verify_key(key: Mapping[str, Any], baseline_answers: Mapping[str, str], *, source: str = "key") -> None:
    """Refuse a key that does not match its baseline: a changed, missing or extra entry.

    Runs the project's own sentinel check, with the baseline's digests as sentinels.
    Raises :class:`~helpers.core.errors.CheckoutFileError`. Taught in ``07_checkout.ipynb``.
    """
    try:
        current = key_digests(key)
    except CheckoutFileError as exc:
        raise CheckoutFileError(exc.message, path=source) from None
    try:
        result = check_sentinels(baseline_answers, current)
    except CheckInputError as exc:
        raise CheckoutFileError(f"its baseline cannot be used: {exc.message}", path=source) from None
    extra = sorted(set(current) - set(baseline_answers))
    problems = []
    if result.changed:
        problems.append("changed since it was issued: " + ", ".join(result.changed))
    if result.missing:
        problems.append("missing from the key: " + ", ".join(result.missing))
    if extra:
        problems.append("not in its baseline: " + ", ".join(extra))
    if problems:
        raise CheckoutFileError(
            "does not match its baseline, so it is not graded (" + "; ".join(problems) + ")", path=source
        )


def _stage(path: Path, text: str, *, mode: int | None = None) -> PendingFile:
    """``text`` written in full to a temporary file beside ``path``, ready to take its place."""
    pending = PendingFile(path, mode=mode)
    try:
        pending.write(text.encode("utf-8"), sync=True)
    except OSError:
        pending.abort()
        raise
    return pending


def _refuse_existing(paths: Sequence[Path]) -> None:
    for path in paths:
        if path.exists() or path.is_symlink():
            raise CheckoutFileError(
                "already exists; nothing was written (use --force to replace it)", path=str(path)
            )


def _beside_the_secret(trainer: Any, paths: Sequence[Path]) -> None:
    """Refuse a paper or key written into the trainer's folder, where the secret lives."""
    folder = Path(os.path.abspath(trainer.folder))
    for path in paths:
        if Path(os.path.abspath(path)).parent == folder:
            raise CheckoutFileError(
                "is in the trainer's folder, beside the trainer's secret; write papers and keys elsewhere",
                path=str(path),
            )


def write_checkout(
    issued: Issued,
    paper_path: str | Path,
    key_path: str | Path | None = None,
    *,
    force: bool = False,
    trainer: Any = None,
    practice: bool = False,
    proctored: bool = False,
    cooldown_hours: float | None = None,
) -> tuple[Path, Path, Path]:
    """Write the paper, the key (default ``PAPER.key.json`` beside it) and the key's baseline.

    An existing file is never replaced unless ``force``; a replaced baseline's
    earlier version is kept under ``retained/`` beside it. The three are written
    whole or not at all: each is written in full beside its place first, and if
    one cannot take its place the others are removed again, so a retry is never
    blocked by a half-issued paper. Returns the three paths.

    With ``trainer`` (a :class:`helpers.trainer.secret.TrainerSecret`) the key and its
    baseline are signed, the paper is entered in the trainer's ledger
    (:mod:`helpers.trainer.ledger`, which may refuse it within a cooldown), and
    ``practice`` (a paper from a chosen seed) and ``proctored`` are recorded in the
    key, the paper and the ledger. Taught in ``07_checkout.ipynb``.
    """
    from helpers.trainer.ledger import COOLDOWN_HOURS, Ledger

    paper_path = Path(paper_path)
    if key_path is None:
        stem = paper_path.name[: -len(".json")] if paper_path.name.endswith(".json") else paper_path.name
        key_path = paper_path.with_name(f"{stem}.key.json")
    key_path = Path(key_path)
    baseline_path = key_baseline_path(key_path)
    names = {paper_path.resolve(), key_path.resolve(), baseline_path.resolve()}
    if len(names) < 3:
        raise CheckoutFileError(
            "the paper, key and baseline must be three different files", path=str(paper_path)
        )
    if not force:
        _refuse_existing((paper_path, key_path, baseline_path))
    paper, key = dict(issued.paper), dict(issued.key)
    if trainer is not None:
        _beside_the_secret(trainer, (paper_path, key_path))
        paper.update(practice=practice, proctored=proctored)
        key.update(practice=practice, proctored=proctored)
        key["signature"] = trainer.sign_with("key", key, key_digests(key))
    ledger = Ledger(trainer) if trainer is not None else None
    with contextlib.ExitStack() as stack:
        if ledger is not None:
            state = stack.enter_context(ledger.locked())
            Ledger.check_issue(
                state,
                str(key["trainee"]),
                practice=practice,
                cooldown_hours=COOLDOWN_HOURS if cooldown_hours is None else cooldown_hours,
            )
            if key["paper_id"] in state.issued:  # one paper id, one paper: else the first cannot be graded
                raise CheckInputError(
                    f"paper id {key['paper_id']} is in the ledger already (issued "
                    f"{state.issued[key['paper_id']].issued}); a paper from a chosen seed needs an id of its "
                    "own (issue_checkout(..., paper_id=new_paper_id()))",
                    field="paper_id",
                )
        placed: list[Path] = []
        staged: list[PendingFile] = []
        current = baseline_path
        try:
            # The key is the trainer's alone: owner-only, wherever the paper beside it is put.
            staged.append(_stage(key_path, json.dumps(key, ensure_ascii=False, indent=1) + "\n", mode=0o600))
            staged.append(  # a proctored paper lives in the trainer's folder: owner-only too
                _stage(
                    paper_path,
                    json.dumps(paper, ensure_ascii=False, indent=1) + "\n",
                    mode=0o600 if proctored else None,
                )
            )
            had_baseline = os.path.lexists(baseline_path)
            revise_baseline(
                baseline_path,
                key_digests(key),
                reason=f"check-out key {key['paper_id']} issued for {key['trainee']}",
                retained_dir=baseline_path.parent / "retained",
                revised_on=key["issued"][:10],
                mode=0o600,  # the key's digests: the trainer's, like the key
            )
            if not had_baseline:
                placed.append(baseline_path)
            for pending, path in zip(staged, (key_path, paper_path), strict=True):
                current, existed = path, os.path.lexists(path)
                pending.commit(replace=force)
                if not existed:
                    placed.append(path)
            if ledger is not None:
                ledger.append(
                    {
                        "event": "issued",
                        "trainee": key["trainee"],
                        "paper_id": key["paper_id"],
                        "issued": key["issued"],
                        "key_digest": _digest({k: v for k, v in key.items() if k != "signature"}),
                        "practice": practice,
                        "proctored": proctored,
                    }
                )
        except FileExistsError:
            _undo(staged, placed)
            raise CheckoutFileError(
                "already exists; nothing was written (use --force to replace it)", path=str(current)
            ) from None
        except OSError as exc:
            _undo(staged, placed)
            raise CheckoutFileError(
                f"cannot be written ({exc.strerror or type(exc).__name__}); nothing was left behind",
                path=str(paper_path),
            ) from None
        except CheckInputError as exc:
            _undo(staged, placed)
            raise CheckoutFileError(exc.message, path=str(baseline_path)) from None
        except BaseException:
            _undo(staged, placed)
            raise
    return paper_path, key_path, baseline_path


def _undo(staged: Sequence[PendingFile], placed: Sequence[Path]) -> None:
    """Remove what a failed :func:`write_checkout` wrote, so a retry starts clean."""
    for pending in staged:
        pending.abort()
    for path in placed:
        with contextlib.suppress(OSError):
            path.unlink()


#: Each check-out file's schema (:mod:`helpers.trainer.file_schemas`), by its ``format``.
_SCHEMA_OF = {PAPER_FORMAT: "paper", KEY_FORMAT: "key", ANSWERS_FORMAT: "answers", RESULT_FORMAT: "result"}


def _read(
    path: str | Path, fmt: str, max_bytes: int = MAX_CHECKOUT_BYTES, *, signed: bool = False
) -> dict[str, Any]:
    return _parsed(read_bounded(path, limit=max_bytes), fmt, str(path), signed=signed)


def _parsed(raw: bytes, fmt: str, source: str, *, signed: bool = False) -> dict[str, Any]:
    """A check-out file's bytes read strictly: JSON, of this ``fmt`` and version, as its schema
    describes it; else CheckoutFileError naming the field. ``signed``: its schema is left to
    :func:`_signed_shape`, so a file not signed by the trainer is refused for that first."""
    try:
        data = loads_document(raw, source=source)
    except JSONLoadError as exc:
        raise CheckoutFileError(exc.detail, path=source) from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise CheckoutFileError(
            f'is not a check-out file of this kind (it has no "format": "{fmt}")', path=source
        )
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise CheckoutFileError(
            f"has version {describe_value(data.get('version'))}; these helpers read version {VERSION}",
            path=source,
        )
    if not signed:
        check_schema(_SCHEMA_OF[fmt], data, source=source)
    return data


def _signed_shape(fmt: str, data: dict[str, Any], source: str, trainer: Any, extra: Any = None) -> None:
    """Refuse a signed file (key, result) its schema refuses; with ``trainer``, one it did not sign first."""
    problem = schema_problem(_SCHEMA_OF[fmt], data)
    if problem is None:
        return
    if trainer is not None:
        body = {k: v for k, v in data.items() if k != "signature"}
        kind = "key" if fmt == KEY_FORMAT else "result"
        trainer.verify(kind, body, data.get("signature"), source=source, extra=extra)
    raise CheckoutFileError(problem, path=source)


def paper_from_bytes(raw: bytes, *, source: str, max_bytes: int = MAX_CHECKOUT_BYTES) -> dict[str, Any]:
    """A check-out paper read strictly from its bytes (an uploaded file), as :func:`load_paper` reads one.

    Raises :class:`~helpers.core.errors.CheckoutFileError` naming ``source`` and the field.
    Taught in ``07_checkout.ipynb``.
    """
    if len(raw) > max_bytes:
        raise CheckoutFileError(
            f"is {len(raw):,} bytes, over the {max_bytes // 2**20} MB limit for a check-out file", path=source
        )
    paper = _parsed(raw, PAPER_FORMAT, source)
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


def answers_file_name(paper: Mapping[str, Any]) -> str:
    """The answers file a paper's answers are saved as by default: ``answers-PAPER_ID.json``."""
    paper_id = "".join(
        c for c in str(paper.get("paper_id", "")) if c.isascii() and (c.isalnum() or c in "-_")
    )
    return f"answers-{paper_id[:40] or 'paper'}.json"


def load_paper(path: str | Path) -> dict[str, Any]:
    """Read a check-out paper strictly (:func:`paper_from_bytes`). Taught in ``07_checkout.ipynb``."""
    return paper_from_bytes(read_bounded(path, limit=MAX_CHECKOUT_BYTES), source=str(path))


def load_key(
    path: str | Path,
    baseline: str | Path | None = None,
    *,
    trainer: Any = None,
    max_bytes: int = MAX_CHECKOUT_BYTES,
) -> dict[str, Any]:
    """Read a key and refuse it unless it matches its baseline (default ``KEY.baseline.json``).

    With ``trainer`` (a :class:`helpers.trainer.secret.TrainerSecret`) the key must also
    carry that trainer's signature over itself and its baseline, so a key edited with a
    re-made baseline is refused. The key is returned without its signature.
    """
    key = _read(path, KEY_FORMAT, max_bytes, signed=True)
    baseline_path = Path(baseline) if baseline is not None else key_baseline_path(path)
    if not os.path.lexists(baseline_path):
        raise CheckoutFileError(
            f"has no baseline at {baseline_path}, so it cannot be trusted and is not graded", path=str(path)
        )
    try:
        answers = baseline_from_data(
            loads_document(
                read_bounded(baseline_path, limit=max_bytes, what="a baseline"), source=str(baseline_path)
            ),
            where=str(baseline_path),
        ).answers
    except CheckoutFileError as exc:
        raise CheckoutFileError(f"its baseline cannot be read: {exc}", path=str(path)) from None
    except CheckInputError as exc:
        raise CheckoutFileError(f"its baseline cannot be read: {exc.message}", path=str(path)) from None
    _signed_shape(KEY_FORMAT, key, str(path), trainer, dict(answers))
    verify_key(key, answers, source=str(path))
    signature = key.pop("signature", None)
    if trainer is not None:
        trainer.verify("key", key, signature, source=str(path), extra=dict(answers))
    return key


# --- answers -------------------------------------------------------------------------------


def answers_data(
    paper: Mapping[str, Any], answers: Mapping[str, tuple[Answer, str | None]]
) -> dict[str, Any]:
    """An answers file's object: for each label answered, the output fields, reason and next action."""
    rows = []
    for case in paper["cases"]:
        label = case["label"]
        if label not in answers:
            continue
        answer, action = answers[label]
        first, second, flag = answer_fields(case["check"])
        rows.append(
            {
                "label": label,
                first: sorted(answer.missing),
                second: sorted(answer.second),
                flag: answer.flag,
                "hold": answer.hold,
                "reason": answer.reason,
                "action": action,
            }
        )
    return {
        "format": ANSWERS_FORMAT,
        "version": VERSION,
        "paper_id": paper["paper_id"],
        "trainee": paper["trainee"],
        "submitted": _now(),
        "answers": rows,
    }


def write_answers(
    data: Mapping[str, Any], path: str | Path, *, overwrite: bool = False, mode: int | None = None
) -> Path:
    """Write an answers file atomically; an existing file is replaced only with ``overwrite``.

    ``mode`` sets its permissions whatever the umask (owner-only in the trainer's folder).
    """
    path = Path(path)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    try:
        if overwrite:
            return write_atomically(path, text, mode=mode)
        return write_atomically(path, text, replace=False, mode=mode)
    except FileExistsError:
        raise CheckoutFileError(
            "already exists; nothing was written (choose another name, or overwrite it on purpose)",
            path=str(path),
        ) from None
    except OSError as exc:
        raise CheckoutFileError(f"cannot be written ({exc.strerror})", path=str(path)) from None


def _parse_answer(raw: Mapping[str, Any], check: str, where: str, source: str) -> tuple[Answer, str | None]:
    """One answers row (its types already checked by the answers schema) with the fields its case's check needs."""
    first, second, flag = answer_fields(check)
    expected = {"label", first, second, flag, "hold", "reason", "action"}
    if not expected <= set(raw) <= expected | {"seconds"}:
        raise CheckoutFileError(f"{where} must have the fields {sorted(expected)} (and seconds)", path=source)
    seconds = raw.get("seconds", 0)
    if not math.isfinite(seconds):  # NaN passes every comparison a schema makes
        raise CheckoutFileError(
            f"{where}.seconds is {describe_value(seconds)}, expected a number of seconds", path=source
        )
    answer = Answer(
        check,
        missing=frozenset(raw[first]),
        second=frozenset(raw[second]),
        flag=raw[flag],
        hold=raw["hold"],
        reason=raw["reason"],
    )
    return answer, raw["action"]


# --- grading -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseVerdict:
    """One case graded: fully correct or not, each field's verdict, the rules missed, its look-alike kinds."""

    label: str
    rule: str
    lookalike: bool
    answered: bool
    fields: dict[str, bool]
    rules_missed: tuple[str, ...]
    kinds: tuple[str, ...] = ()

    @property
    def correct(self) -> bool:
        """True when the case was answered and every field is right."""
        return self.answered and all(self.fields.values())


def _floor2(value: float) -> str:
    """``value`` rounded down to two places: a bound is never shown higher than it is."""
    return f"{math.floor(value * 100 + 1e-9) / 100:.2f}"


@dataclass(frozen=True)
class CheckoutResult:
    """A graded check-out: the cases served, verdicts per case, field, rule and look-alike kind, what a pass proves.

    :attr:`decision` is the sequential rule's (:mod:`helpers.trainer.sequential`): the
    evidence reached the pass boundary with every rule in :attr:`rules_covered` and every
    kind in :attr:`kinds_covered` seen and cleared, or it did not. The accuracy bound the
    cases prove (exact Clopper–Pearson) is kept beside it as evidence. Taught in ``07_checkout.ipynb``.
    """

    trainee: str
    paper_id: str
    key_digest: str
    cases: tuple[CaseVerdict, ...]
    rules_covered: tuple[str, ...] = ()
    kinds_covered: tuple[str, ...] = ()
    confidence: float = CONFIDENCE
    accuracy_bound: float = ACCURACY_BOUND
    graded: str = field(default_factory=_now)
    decision: str = "failed"
    why: str = ""
    evidence: float = 0.0
    sequential: bool = True
    max_cases: int = DESIGN.max_cases
    too_fast: str = ""

    @property
    def fully_correct(self) -> int:
        """How many cases are fully correct."""
        return sum(c.correct for c in self.cases)

    @property
    def lookalikes(self) -> tuple[int, int]:
        """(look-alike cases fully correct, look-alike cases)."""
        items = [c for c in self.cases if c.lookalike]
        return sum(c.correct for c in items), len(items)

    @functools.cached_property
    def accuracy_lower_bound(self) -> float:
        """The accuracy the cases fully correct prove with :attr:`confidence` (0 for an empty paper)."""
        if not self.cases:
            return 0.0
        return accuracy_lower_bound(self.fully_correct, len(self.cases), self.confidence)

    def per_rule(self) -> dict[str, tuple[int, int]]:
        """For each keyed rule: (cases fully correct, cases); a covered rule not on the paper has (0, 0)."""
        counts: dict[str, list[int]] = {rule: [0, 0] for rule in self.rules_covered}
        for case in self.cases:
            entry = counts.setdefault(case.rule, [0, 0])
            entry[0] += case.correct
            entry[1] += 1
        return {rule: (right, total) for rule, (right, total) in counts.items()}

    def per_kind(self) -> dict[str, tuple[int, int]]:
        """For each look-alike kind: (cases that turn on it fully correct, cases that turn on it)."""
        counts: dict[str, list[int]] = {kind: [0, 0] for kind in self.kinds_covered}
        for case in self.cases:
            for kind in case.kinds:
                entry = counts.setdefault(kind, [0, 0])
                entry[0] += case.correct
                entry[1] += 1
        ordered = [k for k in FACETS if k in counts] + sorted(k for k in counts if k not in FACETS)
        return {kind: (counts[kind][0], counts[kind][1]) for kind in ordered}

    def never_right(self) -> dict[str, list[str]]:
        """The rules and kinds on the paper with every case wrong, and those it was meant to show but lacks."""
        rules, kinds = self.per_rule(), self.per_kind()
        return {
            "rules_never_right": [r for r, (ok, n) in rules.items() if n and not ok],
            "kinds_never_right": [k for k, (ok, n) in kinds.items() if n and not ok],
            "not_on_paper": [r for r, (_ok, n) in rules.items() if not n]
            + [k for k, (_ok, n) in kinds.items() if not n],
        }

    @property
    def accuracy_proved(self) -> bool:
        """True when the accuracy bound is at least :attr:`accuracy_bound`."""
        return bool(self.cases) and self.accuracy_lower_bound >= self.accuracy_bound

    @property
    def passed(self) -> bool:
        """The sequential rule's verdict: passed."""
        return self.decision == "passed"

    @property
    def threshold(self) -> str:
        """The pass rule in words."""
        design = DESIGN
        return (
            f"a sequential test of right {design.p1:.0%} of the time against {design.p0:.0%} (Wald's SPRT, "
            f"nominal errors {design.alpha:g} and {design.beta:g}, at most {self.max_cases} cases): it passes "
            "when the evidence reaches the pass boundary with every rule seen and cleared once and every "
            f"look-alike kind twice, a miss on either bringing another case of it"
        )

    def evidence_lines(self) -> list[str]:
        """The per-rule and per-kind evidence in one line each."""
        rules = ", ".join(f"{r} {ok}/{n}" for r, (ok, n) in self.per_rule().items())
        kinds = ", ".join(f"{k} {ok}/{n}" for k, (ok, n) in self.per_kind().items())
        return [f"per rule (right/served): {rules}", f"per look-alike kind (right/served): {kinds}"]

    def statement(self) -> str:
        """What the check-out proves, in words a trainer can repeat: the operating characteristic, the cases, the why."""
        right, total = self.fully_correct, len(self.cases)
        head = (
            f"Passed after {total} cases ({right} fully correct)"
            if self.passed
            else f"Not passed after {total} cases ({right} fully correct)"
        )
        bound = f"they prove accuracy at least {_floor2(self.accuracy_lower_bound)} with 95% confidence"
        why = f": {self.why}" if self.why else ""
        fast = f" Flagged: answered faster than a person reads ({self.too_fast})." if self.too_fast else ""
        return f"{head}{why}; {bound}.{fast} {operating_characteristic_words()}"

    def per_field(self) -> dict[str, tuple[int, int]]:
        """For each field: (cases where it is right, cases that ask it)."""
        counts: dict[str, list[int]] = {}
        for case in self.cases:
            for name, ok in case.fields.items():
                entry = counts.setdefault(name, [0, 0])
                entry[0] += ok and case.answered
                entry[1] += 1
        return {name: (right, total) for name, (right, total) in counts.items()}

    def to_data(self) -> dict[str, Any]:
        """The graded result as JSON (what ``checkout grade --json`` prints, and ``cohort --checkouts`` reads)."""
        right, total = self.lookalikes
        return {
            "format": RESULT_FORMAT,
            "version": VERSION,
            "trainee": self.trainee,
            "paper_id": self.paper_id,
            "key_digest": self.key_digest,
            "graded": self.graded,
            "passed": self.passed,
            "decision": self.decision,
            "why": self.why,
            "statement": self.statement(),
            "operating_characteristic": operating_characteristic_words(),
            "design": DESIGN.to_data(),
            "sequential": self.sequential,
            "evidence": self.evidence,
            "too_fast": self.too_fast,
            "threshold": self.threshold,
            "confidence": self.confidence,
            "accuracy_bound": self.accuracy_bound,
            "accuracy_lower_bound": round(self.accuracy_lower_bound, 6),
            "fully_correct": self.fully_correct,
            "cases_total": len(self.cases),
            "lookalike_correct": right,
            "lookalike_total": total,
            **self.never_right(),
            "per_field": {k: list(v) for k, v in self.per_field().items()},
            "per_rule": {k: list(v) for k, v in self.per_rule().items()},
            "per_kind": {k: list(v) for k, v in self.per_kind().items()},
            "cases": [
                {
                    "label": c.label,
                    "rule": c.rule,
                    "lookalike": c.lookalike,
                    "lookalike_kinds": list(c.kinds),
                    "answered": c.answered,
                    "correct": c.correct,
                    "fields": c.fields,
                    "rules_missed": list(c.rules_missed),
                }
                for c in self.cases
            ],
        }


def key_case(record: Mapping[str, Any]) -> PracticeCase:
    """A key's case as a case object, its expected output and accepted reasons in it."""
    return _case(record)


def _case(record: Mapping[str, Any]) -> PracticeCase:
    return PracticeCase(
        check=record["check"],
        id=record.get("case_id", record["label"]),
        title=record.get("title", ""),
        input=record["input"],
        expected=record["expected"],
        decision="",
        reason="",
        rules=tuple(record["reasons_accepted"]),
    )


def _field_names(check: str) -> tuple[str, ...]:
    first, second, flag = answer_fields(check)
    return (first, second, flag, "held" if check == "target-scope" else "refused", "reason", "action")


def grade_checkout(
    answers: Mapping[str, Any], key: Mapping[str, Any], *, source: str = "answers"
) -> CheckoutResult:
    """Grade an answers object against a verified key; an unanswered case is wrong in every field.

    Raises :class:`~helpers.core.errors.CheckoutFileError` when the answers are
    not for this paper or are malformed. Taught in ``07_checkout.ipynb``.
    """
    if not isinstance(answers, Mapping) or answers.get("format") != ANSWERS_FORMAT:
        raise CheckoutFileError(
            f'is not a check-out answers file (it has no "format": "{ANSWERS_FORMAT}")', path=source
        )
    check_schema("answers", answers, source=source)
    if answers.get("paper_id") != key.get("paper_id"):
        raise CheckoutFileError(
            f"answers paper {describe_value(answers.get('paper_id'))}, but the key is for paper "
            f"{describe_value(key.get('paper_id'))}",
            path=source,
        )
    records = {c["label"]: c for c in key["cases"]}
    given: dict[str, tuple[Answer, str | None]] = {}
    seconds: dict[str, float] = {}
    for index, raw in enumerate(answers["answers"]):
        label = raw["label"]
        where = f"answers[{index}]"
        if label not in records:
            raise CheckoutFileError(
                f"{where}.label is {describe_value(label)}, not a case of this paper", path=source
            )
        if label in given:
            raise CheckoutFileError(f"{where}: {label} is answered twice", path=source)
        given[label] = _parse_answer(raw, records[label]["check"], where, source)
        if "seconds" in raw:
            seconds[label] = float(raw["seconds"])
    schedule = key_schedule(key)
    verdicts = []
    while (label := schedule.next_label()) is not None:
        record = records[label]
        if label not in given and schedule.adaptive:
            break  # the sitting stopped here: what it proved so far is the verdict
        verdict = verdict_of(record, given.get(label))
        verdicts.append(verdict)
        schedule.record(label, verdict.correct)
    extra = sorted(set(given) - set(schedule.served))
    if extra and schedule.adaptive:
        raise CheckoutFileError(
            f"answers {', '.join(extra[:3])}{' …' if len(extra) > 3 else ''}, which this sitting never "
            "served; nothing is graded",
            path=source,
        )
    rules, kinds_covered = _covered(key)
    test = schedule.test
    return CheckoutResult(
        str(key["trainee"]),
        str(key["paper_id"]),
        _digest(key),
        tuple(verdicts),
        rules,
        kinds_covered,
        decision=schedule.decision(),
        why=test.why(),
        evidence=round(test.llr / test.design.upper, 4),
        sequential=schedule.adaptive,
        max_cases=test.design.max_cases,
        too_fast=too_fast([seconds[label] for label in schedule.served if label in seconds]),
    )


def too_fast(seconds: Sequence[float]) -> str:
    """Why a sitting was answered faster than a person reads, with the drill's floors; "" when it was not.

    A case under :data:`helpers.trainee.progress.timing.MIN_CASE_SECONDS` after it was served, or
    cases under :data:`~helpers.trainee.progress.timing.MIN_DRILL_SECONDS_PER_CASE` on average: the
    thresholds the drill's evidence is held to.
    """
    from helpers.trainee.progress.timing import MIN_CASE_SECONDS, MIN_DRILL_SECONDS_PER_CASE

    if not seconds:
        return ""
    quick = sum(1 for s in seconds if s < MIN_CASE_SECONDS)
    mean = sum(seconds) / len(seconds)
    parts = []
    if quick:
        parts.append(
            f"{quick} of {len(seconds)} cases answered under {MIN_CASE_SECONDS} s after they were served"
        )
    if mean < MIN_DRILL_SECONDS_PER_CASE:
        parts.append(f"{mean:.1f} s a case on average, under the {MIN_DRILL_SECONDS_PER_CASE} s floor")
    return "; ".join(parts)


def verdict_of(record: Mapping[str, Any], given: tuple[Answer, str | None] | None) -> CaseVerdict:
    """One key case graded: every field right or wrong (all wrong when ``given`` is None, unanswered)."""
    case = _case(record)
    names = _field_names(case.check)
    kinds = _record_kinds(record)
    if given is None:
        return CaseVerdict(
            record["label"],
            record["rule"],
            bool(record["lookalike"]),
            False,
            dict.fromkeys(names, False),
            (),
            kinds,
        )
    answer, action = given
    result = grading.grade(case, answer, ask_reason=False)
    wrong = {m.field for m in result.mistakes}
    fields = {name: name not in wrong for name in names[:4]}
    fields["reason"] = answer.reason in record["reasons_accepted"]
    fields["action"] = action == record["action"]
    missed = [m.rule for m in result.mistakes]
    if not fields["reason"]:
        missed.append(record["rule"])
    return CaseVerdict(
        record["label"],
        record["rule"],
        bool(record["lookalike"]),
        True,
        fields,
        tuple(dict.fromkeys(missed)),
        kinds,
    )


def key_schedule(key: Mapping[str, Any]) -> Schedule:
    """The schedule a key's sitting follows: adaptive for a sequential key, in order for a fixed paper."""
    rules, kinds = _covered(key)
    slots = [
        Slot(
            str(record["label"]),
            str(record.get("stream") or "more"),
            str(record["rule"]),
            _record_kinds(record),
        )
        for record in key["cases"]
    ]
    return Schedule(slots, rules, kinds, adaptive=bool(key.get("sequential")))


def _record_kinds(record: Mapping[str, Any]) -> tuple[str, ...]:
    """A key case's look-alike kinds: as the key lists them, or (a key from before) read from its input."""
    listed = record.get("lookalike_kinds")
    if isinstance(listed, list) and all(isinstance(k, str) for k in listed):
        return tuple(listed)
    return deciding_kinds(record["check"], record["input"], record.get("context") or None)


def _covered(key: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rules and look-alike kinds the key's paper was made to show (every one, for a key from before)."""
    rule = key.get("verdict_rule")
    if isinstance(rule, Mapping):
        rules, kinds = rule.get("rules"), rule.get("lookalike_kinds")
        if all(isinstance(v, list) and all(isinstance(i, str) for i in v) for v in (rules, kinds)):
            return tuple(rules), tuple(kinds)  # type: ignore[arg-type]
    return tuple(r.id for r in load_rules() if r.id in generators.GENERATORS), FACETS


@dataclass(frozen=True)
class SignedCheckoutResult(CheckoutResult):
    """A check-out graded by the trainer: the result, whether it was practice or proctored, and its signature."""

    practice: bool = False
    proctored: bool = False
    answers_digest: str = ""
    signature: Mapping[str, str] = field(default_factory=dict)
    #: A proctored sitting's resumes, as the ledger recorded them (each with the gap it covered).
    resumes: tuple[Mapping[str, Any], ...] = ()

    def unsigned_data(self) -> dict[str, Any]:
        """The result as JSON, without its signature (what the signature covers)."""
        data = super().to_data()
        data.update(practice=self.practice, proctored=self.proctored, answers_digest=self.answers_digest)
        if self.proctored:
            data["resumes"] = [dict(r) for r in self.resumes]
        return data

    def to_data(self) -> dict[str, Any]:
        """The signed result as JSON (``checkout grade --json``; ``cohort --checkouts`` checks the signature)."""
        return {**self.unsigned_data(), "signature": dict(self.signature)}


def grade_files(
    answers_path: str | Path,
    key_path: str | Path,
    baseline: str | Path | None = None,
    *,
    trainer: Any = None,
    max_bytes: int = MAX_CHECKOUT_BYTES,
    proctored: bool = False,
    keep: Callable[[SignedCheckoutResult, bool], None] | None = None,
) -> CheckoutResult:
    """Read and verify the key, read the answers, and grade them.

    With ``trainer``, the key must be that trainer's, its paper in the trainer's ledger,
    issued to the trainee the key names and not yet graded from other answers; the
    grading is entered in the ledger and the result comes back signed
    (:class:`SignedCheckoutResult`). ``keep`` is given the signed result, and whether the
    ledger has this grading already, before the ledger says "graded" (a proctored sitting
    writes it to disk there: if that raises, nothing is recorded). Raises ``CheckoutFileError`` (nothing graded) or
    :class:`helpers.trainer.secret.TrainerSecretError` (the ledger cannot be used).
    """
    from helpers.trainer.ledger import Ledger

    key = load_key(key_path, baseline, trainer=trainer, max_bytes=max_bytes)
    try:
        answers = loads_document(
            read_bounded(answers_path, limit=max_bytes, what="an answers file"), source=str(answers_path)
        )
    except JSONLoadError as exc:
        raise CheckoutFileError(exc.detail, path=str(answers_path)) from None
    try:
        answers_digest = _digest(answers)  # what the ledger keeps of them, so worked out before grading
    except ValueError as exc:  # a number past what JSON carries (1e999 reads as infinity)
        raise CheckoutFileError(
            f"holds a number JSON cannot carry ({exc}); nothing was graded", path=str(answers_path)
        ) from None
    result = grade_checkout(answers, key, source=str(answers_path))
    if trainer is None:
        return result
    ledger = Ledger(trainer)
    with ledger.locked() as state:
        again = Ledger.check_grade(
            state,
            paper_id=key.get("paper_id"),
            trainee=key.get("trainee"),
            key_digest=_digest(key),
            answers_digest=answers_digest,
            source=str(key_path),
            proctored=proctored,
        )
        practice = state.issued[result.paper_id].practice
        values = {f.name: getattr(result, f.name) for f in fields(result)}
        unsigned = SignedCheckoutResult(
            **values,
            practice=practice,
            proctored=proctored,
            answers_digest=answers_digest,
            resumes=tuple(state.resumes.get(result.paper_id, ())) if proctored else (),
        )
        signed = replace(unsigned, signature=trainer.sign("result", unsigned.unsigned_data()))
        if keep is not None:
            keep(signed, again)  # on disk first: the ledger never says "graded" for a result that is not
        if not again:
            ledger.append(
                {
                    "event": "graded",
                    "paper_id": result.paper_id,
                    "answers_digest": answers_digest,
                    "passed": result.passed,
                    "graded": result.graded,
                    "proctored": proctored,
                }
            )
    return signed


def _evidence(ok: int, n: int) -> str:
    if not n:
        return "not on the paper  <- not shown"
    return f"{ok} of {n}" + ("  <- never right" if not ok else "")


def result_text(result: CheckoutResult) -> str:
    """A graded check-out as plain text: the verdict and what it proves, then per rule, kind, field and case."""
    verdict = "PASSED" if result.passed else "NOT PASSED"
    lines = [
        f"Check-out {result.paper_id} for {_plain(result.trainee)}: {verdict}",
        f"  {result.statement()}",
        f"  Pass rule: {result.threshold}.",
        "per rule (cases fully correct of those served; a pass needs each seen and cleared):",
        *(f"  {rule}: {_evidence(ok, n)}" for rule, (ok, n) in result.per_rule().items()),
        "per look-alike kind (cases that turn on it fully correct; a pass needs each seen and cleared):",
        *(f"  {kind}: {_evidence(ok, n)}" for kind, (ok, n) in result.per_kind().items()),
        "per field (cases right):",
        *(f"  {name}: {ok} of {n}" for name, (ok, n) in result.per_field().items()),
        "per case:",
    ]
    for case in result.cases:
        if not case.answered:
            lines.append(f"  {case.label}: not answered")
            continue
        wrong = [name for name, ok in case.fields.items() if not ok]
        lines.append(f"  {case.label}: " + ("correct" if not wrong else "wrong in " + ", ".join(wrong)))
    return "\n".join(lines) + "\n"


def _plain(text: str) -> str:
    """``text`` safe for a terminal and readable: control, invisible, blank-looking and look-alike
    characters and lone surrogates as ``⟨U+XXXX⟩`` (:func:`~helpers.core.chardiff.visible_text`)."""
    return visible_text(text)


def result_csv(result: CheckoutResult) -> str:
    """One row per case, spreadsheet-safe: label, rule, look-alike, answered, correct, each field.

    Each row also carries the evidence the verdict rests on: its rule's cases
    right (``2 of 2``), its look-alike kinds and theirs, the paper's accuracy
    bound and the verdict.
    """
    names = list(dict.fromkeys(n for c in result.cases for n in c.fields))
    per_rule, per_kind = result.per_rule(), result.per_kind()
    verdict = "passed" if result.passed else "not passed"
    bound = f"{result.accuracy_lower_bound:.4f}"
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(
        [
            "trainee",
            "paper_id",
            "label",
            "rule",
            "lookalike",
            "answered",
            "correct",
            *names,
            "rules_missed",
            "rule_cases_right",
            "lookalike_kinds",
            "kind_cases_right",
            "accuracy_lower_bound",
            "why",
            "too_fast",
            "verdict",
        ]
    )
    for c in result.cases:
        cells = [
            _plain(result.trainee),
            result.paper_id,
            c.label,
            c.rule,
            str(c.lookalike).lower(),
            str(c.answered).lower(),
            str(c.correct).lower(),
            *(
                "" if n not in c.fields else ("right" if c.fields[n] and c.answered else "wrong")
                for n in names
            ),
            " ".join(c.rules_missed),
            "{} of {}".format(*per_rule[c.rule]),
            " ".join(c.kinds),
            "; ".join("{}: {} of {}".format(k, *per_kind[k]) for k in c.kinds),
            bound,
            result.why,
            result.too_fast,
            verdict,
        ]
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    return buffer.getvalue()


def load_result(
    path: str | Path, *, trainer: Any = None, max_bytes: int = MAX_CHECKOUT_BYTES
) -> dict[str, Any]:
    """Read a graded check-out (``checkout grade --json`` output); raises ``CheckoutFileError``.

    With ``trainer``, the result must carry that trainer's signature (a hand-written
    result, or one whose trainee, verdict or any other field was edited, is refused);
    it is returned without the signature. Whether its paper was issued and graded as the
    result says is the ledger's to tell: see :mod:`helpers.trainer.verified_results`.
    """
    data = _read(path, RESULT_FORMAT, max_bytes, signed=True)
    _signed_shape(RESULT_FORMAT, data, str(path), trainer)
    signature = data.pop("signature", None)
    if trainer is not None:
        trainer.verify("result", data, signature, source=str(path))
    return data


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


class CheckoutSitting:
    """One sitting of a paper: each case served once, one try, no feedback; then the answers written.

    Headless: :class:`helpers.trainee.widgets.CheckoutWidget` draws it. Taught in ``07_checkout.ipynb``.
    """

    def __init__(self, paper: Mapping[str, Any], *, clock: Any = None) -> None:
        import time

        self.paper = paper
        self.cases: list[Mapping[str, Any]] = list(paper["cases"])
        self.index = 0
        self.answers: dict[str, tuple[Answer, str | None]] = {}
        self.seconds: dict[str, float] = {}
        self.saved_to: Path | None = None
        self._clock = clock if clock is not None else time.monotonic
        self._served_at: float | None = None

    @property
    def done(self) -> bool:
        """True once every case has been answered."""
        return self.index >= len(self.cases)

    def current(self) -> Mapping[str, Any] | None:
        """The case being answered, or None when the paper is done (its time starts when first shown)."""
        if self.done:
            return None
        if self._served_at is None:
            self._served_at = self._clock()
        return self.cases[self.index]

    def submit(self, answer: Answer, action: str | None) -> None:
        """Record the answer to the current case and move on; a case is never served again."""
        case = self.current()
        if case is None:
            raise CheckInputError("every case of this paper is answered", field="answer")
        if answer.check != case["check"]:
            raise CheckInputError(
                f"answer is for {answer.check!r}, the case is {case['check']!r}", field="check"
            )
        self.answers[case["label"]] = (answer, action)
        now = self._clock()
        self.seconds[case["label"]] = max(
            0.0, now - (self._served_at if self._served_at is not None else now)
        )
        self._served_at = None
        self.index += 1

    def answers_data(self) -> dict[str, Any]:
        """The answers so far, as an answers file holds them, each with the seconds it took."""
        data = answers_data(self.paper, self.answers)
        for row in data["answers"]:
            row["seconds"] = round(self.seconds.get(row["label"], 0.0), 1)
        return data

    def save(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the answers file; an existing file is replaced only with ``overwrite``."""
        self.saved_to = write_answers(self.answers_data(), path, overwrite=overwrite)
        return self.saved_to
