"""A proctored check-out: a paper sat through the trainer's own app, graded and signed on the trainer's side.

The notebook check-out is on the trainee's honour: with a live kernel they can compute
any check. Served by the trainer through Voilà (``python -m helpers checkout proctor``),
the same paper leaves the trainee no kernel to compute with: Voilà lets the page send
only widget messages, never code. The pieces here are headless:

* :func:`prepare_sitting` issues a proctored paper into the trainer's folder
  (``proctored/PAPER_ID/``, beside nothing the trainee can reach);
* :func:`open_sitting` opens it once: the ledger records the sitting, and a second
  opening (a reloaded page, a second tab) is refused, so there is one sitting per paper;
* :meth:`ProctoredSitting.hand_in` writes the answers there, grades them with the key,
  and writes the signed result (marked proctored) to ``results/PAPER_ID.json`` in the
  trainer's folder, which ``cohort --checkouts DIR/results --require-proctored`` counts.

Nothing is ever written where the app serves files, so nothing is offered for download.
Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import CheckoutFileError
from ...core.files import write_atomically
from .checkout import (
    CheckoutResult,
    grade_files,
    issue_checkout,
    load_key,
    load_paper,
    write_answers,
    write_checkout,
)
from .ledger import Ledger
from .owner_only import FILE_MODE, owner_folder, remove_made
from .secret import TrainerSecret

__all__ = [
    "SITTING_ENV",
    "TRAINER_ENV",
    "ProctoredSitting",
    "prepare_sitting",
    "open_sitting",
    "sitting_from_environment",
]

#: The environment variables the app's kernel reads: the sitting's folder, and the trainer's folder.
SITTING_ENV = "EIC_PROCTORED_SITTING"
TRAINER_ENV = "EIC_PROCTOR_TRAINER_DIR"

_PAPER, _KEY, _ANSWERS = "paper.json", "paper.key.json", "answers.json"


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class ProctoredSitting:
    """One proctored paper, opened: where its paper, key, answers and result live on the trainer's side."""

    trainer: TrainerSecret
    folder: Path
    paper: Mapping[str, Any]
    key: Mapping[str, Any] | None = None

    def sitting(self) -> Any:
        """The case-by-case sitting of a sequential paper (the key serves it), or None for a fixed paper."""
        from .sitting import Sitting

        if self.key is None or not self.key.get("sequential"):
            return None
        return Sitting(self.paper, self.key)

    @property
    def result_path(self) -> Path:
        """``results/PAPER_ID.json`` in the trainer's folder."""
        return self.trainer.folder / "results" / f"{self.paper['paper_id']}.json"

    def hand_in(self, answers: Mapping[str, Any]) -> CheckoutResult:
        """Write the answers (once), grade them with the key, and write the signed, proctored result.

        A hand-in that failed part-way (the ledger busy, a full disk) may be tried again with the
        very same answers; other answers are refused once some are written.
        """
        if self.result_path.exists():
            raise CheckoutFileError("this paper is handed in already", path=str(self.result_path))
        answers_path = self.folder / _ANSWERS
        same = json.dumps(answers, ensure_ascii=False, indent=1) + "\n"
        if not (answers_path.is_file() and answers_path.read_text(encoding="utf-8") == same):
            write_answers(answers, answers_path, mode=FILE_MODE)
        result = grade_files(answers_path, self.folder / _KEY, trainer=self.trainer, proctored=True)
        owner_folder(self.result_path.parent)
        text = json.dumps(result.to_data(), ensure_ascii=False, indent=1) + "\n"
        try:
            write_atomically(self.result_path, text, replace=False, mode=FILE_MODE)
        except OSError as exc:
            raise CheckoutFileError(
                f"cannot be written ({exc.strerror or type(exc).__name__})", path=str(self.result_path)
            ) from None
        return result


def prepare_sitting(
    trainee: str, trainer: TrainerSecret, *, count: int | None = None, cooldown_hours: float | None = None
) -> Path:
    """Issue a proctored check-out for ``trainee`` into ``proctored/PAPER_ID/`` in the trainer's folder.

    Sequential (served case by case by :mod:`helpers.teach.trainer.sequential`) unless ``count``
    asks for a fixed paper of that many cases. ``cooldown_hours`` after a failed paper the ledger
    refuses the next one (default 12; 0 for none). Folders are made owner-only. If the paper cannot
    be issued (a full disk, the ledger busy, the cooldown), the folders made for it are removed again;
    one that cannot be is named.
    """
    issued = issue_checkout(trainee, count=count, sequential=count is None)
    folder = trainer.folder / "proctored" / issued.paper["paper_id"]
    try:
        made = owner_folder(folder, exist_ok=False)
    except OSError as exc:
        raise CheckoutFileError(
            f"cannot be made ({exc.strerror or type(exc).__name__})", path=str(folder)
        ) from None
    try:
        write_checkout(
            issued,
            folder / _PAPER,
            folder / _KEY,
            trainer=trainer,
            proctored=True,
            cooldown_hours=cooldown_hours,
        )
    except BaseException as exc:
        left = remove_made(made)
        if left and isinstance(exc, CheckoutFileError):
            said = exc.message.removesuffix("; nothing was left behind")
            raise CheckoutFileError(
                f"{said}; left behind: {', '.join(map(str, left))} (not empty; remove it before a retry)",
                path=exc.path,
            ) from None
        raise
    return folder


def open_sitting(folder: str | Path, trainer: TrainerSecret) -> ProctoredSitting:
    """Open a prepared sitting once; a second opening is refused (:class:`CheckoutFileError`)."""
    folder = Path(folder)
    paper = load_paper(folder / _PAPER)
    ledger = Ledger(trainer)
    with ledger.locked() as state:
        issued = state.issued.get(paper["paper_id"])
        if issued is None or not issued.proctored:
            raise CheckoutFileError("is not a proctored paper this trainer issued", path=str(folder))
        started = state.sittings.get(paper["paper_id"])
        if started is not None:
            raise CheckoutFileError(
                f"this paper was opened at {started}; one sitting per paper, so ask your trainer for a new one",
                path=str(folder),
            )
        ledger.append({"event": "sitting", "paper_id": paper["paper_id"], "started": _now()})
    key = load_key(folder / _KEY, trainer=trainer)
    return ProctoredSitting(trainer, folder, paper, key)


def sitting_from_environment(env: Mapping[str, str] | None = None) -> ProctoredSitting:
    """The sitting the app's kernel was started for (:data:`SITTING_ENV`, :data:`TRAINER_ENV`), opened."""
    env = os.environ if env is None else env
    if not env.get(SITTING_ENV):
        raise CheckoutFileError("no proctored sitting was prepared for this page", path=SITTING_ENV)
    trainer = TrainerSecret.open(env.get(TRAINER_ENV) or None)
    return open_sitting(env[SITTING_ENV], trainer)
