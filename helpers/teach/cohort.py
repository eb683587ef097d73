"""A trainer's view: trainees × rules from their progress files, re-graded, and who is ready.

Progress files are written by each trainee's own drill on their own machine,
so nothing in them is trusted. Every stored attempt is re-graded from its
(rule, case seed, answer) with the generators and the grader, every rule's
state is rebuilt from the re-graded attempts, and a claimed verdict, state,
count or date that disagrees is a problem: "does not match its attempts".
So are a content hash other than the current course's, a drill that does not
cover every rule, and two files with the same attempt id.

One hostile file never hides the others: every file is read, or refused with
its reason (unreadable, not a regular file, over :data:`MAX_FILE_BYTES`, not
UTF-8, not a progress file), and the rest of the cohort is still shown in
text, HTML, CSV and JSON. Names are neutralised for the terminal, escaped for
HTML and made spreadsheet-safe for CSV.

The drill itself is worked again by the engine (:mod:`helpers.teach.replay`), so
re-ordered attempts, misses edited into right answers and erased hints show; the
times are checked (:mod:`helpers.teach.timing`: real dates, in order, not too fast);
and two files that share one drill seed, and so one case sequence, are flagged as copies.

A trainee is **ready** when both hold: a trainer-graded check-out
(``python -m helpers checkout grade --json``) passed for them, verified, not a
practice paper; and their practice evidence re-grades clean with every rule
mastered. :attr:`Trainee.not_ready` says why not, on every surface.

Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import csv
import gc
import hashlib
import io
import json
import os
import re
import signal
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import CheckInputError, JSONLoadError, ProgressFileError
from ..core.jsonio import loads_strict
from ..core.paths import fixtures_dir
from .cases import spreadsheet_safe
from .generators import generators_fingerprint, load_vocabulary
from .grading import Answer, grade
from .item_analysis import FirstAttempt, ItemStats, item_analysis, item_table_text
from .mastery import MASTERY_STREAK, Mastery, MasteryAttempt, RuleState
from .progress_files import shown_path
from .progress_v2 import PROGRESS_V3, TraineeProgress, trainee_progress_from_data
from .remade import Made, remade_cases
from .render import HtmlBlock, esc
from .replay import replay_drill
from .rules import Rule, load_rules
from .timing import time_problems

if TYPE_CHECKING:
    from .verdict_cache import VerdictCache
    from .verified_results import CertifiedBound

__all__ = [
    "MAX_FILE_BYTES",
    "Trainee",
    "Cohort",
    "Regrader",
    "REGRADERS",
    "regrade_v3",
    "replay_v3",
    "read_progress_data",
    "sample_progress_dir",
    "progress_paths",
    "read_progress_file",
    "load_cohort",
    "load_checkouts",
    "checkout_reasons",
    "cohort_text",
    "cohort_csv",
    "cohort_json_lines",
    "cohort_table",
    "hardest_table",
    "item_table",
    "item_chart",
    "mastery_numbers",
    "cohort_chart",
]

#: A progress file larger than this is refused unread (a genuine drill of 10,000 cases is about 3 MB).
MAX_FILE_BYTES = 20 * 2**20
#: The longest name shown in a table; a longer one is cut with "…".
_NAME_SHOWN = 40
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z", re.ASCII)

CSV_FIELDS = (
    "trainee",
    "file",
    "rule",
    "status",
    "streak",
    "attempts",
    "correct",
    "last_practised",
    "mastered_on",
    "content_hash",
    "version",
    "ready",
    "not_ready_because",
    "problems",
    "certified_bound",
    "certified_lower_bound",
)

#: A re-grader: the problems it finds in one trainee's progress ("does not match its attempts", …).
Regrader = Callable[[Any], list[str]]


def shown(text: str, limit: int | None = None) -> str:
    """``text`` safe for a terminal: control characters, escapes, newlines and lone surrogates escaped.

    With ``limit``, a longer result is cut with "…", so one name cannot push a table apart.
    """
    safe = shown_path(text)
    if limit is not None and len(safe) > limit:
        return safe[: limit - 1] + "…"
    return safe


@dataclass(frozen=True)
class Replay:
    """One drill re-graded: every rule's rebuilt state, first attempts, problems, and the rebuilt drill."""

    states: dict[str, RuleState]
    first_attempts: tuple[FirstAttempt, ...]
    problems: tuple[str, ...]
    mastery: Mastery | None = None


def _stored_answer(stored: Mapping[str, Any]) -> Answer:
    """The :class:`Answer` a version 3 attempt stores (its fields as the drill's controls hold them)."""
    return Answer(
        stored["check"],
        frozenset(stored["missing"]),
        frozenset(stored["second"]),
        stored["flag"],
        stored["hold"],
        stored["reason"],
    )


def _regraded(made: Made, stored: Mapping[str, Any], rules: Sequence[Rule]) -> bool:
    """Whether the grader marks the stored answer fully correct, reason included; the right answer
    itself skips the full grading."""
    given = (frozenset(stored["missing"]), frozenset(stored["second"]), stored["flag"], stored["hold"])
    if given == made.right and stored["reason"] in made.decisive:
        return True
    return grade(made.case, _stored_answer(stored), ask_reason=True, rules=rules).correct


def _where(attempt: MasteryAttempt) -> str:
    return f"case {attempt.number} ({attempt.rule})"


def _as_json(value: object) -> str:
    """A state's field as the progress file writes it (``null``, ``true``, ``"2026-11-30"``), never a repr."""
    return json.dumps(value, ensure_ascii=False, default=str)


def _derived_outcome(
    answer: Mapping[str, Any] | None, right: bool, hints: int, revealed: bool, claimed: str
) -> str:
    """The outcome the drill gives a case, from its re-graded verdict and how it was reached."""
    if answer is None:
        return claimed if claimed in ("revealed", "skipped") else "skipped"
    if not right:
        return "missed"
    return "helped" if hints or revealed else "correct"


#: The fields of a claimed state compared with the rebuilt one.
_COMPARED = ("attempts", "unaided", "streak", "mastered_on", "times_lost", "last_practised")


def replay_v3(
    progress: TraineeProgress, data: Mapping[str, Any] | None = None, *, rules: Sequence[Rule] | None = None
) -> Replay:
    """Re-grade every attempt of a version 3 drill and rebuild its states; list what disagrees.

    Each attempt's case is made again with ``generate(rule, seed, facet=facet)``
    and its stored answer graded with :func:`helpers.teach.grading.grade`,
    reason included; the outcome follows from that verdict, the hints and the
    reveal, exactly as the drill scores it. The n-th case of a rule must have the
    seed ``drill seed × 10,000 + n``, so a case claimed twice or picked by hand
    shows; the reasons offered must be the drill's own. The states and facets the
    file claims (``data``) are compared with the ones the re-graded attempts give.
    Taught in ``06_trainer.ipynb``.
    """
    rules = list(rules) if rules is not None else load_rules()
    every = [r.id for r in rules]
    m = progress.mastery
    problems: list[str] = []
    if set(m.rules) != set(every):
        problems.append(f"the drill covers {len(set(m.rules) & set(every))} of the {len(every)} rules")
    remade = remade_cases(load_vocabulary(), tuple(rules))
    served: dict[str, int] = {}
    seen: set[tuple[str, int]] = set()
    flipped: list[MasteryAttempt] = []
    outcome_wrong: list[MasteryAttempt] = []
    out_of_order: list[MasteryAttempt] = []
    twice: list[MasteryAttempt] = []
    options_wrong: list[MasteryAttempt] = []
    facets_wrong: list[MasteryAttempt] = []
    wrong_check: list[MasteryAttempt] = []
    firsts: dict[str, FirstAttempt] = {}
    regraded: list[tuple[str, bool, tuple[str, ...]]] = []  # each attempt's outcome, verdict and kinds
    name = progress.trainee
    for attempt in m.attempts:
        rule, seed = attempt.rule, attempt.seed
        nth = served.get(rule, 0)
        served[rule] = nth + 1
        if (rule, seed) in seen:
            twice.append(attempt)
        seen.add((rule, seed))
        if seed != m.seed * 10_000 + nth:
            out_of_order.append(attempt)
        try:
            made = remade.case(rule, seed, attempt.facet)
        except CheckInputError as exc:
            problems.append(f"{_where(attempt)} cannot be made again: {exc.message}")
            regraded.append(("missed", attempt.correct, attempt.facets))
            continue
        if attempt.options != remade.offered(rule, seed, attempt.facet, f"{m.seed}:{attempt.number}"):
            options_wrong.append(attempt)
        if made.facets != attempt.facets:
            facets_wrong.append(attempt)
        stored = attempt.answer
        if stored is not None and stored["check"] != made.case.check:
            wrong_check.append(attempt)
            stored = None
        right = stored is not None and _regraded(made, stored, rules)
        if right != attempt.correct:
            flipped.append(attempt)
        outcome = _derived_outcome(attempt.answer, right, attempt.hints, attempt.revealed, attempt.outcome)
        if outcome != attempt.outcome:
            outcome_wrong.append(attempt)
        if attempt.answered is not None and attempt.answered < attempt.served:
            problems.append(f"{_where(attempt)} was answered before it was served")
        if rule not in firsts:
            keyed = made.case.rules[0]
            reason = stored["reason"] if stored is not None else None
            wrong = reason if stored is not None and not right and reason != keyed else None
            firsts[rule] = FirstAttempt(name, rule, outcome == "correct", wrong)
        regraded.append((outcome, right, made.facets))
    for label, found in (
        ("verdicts do not match their attempts", flipped),
        ("outcomes do not match their attempts", outcome_wrong),
        ("cases are claimed twice", twice),
        ("cases are not the drill's own next case (seed out of sequence)", out_of_order),
        ("cases offered other reasons than the drill's own", options_wrong),
        ("cases claim other look-alike kinds than they hold", facets_wrong),
        ("answers are for the other check than their case", wrong_check),
    ):
        if found:
            problems.append(f"{len(found)} of {len(m.attempts)} {label} (first: {_where(found[0])})")
    if all(
        new == (a.outcome, a.correct, a.facets) for new, a in zip(regraded, m.attempts, strict=True)
    ):  # every verdict, outcome and kind stands: the drill as loaded is the rebuilt one
        rebuilt = m
    else:
        rebuilt = Mastery.replay(
            m.rules,
            seed=m.seed,
            facets=m.facets,
            attempts=(
                replace(a, outcome=outcome, correct=right, facets=facets)
                for (outcome, right, facets), a in zip(regraded, m.attempts, strict=True)
            ),
        )
    claimed = (data or {}).get("mastery", {}) if isinstance(data, Mapping) else {}
    for state in claimed.get("states", []):
        rule = state.get("rule")
        if rule not in rebuilt.states:
            continue
        mine = {f: getattr(rebuilt.states[rule], f) for f in _COMPARED}
        if state.get("unaided", 0) > state.get("attempts", 0):
            problems.append(f"{rule}: claims {state['unaided']} unaided of {state['attempts']} attempts")
        diffs = [
            f"{f} {_as_json(state.get(f))} (its attempts give {_as_json(mine[f])})"
            for f in _COMPARED
            if state.get(f) != mine[f]
        ]
        if diffs:
            problems.append(f"{rule}: the claimed state does not match its attempts: " + "; ".join(diffs[:3]))
    for state in claimed.get("facet_states", []):
        facet = state.get("facet")
        if facet in rebuilt.facet_states and state.get("secured") != rebuilt.facet_states[facet].secured:
            problems.append(f"look-alike kind {facet}: the claimed state does not match its attempts")
    return Replay(dict(rebuilt.states), tuple(firsts.values()), tuple(problems), rebuilt)


def regrade_v3(progress: TraineeProgress, data: Mapping[str, Any] | None = None) -> list[str]:
    """The :data:`Regrader` for version 3 files: :func:`replay_v3`'s problems, the engine's replay of
    the drill (:func:`helpers.teach.replay.replay_drill`) and the times (:func:`helpers.teach.timing.time_problems`)."""
    problems = list(replay_v3(progress, data).problems)
    return problems + _evidence_problems(progress, data)


def _evidence_problems(
    progress: TraineeProgress, data: Mapping[str, Any] | None, rules: Sequence[Rule] | None = None
) -> list[str]:
    """The times (:mod:`.timing`), then the drill worked again by the engine (:mod:`.replay`)."""
    times = time_problems(data) if isinstance(data, Mapping) else []
    rules = list(rules) if rules is not None else load_rules()
    cases = remade_cases(load_vocabulary(), tuple(rules))  # the cases the re-grade made, made once
    return times + replay_drill(progress, rules=rules, cases=cases)


def checkout_reasons(result: Mapping[str, Any] | None, *, require_proctored: bool = False) -> list[str]:
    """Why a check-out result does not count towards readiness (an empty list when it does).

    ``result`` is what :func:`load_checkouts` gives for the trainee: ``passed``, and when
    present ``verified`` (the trainer's signature checked), ``practice`` (a ``--seed`` paper)
    and ``proctored``. Taught in ``06_trainer.ipynb``.
    """
    if result is None:
        return ["no graded check-out"]
    reasons = []
    if "verified" in result and result.get("verified") is not True:
        reasons.append("the check-out result is not verified by the trainer's secret")
    if result.get("practice") is True:
        reasons.append("the check-out was a practice paper, which never counts")
    if require_proctored and result.get("proctored") is not True:
        reasons.append("the check-out was not proctored, and only proctored ones count here")
    if result.get("passed") is not True:
        reasons.append("the check-out did not pass")
    return reasons


#: Re-graders by progress-file version; a new version registers its own here.
REGRADERS: dict[int, Regrader] = {3: regrade_v3}


@dataclass(frozen=True)
class Trainee:
    """One trainee's evidence, read from one file and re-graded. Taught in ``06_trainer.ipynb``.

    ``states`` are rebuilt from the re-graded attempts, never taken from the file;
    ``problems`` lists everything that disagrees. ``name`` is self-reported.
    """

    name: str
    file: str
    version: int
    content_hash: str
    attempt_id: str
    rules: tuple[str, ...]
    states: dict[str, RuleState]
    step: int
    hints: int
    reveals: int
    course: tuple[int, int] | None = None
    first_attempts: tuple[FirstAttempt, ...] = ()
    problems: tuple[str, ...] = ()
    checkout: Mapping[str, Any] | None = None
    seed: int | None = None
    require_proctored: bool = False
    #: Whether the drill is complete under its mastery model (look-alike kinds and the recent
    #: record too, not only every rule); ``None`` where the file cannot say (versions 1 and 2).
    complete: bool | None = None

    @property
    def mastered(self) -> list[str]:
        """The rules mastered on the re-graded evidence, in drill order."""
        return [rule for rule in self.rules if self.states[rule].mastered]

    @property
    def not_ready(self) -> tuple[str, ...]:
        """Every reason the trainee is not ready, in words (empty when ready).

        Ready needs both: a verified, passed check-out for this trainee that counts
        (:func:`checkout_reasons`), and practice evidence that re-grades clean with every
        rule of the drill mastered.
        """
        reasons = []
        if self.problems:
            count = len(self.problems)
            reasons.append(f"{count} problem{'s' if count != 1 else ''} in the practice evidence")
        if self.step == 0:
            reasons.append("no practice: the drill holds no cases")
        elif not self.rules or len(self.mastered) < len(self.rules):
            reasons.append(f"practice: {len(self.mastered)} of {len(self.rules)} rules mastered")
        elif self.complete is False:
            reasons.append(
                "practice: every rule mastered, but the drill is not complete "
                "(a look-alike kind not secured, or the recent record not yet 85% right at 95% confidence)"
            )
        reasons += checkout_reasons(self.checkout, require_proctored=self.require_proctored)
        return tuple(reasons)

    @property
    def ready(self) -> bool:
        """A counted, passed check-out, and practice evidence clean with every rule mastered."""
        return not self.not_ready

    def status(self, rule: str) -> str:
        """``mastered``, ``n/3`` for a streak under way, or ``not started``."""
        state = self.states.get(rule)
        if state is None or state.attempts == 0:
            return "not started"
        return "mastered" if state.mastered else f"{state.streak}/{MASTERY_STREAK}"

    def last_practised(self) -> str:
        """When the trainee last worked a case, or ``-``."""
        times = [s.last_practised for s in self.states.values() if s.last_practised]
        return max(times) if times else "-"

    def completion(self) -> str:
        """``complete on DATE``, or how many rules are mastered so far (on the re-graded evidence)."""
        if self.rules and len(self.mastered) == len(self.rules) and self.complete is False:
            return "every rule mastered; the drill is not yet complete"
        if self.rules and len(self.mastered) == len(self.rules):
            return f"complete on {max(self.states[r].mastered_on or '' for r in self.rules)[:10]}"
        if self.step == 0 and self.course is not None:
            return f"set course only: {self.course[0]} of {self.course[1]} correct"
        return f"{len(self.mastered)} of {len(self.rules)} rules mastered"


@dataclass(frozen=True)
class Cohort:
    """Trainees, the rules, and the files that could not be read. Taught in ``06_trainer.ipynb``."""

    trainees: tuple[Trainee, ...]
    rules: tuple[Rule, ...]
    unreadable: tuple[tuple[str, str], ...] = ()
    #: Lines about the verdict cache (an entry refused, a cache not written); never about a trainee.
    notes: tuple[str, ...] = ()

    def hardest(self, limit: int = 5) -> list[tuple[Rule, int, int, int]]:
        """The rules missed most, as ``(rule, misses, attempts, trainees not yet mastered)``."""
        rows = []
        for rule in self.rules:
            attempts = misses = not_mastered = 0
            for trainee in self.trainees:
                state = trainee.states.get(rule.id)
                if state is None:
                    continue
                attempts += state.attempts
                misses += state.attempts - state.correct
                not_mastered += not state.mastered
            rows.append((rule, misses, attempts, not_mastered))
        ranked = sorted(rows, key=lambda row: (-(row[1] / row[2]) if row[2] else 0.0, -row[1]))
        return [row for row in ranked if row[1]][:limit]

    def items(self) -> list[ItemStats]:
        """Item analysis over every trainee's first attempts, rules in file order."""
        return item_analysis(
            (a for t in self.trainees for a in t.first_attempts), rules=[r.id for r in self.rules]
        )


def _shown_file(path: str | Path) -> str:
    """A file as the cohort names it: the project's own fixtures by their place in the project."""
    try:
        inside = Path(os.path.abspath(path)).relative_to(fixtures_dir().parent)
    except ValueError:
        return shown_path(path)
    return shown_path(inside.as_posix())


def sample_progress_dir() -> Path:
    """``fixtures/sample_progress/``: four sample trainees' progress files, one of them version 1."""
    return fixtures_dir() / "sample_progress"


def progress_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The progress files named: files as given, and every ``*.json`` in each folder (sorted)."""
    found: list[Path] = []
    for item in paths:
        path = Path(item).expanduser()
        try:
            folder = path.is_dir()
        except (OSError, ValueError):
            folder = False
        if folder:
            try:
                inside = sorted(path.glob("*.json"))
            except OSError:
                inside = []
            # a folder named like a progress file, with none in it, is listed and refused with its reason
            found += inside or ([path] if path.suffix.lower() == ".json" else [])
        else:
            found.append(path)
    return found


def _read_bounded(path: Path) -> bytes:
    """The file's bytes: a regular file of at most :data:`MAX_FILE_BYTES`, else ProgressFileError."""
    where = _shown_file(path)
    try:
        os.fsencode(path)
        if b"\0" in os.fsencode(path):
            raise ProgressFileError("cannot be read (it contains a null character)", path=where)
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except UnicodeError:
        raise ProgressFileError(
            "cannot be read (it has characters a file name cannot hold)", path=where
        ) from None
    except OSError as exc:
        raise ProgressFileError(
            f"cannot be read ({exc.strerror or type(exc).__name__})", path=where
        ) from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            kind = (
                "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, device or socket)"
            )
            if stat.S_ISDIR(info.st_mode) and not any(path.glob("*.json")):
                kind = "a folder with no progress files (*.json) in it"
            raise ProgressFileError(f"is {kind}, so it cannot hold progress", path=where)
        limit = f"over the {MAX_FILE_BYTES // 2**20} MB limit for a progress file, so it was not read"
        if info.st_size > MAX_FILE_BYTES:
            raise ProgressFileError(f"is {info.st_size / 2**20:.0f} MB, {limit}", path=where)
        chunks, total = [], 0
        while True:
            chunk = os.read(handle, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                raise ProgressFileError(f"grows past {MAX_FILE_BYTES // 2**20} MB, {limit}", path=where)
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise ProgressFileError(
            f"cannot be read ({exc.strerror or type(exc).__name__})", path=where
        ) from None
    finally:
        os.close(handle)


def read_progress_file(path: str | Path, *, rules: Sequence[Rule] | None = None) -> TraineeProgress:
    """Read one progress file safely (bounded, regular files only); raises ProgressFileError."""
    return read_progress_data(path, rules=rules)[0]


def read_progress_data(
    path: str | Path, *, rules: Sequence[Rule] | None = None
) -> tuple[TraineeProgress, Any]:
    """Read one progress file safely, with the JSON it holds (its claims, for the re-grader)."""
    path = Path(path)
    return _progress_from_bytes(_read_bounded(path), path, rules)


def _progress_from_bytes(raw: bytes, path: Path, rules: Sequence[Rule] | None) -> tuple[TraineeProgress, Any]:
    """The progress a file's bytes hold, with its JSON; ProgressFileError naming the file."""
    where = _shown_file(path)
    try:
        data = loads_strict(raw.decode("utf-8-sig"), source=where)
    except UnicodeDecodeError as exc:
        raise ProgressFileError(f"is not UTF-8 text (byte {exc.start})", path=where) from None
    except JSONLoadError as exc:
        raise ProgressFileError(f"is not a progress file: {exc.detail}", path=where) from None
    return trainee_progress_from_data(data, rules=rules, source=where), data


def _summarise(
    path: Path,
    rules: Sequence[Rule],
    regrade: Regrader | None,
    current: str,
    seen: dict[str, Any] | None = None,
) -> Trainee:
    """One file read and re-graded; ``current`` is the course's content hash.

    ``seen`` is given the SHA-256 of the very bytes re-graded (``sha256``) and whether the
    file names its trainee (``named``), for the verdict cache.
    """
    raw = _read_bounded(path)
    progress, data = _progress_from_bytes(raw, path, rules)
    if seen is not None:
        seen["sha256"] = hashlib.sha256(raw).hexdigest()
        seen["named"] = bool(progress.trainee)
    m = progress.mastery
    version = progress.migrated_from or PROGRESS_V3
    problems: list[str] = []
    if version == 1:
        problems.append("a version 1 file holds no answers to re-grade; its set-course results are shown")
    elif version == 2:
        kept = len((progress.earlier or {}).get("attempts", []))
        problems.append(
            f"a version 2 file: its {kept} cases were practised on an older course, with other cases, "
            "so they are kept but count for nothing here"
        )
    elif progress.content_hash != current:
        problems.append(
            f"content hash {progress.content_hash} is not the current course's ({current}): "
            "practised on an older or unknown course"
        )
    states = dict(m.states)
    firsts: tuple[FirstAttempt, ...] = ()
    hints = sum(a.hints for a in m.attempts)
    reveals = sum(a.revealed for a in m.attempts)
    custom = regrade if regrade is not None else REGRADERS.get(version)
    if version == PROGRESS_V3 and custom is regrade_v3:
        replay = replay_v3(progress, data, rules=rules)
        states, firsts = replay.states, replay.first_attempts
        problems += replay.problems
        problems += _evidence_problems(progress, data, rules)
    elif custom is not None:
        problems += custom(progress)
    course = (progress.course.correct, progress.course.done) if progress.course is not None else None
    return Trainee(
        progress.trainee or path.stem,
        _shown_file(path),
        version,
        progress.content_hash,
        progress.attempt_id if version != 1 else "",
        tuple(m.rules),
        states,
        m.step,
        hints,
        reveals,
        course,
        firsts,
        tuple(problems),
        seed=m.seed if version == PROGRESS_V3 else None,
        complete=m.complete if version == PROGRESS_V3 else None,
    )


#: What re-grading one file gives: its trainee (or its line when not read), and what the cache keeps.
_Loaded = tuple["Trainee | tuple[str, str]", dict[str, Any]]


def _load_one(job: tuple[str | Path, Sequence[Rule], Regrader | None, str]) -> _Loaded:
    path, rules, regrade, current = job
    seen: dict[str, Any] = {}
    try:
        return _summarise(Path(path), rules, regrade, current, seen), seen
    except ProgressFileError as exc:
        return (_shown_file(path), exc.message), {}
    except Exception as exc:  # anything one file raises is its line, so the rest are still shown
        return (_shown_file(path), f"cannot be read ({type(exc).__name__}: {shown(str(exc), 200)})"), {}


def _summary_data(t: Trainee, named: bool) -> dict[str, Any]:
    """What the verdict cache keeps of a re-graded file: everything its :class:`Trainee` shows
    except its path (and its name when the file names no trainee, which the path then gives)."""
    return {
        "name": t.name if named else None,
        "version": t.version,
        "content_hash": t.content_hash,
        "attempt_id": t.attempt_id,
        "rules": list(t.rules),
        "states": [
            {f: getattr(state, f) for f in _STATE_FIELDS} | {"key": key} for key, state in t.states.items()
        ],
        "step": t.step,
        "hints": t.hints,
        "reveals": t.reveals,
        "course": list(t.course) if t.course is not None else None,
        "first_attempts": [[a.trainee, a.rule, a.correct, a.wrong_reason] for a in t.first_attempts],
        "problems": list(t.problems),
        "seed": t.seed,
        "complete": t.complete,
    }


#: The fields of a rebuilt :class:`RuleState` the cache keeps (all but its review schedule).
_STATE_FIELDS = tuple(f for f in RuleState.__dataclass_fields__ if f != "schedule")


def _summary_trainee(data: Mapping[str, Any], path: Path) -> Trainee:
    """The :class:`Trainee` a verdict-cache summary holds, for the file at ``path``."""
    states = {}
    for state in data["states"]:
        fields = {f: state[f] for f in _STATE_FIELDS}
        states[state["key"]] = RuleState(**fields)
    course = data["course"]
    return Trainee(
        data["name"] if data["name"] is not None else path.stem,
        _shown_file(path),
        data["version"],
        data["content_hash"],
        data["attempt_id"],
        tuple(data["rules"]),
        states,
        data["step"],
        data["hints"],
        data["reveals"],
        (course[0], course[1]) if course is not None else None,
        tuple(FirstAttempt(*a) for a in data["first_attempts"]),
        tuple(data["problems"]),
        seed=data["seed"],
        complete=data["complete"],
    )


def _file_sha256(path: Path) -> str | None:
    """The SHA-256 of a progress file's bytes, or ``None`` when it cannot be read (re-graded, to say why)."""
    try:
        return hashlib.sha256(_read_bounded(path)).hexdigest()
    except ProgressFileError:
        return None


def load_checkouts(
    paths: Iterable[str | Path],
    *,
    trainer: Any = None,
    trainer_dir: str | Path | None = None,
    require_proctored: bool = False,
) -> tuple[dict[str, Mapping[str, Any]], list[tuple[str, str]]]:
    """Graded check-outs by trainee name, verified with the trainer's secret; refused ones with reasons.

    ``trainer`` is a :class:`helpers.teach.trainer.TrainerSecret` (default: the one in
    ``trainer_dir``, else the trainer's own folder). Only results signed by it, for papers
    its ledger issued to that trainee and graded, count, each once
    (:func:`helpers.teach.verified_results.verified_results`). A trainee's newest counting
    paper decides; practice papers never count, and with ``require_proctored`` only
    proctored ones do. Raises :class:`helpers.teach.trainer.TrainerSecretError` when the
    secret or the ledger cannot be used.
    """
    from .trainer import TrainerSecret
    from .verified_results import counting_result, verified_results

    secret = trainer if trainer is not None else TrainerSecret.open(trainer_dir)
    results, refused = verified_results(paths, secret)
    by_trainee: dict[str, list[Any]] = {}
    for result in results:
        by_trainee.setdefault(result.trainee, []).append(result)
    found: dict[str, Mapping[str, Any]] = {}
    for name, theirs in by_trainee.items():
        chosen = counting_result(theirs, require_proctored=require_proctored)
        if chosen is not None:
            found[name] = chosen.data
    return found, refused


def _worker_start() -> None:
    """Set up a worker process of :func:`load_cohort`.

    A worker holds the cases it has made (some 150,000 objects) and one file at a time, none
    of it in reference cycles; with the default thresholds the cycle collector kept walking
    them while each file was read, and took about a sixth of the worker's time.
    """
    gc.set_threshold(50_000, 20, 10)
    # Ctrl-C is the parent's to handle (one line, exit 130); it was blocked across the fork.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _pooled(jobs: list[tuple[Any, ...]], count: int, done: Callable[[], None] | None = None) -> list[_Loaded]:
    """``_load_one`` over ``jobs`` in ``count`` worker processes, in order; empty if processes fail.

    ``done`` is called as each file's result comes back.

    SIGINT is blocked while the workers are forked, so none meets a Ctrl-C half set up; on
    Ctrl-C the jobs not started are cancelled and the running ones finish before it goes on.
    A pool that breaks (a worker killed) gives nothing, and the caller reads the files itself.
    """
    try:
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        pool = ProcessPoolExecutor(max_workers=count, initializer=_worker_start)
    except (ImportError, NotImplementedError, OSError):  # no processes here (the browser edition)
        return []
    blocking = hasattr(signal, "pthread_sigmask")
    try:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if blocking else None
        try:
            pending = pool.map(_load_one, jobs, chunksize=8)  # forks the workers
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        results = []
        for result in pending:
            results.append(result)
            if done is not None:
                done()
        return results
    except (BrokenProcessPool, NotImplementedError, OSError):
        return []
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def load_cohort(
    paths: Iterable[str | Path],
    *,
    rules: Sequence[Rule] | None = None,
    checkouts: Iterable[str | Path] = (),
    regrade: Regrader | None = None,
    workers: int | None = None,
    trainer_dir: str | Path | None = None,
    require_proctored: bool = False,
    cache: VerdictCache | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Cohort:
    """Read and re-grade every progress file; one that cannot be read is listed with its reason.

    ``checkouts`` are files or folders of graded check-outs, matched to trainees by
    name. ``regrade`` replaces the re-grader of :data:`REGRADERS`. With ``require_proctored``,
    only a proctored check-out counts towards readiness. Two files from one drill seed (one
    case sequence) are both flagged as copies. A large cohort is
    read by ``workers`` processes (by default up to 2 when there are more than 16
    files and processes are available). The check-outs are verified with the trainer's
    secret in ``trainer_dir`` (see :func:`load_checkouts`; ``require_proctored`` counts
    only proctored ones).

    ``cache`` (a :class:`helpers.teach.verdict_cache.VerdictCache`, made for this course) gives
    each file whose bytes it holds a verified summary of unchanged, and keeps the summaries of
    the files re-graded now; it is used only with the course's own rules and re-graders, and
    what it refuses is in :attr:`Cohort.notes`. ``progress`` is called with (files done, files)
    as each is done. Taught in ``06_trainer.ipynb``.
    """
    default = rules is None and regrade is None  # the course's own re-grade: what the cache holds
    rules = list(rules) if rules is not None else load_rules()
    files = progress_paths(paths)
    current = generators_fingerprint()  # the course's content hash, worked out once for every file
    use_cache = cache is not None and default and cache.course == current
    results: list[Trainee | tuple[str, str] | None] = [None] * len(files)
    if use_cache:
        assert cache is not None
        for index, path in enumerate(files):
            digest = _file_sha256(path)
            kept = cache.get(digest, shown=_shown_file(path)) if digest is not None else None
            if kept is not None:
                try:
                    results[index] = _summary_trainee(kept, path)
                except (KeyError, TypeError, ValueError, IndexError):  # signed, yet not a summary
                    results[index] = None
    missing = [index for index, found in enumerate(results) if found is None]
    finished = [len(files) - len(missing)]

    def one_done() -> None:
        finished[0] += 1
        if progress is not None:
            progress(finished[0], len(files))

    if progress is not None and files:
        progress(finished[0], len(files))
    jobs = [(files[index], rules, regrade, current) for index in missing]
    loaded: list[_Loaded] = []
    count = workers if workers is not None else (min(2, os.cpu_count() or 1) if len(jobs) > 16 else 1)
    if count > 1:
        loaded = _pooled(jobs, count, one_done)
    if not loaded:
        finished[0] = len(files) - len(missing)
        loaded = []
        for job in jobs:
            loaded.append(_load_one(job))
            one_done()
    for index, (result, seen) in zip(missing, loaded, strict=True):
        results[index] = result
        if use_cache and isinstance(result, Trainee) and seen:
            assert cache is not None
            cache.put(seen["sha256"], _summary_data(result, seen["named"]))
    if use_cache:
        assert cache is not None
        cache.save()
    trainees = [r for r in results if isinstance(r, Trainee)]
    unreadable = [r for r in results if r is not None and not isinstance(r, Trainee)]
    by_id: dict[str, list[int]] = {}
    for index, t in enumerate(trainees):
        if t.attempt_id:
            by_id.setdefault(t.attempt_id, []).append(index)
    for same in (group for group in by_id.values() if len(group) > 1):
        for index in same:
            others = ", ".join(trainees[i].file for i in same if i != index)
            t = trainees[index]
            trainees[index] = replace(
                t, problems=(*t.problems, f"attempt id {t.attempt_id} is also in {others}")
            )
    trainees = _copies_flagged(trainees)
    if checkouts:
        found, refused = load_checkouts(
            checkouts, trainer_dir=trainer_dir, require_proctored=require_proctored
        )
        unreadable += refused
        trainees = [replace(t, checkout=found.get(t.name)) for t in trainees]
    if require_proctored:
        trainees = [replace(t, require_proctored=True) for t in trainees]
    notes = tuple(cache.notes) if use_cache and cache is not None else ()
    return Cohort(tuple(trainees), tuple(rules), tuple(unreadable), notes)


def _copies_flagged(trainees: list[Trainee]) -> list[Trainee]:
    """Each file that shares its drill seed (so its case sequence) with another file, flagged as a copy.

    Fresh drills start from a fresh random seed, so two trainees' files never share one; a shared
    seed is a copied file, or two drills started from one fixed (demo) seed.
    """
    by_seed: dict[int, list[int]] = {}
    for index, t in enumerate(trainees):
        if t.seed is not None and t.step:
            by_seed.setdefault(t.seed, []).append(index)
    flagged = list(trainees)
    for same in (group for group in by_seed.values() if len(group) > 1):
        for index in same:
            t = trainees[index]
            others = ", ".join(
                f"{trainees[i].file} ({shown(trainees[i].name, _NAME_SHOWN)})" for i in same if i != index
            )
            flagged[index] = replace(
                t,
                problems=(
                    *t.problems,
                    f"a copy: its case sequence (drill seed {t.seed}) is also the one in {others}; "
                    "each trainee's drill starts from its own fresh seed",
                ),
            )
    return flagged


_MARK = {"mastered": "✓", "not started": "·"}


def _mark(status: str) -> str:
    return _MARK.get(status, status)


def _certified(t: Trainee) -> CertifiedBound | None:
    """The bound the trainee's verified check-out certifies, from its signed counts; None without one."""
    from .verified_results import certified_bound

    return certified_bound(t.checkout)


def _readiness(t: Trainee) -> str:
    """``ready``, or ``not ready: REASON; REASON``."""
    return "ready" if t.ready else "not ready: " + "; ".join(t.not_ready)


def cohort_text(cohort: Cohort) -> str:
    """The trainer's table as plain text: a grid of trainees × rules, then each trainee's readiness.

    Every name and path is neutralised (:func:`shown`), so no file can print a line of its own.
    """
    names = [shown(t.name, _NAME_SHOWN) for t in cohort.trainees]
    width = max([len("rule"), *(len(r.id) for r in cohort.rules)])
    cols = [max(len(n), 11) for n in names]
    lines = [
        "Progress files re-graded from their attempts: nothing self-reported is trusted.",
        "  ".join(["rule".ljust(width), *(n.ljust(c) for n, c in zip(names, cols, strict=True))]),
    ]
    for rule in cohort.rules:
        cells = [_mark(t.status(rule.id)).ljust(c) for t, c in zip(cohort.trainees, cols, strict=True)]
        lines.append("  ".join([rule.id.ljust(width), *cells]).rstrip())
    lines.append("✓ mastered · not started  n/3 a streak under way")
    lines.append("")
    lines.append(
        "trainee: readiness; completion; cases worked (hints, reveals); last practised; content hash (version)"
    )
    for t, name in zip(cohort.trainees, names, strict=True):
        lines.append(
            f"{name}: {'ready' if t.ready else 'not ready'}; {t.completion()}; {t.step} cases "
            f"({t.hints} hints, {t.reveals} reveals); "
            f"last {shown(t.last_practised())}; {shown(t.content_hash or '-')} (v{t.version})"
        )
        lines += [f"  not ready: {shown(reason, 300)}" for reason in t.not_ready]
        bound = _certified(t)
        if bound is not None:
            lines.append(f"  check-out certifies: {bound.text}")
        lines += [f"  problem: {shown(p, 300)}" for p in t.problems]
    hardest = cohort.hardest()
    if hardest:
        lines.append("")
        lines.append("hardest rules (misses of attempts; trainees not yet mastered):")
        for rule, misses, attempts, waiting in hardest:
            lines.append(f"  {rule.id}: {misses} of {attempts}; {waiting} not yet mastered")
    for path, reason in cohort.unreadable:
        lines.append(f"not read: {shown(path)}: {shown(reason, 300)}")
    return "\n".join(lines) + "\n"


def _csv_rows(cohort: Cohort) -> Iterable[list[Any]]:
    for t in cohort.trainees:
        problems = " | ".join(t.problems)
        bound = _certified(t)
        certified = [bound.text, bound.to_data()["lower_bound"]] if bound is not None else ["", ""]
        for rule in cohort.rules:
            state = t.states.get(rule.id) or RuleState(rule.id)
            yield [
                t.name,
                t.file,
                rule.id,
                t.status(rule.id),
                state.streak,
                state.attempts,
                state.correct,
                state.last_practised or "",
                state.mastered_on or "",
                t.content_hash,
                t.version,
                str(t.ready).lower(),
                " | ".join(t.not_ready),
                problems,
                *certified,
            ]
    for path, reason in cohort.unreadable:
        yield ["", path, "", "not read", *[""] * 7, "false", "the file was not read", reason, "", ""]


def cohort_csv(cohort: Cohort) -> str:
    """The same table for a spreadsheet: one row per trainee and rule, then one per file not read.

    Every cell goes through the formula guard (:func:`helpers.teach.cases.spreadsheet_safe`).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    quote_all = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(CSV_FIELDS)
    for row in _csv_rows(cohort):
        cells = [spreadsheet_safe(str(cell)) for cell in row]
        (quote_all if any("\r" in cell for cell in cells) else writer).writerow(cells)
    return buffer.getvalue()


def cohort_json_lines(cohort: Cohort) -> str:
    """One JSON object per trainee (and per file not read): ``trainee``, ``file``, ``ready``, ``problems``, …

    What ``python -m helpers cohort --json`` prints. Taught in ``06_trainer.ipynb``.
    """
    lines = []
    for t in cohort.trainees:
        checkout = None
        bound = _certified(t)
        if t.checkout is not None:
            checkout = {
                k: t.checkout.get(k)
                for k in (
                    "paper_id",
                    "passed",
                    "fully_correct",
                    "cases_total",
                    "verified",
                    "practice",
                    "proctored",
                )
                if k in t.checkout
            }
        lines.append(
            {
                "trainee": t.name,
                "file": t.file,
                "ready": t.ready,
                "not_ready_because": list(t.not_ready),
                "problems": list(t.problems),
                "version": t.version,
                "content_hash": t.content_hash,
                "attempt_id": t.attempt_id,
                "cases_worked": t.step,
                "hints": t.hints,
                "reveals": t.reveals,
                "mastered": t.mastered,
                "completion": t.completion(),
                "checkout": checkout,
                "certified": bound.to_data() if bound is not None else None,
            }
        )
    for path, reason in cohort.unreadable:
        lines.append(
            {
                "trainee": None,
                "file": path,
                "ready": False,
                "not_ready_because": ["the file was not read"],
                "problems": [reason],
            }
        )
    return "".join(json.dumps(line, ensure_ascii=True) + "\n" for line in lines)


def cohort_table(cohort: Cohort) -> HtmlBlock:
    """Trainees × rules as an HTML table, readiness and problems under it, and every file not read."""
    head = "".join(f'<th scope="col">{esc(shown(t.name, _NAME_SHOWN))}</th>' for t in cohort.trainees)
    body = []
    for rule in cohort.rules:
        cells = []
        for t in cohort.trainees:
            status = t.status(rule.id)
            state = t.states.get(rule.id)
            tries = f"{state.attempts} tried" if state and state.attempts else ""
            mark = _MARK.get(status)
            shown_status = f"{mark} {status}" if mark else f"streak {status}"
            cells.append(
                f'<td class="eic-cohort-{esc(status.replace("/", "-of-").replace(" ", "-"))}">'
                f"{esc(shown_status)}<br><small>{esc(tries)}</small></td>"
            )
        body.append(f'<tr><th scope="row"><code>{esc(rule.id)}</code></th>{"".join(cells)}</tr>')
    foot = "".join(
        f"<td>{esc(t.completion())}<br><small>hash <code>{esc(t.content_hash or '-')}</code>"
        f" (v{t.version})</small></td>"
        for t in cohort.trainees
    )
    ready = "".join(
        f"<td><b>{'✓ ready' if t.ready else '✗ not ready'}</b>"
        + "".join(f"<br><small>{esc(reason)}</small>" for reason in t.not_ready)
        + "</td>"
        for t in cohort.trainees
    )
    bounds = [_certified(t) for t in cohort.trainees]
    certified = "".join(
        f"<td>{esc(b.text) if b is not None else '–<br><small>no verified check-out</small>'}</td>"
        for b in bounds
    )
    problems = "".join(
        f"<li><b>{esc(shown(t.name, _NAME_SHOWN))}</b> (<code>{esc(t.file)}</code>): {esc(_readiness(t))}"
        + (f"<ul>{''.join(f'<li>{esc(p)}</li>' for p in t.problems)}</ul>" if t.problems else "")
        + "</li>"
        for t in cohort.trainees
    )
    unread = "".join(
        f"<li><code>{esc(path)}</code>: {esc(reason)}</li>" for path, reason in cohort.unreadable
    )
    html = (
        '<table class="eic-results eic-cohort"><caption>Progress re-graded from each file\'s attempts: '
        "nothing self-reported is trusted</caption>"
        f'<thead><tr><th scope="col">Rule</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
        f'<tfoot><tr><th scope="row">Completion</th>{foot}</tr>'
        f'<tr><th scope="row">Readiness</th>{ready}</tr>'
        f'<tr><th scope="row">Check-out certifies</th>{certified}</tr></tfoot></table>'
        f'<p><b>Readiness and problems</b></p><ul class="eic-cohort-problems">{problems}</ul>'
        + (f'<p><b>Files not read</b></p><ul class="eic-cohort-unread">{unread}</ul>' if unread else "")
    )
    return HtmlBlock(html, cohort_text(cohort).rstrip("\n"))


def item_table(cohort: Cohort) -> HtmlBlock:
    """Item analysis over the cohort's first attempts as a table; flagged items say so in words."""
    stats = cohort.items()

    def number(value: float | None) -> str:
        return "–" if value is None else f"{value:.2f}"

    rows = "".join(
        f'<tr><th scope="row"><code>{esc(s.rule)}</code></th><td>{s.facility:.0%} of {s.trainees}</td>'
        f"<td>{number(s.discrimination)}</td><td>{number(s.point_biserial)}</td>"
        f"<td>{'⚑ under 0.2' if s.flagged else 'ok'}</td>"
        f"<td>{esc(s.common_wrong_reason or '–')}{f' ({s.wrong_reason_count})' if s.common_wrong_reason else ''}</td></tr>"
        for s in stats
    )
    html = (
        '<table class="eic-results"><caption>First attempts only: facility, discrimination, wrong reasons'
        '</caption><thead><tr><th scope="col">Rule</th><th scope="col">Facility</th>'
        '<th scope="col">Discrimination (upper–lower 27%)</th><th scope="col">Point-biserial</th>'
        '<th scope="col">Discriminates</th><th scope="col">Most common wrong reason</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )
    return HtmlBlock(html, item_table_text(stats))


def item_chart(cohort: Cohort) -> Any:
    """A bar per rule: its facility at the first attempt; its numbers and a message without matplotlib."""
    from .chart import NO_MATPLOTLIB, Chart

    stats = cohort.items()
    text = "\n".join(f"{s.rule}: facility {s.facility:.0%}{' (flag)' if s.flagged else ''}" for s in stats)
    try:
        from matplotlib.figure import Figure
    except ImportError:  # no matplotlib, as in the browser edition: the numbers instead
        return Chart(b"", f"{NO_MATPLOTLIB}\n{text}")
    fig = Figure(figsize=(7, 4.2), dpi=80, layout="constrained")
    ax = fig.subplots()
    positions = list(range(len(stats)))
    ax.barh(
        positions,
        [s.facility * 100 for s in stats],
        color=["#d9d9d9" if s.flagged else "#4a78a8" for s in stats],
        hatch=["//" if s.flagged else "" for s in stats],
    )
    ax.set_yticks(positions, labels=[s.rule + (" ⚑" if s.flagged else "") for s in stats], parse_math=False)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("right at the first attempt (%); hatched ⚑: discrimination under 0.2", parse_math=False)
    ax.set_title("Facility of each rule", fontsize=10, parse_math=False)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return Chart(buffer.getvalue(), text)


def hardest_table(cohort: Cohort, limit: int = 5) -> HtmlBlock:
    """The rules the cohort finds hardest, with the section that teaches each."""
    rows = cohort.hardest(limit)
    if not rows:
        return HtmlBlock("<p>No rule has been missed yet.</p>", "No rule has been missed yet.")
    html = "".join(
        f"<tr><td><code>{esc(rule.id)}</code><br>{esc(rule.statement)}</td><td>{misses} of {attempts}</td>"
        f"<td>{waiting}</td><td>{esc(rule.pointer)}</td></tr>"
        for rule, misses, attempts, waiting in rows
    )
    text = [
        f"{rule.id}: missed {misses} of {attempts}; {waiting} not yet mastered; taught in {rule.pointer}"
        for rule, misses, attempts, waiting in rows
    ]
    return HtmlBlock(
        '<table class="eic-results"><thead><tr><th>Rule</th><th>Missed</th><th>Not yet mastered</th>'
        f"<th>Taught in</th></tr></thead><tbody>{html}</tbody></table>",
        "\n".join(text),
    )


def mastery_numbers(cohort: Cohort) -> list[tuple[str, int, int]]:
    """For each rule: (rule id, trainees who mastered it, trainees who have not)."""
    rows = []
    for rule in cohort.rules:
        done = sum(1 for t in cohort.trainees if t.status(rule.id) == "mastered")
        rows.append((rule.id, done, len(cohort.trainees) - done))
    return rows


def cohort_chart(cohort: Cohort) -> Any:
    """A bar per rule: how many trainees mastered it; its numbers and a message without matplotlib."""
    from .chart import NO_MATPLOTLIB, Chart

    numbers = mastery_numbers(cohort)
    text = "\n".join(f"{rule}: {done} mastered, {rest} not yet" for rule, done, rest in numbers)
    try:
        from matplotlib.figure import Figure
    except ImportError:  # no matplotlib, as in the browser edition: the numbers instead
        return Chart(b"", f"{NO_MATPLOTLIB}\n{text}")
    fig = Figure(figsize=(7, 4.2), dpi=80, layout="constrained")
    ax = fig.subplots()
    positions = list(range(len(numbers)))
    ax.barh(positions, [done for _, done, _ in numbers], color="#4a78a8", label="mastered")
    ax.barh(
        positions,
        [rest for _, _, rest in numbers],
        left=[done for _, done, _ in numbers],
        color="#d9d9d9",
        hatch="//",
        label="not yet",
    )
    ax.set_yticks(positions, labels=[rule for rule, _, _ in numbers], parse_math=False)
    ax.invert_yaxis()
    ax.set_xlabel("trainees", parse_math=False)
    ax.set_title("Trainees who mastered each rule", fontsize=10, parse_math=False)
    ax.legend(loc="lower right", fontsize=8)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return Chart(buffer.getvalue(), text)
