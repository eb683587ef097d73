"""Graded check-outs the trainer can trust: signed with the trainer's secret and matched in the ledger.

A result file counts only when (:func:`verified_results`):

* it carries this trainer's signature over every field (a hand-written result, or a
  passed result with another trainee's name put in, is refused);
* its paper is in this trainer's ledger, issued to the trainee the result names, with
  the key the result was graded against (a result for a paper never issued is refused);
* the ledger recorded its grading from the same answers;
* it is the first file for its paper (a copy under another name counts once).

Each verified result says whether it was a **practice** paper (issued with a chosen
seed, so its cases can be rebuilt: it never counts towards readiness) and whether it
was **proctored** (sat through the trainer's app, with no kernel for the trainee).
:func:`counting_result` picks the one result that decides a trainee's check-out, and
:func:`certified_bound` says what it proves: the accuracy bound worked out again from the
signed result's counts, never taken from a field the result states.
Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckoutFileError, describe_value
from helpers.trainee.confidence import accuracy_lower_bound
from helpers.trainee.progress.paths import shown_path
from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES
from helpers.trainer.ledger import GradedPaper, IssuedPaper, Ledger, LedgerState
from helpers.trainer.secret import TrainerSecret

__all__ = [
    "VerifiedResult",
    "CertifiedBound",
    "verified_results",
    "counting_result",
    "newest_paper",
    "certified_bound",
]


@dataclass(frozen=True)
class VerifiedResult:
    """One graded check-out, signed by the trainer and matched in the ledger."""

    trainee: str
    paper_id: str
    passed: bool
    practice: bool
    proctored: bool
    issued: str
    graded: str
    file: str
    data: Mapping[str, Any]
    order: int

    @property
    def counts(self) -> bool:
        """True unless a practice paper: only such results can make a trainee ready."""
        return not self.practice


def _check(data: Mapping[str, Any], state: LedgerState, source: str) -> VerifiedResult:
    paper_id = data.get("paper_id")
    paper = state.issued.get(paper_id) if isinstance(paper_id, str) else None
    if paper is None:
        raise CheckoutFileError(
            f"paper {describe_value(paper_id)} was never issued by this trainer (it is not in the ledger)",
            path=source,
        )
    if paper.trainee != data.get("trainee"):
        raise CheckoutFileError(
            f"paper {paper.paper_id} was issued to {describe_value(paper.trainee)}, "
            f"not {describe_value(data.get('trainee'))}",
            path=source,
        )
    if paper.key_digest != data.get("key_digest"):
        raise CheckoutFileError(
            f"was not graded against the key issued for paper {paper.paper_id}", path=source
        )
    graded = state.graded.get(paper.paper_id)
    if (
        graded is None
        or graded.answers_digest != data.get("answers_digest")
        or graded.passed != data.get("passed")
    ):
        raise CheckoutFileError(
            f"is not the grading the ledger recorded for paper {paper.paper_id}", path=source
        )
    if bool(data.get("practice")) != paper.practice or bool(data.get("proctored")) != graded.proctored:
        raise CheckoutFileError(
            f"says practice or proctored where the ledger does not, for paper {paper.paper_id}", path=source
        )
    return VerifiedResult(
        paper.trainee,
        paper.paper_id,
        graded.passed,
        paper.practice,
        graded.proctored,
        paper.issued,
        graded.graded,
        source,
        data,
        paper.line,
    )


def _result_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and every ``*.json`` in each folder (sorted)."""
    found: list[Path] = []
    for item in paths:
        path = Path(item).expanduser()
        try:
            found += sorted(path.glob("*.json")) if path.is_dir() else [path]
        except (OSError, ValueError):
            found.append(path)
    return found


def verified_results(
    paths: Iterable[str | Path], trainer: TrainerSecret, *, max_bytes: int = MAX_CHECKOUT_BYTES
) -> tuple[list[VerifiedResult], list[tuple[str, str]]]:
    """Every result file in ``paths`` (files, or folders of ``*.json``) checked; the refused with reasons.

    Raises :class:`helpers.trainer.secret.TrainerSecretError` when the ledger cannot be read.
    """
    from helpers.trainer.signed_result import load_result

    state = Ledger(trainer).read()
    found: list[VerifiedResult] = []
    refused: list[tuple[str, str]] = []
    first: dict[str, str] = {}
    for path in _result_files(paths):
        source = shown_path(path)
        try:
            data = load_result(path, trainer=trainer, max_bytes=max_bytes)
            result = _check(data, state, source)
        except CheckoutFileError as exc:
            refused.append((source, f"check-out result: {exc.message}"))
            continue
        except Exception as exc:  # anything one file raises is its line, so the rest are still read
            refused.append(
                (
                    source,
                    f"check-out result: cannot be read ({type(exc).__name__}: {describe_value(str(exc))})",
                )
            )
            continue
        if result.paper_id in first:
            refused.append(
                (
                    source,
                    f"check-out result: a second copy of paper {result.paper_id}'s result "
                    f"(it counts once, from {first[result.paper_id]})",
                )
            )
            continue
        first[result.paper_id] = source
        found.append(result)
    return found, refused


def counting_result(
    results: Sequence[VerifiedResult], *, require_proctored: bool = False
) -> VerifiedResult | None:
    """The result that decides a trainee's check-out: their newest counting paper, or None.

    Practice papers never count; with ``require_proctored`` only proctored ones do. The
    newest paper issued decides (a later failed paper outweighs an earlier pass).
    """
    counting = [r for r in results if r.counts and (r.proctored or not require_proctored)]
    return max(counting, key=lambda r: r.order) if counting else None


def newest_paper(
    state: LedgerState, trainee: str, *, require_proctored: bool = False
) -> tuple[IssuedPaper, GradedPaper | None] | None:
    """The trainee's newest counting paper in the ledger, with its grading (None while not graded).

    What decides, whichever result files are given (:func:`counting_result`'s rule, the newest paper
    issued): a result for an older paper does not stand for the trainee while the ledger holds a newer
    one, graded or still out. Practice papers never count; with ``require_proctored`` only proctored ones do.
    """
    papers = [
        (paper, state.graded.get(paper.paper_id))
        for paper in state.issued.values()
        if paper.trainee == trainee and not paper.practice
    ]
    counting = [
        (paper, graded)
        for paper, graded in papers
        if not require_proctored or (graded.proctored if graded is not None else paper.proctored)
    ]
    return max(counting, key=lambda pair: pair[0].line) if counting else None


#: The confidence a result is read at when it does not say (the check-out's own, 95%).
_DEFAULT_CONFIDENCE = 0.95


@dataclass(frozen=True)
class CertifiedBound:
    """What one graded check-out proves: accuracy at least :attr:`lower` with :attr:`confidence`.

    ``correct`` of ``total`` cases fully correct; :attr:`lower` is the one-sided exact
    (Clopper–Pearson) lower bound of :func:`helpers.trainee.confidence.accuracy_lower_bound`.
    """

    correct: int
    total: int
    confidence: float
    lower: float

    @property
    def shown(self) -> str:
        """The bound rounded down to two places (never shown higher than it is)."""
        return f"{math.floor(self.lower * 100 + 1e-9) / 100:.2f}"

    @property
    def text(self) -> str:
        """``accuracy ≥ 0.86 at 95% confidence, 53 of 56``."""
        return f"accuracy ≥ {self.shown} at {self.confidence:.0%} confidence, {self.correct} of {self.total}"

    def to_data(self) -> dict[str, Any]:
        """As JSON: the bound rounded down to six places, the confidence, the counts and the text."""
        return {
            "lower_bound": math.floor(self.lower * 1e6) / 1e6,
            "confidence": self.confidence,
            "correct": self.correct,
            "total": self.total,
            "statement": self.text,
        }


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def certified_bound(result: Mapping[str, Any] | None) -> CertifiedBound | None:
    """The accuracy bound a verified result certifies, from its signed counts; None if it cannot say.

    The counts are the result's per-case verdicts (``cases``, each ``correct`` true or
    false), which must agree with its ``fully_correct`` and ``cases_total``; the bound is
    worked out again from them (:func:`helpers.trainee.confidence.accuracy_lower_bound`), so the
    ``accuracy_lower_bound`` and ``statement`` the file holds are never what is shown. A
    result marked ``"verified": false``, or whose counts disagree, certifies nothing.
    Taught in ``06_trainer.ipynb``.
    """
    if result is None or result.get("verified", True) is not True:
        return None
    cases = result.get("cases")
    if not isinstance(cases, list) or not cases or not all(isinstance(c, Mapping) for c in cases):
        return None
    verdicts = [c.get("correct") for c in cases]
    if not all(isinstance(v, bool) for v in verdicts):
        return None
    correct, total = sum(verdicts), len(verdicts)
    if _count(result.get("fully_correct")) != correct or _count(result.get("cases_total")) != total:
        return None
    confidence = result.get("confidence", _DEFAULT_CONFIDENCE)
    if isinstance(confidence, bool) or not isinstance(confidence, float) or not 0 < confidence < 1:
        return None
    return CertifiedBound(correct, total, confidence, accuracy_lower_bound(correct, total, confidence))
