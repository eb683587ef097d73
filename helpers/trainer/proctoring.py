"""A proctored check-out: a paper sat through the trainer's own app, graded and signed on the trainer's side.

The notebook check-out is on the trainee's honour: with a live kernel they can compute
any check. Served by the trainer through Voilà (``python -m helpers checkout proctor``),
the same paper leaves the trainee no kernel to compute with: Voilà lets the page send
only widget messages, never code. The pieces here are headless:

* :func:`prepare_sitting` issues a proctored paper into the trainer's folder
  (``proctored/PAPER_ID/``, beside nothing the trainee can reach);
* :func:`open_sitting` opens it: the ledger records the sitting the first time, and every later
  opening (a reload, a dropped connection, a culled kernel, a restarted proctor) as a signed
  ``resumed`` event with the gap it covered; the sitting resumes at the next unanswered case;
* :meth:`ProctoredSitting.sitting` serves it through a :class:`KeptSitting`, which writes every
  answer to ``answers.json`` in the sitting's folder, atomically and owner-only, before the next
  case is shown; the answers saved are replayed on a resume and can never be changed;
* :func:`grade_sitting` (what :meth:`ProctoredSitting.hand_in` and ``checkout grade --sitting``
  run) grades the saved answers with the key and writes the signed result (marked proctored,
  with its resumes) to ``results/PAPER_ID.json`` in the trainer's folder *before* the ledger
  says "graded", so a hand-in that failed to write can be graded again from the saved answers.
  ``cohort --checkouts DIR/results --require-proctored`` counts the result.

Nothing is ever written where the app serves files, so nothing is offered for download.
Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckoutFileError
from helpers.core.files import write_atomically
from helpers.trainee.grading import Answer
from helpers.trainer.answer_key import load_key
from helpers.trainer.answers import parse_answer
from helpers.trainer.bounded_file import read_bounded
from helpers.trainer.checkout import CheckoutSitting
from helpers.trainer.checkout_result import CheckoutResult
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.ledger import Ledger
from helpers.trainer.owner_only import FILE_MODE, owner_folder, remove_made
from helpers.trainer.paper import issue_checkout, load_paper
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.signed_result import SignedCheckoutResult, grade_files

__all__ = [
    "SITTING_ENV",
    "TRAINER_ENV",
    "KeptSitting",
    "ProctoredSitting",
    "grade_sitting",
    "resumable_sitting",
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


def _seconds_between(earlier: str, later: str) -> int | None:
    try:
        first, second = _dt.datetime.fromisoformat(earlier), _dt.datetime.fromisoformat(later)
    except (TypeError, ValueError):
        return None
    return max(0, round((second - first).total_seconds()))


def saved_answers(folder: Path) -> dict[str, Any] | None:
    """The answers saved so far in a sitting's folder (``answers.json``), or None before the first."""
    path = folder / _ANSWERS
    if not os.path.lexists(path):
        return None
    raw = read_bounded(path, what="a sitting's saved answers")
    try:
        data = json.loads(raw)
    except ValueError:
        raise CheckoutFileError(
            "is not JSON: the saved answers were changed by hand", path=str(path)
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("answers"), list):
        raise CheckoutFileError("holds no list of answers: it was changed by hand", path=str(path))
    return data


def _replay(sitting: Any, rows: list[Any], source: str) -> None:
    """Answer ``sitting`` with the saved ``rows`` again, in order; each must be the case served next."""
    for index, raw in enumerate(rows):
        case = sitting.current()
        if case is None or not isinstance(raw, Mapping) or raw.get("label") != case["label"]:
            raise CheckoutFileError(
                f"answers[{index}] is not the case this sitting served next: the saved answers were changed",
                path=source,
            )
        answer, action = parse_answer(raw, case["check"], f"answers[{index}]", source)
        sitting.submit(answer, action)
        sitting.seconds[case["label"]] = float(raw.get("seconds", 0))


class KeptSitting:
    """A sitting whose every answer is saved on the trainer's side before the next case is shown.

    Wraps a sequential :class:`helpers.trainer.sitting.Sitting` or a fixed paper's
    :class:`CheckoutSitting` (what the check-out widget draws; every other attribute is the
    wrapped sitting's). Made with the answers saved so far replayed, so it resumes at the next
    unanswered case. An answer that cannot be saved is not taken: the same case is served again.
    """

    def __init__(self, fresh: Callable[[], Any], folder: Path) -> None:
        self._fresh = fresh
        self.folder = folder
        saved = saved_answers(folder)
        self._rows: list[Any] = [] if saved is None else list(saved["answers"])
        self.inner = self._replayed()

    def _replayed(self) -> Any:
        sitting = self._fresh()
        _replay(sitting, self._rows, str(self.folder / _ANSWERS))
        return sitting

    def __getattr__(self, name: str) -> Any:
        if "inner" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["inner"], name)

    def submit(self, answer: Answer, action: str | None) -> None:
        """Take the answer to the case served now and save every answer so far; then the next case is served."""
        self.inner.submit(answer, action)
        data = self.inner.answers_data()
        try:
            self._save(data)
        except BaseException:
            self.inner = self._replayed()  # not saved, so not taken: this case is served again
            raise
        self._rows = data["answers"]

    answer = submit

    def _save(self, data: Mapping[str, Any]) -> None:
        from filelock import FileLock, Timeout

        path = self.folder / _ANSWERS
        try:
            with FileLock(str(path) + ".lock", timeout=10, mode=FILE_MODE):
                saved = saved_answers(self.folder)
                if (saved["answers"] if saved is not None else []) != self._rows:
                    raise CheckoutFileError(
                        "the answers saved for this sitting changed since this page opened (another page "
                        "of the same sitting?); reload the page to go on from them",
                        path=str(path),
                    )
                write_atomically(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", mode=FILE_MODE)
        except Timeout:
            raise CheckoutFileError(
                "is in use by another page of this sitting; try again", path=str(path)
            ) from None
        except OSError as exc:
            raise CheckoutFileError(
                f"cannot be written ({exc.strerror or type(exc).__name__}); this answer was not taken",
                path=str(path),
            ) from None


@dataclass(frozen=True)
class ProctoredSitting:
    """One proctored paper, opened: where its paper, key, answers and result live on the trainer's side."""

    trainer: TrainerSecret
    folder: Path
    paper: Mapping[str, Any]
    key: Mapping[str, Any] | None = None
    #: This opening's resume as the ledger recorded it (``resumed``, ``answered``, ``gap_seconds``), or None.
    resumed: Mapping[str, Any] | None = None

    def sitting(self) -> KeptSitting:
        """The sitting, every answer saved as it is given, resumed at the next unanswered case."""
        return KeptSitting(lambda: _fresh_sitting(self.paper, self.key), self.folder)

    @property
    def result_path(self) -> Path:
        """``results/PAPER_ID.json`` in the trainer's folder."""
        return self.trainer.folder / "results" / f"{self.paper['paper_id']}.json"

    def hand_in(self) -> CheckoutResult:
        """Grade the saved answers with the key and write the signed, proctored result (see :func:`grade_sitting`)."""
        return grade_sitting(self.folder, self.trainer)


def _fresh_sitting(paper: Mapping[str, Any], key: Mapping[str, Any] | None) -> Any:
    from helpers.trainer.sitting import Sitting

    if key is not None and key.get("sequential"):
        return Sitting(paper, key)
    return CheckoutSitting(paper)


def grade_sitting(folder: str | Path, trainer: TrainerSecret) -> CheckoutResult:
    """Grade a finished proctored sitting's saved answers and write its signed result, then record it.

    The result is written to ``results/PAPER_ID.json`` before the ledger says "graded": a write
    that fails (a full disk) records nothing, and this may be run again (``checkout grade --sitting``).
    A sitting not finished, or a paper graded with its result on disk, is refused.
    """
    folder = Path(folder)
    paper = load_paper(folder / _PAPER)
    key = load_key(folder / _KEY, trainer=trainer)
    saved = saved_answers(folder)
    replayed = KeptSitting(lambda: _fresh_sitting(paper, key), folder) if saved is not None else None
    if replayed is None or not replayed.done:
        answered = 0 if replayed is None else len(replayed.answers)
        raise CheckoutFileError(
            f"the sitting is not finished ({answered} cases answered); the trainee resumes it at the link",
            path=str(folder),
        )
    result_path = trainer.folder / "results" / f"{paper['paper_id']}.json"

    def keep(result: SignedCheckoutResult, again: bool) -> None:
        if again and result_path.exists():
            raise CheckoutFileError("this paper is handed in already", path=str(result_path))
        text = json.dumps(result.to_data(), ensure_ascii=False, indent=1) + "\n"
        try:
            owner_folder(result_path.parent)
            write_atomically(result_path, text, mode=FILE_MODE)
        except OSError as exc:
            raise CheckoutFileError(
                f"cannot be written ({exc.strerror or type(exc).__name__}); nothing was recorded, and the "
                "saved answers can be graded again",
                path=str(result_path),
            ) from None

    return grade_files(folder / _ANSWERS, folder / _KEY, trainer=trainer, proctored=True, keep=keep)


def prepare_sitting(
    trainee: str, trainer: TrainerSecret, *, count: int | None = None, cooldown_hours: float | None = None
) -> Path:
    """Issue a proctored check-out for ``trainee`` into ``proctored/PAPER_ID/`` in the trainer's folder.

    Sequential (served case by case by :mod:`helpers.trainer.sequential`) unless ``count``
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
    """Open a prepared sitting; opened before, it resumes, and the ledger records the resume and its gap.

    A paper graded already is refused (:class:`CheckoutFileError`): its sitting is over.
    """
    folder = Path(folder)
    paper = load_paper(folder / _PAPER)
    paper_id = paper["paper_id"]
    ledger = Ledger(trainer)
    resumed = None
    with ledger.locked() as state:
        issued = state.issued.get(paper_id)
        if issued is None or not issued.proctored:
            raise CheckoutFileError("is not a proctored paper this trainer issued", path=str(folder))
        graded = state.graded.get(paper_id)
        if graded is not None:
            raise CheckoutFileError(
                f"this paper was handed in and graded at {graded.graded}; its sitting is over",
                path=str(folder),
            )
        started = state.sittings.get(paper_id)
        now = _now()
        if started is None:
            ledger.append({"event": "sitting", "paper_id": paper_id, "started": now})
        else:
            saved = saved_answers(folder)
            last = str(saved.get("submitted")) if saved is not None else started
            resumed = {
                "resumed": now,
                "answered": 0 if saved is None else len(saved["answers"]),
                "gap_seconds": _seconds_between(last, now),
            }
            ledger.append({"event": "resumed", "paper_id": paper_id, **resumed})
    key = load_key(folder / _KEY, trainer=trainer)
    return ProctoredSitting(trainer, folder, paper, key, resumed)


def resumable_sitting(folder: str | Path, trainer: TrainerSecret) -> Path:
    """A prepared sitting's folder that ``checkout proctor --sitting`` may serve again: issued here, not graded.

    Nothing is recorded (the page's opening records the resume). Raises :class:`CheckoutFileError`.
    """
    folder = Path(folder)
    paper = load_paper(folder / _PAPER)
    state = Ledger(trainer).read()
    issued = state.issued.get(paper["paper_id"])
    if (
        issued is None
        or not issued.proctored
        or folder.resolve().parent != (trainer.folder / "proctored").resolve()
    ):
        raise CheckoutFileError("is not a proctored sitting in this trainer's folder", path=str(folder))
    graded = state.graded.get(paper["paper_id"])
    if graded is not None:
        raise CheckoutFileError(
            f"was handed in and graded at {graded.graded}; its sitting is over", path=str(folder)
        )
    return folder


def sitting_from_environment(env: Mapping[str, str] | None = None) -> ProctoredSitting:
    """The sitting the app's kernel was started for (:data:`SITTING_ENV`, :data:`TRAINER_ENV`), opened."""
    env = os.environ if env is None else env
    if not env.get(SITTING_ENV):
        raise CheckoutFileError("no proctored sitting was prepared for this page", path=SITTING_ENV)
    trainer = TrainerSecret.open(env.get(TRAINER_ENV) or None)
    return open_sitting(env[SITTING_ENV], trainer)
