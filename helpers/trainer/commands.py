"""The trainer's commands: ``practice generate``, ``cohort`` (the table over progress files, with
its progress line on a terminal), and ``checkout issue``, ``checkout proctor`` and ``checkout grade``.
:mod:`helpers.cli.run` imports this module only when one of these commands runs, and each command
imports the teaching code it needs only then.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from helpers.core import streams
from helpers.core.errors import CheckInputError
from helpers.core.files import same_file
from helpers.core.jsonio import dumps_compact
from helpers.core.outcomes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_PASS, EXIT_USAGE
from helpers.core.streams import _write_new_text, _write_text


def _practice_generate(rule: str, seed: int, count: int) -> int:
    """``practice generate``: fresh practice cases as JSON Lines (taught in ``04_practice.ipynb``)."""
    from helpers.trainee.cases.generators import GENERATORS, generate_many, generated_case_data

    if rule != "all" and rule not in GENERATORS:
        streams._STDERR.write(
            f"python -m helpers practice generate: no rule {rule!r}; choose all or one of: "
            f"{', '.join(GENERATORS)}\n"
        )
        return EXIT_USAGE
    if seed < 0 or count < 1:
        streams._STDERR.write(
            "python -m helpers practice generate: --seed must be 0 or more and --count 1 or more\n"
        )
        return EXIT_USAGE
    for case in generate_many(rule, seed, count):
        streams._STDOUT.write((dumps_compact(generated_case_data(case)) + "\n").encode("utf-8"))
    return EXIT_PASS


def _cohort(
    paths: Sequence[str],
    csv_path: str | None,
    as_json: bool = False,
    checkouts: Sequence[str] = (),
    *,
    trainer_dir: str | None = None,
    require_proctored: bool = True,
    use_cache: bool = True,
) -> int:
    """``cohort``: the trainer's table over progress files, re-graded (taught in ``06_trainer.ipynb``).

    The verdict cache in the trainer's folder (:mod:`helpers.trainer.verdict_cache`) spares the files
    unchanged since the last run, unless ``use_cache`` is false (``--no-cache``). A run that takes
    more than a couple of seconds shows a progress bar on standard error when that is a terminal
    (never in a pipe or a file), wiped before anything else is written there; the output is the same.
    """
    from helpers.trainer.cohort import load_cohort, progress_paths, shown
    from helpers.trainer.views.cohort_views import cohort_csv, cohort_json_lines, cohort_text

    files = progress_paths(paths)
    if csv_path is not None and any(same_file(str(f), csv_path) for f in files if os.path.lexists(f)):
        streams._STDERR.write(f"python -m helpers cohort: --csv {csv_path} is one of the progress files\n")
        return EXIT_USAGE
    from helpers.trainee.cases.generators import generators_fingerprint
    from helpers.trainer.secret import TrainerSecret, TrainerSecretError
    from helpers.trainer.verdict_cache import VerdictCache

    line = _ProgressLine(streams._STDERR, width=_terminal_width()) if _stderr_is_terminal() else None
    try:
        if checkouts:
            TrainerSecret.open(trainer_dir)  # refused before any file is read
        cache = VerdictCache.open(trainer_dir, course=generators_fingerprint()) if use_cache else None
        try:
            cohort = load_cohort(
                files,
                checkouts=checkouts,
                trainer_dir=trainer_dir,
                require_proctored=require_proctored,
                cache=cache,
                progress=line.update if line is not None else None,
            )
        finally:
            if line is not None:
                line.clear()
    except TrainerSecretError as exc:
        streams._STDERR.write(f"python -m helpers cohort: {exc}\n")
        return EXIT_USAGE
    for note in cohort.notes:
        streams._STDERR.write(f"python -m helpers cohort: {shown(note, 400)}\n")
    if not cohort.trainees and not cohort.unreadable:
        streams._STDERR.write("python -m helpers cohort: no progress files found\n")
        return EXIT_BAD_INPUT
    streams._STDOUT.write(
        (cohort_json_lines(cohort) if as_json else cohort_text(cohort)).encode("utf-8", "backslashreplace")
    )
    if csv_path is not None and _write_text(cohort_csv(cohort), csv_path, "cohort") != EXIT_PASS:
        return EXIT_USAGE
    return EXIT_BAD_INPUT if cohort.unreadable else EXIT_PASS


def _stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (a person watching), not a pipe or a file."""
    stream = sys.stderr
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


class _ProgressLine:
    """A progress bar on one line of a terminal: files done of the total and the time left, redrawn in place.

    Nothing is shown for the first :attr:`AFTER` seconds (a short run prints nothing extra),
    then at most every :attr:`EVERY` seconds; the line is cut to the terminal's ``width`` so it
    never wraps, and :meth:`clear` wipes it before the output. Hand-written rather than ``rich``:
    the package depends on nothing to run (``rich`` is in requirements.txt only as the development
    tools' own dependency, and ``tqdm`` not at all), and one line of text needs no library.
    """

    AFTER = 2.0
    EVERY = 0.25
    #: Cells of the bar itself, ``[#####.....]``, when the terminal has room for it.
    BAR = 20

    def __init__(self, stream: Any, clock: Callable[[], float] = time.monotonic, width: int = 80) -> None:
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self.first: tuple[float, int] | None = None  # when the first update came, and files done then
        self.drawn = 0.0
        self.width = 0
        self.room = max(width - 1, 1)  # the last column left free: some terminals wrap on it

    def update(self, done: int, total: int) -> None:
        now = self.clock()
        if self.first is None:
            self.first = (now, done)
        if now - self.started < self.AFTER or (now - self.drawn < self.EVERY and done < total):
            return
        since, done_then = self.first
        rate = (done - done_then) / (now - since) if now > since else 0.0
        left = f"about {_duration((total - done) / rate)} left" if rate > 0 else "working out the time left"
        line = f"cohort: {done:,} of {total:,} files re-graded; {left}"
        if total > 0 and len(line) + self.BAR + 3 <= self.room:
            filled = self.BAR * min(done, total) // total
            line = f"[{'#' * filled}{'.' * (self.BAR - filled)}] {line}"
        line = line[: self.room]
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = max(len(line), self.width)
        self.drawn = now

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _terminal_width() -> int:
    """The width of the terminal standard error shows on (80 when it cannot be told)."""
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns or 80
    except (AttributeError, OSError, ValueError):
        return shutil.get_terminal_size().columns


def _duration(seconds: float) -> str:
    """``5 s``, ``2 min 10 s`` or ``1 h 3 min``."""
    whole = max(round(seconds), 1)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def _surrogates(text: str) -> bool:
    """True when ``text`` holds bytes that were not UTF-8 (lone surrogates from the command line)."""
    return any("\ud800" <= char <= "\udfff" for char in text)


def _trainer(args: Any, command: str, *, create: bool = False) -> Any:
    """The trainer's secret for ``args.trainer_dir``; None after one line on standard error."""
    from helpers.trainer.secret import TrainerSecret, TrainerSecretError

    try:
        return TrainerSecret.open(args.trainer_dir, create=create)
    except TrainerSecretError as exc:
        streams._STDERR.write(f"python -m helpers {command}: {exc}\n")
        return None


def _checkout_issue(args: Any) -> int:
    """``checkout issue``: a check-out paper for one trainee, and its key (taught in ``07_checkout.ipynb``)."""
    from helpers.core.errors import CheckoutFileError
    from helpers.trainer.issued_files import write_checkout
    from helpers.trainer.paper import issue_checkout, new_paper_id
    from helpers.trainer.secret import TrainerSecretError

    if _surrogates(args.trainee):
        streams._STDERR.write(
            "python -m helpers checkout issue: --trainee is not UTF-8 text; nothing was written\n"
        )
        return EXIT_USAGE
    try:
        # A chosen seed makes the same cases each time, but never the same paper id.
        fresh = new_paper_id() if args.seed is not None else None
        issued = issue_checkout(
            args.trainee, count=args.count, seed=args.seed, paper_id=fresh, sequential=False
        )
    except CheckInputError as exc:
        streams._STDERR.write(f"python -m helpers checkout issue: {exc.message}\n")
        return EXIT_USAGE
    from helpers.trainer.secret import SECRET_NAME, trainer_dir

    new_secret = not os.path.lexists(trainer_dir(args.trainer_dir) / SECRET_NAME)
    trainer = _trainer(args, "checkout issue", create=True)
    if trainer is None:
        return EXIT_USAGE
    try:
        paper, key, baseline = write_checkout(
            issued,
            args.output,
            args.key,
            force=args.force,
            trainer=trainer,
            practice=args.seed is not None,
            cooldown_hours=args.cooldown,
        )
    except CheckInputError as exc:
        streams._STDERR.write(f"python -m helpers checkout issue: {exc.message}; nothing was written\n")
        return EXIT_USAGE
    except (CheckoutFileError, TrainerSecretError) as exc:
        streams._STDERR.write(f"python -m helpers checkout issue: {exc}\n")
        return EXIT_USAGE
    practice = (
        " (a practice paper: its seed was chosen, so it never counts towards readiness)"
        if args.seed is not None
        else ""
    )
    if new_secret:
        streams._STDERR.write(
            f"made the trainer's secret {trainer.path} (owner-only; keep it, and never share it)\n"
        )
    streams._STDERR.write(
        f"wrote the paper {paper} ({len(issued.paper['cases'])} cases) for the trainee{practice}; "
        f"kept the key {key} and its baseline {baseline} for the trainer, signed with the secret in "
        f"{trainer.folder}\n"
    )
    return EXIT_PASS


def _checkout_proctor(args: Any) -> int:
    """``checkout proctor``: one proctored paper for one trainee, served through Voilà at the link printed."""
    from helpers.core.errors import CheckoutFileError
    from helpers.trainer.secret import TrainerSecretError

    if (args.sitting is None) == (args.trainee is None):
        streams._STDERR.write(
            "python -m helpers checkout proctor: give --trainee NAME for a new paper, or --sitting DIR "
            "to serve one issued before\n"
        )
        return EXIT_USAGE
    if args.trainee is not None and _surrogates(args.trainee):
        streams._STDERR.write(
            "python -m helpers checkout proctor: --trainee is not UTF-8 text; nothing was issued\n"
        )
        return EXIT_USAGE
    try:
        from helpers.trainer.proctoring import prepare_sitting, resumable_sitting
        from helpers.trainer.serve.proctor import proctor_command, proctor_environment, write_proctor_notebook
        from helpers.trainer.serve.sitting_server import LOOPBACK, ServeAddressError, bind_listener, new_token
    except ImportError as exc:
        streams._STDERR.write(f"python -m helpers checkout proctor: needs the trainer extra (voila): {exc}\n")
        return EXIT_USAGE
    trainer = _trainer(args, "checkout proctor", create=True)
    if trainer is None:
        return EXIT_USAGE
    try:  # bound first: the address printed is the one served, and a taken port issues nothing
        listener = bind_listener(getattr(args, "host", None) or LOOPBACK, args.port)
    except ServeAddressError as exc:
        streams._STDERR.write(f"python -m helpers checkout proctor: {exc}; nothing was issued\n")
        return EXIT_USAGE
    notebook = None
    try:  # the scratch notebook first: a paper is issued only once everything else is ready
        notebook = write_proctor_notebook()
        if args.sitting is not None:
            sitting = resumable_sitting(args.sitting, trainer)
        else:
            sitting = prepare_sitting(args.trainee, trainer, count=args.count, cooldown_hours=args.cooldown)
    except (CheckInputError, CheckoutFileError, TrainerSecretError, OSError) as exc:
        listener.close()
        if notebook is not None:
            shutil.rmtree(notebook.parent, ignore_errors=True)
        streams._STDERR.write(
            f"python -m helpers checkout proctor: {getattr(exc, 'message', exc)}; nothing was served\n"
        )
        return EXIT_USAGE
    command = proctor_command(notebook, open_browser=False)
    token = new_token()
    result = trainer.folder / "results" / f"{sitting.name}.json"
    reach = (
        "this machine only"
        if listener.loopback
        else f"the network at {listener.host}: anyone who has the link can sit the paper, so give it to "
        "the trainee alone, and not by a channel others read"
    )
    streams._STDERR.write(
        f"Proctored paper {sitting.name} for {_plain_name(_trainee_of(sitting))}"
        f"{' (served again: the page resumes at the next unanswered case)' if args.sitting else ''}: "
        f"the result will be {result}. "
        f"Served to {reach}. The link is the key to the sitting: a request without its token opens "
        "nothing. Stop with Ctrl+C once it is handed in. The trainee opens:\n"
        f"{listener.link(token)}\n"
    )
    streams._STDERR.flush()
    os.chdir(notebook.parent)
    os.execve(command[0], command, proctor_environment(sitting, trainer.folder, listener, token))
    return EXIT_PASS  # not reached


def _trainee_of(sitting: Path) -> str:
    import json

    return str(json.loads((sitting / "paper.json").read_text(encoding="utf-8")).get("trainee", ""))


def _plain_name(text: str) -> str:
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _checkout_grade(args: Any) -> int:
    """``checkout grade``: verdicts per case, field and rule, and pass or fail (exit 0 or 1)."""
    import json

    from helpers.core.errors import CheckoutFileError
    from helpers.trainer.answer_key import key_baseline_path
    from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES
    from helpers.trainer.result_report import result_csv, result_text
    from helpers.trainer.secret import TrainerSecretError
    from helpers.trainer.signed_result import grade_files

    if args.sitting is not None:
        if args.answers is not None or args.key is not None or args.baseline is not None:
            streams._STDERR.write(
                "python -m helpers checkout grade: --sitting grades the answers the sitting saved, "
                "with its own key; give ANSWERS and --key without it\n"
            )
            return EXIT_USAGE
    elif args.answers is None or args.key is None:
        streams._STDERR.write(
            "python -m helpers checkout grade: give ANSWERS and --key KEY, or --sitting DIR\n"
        )
        return EXIT_USAGE
    inputs = (
        (str(args.answers), str(args.key), args.baseline or str(key_baseline_path(str(args.key))))
        if args.sitting is None
        else ()
    )
    if args.csv is not None and any(same_file(f, args.csv) for f in inputs if os.path.exists(f)):
        streams._STDERR.write(
            f"python -m helpers checkout grade: --csv {args.csv} is one of the input files\n"
        )
        return EXIT_USAGE
    if args.csv is not None and not args.force and os.path.lexists(args.csv):
        streams._STDERR.write(
            f"python -m helpers checkout grade: --csv {args.csv} already exists; nothing was graded "
            "(--force replaces it)\n"
        )
        return EXIT_USAGE
    trainer = _trainer(args, "checkout grade")
    if trainer is None:
        return EXIT_USAGE
    try:
        if args.sitting is not None:
            from helpers.trainer.proctoring import grade_sitting

            result = grade_sitting(args.sitting, trainer)
        else:
            result = grade_files(
                str(args.answers),
                str(args.key),
                args.baseline,
                trainer=trainer,
                max_bytes=args.max_bytes or MAX_CHECKOUT_BYTES,
            )
    except CheckoutFileError as exc:
        streams._STDERR.write(f"python -m helpers checkout grade: {exc}; nothing was graded\n")
        return EXIT_BAD_INPUT
    except TrainerSecretError as exc:
        streams._STDERR.write(f"python -m helpers checkout grade: {exc}; nothing was graded\n")
        return EXIT_USAGE
    if args.json:
        streams._STDOUT.write(
            (json.dumps(result.to_data(), ensure_ascii=False, indent=1) + "\n").encode("utf-8")
        )
    else:
        streams._STDOUT.write(result_text(result).encode("utf-8"))
    if (
        args.csv is not None
        and _write_new_text(result_csv(result), args.csv, "checkout grade", force=args.force) != EXIT_PASS
    ):
        return EXIT_USAGE
    return EXIT_PASS if result.passed else EXIT_FAILED
