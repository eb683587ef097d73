"""The check-out: an unaided paper of generated cases, its guarded answer key, and grading.

A trainer issues a **paper** for one trainee and keeps its **key**
(:mod:`helpers.trainer.paper`, written by :mod:`helpers.trainer.issued_files`);
the key is guarded by a baseline of its digests (:mod:`helpers.trainer.answer_key`).
The trainee answers each case's output, reason and next action
(:mod:`helpers.trainer.answers`, :mod:`helpers.trainer.next_actions`); the
answers are graded against the key (:mod:`helpers.trainer.marking`) into a result
(:mod:`helpers.trainer.checkout_result`, shown by :mod:`helpers.trainer.result_report`),
which the trainer signs (:mod:`helpers.trainer.signed_result`). A check-out **passes** by
the sequential rule (:mod:`helpers.trainer.sequential`): the evidence for right 95% of the
time against 85% reaches its pass boundary with every rule and look-alike kind seen and cleared.

This module is the sitting on the trainee's own machine (:class:`CheckoutSitting`) and the
committed sample paper; the names ``07_checkout.ipynb`` calls on ``helpers.trainer.checkout`` are
importable from here too. A trainee with a live kernel can compute any check: the check-out
measures their own reading, on their honour. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckInputError, CheckoutFileError
from helpers.core.paths import fixtures_dir
from helpers.trainee.grading import Answer
from helpers.trainer.answer_key import load_key
from helpers.trainer.answers import answers_data, write_answers
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.marking import grade_checkout
from helpers.trainer.paper import issue_checkout, load_paper
from helpers.trainer.result_report import result_text

__all__ = [
    "CheckoutSitting",
    "sample_paper_path",
    # What 07_checkout.ipynb calls on helpers.trainer.checkout; each is defined in the module it is imported from.
    "CheckoutFileError",
    "issue_checkout",
    "write_checkout",
    "load_paper",
    "load_key",
    "grade_checkout",
    "result_text",
]


def sample_paper_path() -> Path:
    """``fixtures/checkout/sample-paper.json``: a committed sample paper (its key beside it)."""
    return fixtures_dir() / "checkout" / "sample-paper.json"


class CheckoutSitting:
    """One sitting of a paper: each case served once, one try, no feedback; then the answers written.

    Headless: :class:`helpers.trainer.widgets.CheckoutWidget` draws it. Taught in ``07_checkout.ipynb``.
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
