"""A check-out's issued files: the paper, its key and the key's baseline, written whole or not at all.

Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from helpers.core.baselines import revise_baseline
from helpers.core.errors import CheckInputError, CheckoutFileError
from helpers.core.files import PendingFile
from helpers.trainer.answer_key import key_baseline_path, key_digests
from helpers.trainer.checkout_format import digest
from helpers.trainer.paper import Issued

__all__ = [
    "write_checkout",
]


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
                        "key_digest": digest({k: v for k, v in key.items() if k != "signature"}),
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
