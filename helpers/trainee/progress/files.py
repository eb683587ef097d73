"""Progress files (version 3): every attempt of the mastery drill and the set course, saved safely.

A version 3 file holds the trainee's name (as they typed it), a random
``attempt_id`` for this drill, the ``content_hash`` of the rules, vocabulary and
generators it was practised on, every attempt of the mastery drill (what case,
what was answered, hints, reveals, times), the states those attempts lead to,
and the set-course drill (or ``null``). It follows
``fixtures/schemas/progress-v3.schema.json``, checked with ``fastjsonschema``
(pure Python, so it also runs in the browser edition).

* The states in a file are claims. On load they are **rebuilt from the
  attempts** (:meth:`helpers.trainee.drill.mastery.Mastery.replay`), so an edited state
  changes nothing; a trainer's view re-grades every attempt as well.
* Versions 1 and 2 are migrated on load. A version 1 file becomes the set
  course. A version 2 file's mastery attempts were made on an older course with
  other cases, so they are kept under ``earlier`` (shown, never counted) and
  mastery starts afresh. A newer version is refused with a clear message.
  A version 3 file of an earlier mastery model (``"model"`` 1 or 2) keeps its
  attempts; they are judged by this model, and marked as served by the earlier
  one (``model_since``).
* Saving never loses work. A file changed since this drill last read or wrote it
  (another window or process saved there) is refused, as is a file of another
  drill (for example, your own earlier drill after **Start again**) unless the
  trainee asks to overwrite it; :func:`new_attempt_path` offers a fresh name.
  Two saves at the same moment cannot both succeed: a lock beside the target
  makes the second one wait its turn and then be refused (:mod:`.lock`).
* Only regular files are read or written: a FIFO, device or folder is refused.
  A symbolic link is followed: the file it points to is replaced, and the link stays.

Progress files are written by the trainee on their own machine: they are
self-reported and not tamper-proof. Taught in ``04_practice.ipynb`` and
``06_trainer.ipynb``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers.core.errors import InvalidInputError, JSONLoadError, ProgressFileError, describe_value
from helpers.core.jsonio import load_json_file, loads_strict
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.generators import generators_fingerprint
from helpers.trainee.cases.practice_cases import PracticeCase, practice_cases
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.course import PROGRESS_FORMAT, Progress
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.model import MASTERY_MODEL
from helpers.trainee.drill.record import DrillRecord
from helpers.trainee.drill.times import now_text
from helpers.trainee.progress.lock import progress_path, refusing_os_errors, save_lock, write_progress_text
from helpers.trainee.progress.paths import shown_path

__all__ = [
    "PROGRESS_V3",
    "TraineeProgress",
    "trainee_progress_to_data",
    "trainee_progress_from_data",
    "load_trainee_progress",
    "save_trainee_progress",
    "new_attempt_path",
    "schema_validator",
]

PROGRESS_V3 = 3


def _now() -> str:
    return now_text()


@dataclass
class TraineeProgress:
    """Everything a progress file holds, plus what this drill last saw of the file: plain data.

    ``drill`` is the mastery drill as a record (a running drill gives its own with
    :meth:`~helpers.trainee.drill.engine.DrillSession.record`). ``file_digest`` is the
    SHA-256 of the file as this drill last read or wrote it; a save finding anything
    else there refuses. Taught in ``04_practice.ipynb``.
    """

    drill: DrillRecord
    course: Progress | None = None
    attempt_id: str = field(default_factory=lambda: secrets.token_hex(8))
    content_hash: str = ""
    saved: str = ""
    migrated_from: int | None = None
    file_digest: str | None = None
    earlier: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.drill, DrillRecord):  # e.g. a running DrillSession, which holds a clock
            raise TypeError(
                f"TraineeProgress.drill is a DrillRecord, not a {type(self.drill).__name__}: "
                "a running drill gives its record with DrillSession.record()"
            )

    @property
    def mastery(self) -> Mastery:
        """The mastery record (states rebuilt from the attempts)."""
        return self.drill.mastery

    @property
    def trainee(self) -> str:
        """The trainee's name as they typed it (self-reported)."""
        return self.drill.trainee


def trainee_progress_to_data(progress: TraineeProgress, *, saved: str | None = None) -> dict[str, Any]:
    """The progress as a version 3 JSON object (what :func:`save_trainee_progress` writes)."""
    s = progress.drill
    m = s.mastery
    return {
        "format": PROGRESS_FORMAT,
        "version": PROGRESS_V3,
        "trainee": s.trainee,
        "attempt_id": progress.attempt_id,
        "content_hash": progress.content_hash or generators_fingerprint(),
        "saved": saved or _now(),
        "mastery": {
            "seed": m.seed,
            "seed_kind": s.seed_kind,
            "model": MASTERY_MODEL,
            "model_since": s.model_since,
            "started": s.started,
            "check": s.check,
            "rules": list(m.rules),
            "facets": list(m.facets),
            "states": [m.states[rule].to_data() for rule in m.rules],
            "facet_states": [m.facet_states[facet].to_data() for facet in m.facets],
            "attempts": [a.to_data() for a in m.attempts],
        },
        "course": _course_data(progress.course),
        "earlier": progress.earlier,
    }


def _course_data(course: Progress | None) -> dict[str, Any] | None:
    """The set-course drill without the file-level fields it had as a version 1 file."""
    if course is None:
        return None
    return {k: v for k, v in course.to_data().items() if k not in ("format", "version")}


def _in_place(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` with each reference to a one-value definition (no properties, no reference of its
    own: a rule id, a time, a hash, a list of IDs) replaced by the definition itself.

    The same schema, accepting and refusing the same files with the same messages, but
    ``fastjsonschema`` then checks each such value in place instead of calling a function for it:
    a drill of 1,000 attempts has some 10,000 of them.
    """
    definitions = schema.get("definitions", {})
    single = {
        f"#/definitions/{name}": body
        for name, body in definitions.items()
        if "properties" not in body and "$ref" not in json.dumps(body)
    }

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if len(node) == 1 and node.get("$ref") in single:
                return walk(single[node["$ref"]])
            return {key: walk(value) for key, value in node.items()}
        if isinstance(node, list):
            return [walk(value) for value in node]
        return node

    inlined: dict[str, Any] = walk(schema)
    return inlined


@functools.cache
def schema_validator() -> Callable[[Any], Any]:
    """The version 3 schema, compiled once by ``fastjsonschema`` (one-value definitions in place)."""
    import fastjsonschema

    schema = load_json_file(fixtures_dir() / "schemas" / "progress-v3.schema.json")
    validate: Callable[[Any], Any] = fastjsonschema.compile(_in_place(schema))
    return validate


def _schema_problem(data: Any) -> str | None:
    """What breaks the schema first, as ``fastjsonschema`` words it, or ``None``.

    A drill of 1,000 attempts is mostly attempts: when every attempt is plainly one the
    schema accepts (:func:`_plain_attempt`, stricter than the schema), the rest of the file
    is checked with an empty list in their place. Anything else is checked whole, so every
    message is the validator's own.
    """
    import fastjsonschema

    try:
        schema_validator()(_without_plain_attempts(data))
    except fastjsonschema.JsonSchemaException as exc:
        return str(exc).replace("data.", "", 1).replace("data ", "the file ", 1)
    return None


#: An attempt's fields (the schema's ``required``, with no others allowed).
_ATTEMPT_FIELDS = frozenset(
    {"number", "rule", "seed", "facet", "facets", "options", "answer", "outcome", "correct"}
    | {"hints", "revealed", "served", "answered", "fields_wrong", "rules_missed"}
)
_ANSWER_FIELDS = frozenset(("check", "missing", "second", "flag", "hold", "reason"))
_OUTCOMES = frozenset(("correct", "helped", "missed", "revealed", "skipped"))
#: The largest case seed a drill makes (the schema's ``attempt.seed`` maximum).
_MAX_CASE_SEED = Mastery.MAX_SEED * 10_000 + 9_999
_CHECKS = frozenset(("target-scope", "sentinels"))
#: The schema's ``rule`` and ``time`` patterns, matched whole.
_RULE_ID = re.compile(r"[a-z][a-z-]{0,40}", re.ASCII)
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", re.ASCII)


@functools.lru_cache(maxsize=256)
def _rule_id(value: str) -> bool:
    return _RULE_ID.fullmatch(value) is not None


_STRINGS = {str}


def _strings(value: Any) -> bool:
    """A list of strings."""
    return type(value) is list and set(map(type, value)) <= _STRINGS


#: Strings found to be rule ids (:func:`_rule_id`), so a list of them is told at once; a drill names a few dozen.
_IDS_SEEN: set[str] = set()


def _rule_ids(value: Any) -> bool:
    """A list of rule ids."""
    if type(value) is not list:
        return False
    try:
        if _IDS_SEEN.issuperset(value):
            return True
    except TypeError:  # a list or an object in the list: never a rule id
        return False
    if not (set(map(type, value)) <= _STRINGS and all(map(_rule_id, value))):
        return False
    if len(_IDS_SEEN) > 4096:
        _IDS_SEEN.clear()
    _IDS_SEEN.update(value)
    return True


def _plain_attempt(a: Any) -> bool:
    """True only for an attempt the schema's ``attempt`` definition accepts (never for one it refuses)."""
    if type(a) is not dict or a.keys() != _ATTEMPT_FIELDS:
        return False
    answer = a["answer"]
    if answer is not None:
        if type(answer) is not dict or answer.keys() != _ANSWER_FIELDS:
            return False
        reason, flag, check = answer["reason"], answer["flag"], answer["check"]
        if not (
            type(check) is str
            and check in _CHECKS
            and _strings(answer["missing"])
            and _strings(answer["second"])
            and (flag is None or type(flag) is bool)
            and type(answer["hold"]) is bool
            and (reason is None or (type(reason) is str and _rule_id(reason)))
        ):
            return False
    number, seed, hints, served, answered = a["number"], a["seed"], a["hints"], a["served"], a["answered"]
    facet, rule, wrong = a["facet"], a["rule"], a["fields_wrong"]
    return (
        type(number) is int
        and number >= 1
        and type(seed) is int
        and 0 <= seed <= _MAX_CASE_SEED
        and type(hints) is int
        and hints >= 0
        and type(rule) is str
        and _rule_id(rule)
        and (facet is None or (type(facet) is str and _rule_id(facet)))
        and _rule_ids(a["facets"])
        and _rule_ids(a["options"])
        and _rule_ids(a["rules_missed"])
        and _strings(wrong)
        and (not wrong or max(map(len, wrong)) <= 40)
        and type(a["outcome"]) is str
        and a["outcome"] in _OUTCOMES
        and type(a["correct"]) is bool
        and type(a["revealed"]) is bool
        and type(served) is str
        and _TIME.fullmatch(served) is not None
        and (answered is None or (type(answered) is str and _TIME.fullmatch(answered) is not None))
    )


def _without_plain_attempts(data: Any) -> Any:
    """``data`` with an empty list for its attempts when every one is plain (:func:`_plain_attempt`), else ``data``."""
    mastery = data.get("mastery") if type(data) is dict else None
    if type(mastery) is not dict:
        return data
    attempts = mastery.get("attempts")
    if type(attempts) is not list or not all(_plain_attempt(a) for a in attempts):
        return data
    return {**data, "mastery": {**mastery, "attempts": []}}


def trainee_progress_from_data(
    data: Any,
    *,
    rules: Sequence[Rule] | None = None,
    cases: Sequence[PracticeCase] | None = None,
    source: str = "<data>",
    keep_steps: bool = False,
) -> TraineeProgress:
    """Read a version 1, 2 or 3 progress object; 1 and 2 are migrated, newer versions refused.

    Raises :class:`~helpers.core.errors.ProgressFileError` naming what is wrong. ``keep_steps`` keeps
    the states each attempt left (:meth:`~helpers.trainee.drill.mastery.Mastery.replay`), for the
    trainer's replay of the drill by its engine.
    """

    def bad(message: str) -> ProgressFileError:
        return ProgressFileError(message, path=source)

    rules = list(rules) if rules is not None else load_rules()
    if not isinstance(data, Mapping) or data.get("format") != PROGRESS_FORMAT:
        raise bad(f'is not a practice progress file (it has no "format": "{PROGRESS_FORMAT}")')
    version = data.get("version")
    if type(version) is not int:  # 2.0, "2" and true are not versions, though 2.0 == 2 in Python
        raise bad(
            f"has version {describe_value(version)}; these helpers read versions 1, 2 and 3 (a whole number)"
        )
    if version == 1 and not isinstance(version, bool):
        from helpers.trainee.progress.version1 import progress_from_data  # read only for a version 1 file

        legacy = progress_from_data(
            data, cases=cases if cases is not None else practice_cases(), rules=rules, source=source
        )
        seed = legacy.seed if Mastery.seed_problem(legacy.seed) is None else 0
        # The old file's seed, chosen before seeds were recorded.
        fresh = DrillRecord.begun([rule.id for rule in rules], seed=seed, seed_kind="unrecorded")
        return TraineeProgress(fresh, legacy, migrated_from=1)
    if version == 2 and not isinstance(version, bool):
        return _from_v2(data, rules=rules, cases=cases, bad=bad, source=source)
    if isinstance(version, bool) or not isinstance(version, int) or version != PROGRESS_V3:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > PROGRESS_V3
        hint = "; it was written by a newer version of the helpers, so update them" if newer else ""
        raise bad(f"has version {describe_value(version)}; these helpers read versions 1, 2 and 3{hint}")
    problem = _schema_problem(data)
    if problem:
        raise bad(f"does not follow the progress schema: {problem}")
    m = data["mastery"]
    known = {rule.id for rule in rules}
    unknown = [r for r in m["rules"] if r not in known]
    if unknown:
        raise bad(f"mastery.rules has {describe_value(unknown[0])}, which is not a rule here")
    try:
        mastery = Mastery.replay(
            m["rules"],
            seed=m["seed"],
            facets=m["facets"],
            attempts=(MasteryAttempt.from_data(a) for a in m["attempts"]),
            keep_steps=keep_steps,
        )
    except InvalidInputError as exc:
        raise bad(f"mastery.attempts cannot be replayed: {exc.message}") from None
    drill = DrillRecord(
        mastery,
        trainee=data["trainee"],
        started=m["started"],
        check=m["check"],
        seed_kind=m.get("seed_kind", "unrecorded"),
        # A file saved before this model (no "model": 1; or 2): its cases so far were served by an earlier
        # model, the rest by this one. Its states are rebuilt by this model all the same.
        model_since=m.get("model_since", 1) if m.get("model") == MASTERY_MODEL else len(m["attempts"]) + 1,
    )
    return TraineeProgress(
        drill,
        _course(data["course"], rules=rules, cases=cases, source=source),
        data["attempt_id"],
        data["content_hash"],
        data["saved"],
        None,
        earlier=data["earlier"],
    )


def _course(
    raw: Any, *, rules: Sequence[Rule], cases: Sequence[PracticeCase] | None, source: str
) -> Progress | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ProgressFileError("course must be an object or null", path=source)
    from helpers.trainee.progress.version1 import progress_from_data  # read only for a set course

    return progress_from_data(
        {"format": PROGRESS_FORMAT, "version": 1, **raw},
        cases=cases if cases is not None else practice_cases(),
        rules=rules,
        source=f"{source} (course)",
    )


def _from_v2(
    data: Mapping[str, Any],
    *,
    rules: Sequence[Rule],
    cases: Sequence[PracticeCase] | None,
    bad: Callable[[str], ProgressFileError],
    source: str,
) -> TraineeProgress:
    """A version 2 file: its course is kept, its mastery attempts become ``earlier`` practice."""
    mastery = data.get("mastery")
    if not isinstance(mastery, Mapping) or not isinstance(mastery.get("attempts"), list):
        raise bad("is a version 2 file without a mastery.attempts list")
    given_seed = mastery.get("seed")
    seed = given_seed if isinstance(given_seed, int) and Mastery.seed_problem(given_seed) is None else 0
    given = data.get("trainee")
    trainee = given if isinstance(given, str) else ""
    content = data.get("content_hash") if isinstance(data.get("content_hash"), str) else None
    # The old file's seed, chosen before seeds were recorded.
    drill = DrillRecord.begun([rule.id for rule in rules], seed=seed, trainee=trainee, seed_kind="unrecorded")
    earlier = {"version": 2, "content_hash": content, "attempts": list(mastery["attempts"])}
    attempt_id = data.get("attempt_id")
    return TraineeProgress(
        drill,
        _course(data.get("course"), rules=rules, cases=cases, source=source),
        attempt_id if isinstance(attempt_id, str) and len(attempt_id) == 16 else secrets.token_hex(8),
        migrated_from=2,
        earlier=earlier,
    )


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
    """Read a progress file (version 1, 2 or 3) without changing it. Taught in ``04_practice.ipynb``."""
    path = progress_path(path, doing="read")
    if _regular_or_missing(path) is None:
        raise ProgressFileError("does not exist; save your progress there first", path=shown_path(path))
    data, digest = _read(path)
    progress = trainee_progress_from_data(data, rules=rules, cases=cases, source=shown_path(path))
    progress.file_digest = digest
    return progress


@refusing_os_errors("written", path_arg=1)
def save_trainee_progress(progress: TraineeProgress, path: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``progress`` as a version 3 file at ``path``, atomically; returns the file written.

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
            try:
                data, digest = _read(target)
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
                    else f"holds your earlier progress ({_worked(earlier)}"
                    f"{', by ' + earlier.trainee if earlier.trainee else ''}, from another drill)"
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


def _worked(progress: TraineeProgress) -> str:
    """How much work a file holds, in words: the drill's cases, and the set course's checked cases."""
    parts = [f"{progress.mastery.step} cases worked"]
    if progress.course is not None and progress.course.done:
        parts.append(f"{progress.course.done} set-course cases checked (seed {progress.course.seed})")
    return ", ".join(parts) if progress.mastery.step or len(parts) == 1 else parts[1]


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
