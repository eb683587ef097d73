"""A check-out file's format: its kinds and version, read strictly against its schema, and its digest.

The paper, key, answers and result files each carry a ``format`` and ``version``
(:data:`VERSION`); :func:`parse_file` refuses any other, then checks the file against its
schema (:mod:`helpers.trainer.file_schemas`), and a signed file (key, result) is
refused for a missing or wrong signature first (:func:`check_signed_shape`). Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckoutFileError, JSONLoadError, describe_value
from helpers.core.jsonio import dumps_compact, loads_document
from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES, read_bounded
from helpers.trainer.file_schemas import check_schema, schema_problem

__all__ = [
    "PAPER_FORMAT",
    "KEY_FORMAT",
    "ANSWERS_FORMAT",
    "RESULT_FORMAT",
    "VERSION",
    "utc_now",
    "digest",
    "read_file",
    "parse_file",
    "check_signed_shape",
]

PAPER_FORMAT = "eval-integrity-checkout-paper"
KEY_FORMAT = "eval-integrity-checkout-key"
ANSWERS_FORMAT = "eval-integrity-checkout-answers"
RESULT_FORMAT = "eval-integrity-checkout-result"
VERSION = 1


def utc_now() -> str:
    """Now, in UTC to the second (``2026-12-01T09:00:00Z``): when a file was issued, answered or graded."""
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def digest(value: Any) -> str:
    """The SHA-256 of ``value`` as compact JSON: what the ledger and a result keep of a key or answers."""
    return hashlib.sha256(dumps_compact(value).encode("utf-8")).hexdigest()


#: Each check-out file's schema (:mod:`helpers.trainer.file_schemas`), by its ``format``.
_SCHEMA_OF = {PAPER_FORMAT: "paper", KEY_FORMAT: "key", ANSWERS_FORMAT: "answers", RESULT_FORMAT: "result"}


def read_file(
    path: str | Path, fmt: str, max_bytes: int = MAX_CHECKOUT_BYTES, *, signed: bool = False
) -> dict[str, Any]:
    """A check-out file read from ``path`` (at most ``max_bytes``) as :func:`parse_file` reads its bytes."""
    return parse_file(read_bounded(path, limit=max_bytes), fmt, str(path), signed=signed)


def parse_file(raw: bytes, fmt: str, source: str, *, signed: bool = False) -> dict[str, Any]:
    """A check-out file's bytes read strictly: JSON, of this ``fmt`` and version, as its schema
    describes it; else CheckoutFileError naming the field. ``signed``: its schema is left to
    :func:`check_signed_shape`, so a file not signed by the trainer is refused for that first."""
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


def check_signed_shape(fmt: str, data: dict[str, Any], source: str, trainer: Any, extra: Any = None) -> None:
    """Refuse a signed file (key, result) its schema refuses; with ``trainer``, one it did not sign first."""
    problem = schema_problem(_SCHEMA_OF[fmt], data)
    if problem is None:
        return
    if trainer is not None:
        body = {k: v for k, v in data.items() if k != "signature"}
        kind = "key" if fmt == KEY_FORMAT else "result"
        trainer.verify(kind, body, data.get("signature"), source=source, extra=extra)
    raise CheckoutFileError(problem, path=source)
