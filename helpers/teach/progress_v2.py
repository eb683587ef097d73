"""Progress files, version 2: mastery per rule, every attempt, and the set course, saved safely.

A version 2 file holds the trainee's name (as they typed it), a random
``attempt_id`` for this drill, the ``content_hash`` of the rules, vocabulary and
generators it was practised on, the mastery state of every rule with every
attempt, and the set-course drill of version 1 (or ``null``). It follows
``fixtures/schemas/progress-v2.schema.json``; loading checks it against the schema.

* A version 1 file is migrated on load: it becomes the set course, with a fresh
  mastery record. A newer version is refused with a clear message.
* Saving never loses work. A file changed since this drill last read or wrote it
  (another window or process saved there) is refused, as is a file of another
  drill (for example, your own earlier drill after **Start again**) unless the
  trainee asks to overwrite it; :func:`new_attempt_path` offers a fresh name.
  Two saves at the same moment cannot both succeed: a lock beside the target
  makes the second one wait its turn and then be refused (:mod:`.progress_lock`).
* Only regular files are read or written: a FIFO, device or folder is refused.
  A symbolic link is followed: the file it points to is replaced, and the link stays.

Progress files are written by the trainee on their own machine: they are
self-reported and not tamper-proof. Taught in ``04_practice.ipynb`` and
``06_trainer.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import secrets
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import JSONLoadError, ProgressFileError, describe_value
from ..core.jsonio import loads_strict
from .drill import PROGRESS_FORMAT, Progress
from .generators import generators_fingerprint
from .mastery import Mastery, MasteryAttempt, RuleState
from .practice_cases import PracticeCase, practice_cases
from .progress_files import progress_from_data, shown_path
from .progress_lock import progress_path, refusing_os_errors, save_lock, write_progress_text
from .rules import Rule, load_rules
from .schema import load_schema, schema_problems

__all__ = [
    "PROGRESS_V2",
    "TraineeProgress",
    "trainee_progress_to_data",
    "trainee_progress_from_data",
    "load_trainee_progress",
    "save_trainee_progress",
    "new_attempt_path",
]

PROGRESS_V2 = 2


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class TraineeProgress:
    """Everything a version 2 progress file holds, plus what this drill last saw of the file.

    ``file_digest`` is the SHA-256 of the file as this drill last read or wrote
    it; a save finding anything else there refuses. Taught in ``04_practice.ipynb``.
    """

    mastery: Mastery
    course: Progress | None = None
    attempt_id: str = field(default_factory=lambda: secrets.token_hex(8))
    content_hash: str = ""
    saved: str = ""
    migrated_from: int | None = None
    file_digest: str | None = None

    @property
    def trainee(self) -> str:
        """The trainee's name as they typed it (self-reported)."""
        return self.mastery.trainee


def trainee_progress_to_data(progress: TraineeProgress, *, saved: str | None = None) -> dict[str, Any]:
    """The progress as a version 2 JSON object (what :func:`save_trainee_progress` writes)."""
    m = progress.mastery
    return {
        "format": PROGRESS_FORMAT,
        "version": PROGRESS_V2,
        "trainee": m.trainee,
        "attempt_id": progress.attempt_id,
        "content_hash": progress.content_hash or generators_fingerprint(),
        "saved": saved or _now(),
        "mastery": {
            "seed": m.seed,
            "started": m.started,
            "rules": list(m.rules),
            "states": [_state_data(m.states[rule]) for rule in m.rules],
            "attempts": [a.to_data() for a in m.attempts],
        },
        "course": _course_data(progress.course),
    }


def _course_data(course: Progress | None) -> dict[str, Any] | None:
    """The set-course drill without the file-level fields it had as a version 1 file."""
    if course is None:
        return None
    return {k: v for k, v in course.to_data().items() if k not in ("format", "version")}


def _state_data(state: RuleState) -> dict[str, Any]:
    return {
        "rule": state.rule,
        "box": state.box,
        "streak": state.streak,
        "due": state.due,
        "attempts": state.attempts,
        "correct": state.correct,
        "mastered_on": state.mastered_on,
        "last_practised": state.last_practised,
    }


def trainee_progress_from_data(
    data: Any,
    *,
    rules: Sequence[Rule] | None = None,
    cases: Sequence[PracticeCase] | None = None,
    source: str = "<data>",
) -> TraineeProgress:
    """Read a version 1 or 2 progress object; version 1 is migrated, newer versions refused.

    Raises :class:`~helpers.core.errors.ProgressFileError` naming what is wrong.
    """

    def bad(message: str) -> ProgressFileError:
        return ProgressFileError(message, path=source)

    rules = list(rules) if rules is not None else load_rules()
    if not isinstance(data, Mapping) or data.get("format") != PROGRESS_FORMAT:
        raise bad(f'is not a practice progress file (it has no "format": "{PROGRESS_FORMAT}")')
    version = data.get("version")
    if version == 1 and not isinstance(version, bool):
        legacy = progress_from_data(
            data, cases=cases if cases is not None else practice_cases(), rules=rules, source=source
        )
        return TraineeProgress(Mastery.start(rules, seed=legacy.seed), legacy, migrated_from=1)
    if isinstance(version, bool) or not isinstance(version, int) or version != PROGRESS_V2:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > PROGRESS_V2
        hint = "; it was written by a newer version of the helpers, so update them" if newer else ""
        raise bad(f"has version {describe_value(version)}; these helpers read versions 1 and 2{hint}")
    problems = schema_problems(data, load_schema("progress-v2"))
    if problems:
        raise bad("does not follow the progress schema: " + "; ".join(problems[:3]))
    known = {rule.id for rule in rules}
    m = data["mastery"]
    unknown = [r for r in m["rules"] if r not in known]
    if unknown:
        raise bad(f"mastery.rules has {describe_value(unknown[0])}, which is not a rule here")
    if len(set(m["rules"])) != len(m["rules"]) or [s["rule"] for s in m["states"]] != m["rules"]:
        raise bad("mastery.states must hold one state per rule, in the order of mastery.rules")
    for index, raw in enumerate(m["attempts"]):
        if raw["rule"] not in m["rules"]:
            raise bad(
                f"mastery.attempts[{index}].rule {describe_value(raw['rule'])} is not a rule of this drill"
            )
    mastery = Mastery(
        tuple(m["rules"]),
        m["seed"],
        {s["rule"]: RuleState(**s) for s in m["states"]},
        [MasteryAttempt(**{**a, "rules_missed": tuple(a["rules_missed"])}) for a in m["attempts"]],
        trainee=data["trainee"],
        started=m["started"],
    )
    course: Progress | None = None
    if data["course"] is not None:
        course = progress_from_data(
            {"format": PROGRESS_FORMAT, "version": 1, **data["course"]},
            cases=cases if cases is not None else practice_cases(),
            rules=rules,
            source=f"{source} (course)",
        )
    return TraineeProgress(mastery, course, data["attempt_id"], data["content_hash"], data["saved"], None)


def _regular_or_missing(path: Path) -> os.stat_result | None:
    """The file's status if it exists; a FIFO, device, socket or folder is refused."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, device or socket)"
        raise ProgressFileError(f"is {kind}, so it cannot hold progress", path=shown_path(path))
    return info


def _read(path: Path) -> tuple[Any, str]:
    raw = path.read_bytes()
    try:
        return loads_strict(raw.decode("utf-8-sig"), source=shown_path(path)), hashlib.sha256(raw).hexdigest()
    except UnicodeDecodeError as exc:
        raise ProgressFileError(f"is not UTF-8 text (byte {exc.start})", path=shown_path(path)) from None
    except JSONLoadError as exc:
        raise ProgressFileError(f"is not a progress file: {exc.detail}", path=shown_path(path)) from None


@refusing_os_errors("read")
def load_trainee_progress(
    path: str | Path,
    *,
    rules: Sequence[Rule] | None = None,
    cases: Sequence[PracticeCase] | None = None,
) -> TraineeProgress:
    """Read a progress file (version 1 or 2) without changing it. Taught in ``04_practice.ipynb``."""
    path = progress_path(path, doing="read")
    if _regular_or_missing(path) is None:
        raise ProgressFileError("does not exist; save your progress there first", path=shown_path(path))
    data, digest = _read(path)
    progress = trainee_progress_from_data(data, rules=rules, cases=cases, source=shown_path(path))
    progress.file_digest = digest
    return progress


@refusing_os_errors("written", path_arg=1)
def save_trainee_progress(progress: TraineeProgress, path: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``progress`` as a version 2 file at ``path``, atomically; returns the file written.

    Refuses, leaving the file as it was, when the file changed since this drill
    last read or wrote it, or holds another drill's progress (unless
    ``overwrite`` is true, and then only a valid progress file is replaced), or
    is not a regular file. Taught in ``04_practice.ipynb``.
    """
    given = progress_path(path, doing="written")
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    if not target.parent.is_dir():
        raise ProgressFileError(
            f"cannot be written: the folder {shown_path(target.parent)} does not exist",
            path=shown_path(given),
        )
    with save_lock(target):
        if _regular_or_missing(target) is not None:
            data, digest = _read(target)
            try:
                earlier = trainee_progress_from_data(data, source=shown_path(given))
            except ProgressFileError as exc:
                raise ProgressFileError(
                    f"{exc.message}; it was not overwritten, so choose another path", path=shown_path(given)
                ) from None
            same_drill = earlier.attempt_id == progress.attempt_id
            if not overwrite and not (same_drill and digest == progress.file_digest):
                why = (
                    "was saved from another window since this drill last saved it"
                    if same_drill
                    else f"holds another drill's progress ({len(earlier.mastery.attempts)} cases worked"
                    f"{', by ' + earlier.trainee if earlier.trainee else ''})"
                )
                raise ProgressFileError(
                    f"{why}; nothing was written. Load it to carry on, overwrite it on purpose, "
                    "or save as a new attempt",
                    path=shown_path(given),
                )
        text = json.dumps(trainee_progress_to_data(progress), ensure_ascii=False, indent=1) + "\n"
        write_progress_text(target, text, shown=shown_path(given))
    progress.file_digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return target


@refusing_os_errors("used")
def new_attempt_path(path: str | Path) -> Path:
    """The first free name beside ``path`` for a new attempt: ``name-2.json``, ``name-3.json``, …"""
    path = progress_path(path)
    number = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
        number += 1
