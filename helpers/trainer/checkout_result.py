"""A graded check-out: the verdict per case and field, per rule and look-alike kind, and what a pass proves.

The pass is the sequential rule's (:mod:`helpers.trainer.sequential`); the result
states in words what it proves (the simulated operating characteristic), with the number
of cases and the evidence per rule and per kind. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.confidence import accuracy_lower_bound
from helpers.trainer.checkout_format import RESULT_FORMAT, VERSION, utc_now
from helpers.trainer.sequential import DESIGN, operating_characteristic_words

__all__ = [
    "CONFIDENCE",
    "ACCURACY_BOUND",
    "CaseVerdict",
    "CheckoutResult",
]

#: The confidence with which a pass proves its accuracy bound (one-sided).
CONFIDENCE = 0.95
#: The accuracy a pass proves at least, with :data:`CONFIDENCE` confidence: cases fully correct
#: (output, reason and next action) as a share of all cases.
ACCURACY_BOUND = 0.85


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
    graded: str = field(default_factory=utc_now)
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
