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

The drill itself is worked again by the engine (:mod:`helpers.trainee.drill.replay`), so
re-ordered attempts, misses edited into right answers and erased hints show; the
times are checked (:mod:`helpers.trainee.progress.timing`: real dates, in order, not too fast);
and two files that share one drill seed, and so one case sequence, are flagged as copies.

A trainee is **ready** when both hold: a trainer-graded check-out
(``python -m helpers checkout grade --json``) passed for them, verified, not a
practice paper; and their practice evidence re-grades clean with every rule
mastered. :attr:`Trainee.not_ready` says why not, on every surface.

Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import gc
import hashlib
import os
import signal
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from helpers.core.chardiff import visible_id
from helpers.core.errors import ProgressFileError
from helpers.core.parent_death import die_with_parent
from helpers.trainee.cases.deciding_rule import reader_form
from helpers.trainee.cases.generators import generators_fingerprint
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.state import RuleState
from helpers.trainee.progress.files import PROGRESS_V3
from helpers.trainer.cohort_files import (
    MAX_FILE_BYTES,
    NAME_SHOWN,
    _file_sha256,
    _progress_from_bytes,
    _read_bounded,
    _shown_file,
    progress_paths,
    read_progress_data,
    read_progress_file,
    sample_progress_dir,
    shown,
)
from helpers.trainer.cohort_trainee import Cohort, Trainee
from helpers.trainer.item_analysis import FirstAttempt
from helpers.trainer.regrade import REGRADERS, Regrader, evidence_problems, regrade_v3, replay_v3
from helpers.trainer.regrade import checkout_reasons as checkout_reasons  # where the views find it

if TYPE_CHECKING:
    from helpers.trainer.verdict_cache import VerdictCache

__all__ = [
    "MAX_FILE_BYTES",
    "NAME_SHOWN",
    "shown",
    "Trainee",
    "Cohort",
    "read_progress_data",
    "sample_progress_dir",
    "progress_paths",
    "read_progress_file",
    "load_cohort",
    "load_checkouts",
]


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
    complete = m.complete if version == PROGRESS_V3 else None
    if version == PROGRESS_V3 and custom is regrade_v3:
        replay = replay_v3(progress, data, rules=rules)
        states, firsts = replay.states, replay.first_attempts
        if replay.mastery is not None:  # complete on the re-graded attempts, never on the file's word
            complete = replay.mastery.complete
        problems += replay.problems
        problems += evidence_problems(progress, data, rules)
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
        complete=complete,
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


def load_checkouts(
    paths: Iterable[str | Path],
    *,
    trainer: Any = None,
    trainer_dir: str | Path | None = None,
    require_proctored: bool = False,
) -> tuple[dict[str, Mapping[str, Any]], list[tuple[str, str]]]:
    """Graded check-outs by trainee name, verified with the trainer's secret; refused ones with reasons.

    ``trainer`` is a :class:`helpers.trainer.secret.TrainerSecret` (default: the one in
    ``trainer_dir``, else the trainer's own folder). Only results signed by it, for papers
    its ledger issued to that trainee and graded, count, each once
    (:func:`helpers.trainer.verified_results.verified_results`). A trainee's newest counting
    paper decides; practice papers never count, and with ``require_proctored`` only proctored ones
    do (:func:`load_cohort` asks for that by default; a trainee's readiness checks it again). When the ledger holds a newer counting paper than any result given (graded, or
    issued and not graded yet), the result given says so (``superseded_by``) and does not count. Raises :class:`helpers.trainer.secret.TrainerSecretError` when the
    secret or the ledger cannot be used.
    """
    from helpers.trainer.ledger import Ledger
    from helpers.trainer.secret import TrainerSecret
    from helpers.trainer.verified_results import counting_result, newest_paper, verified_results

    secret = trainer if trainer is not None else TrainerSecret.open(trainer_dir)
    results, refused = verified_results(paths, secret)
    ledger = Ledger(secret).read()
    by_trainee: dict[str, list[Any]] = {}
    for result in results:
        by_trainee.setdefault(result.trainee, []).append(result)
    found: dict[str, Mapping[str, Any]] = {}
    for name, theirs in by_trainee.items():
        chosen = counting_result(theirs, require_proctored=require_proctored)
        if chosen is None:
            continue
        newest = newest_paper(ledger, name, require_proctored=require_proctored)
        if newest is not None and newest[0].paper_id != chosen.paper_id:
            # An older paper's result, while the ledger holds a newer one (graded or still out): not what decides.
            issued, graded = newest
            found[name] = {
                **chosen.data,
                "superseded_by": {
                    "paper_id": issued.paper_id,
                    "issued": issued.issued,
                    "graded": graded.graded if graded is not None else None,
                    "passed": graded.passed if graded is not None else None,
                },
            }
        else:
            found[name] = chosen.data
    return found, refused


def _worker_start(parent: int | None = None) -> None:
    """Set up a worker process of :func:`load_cohort`.

    It ends with ``parent`` (the process that started the pool), however that ends: a worker
    left running after a ``kill -9`` would hold its files and a core for nothing. A worker holds the cases it has made (some 150,000 objects) and one file at a time, none
    of it in reference cycles; with the default thresholds the cycle collector kept walking
    them while each file was read, and took about a sixth of the worker's time.
    """
    die_with_parent(signal.SIGKILL, parent=parent)
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

        pool = ProcessPoolExecutor(max_workers=count, initializer=_worker_start, initargs=(os.getpid(),))
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
    require_proctored: bool = True,
    cache: VerdictCache | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Cohort:
    """Read and re-grade every progress file; one that cannot be read is listed with its reason.

    ``checkouts`` are files or folders of graded check-outs, matched to trainees by
    name. ``regrade`` replaces the re-grader of :data:`REGRADERS`. With ``require_proctored`` (the
    default), only a proctored check-out counts towards readiness; ``False`` counts one sat on the
    trainee's own machine too (``cohort --accept-unproctored``). Two files from one drill seed (one
    case sequence) are both flagged as copies. A large cohort is
    read by ``workers`` processes (by default up to 2 when there are more than 16
    files and processes are available). The check-outs are verified with the trainer's
    secret in ``trainer_dir`` (see :func:`load_checkouts`; ``require_proctored`` counts
    only proctored ones).

    ``cache`` (a :class:`helpers.trainer.verdict_cache.VerdictCache`, made for this course) gives
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
    trainees = _flag_shared(
        trainees,
        lambda t: t.attempt_id or None,
        lambda t, others: f"attempt id {t.attempt_id} is also in {', '.join(o.file for o in others)}",
    )
    trainees = _names_shared(_copies_flagged(trainees))
    if checkouts:
        found, refused = load_checkouts(
            checkouts, trainer_dir=trainer_dir, require_proctored=require_proctored
        )
        if require_proctored:
            # A check-out sat on the trainee's own machine does not count, but the trainer sees it,
            # marked "not counted", with the option that counts it (its readiness refuses it).
            everything, _ = load_checkouts(checkouts, trainer_dir=trainer_dir, require_proctored=False)
            found = {**everything, **found}
        unreadable += refused
        trainees = [_with_checkout(t, found) for t in trainees]
    trainees = [replace(t, require_proctored=require_proctored) for t in trainees]
    notes = tuple(cache.notes) if use_cache and cache is not None else ()
    return Cohort(tuple(trainees), tuple(rules), tuple(unreadable), notes)


def _with_checkout(t: Trainee, found: Mapping[str, Mapping[str, Any]]) -> Trainee:
    """``t`` with its check-out, matched by the exact name; a check-out under a name that only reads
    the same is named in a problem line rather than left unseen."""
    if t.name in found:
        return replace(t, checkout=found[t.name])
    key = _name_key(t.name)
    alike = sorted(name for name in found if _name_key(name) == key)
    if not alike:
        return replace(t, checkout=None)
    names = ", ".join(_name_shown(name) for name in alike)
    return replace(
        t,
        checkout=None,
        problems=(
            *t.problems,
            f"a check-out is for {names}, which reads like this trainee's name but is not it: "
            "check-outs are matched by the exact name",
        ),
    )


def _name_shown(name: str) -> str:
    """A trainee's name in quotes, every look-alike, invisible or control character as ``⟨U+XXXX⟩``."""
    return f"'{shown(visible_id(name), NAME_SHOWN)}'"


#: Characters that show as nothing (or a blank) in a name but are letters or marks to Unicode: the
#: default-ignorable ones that are not format characters (those go anyway); the braille blank reads as a space.
_BLANK_IN_NAMES = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)


def _name_key(name: str) -> str:
    """A trainee's name as two readers would take for the same: compatibility forms (``Ⅰ``, ``𝖨``),
    invisible and blank characters, look-alike letters of the project's table, case and spacing aside.
    Look-alikes outside that table (a small capital ``ɴ``, a Lisu ``ꓮ``) are told apart."""
    text = unicodedata.normalize("NFKC", name).replace("\u2800", " ")
    text = "".join(c for c in text if c not in _BLANK_IN_NAMES and unicodedata.category(c) != "Cf")
    return " ".join(reader_form(text).split())


def _flag_shared(
    trainees: list[Trainee],
    key: Callable[[Trainee], Any],
    line: Callable[[Trainee, list[Trainee]], str],
) -> list[Trainee]:
    """Each trainee whose ``key`` (when not None) another trainee's file shares, given ``line(t, others)``."""
    groups: dict[Any, list[int]] = {}
    for index, t in enumerate(trainees):
        found = key(t)
        if found is not None:
            groups.setdefault(found, []).append(index)
    flagged = list(trainees)
    for same in (group for group in groups.values() if len(group) > 1):
        for index in same:
            t = trainees[index]
            others = [trainees[i] for i in same if i != index]
            flagged[index] = replace(t, problems=(*t.problems, line(t, others)))
    return flagged


def _names_shared(trainees: list[Trainee]) -> list[Trainee]:
    """Each file whose trainee's name another file also gives (or one that reads the same), flagged.

    A check-out is matched to a trainee by name, so one pass would otherwise stand for every file
    under that name, whatever drill each holds.
    """
    return _flag_shared(
        trainees,
        lambda t: _name_key(t.name),
        lambda _t, others: (
            "another file names the same trainee: "
            + ", ".join(f"{o.file} ({_name_shown(o.name)})" for o in others)
            + "; a check-out stands for one drill, so neither counts until one file is kept"
        ),
    )


def _copies_flagged(trainees: list[Trainee]) -> list[Trainee]:
    """Each file that shares its drill seed (so its case sequence) with another file, flagged as a copy.

    Fresh drills start from a fresh random seed (:attr:`~helpers.trainee.drill.mastery.Mastery.FRESH_SEEDS`),
    so two trainees' files share one by chance about once in 1.8 million cohorts of 1,000; a shared
    seed is a copied file, or two drills started from one fixed (demo) seed.
    """
    return _flag_shared(
        trainees,
        lambda t: t.seed if t.seed is not None and t.step else None,
        lambda t, others: (
            f"a copy: its case sequence (drill seed {t.seed}) is also the one in "
            + ", ".join(f"{o.file} ({shown(o.name, NAME_SHOWN)})" for o in others)
            + "; each trainee's drill starts from its own fresh seed"
        ),
    )
