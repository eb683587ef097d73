"""The check-out's sequential rule: a truncated SPRT with every rule and look-alike kind seen and cleared.

A fixed paper that tells "right 85% of the time or less" from "right 95% or more"
needs about 80 cases; a sequential test stops as soon as the evidence is enough
(Wald's sequential probability ratio test, 1945, as Lewis and Sheehan used it for
computerized mastery testing, 1990). After each case the log-likelihood ratio of
p1 = 0.95 against p0 = 0.85 grows by ``log(p1/p0)`` for a case fully right and
falls by ``log((1-p1)/(1-p0))`` for one wrong; the test passes at
``log((1-beta)/alpha)`` and fails at ``log(beta/(1-alpha))``.

Two conditions sit on top of the overall evidence, since a trainee always wrong
on one of 19 rules is still right about 95% of the time:

* every rule and every look-alike kind is **seen and cleared** before a pass:
  a group is cleared when its cases right, less its cases wrong (each counted
  :attr:`Design.miss_weight` times), reach its
  need (one right case for a rule; two for a kind, whose cases a partial blind
  spot can get right by luck). A miss on a group opens it again, so the sitting
  brings another case of it; a group with :attr:`Design.misses_to_fail` misses and
  a score that far below zero fails the sitting.
* the sitting is **truncated** at :attr:`Design.max_cases`: still undecided
  there, it passes only above :attr:`Design.undecided_fraction` of the pass
  boundary with every group cleared.

The nominal alpha and beta are not the errors a truncated test with a minimum
length has, so the operating characteristic stated with a verdict is the one
simulated (``benchmarks/checkout_validity.py``; :data:`OPERATING_CHARACTERISTIC`).
Standard library only, so it runs in the browser edition too; no library is
used because the registry's SPRT packages add nothing a dozen lines do not, and
none ships in the browser edition. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from helpers.core.errors import CheckInputError, describe_value

__all__ = [
    "Design",
    "DESIGN",
    "Group",
    "SequentialTest",
    "OPERATING_CHARACTERISTIC",
    "Schedule",
    "Slot",
    "next_request",
    "operating_characteristic_words",
]


@dataclass(frozen=True)
class Design:
    """The settings of the sequential rule: the indifference zone, the nominal errors, the truncation."""

    p0: float = 0.85
    p1: float = 0.95
    alpha: float = 0.03
    beta: float = 0.05
    max_cases: int = 90
    undecided_fraction: float = 0.3
    rule_need: int = 1
    kind_need: int = 2
    misses_to_fail: int = 3
    miss_weight: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise CheckInputError(
                f"p0 and p1 are {describe_value(self.p0)} and {describe_value(self.p1)}, expected 0 < p0 < p1 < 1",
                field="p0",
            )
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise CheckInputError(
                    f"{name} is {describe_value(value)}, expected between 0 and 0.5", field=name
                )
        for name in ("max_cases", "rule_need", "kind_need", "misses_to_fail", "miss_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise CheckInputError(
                    f"{name} is {describe_value(value)}, expected a whole number from 1", field=name
                )
        if not 0 <= self.undecided_fraction <= 1:
            raise CheckInputError(
                f"undecided_fraction is {describe_value(self.undecided_fraction)}, expected 0 to 1",
                field="undecided_fraction",
            )

    @property
    def right_step(self) -> float:
        """What a case fully right adds to the log-likelihood ratio."""
        return math.log(self.p1 / self.p0)

    @property
    def wrong_step(self) -> float:
        """What a case wrong adds (a negative number)."""
        return math.log((1 - self.p1) / (1 - self.p0))

    @property
    def upper(self) -> float:
        """The pass boundary."""
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        """The fail boundary."""
        return math.log(self.beta / (1 - self.alpha))

    def to_data(self) -> dict[str, float | int]:
        """The settings as JSON."""
        return {
            "p0": self.p0,
            "p1": self.p1,
            "alpha": self.alpha,
            "beta": self.beta,
            "max_cases": self.max_cases,
            "undecided_fraction": self.undecided_fraction,
            "rule_need": self.rule_need,
            "kind_need": self.kind_need,
            "misses_to_fail": self.misses_to_fail,
            "miss_weight": self.miss_weight,
        }


#: The design every check-out uses.
DESIGN = Design()

#: What simulated trainees measured with :data:`DESIGN` (``benchmarks/checkout_validity.py``, 2026-12-07,
#: 400 sittings per profile, each a real key sat case by case and graded):
#: P(pass) and mean cases per profile, over the sittings counted. Stated with every verdict.
OPERATING_CHARACTERISTIC: dict[str, float | int] = {
    "sittings": 400,
    "pass_at_0_85": 0.0425,
    "pass_at_0_95": 0.93,
    "pass_at_0_97": 0.9825,
    "mean_cases_perfect": 32.0,
    "mean_cases_0_97": 45.7,
}


def operating_characteristic_words(design: Design = DESIGN) -> str:
    """The operating characteristic in words a trainer can repeat, with the simulated figures."""
    oc = OPERATING_CHARACTERISTIC
    return (
        f"This check-out passes someone right {design.p0:.0%} of the time or less at most 5 times in 100, and "
        f"passes someone right {design.p1:.0%} of the time at least 90 times in 100 (simulated over "
        f"{oc['sittings']} sittings each: {oc['pass_at_0_85']:.1%} and {oc['pass_at_0_95']:.1%}; right "
        f"97% of the time, {oc['pass_at_0_97']:.1%}). It stops when the evidence is enough: "
        f"{oc['mean_cases_perfect']:.0f} cases for someone always right, about {oc['mean_cases_0_97']:.0f} "
        f"for someone right 97% of the time, never more than {design.max_cases}."
    )


@dataclass
class Group:
    """One rule or look-alike kind: its cases right and wrong, and the need it must reach."""

    name: str
    kind: str  # "rule" or "kind"
    need: int
    miss_weight: int = 1
    right: int = 0
    wrong: int = 0

    @property
    def seen(self) -> int:
        """Cases of this group answered."""
        return self.right + self.wrong

    @property
    def score(self) -> int:
        """Cases right less :attr:`miss_weight` times the cases wrong."""
        return self.right - self.miss_weight * self.wrong

    def cleared(self) -> bool:
        """True when the score reaches the need."""
        return self.score >= self.need

    def failed(self, misses_to_fail: int) -> bool:
        """True when the group has at least ``misses_to_fail`` misses and its score is that far below zero."""
        return self.wrong >= misses_to_fail and self.score <= -misses_to_fail


@dataclass
class SequentialTest:
    """The state of one sitting under the sequential rule: record each case, then ask for the decision.

    ``rules`` and ``kinds`` are the groups every sitting must see and clear. Taught in ``07_checkout.ipynb``.
    """

    rules: Sequence[str]
    kinds: Sequence[str]
    design: Design = DESIGN
    cases: int = 0
    right: int = 0
    llr: float = 0.0
    groups: dict[tuple[str, str], Group] = field(default_factory=dict)
    history: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        for rule in self.rules:
            self.groups[("rule", rule)] = Group(rule, "rule", self.design.rule_need, self.design.miss_weight)
        for kind in self.kinds:
            self.groups[("kind", kind)] = Group(kind, "kind", self.design.kind_need, self.design.miss_weight)

    def record(self, rule: str, kinds: Iterable[str], correct: bool) -> None:
        """Count one case: its rule, the look-alike kinds it turns on, and whether it was fully right."""
        if self.decision() is not None:
            raise CheckInputError("the sitting is decided already; no case is counted after it", field="case")
        self.cases += 1
        self.right += bool(correct)
        self.history.append(bool(correct))
        self.llr += self.design.right_step if correct else self.design.wrong_step
        for key in [("rule", rule), *(("kind", k) for k in dict.fromkeys(kinds))]:
            group = self.groups.setdefault(key, Group(key[1], key[0], 0, self.design.miss_weight))
            if correct:
                group.right += 1
            else:
                group.wrong += 1

    def open_groups(self) -> list[Group]:
        """The rules and kinds not yet cleared (not yet seen, or missed since), in their order."""
        return [g for g in self.groups.values() if g.need and not g.cleared()]

    def failed_groups(self) -> list[Group]:
        """The rules and kinds with as many misses as fail the sitting."""
        return [g for g in self.groups.values() if g.need and g.failed(self.design.misses_to_fail)]

    def decision(self) -> str | None:
        """``"passed"``, ``"failed"``, or None while the evidence is not enough either way."""
        design = self.design
        if self.failed_groups() or self.llr <= design.lower:
            return "failed"
        open_now = self.open_groups()
        if self.cases >= design.max_cases:
            return (
                "passed"
                if not open_now and self.llr >= design.undecided_fraction * design.upper
                else "failed"
            )
        if not open_now and self.llr >= design.upper:
            return "passed"
        return None

    def finish(self) -> str:
        """The decision of a sitting that ends here (no case is left): undecided counts as failed."""
        decided = self.decision()
        if decided is not None:
            return decided
        design = self.design
        ok = not self.open_groups() and self.llr >= design.undecided_fraction * design.upper
        return "passed" if ok else "failed"

    def why(self) -> str:
        """How the decision was reached, in words."""
        design = self.design
        failed = self.failed_groups()
        if failed:
            names = ", ".join(f"{g.name} ({g.wrong} of {g.seen} wrong)" for g in failed)
            return f"missed too often on {names}"
        if self.llr <= design.lower:
            return (
                f"the evidence reached the fail boundary: {self.right} of {self.cases} right is far likelier "
                f"from someone right {design.p0:.0%} of the time than {design.p1:.0%}"
            )
        if self.llr >= design.upper and not self.open_groups():
            return (
                f"the evidence reached the pass boundary: {self.right} of {self.cases} right is far likelier "
                f"from someone right {design.p1:.0%} of the time than {design.p0:.0%}, with every rule and "
                "look-alike kind seen and cleared"
            )
        opened = ", ".join(g.name for g in self.open_groups())
        undecided = f"undecided after {self.cases} cases"
        if opened:
            return f"{undecided}, with {opened} not cleared"
        return f"{undecided}; the evidence stood at {self.llr / design.upper:.0%} of the pass boundary"


def next_request(test: SequentialTest, cover_left: int, last_was_follow_up: bool) -> tuple[str, str | None]:
    """What the sitting serves next: ``("cover", None)``, ``("rule", R)``, ``("kind", K)`` or ``("more", None)``.

    The covering cases come first, interleaved with a follow-up of each rule or kind just
    missed (one case apart, so a follow-up never comes straight after another while
    covering cases remain); then the follow-ups left; then more cases for the overall evidence.
    """
    missed = [g for g in test.open_groups() if g.wrong]
    if missed and (cover_left == 0 or not last_was_follow_up):
        # A kind before a rule (then the most missed): a kind's follow-up also counts for its case's rule.
        group = min(missed, key=lambda g: (g.kind != "kind", -g.wrong))
        return group.kind, group.name
    if cover_left:
        return "cover", None
    unseen = test.open_groups()
    if unseen:
        return unseen[0].kind, unseen[0].name
    return "more", None


@dataclass(frozen=True)
class Slot:
    """One case a key holds, as the schedule sees it: its label, stream, rule and look-alike kinds."""

    label: str
    stream: str
    rule: str
    kinds: tuple[str, ...]


class Schedule:
    """Which case of a key a sitting serves next, and the :class:`SequentialTest` its answers feed.

    ``adaptive`` (a sequential key) serves by :func:`next_request` from the key's streams;
    otherwise (a fixed paper) the cases are served in the key's order. Grading replays the
    same schedule, so the cases served and the verdict are the same on both sides.
    """

    def __init__(
        self,
        slots: Sequence[Slot],
        rules: Sequence[str],
        kinds: Sequence[str],
        *,
        design: Design = DESIGN,
        adaptive: bool = True,
    ) -> None:
        self.slots = list(slots)
        self.by_label = {slot.label: slot for slot in self.slots}
        if len(self.by_label) != len(self.slots):
            raise CheckInputError("two cases share one label", field="label")
        self.test = SequentialTest(rules, kinds, design)
        self.adaptive = adaptive
        self.used: set[str] = set()
        self.served: list[str] = []
        self._pending: str | None = None
        self._follow_up = False

    def _unused(self, keep: Callable[[Slot], bool]) -> Slot | None:
        last = self.by_label[self.served[-1]].rule if self.served else None
        found = [s for s in self.slots if s.label not in self.used and keep(s)]
        if not found:
            return None
        return next((s for s in found if s.rule != last), found[0])

    def _pick(self) -> tuple[Slot | None, bool]:
        if not self.adaptive:
            return self._unused(lambda s: True), False
        cover_left = sum(1 for s in self.slots if s.stream == "cover" and s.label not in self.used)
        request, name = next_request(self.test, cover_left, self._follow_up)
        if request == "cover":
            return self._unused(lambda s: s.stream == "cover"), False
        if request == "rule":
            slot = self._unused(lambda s: s.stream == f"rule:{name}") or self._unused(
                lambda s: s.stream != "cover" and s.rule == name
            )
            if slot is not None:
                return slot, True
        if request == "kind":
            slot = self._unused(lambda s: s.stream == f"kind:{name}") or self._unused(
                lambda s: s.stream != "cover" and name in s.kinds
            )
            if slot is not None:
                return slot, True
        slot = self._unused(lambda s: s.stream == "more") or self._unused(lambda s: s.stream != "cover")
        return slot, False

    def next_label(self) -> str | None:
        """The label of the case to serve now, or None once the sitting is decided or has no case left."""
        if self._pending is not None:
            return self._pending
        if self.test.decision() is not None or self.test.cases >= self.test.design.max_cases:
            return None
        slot, follow_up = self._pick()
        if slot is None:
            return None
        self._pending, self._follow_up = slot.label, follow_up
        return slot.label

    def record(self, label: str, correct: bool) -> None:
        """Count the answer to the case just served (``label`` must be it)."""
        if label != self.next_label():
            raise CheckInputError(f"{label} is not the case this sitting serves now", field="label")
        slot = self.by_label[label]
        self.used.add(label)
        self.served.append(label)
        self._pending = None
        self.test.record(slot.rule, slot.kinds, correct)

    def decision(self) -> str:
        """The verdict now: decided, or (the sitting ends here) undecided counted as failed."""
        return self.test.finish()
