"""The trainer's commands' argparse definitions: ``practice``, ``cohort`` and ``checkout`` with
their steps. :mod:`helpers.cli.run` adds them to the tree :mod:`helpers.core.arguments` roots, and
:mod:`helpers.trainer.commands` runs them (imported only when one of them runs). Taught in
``06_trainer.ipynb``.
"""

from __future__ import annotations

from typing import Any


def _size(text: str) -> int:
    """``--max-bytes``: a size such as ``64MB``."""
    import argparse

    from helpers.trainer.bounded_file import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_trainer_commands(sub: Any, Parser: Any, only: str | None) -> None:
    """Add the trainer's commands to ``sub``; with ``only``, only that command's arguments."""

    def wanted(name: str) -> bool:
        return only is None or only == name

    practice = sub.add_parser(
        "practice",
        formatter_class=Parser.plain,
        help="fresh practice cases: one generator per rule",
        description="Fresh practice cases, computed by the exact checks, one generator per rule.",
    )
    if wanted("practice"):
        steps = practice.add_subparsers(dest="practice_command", required=True, metavar="STEP")
        gen = steps.add_parser(
            "generate",
            formatter_class=Parser.plain,
            help="print generated cases as JSON Lines",
            description=(
                "Print generated practice cases as JSON Lines, each with check, id, title, rule_ids, "
                "input, expected, decision and reason. The same seed gives the same cases."
            ),
        )
        gen.add_argument("--rule", required=True, help="a rule id from fixtures/rules.json, or all")
        gen.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
        gen.add_argument("--count", type=int, default=1, help="cases per rule (default 1)")
    cohort = sub.add_parser(
        "cohort",
        formatter_class=Parser.plain,
        help="a trainer's table of trainees × rules from progress files",
        description=(
            "Read practice progress files (files, or folders of *.json) and print a table of "
            "trainees × rules (mastered, streak, not started), each trainee's completion and "
            "content hash, and the rules the cohort finds hardest. Progress files are written by "
            "each trainee's own drill: self-reported, not tamper-proof. Exit status 4 when a "
            "file could not be read (it is listed; the others are still shown)."
        ),
    )
    if wanted("cohort"):
        cohort.add_argument("paths", nargs="+", metavar="PATH", help="a progress file or a folder of them")
        cohort.add_argument(
            "--csv", metavar="FILE", help="also write the table as CSV (one row per trainee and rule)"
        )
        cohort.add_argument(
            "--json",
            action="store_true",
            help="print one JSON object per trainee (and per file not read): trainee, file, ready, problems, ...",
        )
        cohort.add_argument(
            "--checkouts",
            metavar="PATH",
            action="append",
            default=[],
            help="graded check-outs (checkout grade --json output), a file or a folder; may be repeated. "
            "Only results signed with the trainer's secret, for papers in its ledger, count",
        )
        sat = cohort.add_mutually_exclusive_group()
        sat.add_argument(
            "--accept-unproctored",
            action="store_true",
            help="count a check-out sat on the trainee's own machine too (on their honour: their kernel "
            "could compute any check); by default only proctored check-outs (checkout proctor) count",
        )
        sat.add_argument(
            "--require-proctored",
            action="store_true",
            help="count only check-outs sat proctored: now the default, accepted so existing scripts still run",
        )
        cohort.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder with the secret and ledger (default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        cohort.add_argument(
            "--no-cache",
            action="store_true",
            help="re-grade every file, not only those changed since the last run (the verdict cache, "
            "signed with the trainer's secret, is then neither read nor written)",
        )
    checkout = sub.add_parser(
        "checkout",
        formatter_class=Parser.plain,
        help="an unaided check-out: issue a paper and its key, grade the answers",
        description=(
            "Issue a trainee's check-out paper (generated cases from seeds disjoint from practice, "
            "neutral labels, no rule names or seeds) and keep its answer key, guarded by a baseline "
            "beside it; then grade the trainee's answers against the key."
        ),
    )
    if wanted("checkout"):
        steps = checkout.add_subparsers(dest="checkout_command", required=True, metavar="STEP")
        issue = steps.add_parser(
            "issue",
            formatter_class=Parser.plain,
            help="write a paper for one trainee and keep its key",
            description=(
                "Write the paper (-o EXAM.json) for the trainee, the key for the trainer (default "
                "EXAM.key.json beside it, or --key KEY) and the key's baseline (KEY.baseline.json). "
                "An existing file is never replaced without --force. Exit status 2 when nothing was written."
            ),
        )
        issue.add_argument("--trainee", required=True, help="the trainee's name, as the trainer records it")
        issue.add_argument(
            "--count",
            type=int,
            default=None,
            help="cases on the paper, graded by the sequential rule in the paper's order (default 90; at "
            "least 30, to show every rule once and every look-alike kind twice; at most 200)",
        )
        issue.add_argument(
            "--seed", type=int, default=None, help="make the paper reproducible (kept in the key only)"
        )
        issue.add_argument("-o", "--output", required=True, metavar="EXAM", help="where to write the paper")
        issue.add_argument("--key", metavar="KEY", help="where to keep the key (default: EXAM.key.json)")
        issue.add_argument("--force", action="store_true", help="replace existing files")
        issue.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder: the secret (made on the first issue, owner-only) and the ledger "
            "(default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        issue.add_argument(
            "--cooldown",
            type=float,
            default=None,
            metavar="HOURS",
            help="hours after a failed paper before the trainee's next one (default 12; 0 for none)",
        )
        proctor = steps.add_parser(
            "proctor",
            formatter_class=Parser.plain,
            help="serve one proctored paper to one trainee through the app (Voilà on 127.0.0.1)",
            description=(
                "Issue a proctored paper for the trainee into the trainer's folder and serve it through "
                "Voilà on 127.0.0.1 (or --host), where the page can run no code. The link printed carries "
                "the sitting's token: the page refuses any request without it. The answers are written, graded and "
                "signed on the trainer's side (DIR/results/PAPER_ID.json), never offered for download; "
                "each answer is saved there as it is given, so a reloaded page resumes at the next case "
                "(the ledger records each resume). Runs until stopped (Ctrl+C)."
            ),
        )
        proctor.add_argument("--trainee", help="the trainee's name, as the trainer records it")
        proctor.add_argument(
            "--sitting",
            metavar="DIR",
            help="instead of --trainee: serve a sitting issued before (DIR/proctored/PAPER_ID) again, after "
            "the proctor stopped or crashed; the page resumes at the next unanswered case",
        )
        proctor.add_argument(
            "--count",
            type=int,
            default=None,
            help="serve a fixed paper of this many cases in order, instead of the sequential sitting "
            "(default: sequential, at most 90 cases; at least 30; at most 200)",
        )
        proctor.add_argument(
            "--port", type=int, help="port to serve on (default: a free one; refused if in use)"
        )
        proctor.add_argument(
            "--host",
            metavar="ADDRESS",
            help="serve on this machine's ADDRESS on the trainer's network, for a trainee at another "
            "machine (default 127.0.0.1, this machine only); the printed link, with its token, is the key",
        )
        proctor.add_argument(
            "--cooldown",
            type=float,
            default=None,
            metavar="HOURS",
            help="hours after a failed paper before the trainee's next one (default 12; 0 for none)",
        )
        proctor.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder (default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        grade = steps.add_parser(
            "grade",
            formatter_class=Parser.plain,
            help="grade an answers file against its key",
            description=(
                "Grade the trainee's answers: verdicts per case, per field and per rule, and a pass "
                "(the sequential rule: the evidence for right 95% of the time against 85% reaches its "
                "boundary, with every rule and look-alike kind seen and cleared) or not, signed with the "
                "trainer's secret. The key is refused unless "
                "it and its baseline carry that secret's signature. Exit status 0 passed, 1 not passed, 4 nothing "
                "graded (a refused key or answers that do not fit the paper), 2 a usage error."
            ),
        )
        grade.add_argument(
            "answers", metavar="ANSWERS", nargs="?", help="the answers file the check-out wrote"
        )
        grade.add_argument("--key", metavar="KEY", help="the paper's key (needed with ANSWERS)")
        grade.add_argument(
            "--sitting",
            metavar="DIR",
            help="instead of ANSWERS and --key: a proctored sitting's folder (DIR/proctored/PAPER_ID), "
            "graded from the answers it saved, its signed result written to DIR/results before the "
            "ledger records it (for a hand-in that failed to write)",
        )
        grade.add_argument(
            "--baseline", metavar="FILE", help="the key's baseline (default: KEY.baseline.json)"
        )
        grade.add_argument("--csv", metavar="FILE", help="also write one row per case as CSV")
        grade.add_argument("--json", action="store_true", help="print the graded result as JSON")
        grade.add_argument("--force", action="store_true", help="let --csv replace an existing file")
        grade.add_argument(
            "--trainer-dir",
            metavar="DIR",
            help="the trainer's folder (default: $XDG_CONFIG_HOME/eval-integrity-helpers)",
        )
        grade.add_argument(
            "--max-bytes",
            type=_size,
            default=None,
            metavar="SIZE",
            help="the largest answers, key or baseline file read (default 8MB)",
        )
