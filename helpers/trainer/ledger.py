"""The trainer's ledger of check-out papers: who each was issued to, when, with which key, and its grading.

``ledger.jsonl`` in the trainer's folder (:mod:`helpers.trainer.secret`), one JSON line
per event, each signed with the trainer's secret, changed only under a lock
(``filelock``) and rewritten atomically, owner-only. The lines are chained: each carries
``prev``, the SHA-256 of the line before it (``""`` for the first), under its signature, and
``ledger-head.json`` beside it holds the signed count and digest of the last line written; so a
line removed, added or moved, or lines cut from the end, are refused with the line that shows it.
A ledger written before the chain (no ``prev`` on any line) is read as it is, and chained in
full, re-signed, by the next line added. Its events:

* ``issued``: trainee, paper id, time, the key's digest, practice (a ``--seed`` paper) or
  not, proctored or not;
* ``graded``: the paper, the digest of the answers graded, pass or not, time;
* ``sitting``: a proctored paper opened (once; later openings are ``resumed``);
* ``resumed``: that sitting opened again (a reload, a dropped connection, a new kernel), with the
  time, the answers kept and the gap it covered (seconds since the last answer saved).

What it decides (:meth:`Ledger.check_grade`): a paper is graded only if this trainer
issued it, to the trainee it names, with this key; once (grading the same answers again
gives the same verdict; other answers are refused: a retake needs a new paper); and only
while it is the trainee's newest paper (a new paper replaces one not yet graded, so a
trainee cannot sit two and hand in the better). After a failed paper the next one waits
:data:`COOLDOWN_HOURS` (:meth:`Ledger.check_issue`): a trainee at 85% passes a paper one
time in twenty, so papers issued back to back would let luck through; a 12-hour wait
(Khan Academy's rule for its mastery challenges) leaves time to practise first.
Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckInputError, CheckoutFileError, describe_value
from helpers.core.files import write_atomically
from helpers.trainee.progress.paths import shown_path
from helpers.trainer.file_schemas import schema_problem
from helpers.trainer.secret import TrainerSecret, TrainerSecretError

__all__ = [
    "LEDGER_NAME",
    "HEAD_NAME",
    "COOLDOWN_HOURS",
    "IssuedPaper",
    "GradedPaper",
    "LedgerState",
    "Ledger",
]

LEDGER_NAME = "ledger.jsonl"
#: The signed record of the ledger's length and last line, written after each line is added.
HEAD_NAME = "ledger-head.json"
_MAX_HEAD_BYTES = 4096
#: Hours after a failed check-out before the trainee's next paper (``--cooldown`` changes it).
COOLDOWN_HOURS = 12.0
#: How long a second writer waits for the ledger's lock.
_WAIT_SECONDS = 10.0
_MAX_LEDGER_BYTES = 64 * 2**20


def _when(text: str) -> _dt.datetime | None:
    try:
        moment = _dt.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=_dt.UTC)


def _digest(line: bytes) -> str:
    """A ledger line's SHA-256, as the next line's ``prev`` and the head's ``last`` name it."""
    return hashlib.sha256(line).hexdigest()


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class IssuedPaper:
    """A paper as the ledger recorded its issue."""

    trainee: str
    paper_id: str
    issued: str
    key_digest: str
    practice: bool
    proctored: bool
    line: int


@dataclass(frozen=True)
class GradedPaper:
    """A paper's grading as the ledger recorded it."""

    paper_id: str
    answers_digest: str
    passed: bool
    graded: str
    proctored: bool
    line: int


@dataclass
class LedgerState:
    """Every paper issued, graded and opened, by paper id."""

    issued: dict[str, IssuedPaper] = field(default_factory=dict)
    graded: dict[str, GradedPaper] = field(default_factory=dict)
    sittings: dict[str, str] = field(default_factory=dict)
    #: Each proctored sitting's resumes, in order: ``{"resumed", "answered", "gap_seconds"}``.
    resumes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    lines: int = 0
    #: Whether every line is chained (False for a ledger written before the chain, or an empty one).
    chained: bool = False

    def replaced_by(self, paper: IssuedPaper) -> IssuedPaper | None:
        """The trainee's later counting paper issued before ``paper`` was graded, if any."""
        if paper.practice:
            return None
        graded = self.graded.get(paper.paper_id)
        for other in self.issued.values():
            if (
                other.line > paper.line
                and other.trainee == paper.trainee
                and not other.practice
                and (graded is None or graded.line > other.line)
            ):
                return other
        return None


class Ledger:
    """The ledger in a trainer's folder, read and written with that trainer's secret."""

    def __init__(self, secret: TrainerSecret) -> None:
        self.secret = secret
        self.path = secret.folder / LEDGER_NAME

    def _shown(self) -> str:
        return shown_path(self.path)

    def read(self) -> LedgerState:
        """The ledger's state; a line not signed by this trainer, or out of its chain, is refused.

        Raises :class:`TrainerSecretError` naming the first line that shows the change: a line edited,
        removed, added or moved, or lines cut from the end (fewer than ``ledger-head.json`` records).
        """
        from helpers.trainer.bounded_file import read_bounded

        head = self._read_head()
        if not os.path.lexists(self.path):
            if head is not None and head[0]:
                raise TrainerSecretError(
                    f"is missing, but {HEAD_NAME} records {head[0]} lines: the ledger was removed",
                    path=self._shown(),
                )
            return LedgerState()
        try:
            raw = read_bounded(self.path, limit=_MAX_LEDGER_BYTES, what="a ledger")
        except CheckoutFileError as exc:
            raise TrainerSecretError(exc.message, path=self._shown()) from None
        state = LedgerState()
        lines = raw.splitlines()
        digests: list[str] = []
        legacy = 0
        for number, line in enumerate(lines, start=1):
            try:
                entry = json.loads(line.decode("utf-8", "replace"))
                body = {k: v for k, v in entry.items() if k != "signature"}
                self.secret.verify("ledger", body, entry.get("signature"), source=self._shown())
            except (ValueError, AttributeError, CheckoutFileError):
                raise TrainerSecretError(
                    f"line {number} is not a ledger entry signed by this trainer's secret; "
                    "the ledger was changed by hand or belongs to another trainer",
                    path=self._shown(),
                ) from None
            problem = schema_problem("ledger line", entry)
            if problem is not None:  # signed, but not a line these helpers write
                raise TrainerSecretError(f"line {number}: {problem}", path=self._shown())
            link = body.get("prev")
            if link is None and len(digests) == legacy:
                legacy += 1  # written before the chain: only ever a prefix of the ledger
            elif link != (digests[-1] if digests else ""):
                raise TrainerSecretError(
                    f"line {number} does not follow the line before it: a line was removed, added or moved "
                    "by hand",
                    path=self._shown(),
                )
            digests.append(_digest(line))
            self._take(state, body, number)
        state.lines = raw.count(b"\n")
        state.chained = bool(lines) and legacy == 0
        if legacy < len(lines) or head is not None:
            self._check_head(head, digests)
        return state

    def _check_head(self, head: tuple[int, str] | None, digests: list[str]) -> None:
        """Refuse a chained ledger shorter than its head records, or whose line there is another."""
        if head is None:
            raise TrainerSecretError(
                f"has chained lines but {HEAD_NAME} is missing beside it: lines may have been cut from its end",
                path=self._shown(),
            )
        count, last = head
        if count > len(digests) or (count and digests[count - 1] != last):
            raise TrainerSecretError(
                f"holds {len(digests)} lines, but {HEAD_NAME} records {count} ending in another line: "
                "lines were cut from its end or changed",
                path=self._shown(),
            )

    @property
    def head_path(self) -> Path:
        """``ledger-head.json`` beside the ledger."""
        return self.secret.folder / HEAD_NAME

    def _read_head(self) -> tuple[int, str] | None:
        """The head's (line count, last line's digest), or None when there is none; a bad one is refused."""
        from helpers.trainer.bounded_file import read_bounded

        if not os.path.lexists(self.head_path):
            return None
        shown = shown_path(self.head_path)
        try:
            entry = json.loads(read_bounded(self.head_path, limit=_MAX_HEAD_BYTES, what="a ledger head"))
            body = {k: v for k, v in entry.items() if k != "signature"}
            self.secret.verify("ledger-head", body, entry.get("signature"), source=shown)
        except (ValueError, AttributeError, CheckoutFileError):
            raise TrainerSecretError(
                "is not a ledger head signed by this trainer's secret; it was changed by hand", path=shown
            ) from None
        problem = schema_problem("ledger head", entry)
        if problem is not None:
            raise TrainerSecretError(f"is not a ledger head: {problem}", path=shown)
        return body["lines"], body["last"]

    @staticmethod
    def _take(state: LedgerState, entry: Mapping[str, Any], line: int) -> None:
        event = entry.get("event")
        if event == "issued":
            state.issued[entry["paper_id"]] = IssuedPaper(
                entry["trainee"],
                entry["paper_id"],
                entry["issued"],
                entry["key_digest"],
                bool(entry["practice"]),
                bool(entry["proctored"]),
                line,
            )
        elif event == "graded":
            state.graded[entry["paper_id"]] = GradedPaper(
                entry["paper_id"],
                entry["answers_digest"],
                bool(entry["passed"]),
                entry["graded"],
                bool(entry["proctored"]),
                line,
            )
        elif event == "sitting":
            state.sittings[entry["paper_id"]] = entry["started"]
        elif event == "resumed":
            state.resumes.setdefault(entry["paper_id"], []).append(
                {k: entry[k] for k in ("resumed", "answered", "gap_seconds")}
            )

    @contextlib.contextmanager
    def locked(self) -> Iterator[LedgerState]:
        """The ledger's state read under its lock; :meth:`append` only inside this."""
        if sys.platform == "emscripten":  # the browser edition: flock is a stub there
            from helpers.trainee.progress.lock import save_lock

            with save_lock(self.path):
                yield self.read()
            return
        try:
            from filelock import FileLock, Timeout
        except ImportError:  # pragma: no cover - filelock is a pinned dependency
            raise TrainerSecretError(
                "the ledger needs the filelock package (pip install filelock)", path=self._shown()
            ) from None
        lock = FileLock(str(self.path) + ".lock", timeout=_WAIT_SECONDS, mode=0o600)
        try:
            lock.acquire()
        except Timeout:
            raise TrainerSecretError(
                f"the ledger is in use by another command (waited {_WAIT_SECONDS:.0f} s); try again",
                path=self._shown(),
            ) from None
        except OSError as exc:
            raise TrainerSecretError(
                f"the ledger cannot be locked ({exc.strerror or type(exc).__name__})", path=self._shown()
            ) from None
        try:
            yield self.read()
        finally:
            lock.release()

    def append(self, entry: Mapping[str, Any]) -> None:
        """Add one signed line, chained to the one before, atomically; then its head (call inside :meth:`locked`).

        A ledger written before the chain is chained in full first: each line re-signed with its ``prev``.
        """
        try:
            lines = self.path.read_bytes().splitlines() if os.path.lexists(self.path) else []
            if lines and b'"prev":' not in lines[0]:
                lines = self._chained(lines)
            line = self._line({**entry, "prev": _digest(lines[-1]) if lines else ""})
            lines.append(line)
            write_atomically(self.path, b"".join(x + b"\n" for x in lines), mode=0o600)
        except OSError as exc:
            raise TrainerSecretError(
                f"the ledger cannot be written ({exc.strerror or type(exc).__name__}); nothing was recorded",
                path=self._shown(),
            ) from None
        head = self.secret.signed("ledger-head", {"lines": len(lines), "last": _digest(line)})
        try:
            # After the line: a head behind the ledger reads as it is (the next line catches it up),
            # while a head ahead of it would refuse the ledger as cut.
            write_atomically(self.head_path, json.dumps(head, separators=(",", ":")) + "\n", mode=0o600)
        except OSError as exc:
            raise TrainerSecretError(
                f"the line was recorded, but {HEAD_NAME} could not be updated "
                f"({exc.strerror or type(exc).__name__}); the ledger stays readable, and the next line "
                "added updates it",
                path=self._shown(),
            ) from None

    def _line(self, body: Mapping[str, Any]) -> bytes:
        return json.dumps(
            self.secret.signed("ledger", body), ensure_ascii=True, separators=(",", ":")
        ).encode()

    def _chained(self, lines: list[bytes]) -> list[bytes]:
        """The lines of a ledger from before the chain (already verified by :meth:`read`), chained and re-signed."""
        chained: list[bytes] = []
        for line in lines:
            body = {k: v for k, v in json.loads(line).items() if k != "signature"}
            chained.append(self._line({**body, "prev": _digest(chained[-1]) if chained else ""}))
        return chained

    # --- the rules -------------------------------------------------------------------------------

    @staticmethod
    def check_issue(
        state: LedgerState, trainee: str, *, practice: bool, cooldown_hours: float, now: str | None = None
    ) -> None:
        """Refuse (:class:`CheckInputError`) a counting paper within the cooldown after a failed one."""
        if practice or cooldown_hours <= 0:
            return
        moment = _when(now or _now())
        for paper in state.issued.values():
            graded = state.graded.get(paper.paper_id)
            if paper.trainee != trainee or paper.practice or graded is None or graded.passed:
                continue
            failed = _when(graded.graded)
            if failed is None or moment is None:
                continue
            ready_at = failed + _dt.timedelta(hours=cooldown_hours)
            if moment < ready_at:
                raise CheckInputError(
                    f"{describe_value(trainee)} did not pass paper {paper.paper_id} at {graded.graded}; "
                    f"the next paper can be issued from {ready_at.isoformat().replace('+00:00', 'Z')} "
                    f"(a {cooldown_hours:g}-hour cooldown to practise first; --cooldown 0 issues one now)",
                    field="trainee",
                )

    @staticmethod
    def check_grade(
        state: LedgerState,
        *,
        paper_id: Any,
        trainee: Any,
        key_digest: str,
        answers_digest: str,
        source: str,
        proctored: bool = False,
    ) -> bool:
        """Refuse (:class:`CheckoutFileError`) a grading the ledger does not allow; True if graded already.

        A repeat grading of the very same answers is allowed (it gives the same verdict).
        """
        paper = state.issued.get(paper_id) if isinstance(paper_id, str) else None
        if paper is None:
            raise CheckoutFileError(
                f"paper {describe_value(paper_id)} was never issued by this trainer (it is not in the ledger)",
                path=source,
            )
        if paper.trainee != trainee:
            raise CheckoutFileError(
                f"paper {paper.paper_id} was issued to {describe_value(paper.trainee)}, "
                f"not {describe_value(trainee)}",
                path=source,
            )
        if paper.key_digest != key_digest:
            raise CheckoutFileError(f"is not the key issued for paper {paper.paper_id}", path=source)
        if paper.proctored != proctored:
            why = (
                "its proctored sitting grades it"
                if paper.proctored
                else "it was not issued for a proctored sitting"
            )
            raise CheckoutFileError(f"paper {paper.paper_id} is not graded this way: {why}", path=source)
        graded = state.graded.get(paper.paper_id)
        if graded is not None:
            if graded.answers_digest == answers_digest:
                return True
            raise CheckoutFileError(
                f"paper {paper.paper_id} was already graded at {graded.graded} from other answers; "
                "one sitting per paper, so a retake needs a new paper (checkout issue)",
                path=source,
            )
        later = state.replaced_by(paper)
        if later is not None:
            raise CheckoutFileError(
                f"paper {paper.paper_id} was replaced by paper {later.paper_id} (issued {later.issued}) "
                "before it was graded; only the trainee's newest paper is graded",
                path=source,
            )
        return False
