"""A sequential check-out sat case by case: the headless contract the proctored page and simulations drive.

::

    from helpers.trainer.sitting import issue_checkout, start_sitting

    issued = issue_checkout("Asha", seed=7)        # .paper, .key, .grade(answers)
    sitting = start_sitting(issued)
    while (case := sitting.next_case()) is not None:  # .rule .check .input .context .lookalike
        sitting.answer(my_answer(case), my_action(case))
    result = sitting.result()                       # .passed .cases .to_data()

Each answer is graded against the key as it comes, so the sequential rule
(:mod:`helpers.trainer.sequential`) picks the next case: every rule and
look-alike kind first, interleaved, a follow-up after a miss, then cases for
the overall evidence until it is enough. :meth:`Sitting.result` grades the answers
file the sitting writes with :func:`~helpers.trainer.marking.grade_checkout`,
which replays the same schedule, so the verdict is the one a trainer gets from the
file. The case's ``rule`` is for a script that issued its own key: the proctored
page shows only the paper's side of it (:attr:`ServedCase.shown`). Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckInputError
from helpers.trainee.grading import Answer
from helpers.trainer.answers import answers_data, write_answers
from helpers.trainer.checkout_result import CheckoutResult
from helpers.trainer.marking import grade_checkout, key_schedule, verdict_of
from helpers.trainer.paper import Issued, issue_checkout

__all__ = ["ServedCase", "Sitting", "issue_checkout", "start_sitting"]


@dataclass(frozen=True)
class ServedCase:
    """One case served: what the trainee sees (:attr:`shown`) and, for a script, what the key says of it."""

    number: int
    label: str
    rule: str
    check: str
    input: Mapping[str, Any]
    context: Mapping[str, Any]
    lookalike: tuple[str, ...]
    shown: Mapping[str, Any]


class Sitting:
    """One sequential sitting of a key: serve, answer, serve again until the rule decides.

    Duck-types :class:`helpers.trainer.checkout.CheckoutSitting` for the check-out widget
    (:meth:`current`, :meth:`submit`, :attr:`done`, :attr:`answers`, :meth:`answers_data`).
    """

    def __init__(
        self,
        paper: Mapping[str, Any],
        key: Mapping[str, Any],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if paper.get("paper_id") != key.get("paper_id"):
            raise CheckInputError("the paper and the key are for different papers", field="paper_id")
        self.paper = paper
        self.key = key
        self.records = {record["label"]: record for record in key["cases"]}
        self.shown = {case["label"]: case for case in paper["cases"]}
        self.schedule = key_schedule(key)
        self.answers: dict[str, tuple[Answer, str | None]] = {}
        self.seconds: dict[str, float] = {}
        self.saved_to: Path | None = None
        self._clock = clock
        self._served_at: float | None = None
        self.max_cases = self.schedule.test.design.max_cases

    @property
    def cases(self) -> list[Mapping[str, Any]]:
        """The cases served so far, as the paper shows them."""
        return [self.shown[label] for label in self.schedule.served]

    @property
    def index(self) -> int:
        """How many cases are answered."""
        return len(self.schedule.served)

    @property
    def done(self) -> bool:
        """True once the rule has decided (or no case is left)."""
        return self.schedule.next_label() is None

    def next_case(self) -> ServedCase | None:
        """The case to answer now (the same one until it is answered), or None once the sitting is decided."""
        label = self.schedule.next_label()
        if label is None:
            return None
        if self._served_at is None:
            self._served_at = self._clock()
        record = self.records[label]
        return ServedCase(
            number=len(self.schedule.served) + 1,
            label=label,
            rule=str(record["rule"]),
            check=str(record["check"]),
            input=record["input"],
            context=record.get("context") or {},
            lookalike=tuple(record.get("lookalike_kinds") or ()),
            shown=self.shown[label],
        )

    def current(self) -> Mapping[str, Any] | None:
        """The case being answered as the paper shows it, or None when the sitting is decided."""
        case = self.next_case()
        return None if case is None else case.shown

    def position(self) -> str:
        """Where the sitting is, in words: the case's number and the most there can be."""
        return f"Case {len(self.schedule.served) + 1} (at most {self.max_cases})"

    def answer(self, answer: Answer, action: str | None) -> None:
        """Answer the case served now; it is graded against the key and the rule picks the next one."""
        case = self.next_case()
        if case is None:
            raise CheckInputError("the sitting is decided; no more cases are served", field="answer")
        if answer.check != case.check:
            raise CheckInputError(
                f"answer is for {answer.check!r}, the case is {case.check!r}", field="check"
            )
        now = self._clock()
        self.seconds[case.label] = max(0.0, now - (self._served_at if self._served_at is not None else now))
        self._served_at = None
        self.answers[case.label] = (answer, action)
        self.schedule.record(case.label, verdict_of(self.records[case.label], (answer, action)).correct)

    submit = answer

    def answers_data(self) -> dict[str, Any]:
        """The answers so far, as an answers file holds them, each with the seconds it took."""
        data = answers_data(self.paper, self.answers)
        order = {label: i for i, label in enumerate(self.schedule.served)}
        data["answers"].sort(key=lambda row: order.get(row["label"], len(order)))
        for row in data["answers"]:
            row["seconds"] = round(self.seconds.get(row["label"], 0.0), 1)
        return data

    def result(self) -> CheckoutResult:
        """The answers graded by the key, as a trainer grades the file (the same schedule replayed)."""
        return grade_checkout(self.answers_data(), self.key)

    def save(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the answers file; an existing file is replaced only with ``overwrite``."""
        self.saved_to = write_answers(self.answers_data(), path, overwrite=overwrite)
        return self.saved_to


def start_sitting(issued: Issued, *, clock: Callable[[], float] = time.monotonic) -> Sitting:
    """A sitting of a check-out issued with :func:`issue_checkout` (the paper and the key in memory)."""
    return Sitting(issued.paper, issued.key, clock=clock)
