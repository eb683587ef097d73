"""A check-out's answer key, guarded as the project guards its own worked answers.

A baseline beside the key (``KEY.baseline.json``, written through
:func:`helpers.core.baselines.revise_baseline`) maps each label to a digest of its case,
and reading the key runs :func:`helpers.core.sentinels.check_sentinels` over it: a changed,
missing or extra entry refuses the key. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from helpers.core.baselines import baseline_from_data
from helpers.core.errors import CheckInputError, CheckoutFileError, describe_value
from helpers.core.jsonio import loads_document
from helpers.core.sentinels import check_sentinels
from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES, read_bounded
from helpers.trainer.checkout_format import KEY_FORMAT, check_signed_shape, digest, read_file

__all__ = [
    "key_digests",
    "key_baseline_path",
    "verify_key",
    "load_key",
]

#: The baseline entry that guards the key's own fields (trainee, paper id, seed, …).
_HEADER = "(key)"


def key_digests(key: Mapping[str, Any]) -> dict[str, str]:
    """Each case label's digest, and the key's own fields under ``"(key)"``: the key as a sentinel answer key."""
    header = {k: v for k, v in key.items() if k not in ("cases", "signature")}
    found = {_HEADER: digest(header)}
    for case in key.get("cases") or []:
        label = case.get("label") if isinstance(case, Mapping) else None
        if not isinstance(label, str) or label in found:
            raise CheckoutFileError(
                f"has a case with the label {describe_value(label)}, expected distinct labels", path="key"
            )
        found[label] = digest(case)
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
    key = read_file(path, KEY_FORMAT, max_bytes, signed=True)
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
    check_signed_shape(KEY_FORMAT, key, str(path), trainer, dict(answers))
    verify_key(key, answers, source=str(path))
    signature = key.pop("signature", None)
    if trainer is not None:
        trainer.verify("key", key, signature, source=str(path), extra=dict(answers))
    return key
