"""A check-out graded by the trainer: the result signed and entered in the ledger, and read back.

Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckoutFileError, JSONLoadError
from helpers.core.jsonio import loads_document
from helpers.trainer.answer_key import load_key
from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES, read_bounded
from helpers.trainer.checkout_format import RESULT_FORMAT, check_signed_shape, digest, read_file
from helpers.trainer.checkout_result import CheckoutResult
from helpers.trainer.marking import grade_checkout

__all__ = [
    "SignedCheckoutResult",
    "grade_files",
    "load_result",
]


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
        answers_digest = digest(answers)  # what the ledger keeps of them, so worked out before grading
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
            key_digest=digest(key),
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


def load_result(
    path: str | Path, *, trainer: Any = None, max_bytes: int = MAX_CHECKOUT_BYTES
) -> dict[str, Any]:
    """Read a graded check-out (``checkout grade --json`` output); raises ``CheckoutFileError``.

    With ``trainer``, the result must carry that trainer's signature (a hand-written
    result, or one whose trainee, verdict or any other field was edited, is refused);
    it is returned without the signature. Whether its paper was issued and graded as the
    result says is the ledger's to tell: see :mod:`helpers.trainer.verified_results`.
    """
    data = read_file(path, RESULT_FORMAT, max_bytes, signed=True)
    check_signed_shape(RESULT_FORMAT, data, str(path), trainer)
    signature = data.pop("signature", None)
    if trainer is not None:
        trainer.verify("result", data, signature, source=str(path))
    return data
