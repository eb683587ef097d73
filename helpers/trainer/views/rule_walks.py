"""The teaching rules walked through on scripted answers, so a stored output shows each one.

Notebooks 04, 06 and 07 state how a case is scored, how a trainer's re-grade
reads a progress file, and what a check-out pass needs. Each function here
drives the real engine (the drill, the re-grade, the check-out grader) with a
scripted trainee and returns what happened as plain text, so the notebook's
stored output shows the rule at work, and a change to the rule changes it:

* :func:`drill_scoring`: a slip after mastery takes it away; a hinted right
  answer is *helped*; a skip and a reveal are misses (``04_practice.ipynb``);
* :func:`evidence_refusals`: two files with one attempt id, a seed out of
  sequence, a miss edited into a right answer, a newer file version
  (``06_trainer.ipynb``);
* :func:`first_attempts_only`: item statistics from first attempts only, and the
  size of the upper and lower groups (``06_trainer.ipynb``);
* :func:`checkout_verdicts` and :func:`key_edits_refused`: a paper failed on one
  look-alike kind alone, or one rule, and passed with slips spread out; a key cut
  short or added to refused (``07_checkout.ipynb``).

Nothing is written outside a temporary folder, and no path, time or random seed
that changes between runs is shown.
"""

from __future__ import annotations

import copy
import datetime as _dt
import json
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError, HelpersError
from helpers.trainee.cases.deciding_rule import keyed_rule
from helpers.trainee.drill.attempt import MasteryAttempt
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.model import MASTERY_STREAK
from helpers.trainee.grading import Answer

__all__ = [
    "drill_scoring",
    "evidence_refusals",
    "first_attempts_only",
    "readiness_reasons",
    "checkout_verdicts",
    "key_edits_refused",
]

#: The keys of the checks' own input; everything else a case shows is context.
_CHECK_KEYS = frozenset(
    {"original", "rewritten", "unresolved", "query", "rewritten_query", "baseline", "proposed"}
)
_ISSUED = "2026-12-01T09:00:00Z"


class _Clock:
    """A fake UTC clock: 09:00 on 1 December 2026, a minute later at each reading."""

    def __init__(self) -> None:
        self.moment = _dt.datetime(2026, 12, 1, 9, 0, tzinfo=_dt.UTC)

    def __call__(self) -> _dt.datetime:
        self.moment += _dt.timedelta(minutes=1)
        return self.moment

    def wait(self, days: int) -> None:
        """Move the clock on by ``days``, as between two sittings."""
        self.moment += _dt.timedelta(days=days)


def _right_answer(view: Any) -> Answer:
    """What a trainee who reads the case exactly answers: the check's output and the keyed rule."""
    shown = view.plain_input()
    record = {k: v for k, v in shown.items() if k in _CHECK_KEYS}
    context = {k: v for k, v in shown.items() if k not in _CHECK_KEYS}
    reason = keyed_rule(view.check, record, context)
    try:
        out = run_check(view.check, record).as_dict()
    except CheckInputError:
        return Answer(view.check, hold=True, flag=False, reason=reason)
    if "held" in out:
        return Answer(view.check, hold=True, flag=False, reason=reason)
    first, second, flag = view.fields
    return Answer(view.check, frozenset(out[first]), frozenset(out[second]), out[flag], reason=reason)


def _slip(answer: Answer) -> Answer:
    """The same answer with its flag turned over (or a hold given up): wrong in one field."""
    if answer.hold:
        return Answer(answer.check, flag=True, reason=answer.reason)
    return Answer(answer.check, answer.missing, answer.second, not answer.flag, reason=answer.reason)


def _rule_of(session: Any, view: Any) -> str:
    """The rule of the open case, from a copy of the drill checked with the right answer (the drill
    names a case's rule only once it is scored)."""
    trial = copy.deepcopy(session)
    trial.check(_right_answer(view))
    rule: str = trial.scored_rule
    return rule


def _review_gaps(reviews: int = 3) -> list[str]:
    """A rule answered right, unaided, at every review: how many cases each review waits for.

    Worked on the mastery model alone (one rule reviewed, another filling the cases between), so
    the gaps are the model's own: :data:`helpers.trainee.drill.model.REVIEW_GAP` cases after mastery,
    then twice as long after each review passed."""
    mastery = Mastery.start(["ts-lost", "ts-added"], seed=5)
    when = _dt.datetime(2026, 12, 1, 9, 0, tzinfo=_dt.UTC)
    due = list(range(1, MASTERY_STREAK + 1))  # unaided right answers in a row master the rule
    lines = [
        f"Spaced review: {due[-1]} right answers in a row master ts-lost; then each review answered right:"
    ]
    number = 0
    while len(due) < MASTERY_STREAK + reviews + 1:
        number += 1
        rule = "ts-lost" if number in due else "ts-added"
        moment = (when + _dt.timedelta(hours=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        mastery.record(
            MasteryAttempt(
                number, rule, number, None, (), (), None, "correct", True, 0, False, moment, moment
            )
        )
        if rule == "ts-lost" and number >= MASTERY_STREAK:
            ready = mastery.states["ts-lost"].ready_at
            lines.append(
                f"  case {number:>3}: not served again before case {ready} (a gap of {ready - number})"
            )
            due.append(ready)
    return lines


def drill_scoring(seed: int = 5) -> str:
    """A scripted target-scope drill: right answers until a rule is mastered, a slip on it when its
    review comes round, then a hint, a skip and a reveal.

    Each line is one scored case: its number, rule, outcome, and the rule's
    streak afterwards. Taught in ``04_practice.ipynb`` ("How a case is scored,
    shown").
    """
    from helpers.trainee.drill.engine import DrillSession

    clock = _Clock()
    session = DrillSession.start(seed=seed, check="target-scope", clock=clock)
    lines: list[str] = []

    def line(rule: str, note: str = "") -> None:
        attempt = session.attempts[-1]
        state = session.mastery.states[rule]
        mark = "mastered" if state.mastered else f"streak {state.streak}/{MASTERY_STREAK}"
        lines.append(f"  case {attempt.number:>2} {rule:<20} {attempt.outcome:<8} {mark}{note}")

    lines.append("Every answer right, first try, no hint, until a rule is mastered:")
    while not session.mastered:
        view = session.next_case()
        rule = _rule_of(session, view)
        session.check(_right_answer(view))
        line(rule)
    first = session.mastered[0]
    view = session.next_case()  # the drill never serves one rule twice running
    rule = _rule_of(session, view)
    session.check(_right_answer(view))
    line(rule)
    clock.wait(30)
    view = session.next_case()
    lines.append(f"A month later {first} is due for review, and is served first ({view.label}). A slip:")
    rule = _rule_of(session, view)
    result = session.check(_slip(_right_answer(view)))
    lost = session.mastery.states[rule].times_lost
    line(rule, f" (mastery taken away; lost {lost} time{'s' if lost != 1 else ''} so far)")
    lines.append(f"  feedback: {result.text.splitlines()[-2]}")
    lines.append("A hint, then the right answer:")
    view = session.next_case()
    rule = _rule_of(session, view)
    session.hint()
    result = session.check(_right_answer(view))
    line(rule, f" (unaided right so far: {session.mastery.states[rule].unaided})")
    lines.append(f"  feedback: {result.text.splitlines()[-2]}")
    lines.append("A case left for the next one, without a check:")
    rule = _rule_of(session, session.next_case())
    view = session.next_case()
    line(rule)
    lines.append("The worked answer shown first, then the right answer checked:")
    rule = _rule_of(session, view)
    session.reveal()
    result = session.check(_right_answer(view))
    line(rule)
    lines.append(f"  feedback: {result.text.splitlines()[-1]}")
    right, wrong = session.mastery.record_so_far()
    lines.append(
        f"Whole record: {right} unaided of {right + wrong} cases; "
        f"mastered now: {', '.join(session.mastered) or 'none'}"
    )
    hardest = ", ".join(f"{rule} ({count})" for rule, count in session.mastery.hardest())
    lines.append(f"Cases not answered unaided, by rule: {hardest}")
    lines += _review_gaps()
    for outside, where in ((Mastery.MAX_SEED + 1, "past the range"), (-1, "below 0")):
        try:
            DrillSession.start(seed=outside)
        except HelpersError as exc:
            lines.append(f"A drill seed {where} is refused: {exc}")
    return "\n".join(lines)


def _sample(name: str) -> dict[str, Any]:
    from helpers.trainer.cohort import sample_progress_dir

    data: dict[str, Any] = json.loads((sample_progress_dir() / name).read_text(encoding="utf-8"))
    return data


def _problems(data: Mapping[str, Any]) -> list[str]:
    """What the trainer's re-grade finds in one progress object (read as a file would be)."""
    from helpers.trainee.progress.files import trainee_progress_from_data
    from helpers.trainer.cohort import regrade_v3

    progress = trainee_progress_from_data(data, source="the file")
    return regrade_v3(progress, data)


def evidence_refusals() -> str:
    """One sample trainee's file, edited four ways, and what the trainer's re-grade says of each.

    Taught in ``06_trainer.ipynb`` ("Evidence the trainer refuses, shown").
    """
    from helpers.trainer.cohort import load_cohort

    ben = _sample("ben.json")
    lines = [f"Ben's file as saved: {len(_problems(ben))} problems"]

    edited = json.loads(json.dumps(ben))
    number = next(a["number"] for a in edited["mastery"]["attempts"] if a["outcome"] != "correct")
    attempt = edited["mastery"]["attempts"][number - 1]
    attempt["outcome"], attempt["correct"], attempt["hints"], attempt["revealed"] = "correct", True, 0, False
    found = _problems(edited)
    lines.append(f"Case {number}, not unaided, edited into an unaided right answer: {len(found)} problems")
    lines += [f"  - {p}" for p in found[:3]]

    edited = json.loads(json.dumps(ben))
    edited["mastery"]["attempts"][0]["seed"] += 10_000
    found = _problems(edited)
    lines.append(f"Case 1 given the seed of another drill's case: {len(found)} problems")
    lines += [f"  - {p}" for p in found]

    edited = json.loads(json.dumps(ben))
    del edited["mastery"]["model"]
    found = _problems(edited)
    lines.append(
        f"The file's drill model taken out (its cases then count as served earlier): {len(found)} problem"
        + "s" * (len(found) != 1)
    )
    lines += [f"  - {p}" for p in found]

    with tempfile.TemporaryDirectory(prefix="eic-walk-") as folder:
        for name in ("ben.json", "ben-copy.json"):
            (Path(folder) / name).write_text(json.dumps(ben), encoding="utf-8")
        cohort = load_cohort([folder])
        lines.append("The same file twice, under two names:")
        for trainee in cohort.trainees:
            shown = [p.replace(folder, "…") for p in trainee.problems]
            lines.append(f"  {Path(trainee.file).name}: " + "; ".join(shown))

    for name, reason in load_cohort(["ben\x00progress"]).unreadable:
        lines.append(f"A path no file can have ({name}): listed, not read: {reason}")

    newer = {**ben, "version": ben["version"] + 1}
    from helpers.trainee.progress.files import trainee_progress_from_data

    try:
        trainee_progress_from_data(newer, source="ben.json")
    except HelpersError as exc:
        lines.append(f"The file marked version {newer['version']}: refused: {exc}")
    return "\n".join(lines)


def first_attempts_only() -> str:
    """Item statistics over six made-up trainees, first attempts only, and the groups they rank into.

    Taught in ``06_trainer.ipynb`` ("Evidence the trainer refuses, shown").
    """
    from helpers.trainer.item_analysis import GROUP_SHARE, FirstAttempt, item_analysis, item_table_text

    right = {"A": "rrrrrr", "B": "wrrrrr", "C": "rrrrww", "D": "wrrrww", "E": "rrwwww", "F": "wwwwww"}
    rules = [f"rule-{n}" for n in range(6)]
    records = [
        FirstAttempt(name, rules[n], mark == "r", None if mark == "r" else "ts-order")
        for name, marks in right.items()
        for n, mark in enumerate(marks)
    ]
    later = [FirstAttempt(name, "rule-0", True) for name in ("B", "D", "F")]  # right on a second try
    stats = item_analysis([*records, *later], rules=rules)
    size = max(1, round(GROUP_SHARE * len(right)))
    lines = [
        "Six trainees; B, D and F answer rule-0 wrong first and right on a later try, which does not count.",
        f"Upper and lower groups: round({GROUP_SHARE} × {len(right)}) = {size} trainees each "
        "(A and B on top, E and F at the bottom).",
        item_table_text(stats),
    ]
    return "\n".join(lines)


def readiness_reasons() -> str:
    """Which graded check-outs count towards readiness, and whether each sample drill is complete.

    Taught in ``06_trainer.ipynb`` ("Evidence the trainer refuses, shown").
    """
    from helpers.trainer.cohort import checkout_reasons, load_cohort, sample_progress_dir

    results: list[tuple[str, dict[str, Any] | None, bool]] = [
        ("no check-out", None, False),
        ("passed, verified, proctored", {"passed": True, "verified": True, "proctored": True}, True),
        ("passed, signature not verified", {"passed": True, "verified": False, "proctored": True}, True),
        (
            "passed, a practice paper",
            {"passed": True, "verified": True, "practice": True, "proctored": True},
            True,
        ),
        ("not passed", {"passed": False, "verified": True, "proctored": True}, True),
        (
            "passed, verified, sat on the trainee's own machine (only proctored ones count, the default)",
            {"passed": True, "verified": True},
            True,
        ),
        (
            "the same, with --accept-unproctored",
            {"passed": True, "verified": True},
            False,
        ),
        (
            "passed, verified, but the ledger holds a newer graded paper not given",
            {
                "passed": True,
                "verified": True,
                "proctored": True,
                "superseded_by": {"paper_id": "5215d96517cd1a52", "graded": "2026-12-01", "passed": False},
            },
            True,
        ),
    ]
    lines = ["A graded check-out, and why it does not count (nothing: it counts):"]
    for title, result, proctored in results:
        reasons = checkout_reasons(result, require_proctored=proctored)
        lines.append(f"  {title}: {'; '.join(reasons) or 'counts'}")
    lines.append(
        "Each sample drill, complete under its mastery model (look-alike kinds and the whole record too)?"
    )
    for trainee in load_cohort([sample_progress_dir()]).trainees:
        said = {True: "complete", False: "not complete", None: "cannot say (an older file)"}[trainee.complete]
        lines.append(f"  {trainee.name}: {said}; {trainee.completion()}")
    return "\n".join(lines)


def _right(record: Mapping[str, Any]) -> tuple[Answer, str]:
    from helpers.trainee.grading import correct_answer
    from helpers.trainer.marking import key_case

    a = correct_answer(key_case(record))
    return Answer(a.check, a.missing, a.second, a.flag, a.hold, record["rule"]), record["action"]


def _graded(issued: Any, wrong: Callable[[Mapping[str, Any]], bool]) -> Any:
    """The paper answered fully right except the cases ``wrong`` picks, which get one field wrong."""
    from helpers.trainer.answers import answers_data
    from helpers.trainer.marking import grade_checkout

    given = {}
    for record in issued.key["cases"]:
        answer, action = _right(record)
        given[record["label"]] = (_slip(answer), action) if wrong(record) else (answer, action)
    return grade_checkout(answers_data(issued.paper, given), issued.key)


def _sat(issued: Any, wrong: Callable[[Mapping[str, Any]], bool]) -> Any:
    """A sequential sitting of ``issued``, case by case, fully right except where ``wrong`` picks (40 s a case)."""
    from helpers.trainer.sitting import start_sitting

    ticks = iter(range(0, 10**7, 20))
    sitting = start_sitting(issued, clock=lambda: float(next(ticks)))
    records = {record["label"]: record for record in issued.key["cases"]}
    while (case := sitting.next_case()) is not None:
        record = records[case.label]
        answer, action = _right(record)
        sitting.answer(_slip(answer) if wrong(record) else answer, action)
    return sitting.result()


def checkout_verdicts(seed: int = 1) -> str:
    """One sequential check-out sat four ways: always right, two slips, one look-alike kind wrong, one rule wrong.

    Taught in ``07_checkout.ipynb`` ("What a pass needs, shown").
    """
    from helpers.trainer.paper import issue_checkout
    from helpers.trainer.result_report import result_text
    from helpers.trainer.sequential import operating_characteristic_words

    issued = issue_checkout("Sample trainee", seed=seed, issued=_ISSUED)
    cases = issued.key["cases"]
    lines = [
        f"A sequential check-out: its key holds {len(cases)} cases; a sitting serves those the rule asks for.",
        operating_characteristic_words(),
    ]
    perfect = _sat(issued, lambda r: False)
    served = [c.label for c in perfect.cases]
    by_label = {c["label"]: c for c in cases}
    plain = [by_label[label] for label in served if not by_label[label]["lookalike_kinds"]]
    spread = {plain[1]["label"], next(c["label"] for c in plain[2:] if c["rule"] != plain[1]["rule"])}
    kind = "zero-width"
    rule = next(c["rule"] for c in plain if c["label"] not in spread)
    for title, wrong in (
        ("Always right", lambda r: False),
        ("Two slips, on two rules", lambda r: r["label"] in spread),
        (f"Every {kind} case wrong", lambda r: kind in r["lookalike_kinds"]),
        (f"Every {rule} case wrong", lambda r: r["rule"] == rule),
    ):
        result = _sat(issued, wrong)
        lines.append(f"{title}: {'PASSED' if result.passed else 'NOT PASSED'}")
        lines.append(
            f"  after {len(result.cases)} cases ({result.fully_correct} fully correct): {result.why}"
        )
        ok, n = result.per_rule()[rule]
        lines.append(f"  {rule}: {ok} of {n} right; per look-alike kind (right of cases):")
        lines.append("    " + ", ".join(f"{k} {ok} of {n}" for k, (ok, n) in result.per_kind().items()))
    named = issue_checkout("Sam\x1b[2J\ud800", seed=seed, issued=_ISSUED)
    heading = result_text(_sat(named, lambda r: False)).splitlines()[0]
    lines.append(f"A trainee name holding control characters, in the result's first line: {heading}")
    return "\n".join(lines)


def key_edits_refused(seed: int = 1) -> str:
    """A key cut short, added to, and re-keyed to another rule: each refused before grading.

    Taught in ``07_checkout.ipynb`` ("What a pass needs, shown").
    """
    from helpers.core.errors import CheckoutFileError
    from helpers.trainer.answer_key import load_key
    from helpers.trainer.answers import write_answers
    from helpers.trainer.checkout import CheckoutSitting
    from helpers.trainer.issued_files import write_checkout
    from helpers.trainer.paper import issue_checkout
    from helpers.trainer.secret import TrainerSecret

    issued = issue_checkout("Sample trainee", seed=seed, issued=_ISSUED)
    lines = []
    with tempfile.TemporaryDirectory(prefix="eic-walk-") as folder:
        _, key_file, _ = write_checkout(issued, Path(folder) / "exam.json")
        original = json.loads(key_file.read_text(encoding="utf-8"))
        load_key(key_file)
        lines.append("The key as issued: read, ready to grade")
        edits: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
            ("the last case cut", lambda k: k["cases"].pop()),
            (
                "a case added",
                lambda k: k["cases"].append(
                    {**k["cases"][0], "label": f"Check-out case {len(k['cases']) + 1}"}
                ),
            ),
            ("case 2 keyed to another rule", lambda k: k["cases"][1].update(rule="ts-order")),
        ]
        for title, edit in edits:
            key = json.loads(json.dumps(original))
            edit(key)
            key_file.write_text(json.dumps(key), encoding="utf-8")
            try:
                load_key(key_file)
                lines.append(f"{title}: read")
            except CheckoutFileError as exc:
                lines.append(f"{title}: refused: {str(exc).replace(folder, '…')}")
        secret = TrainerSecret.open(Path(folder) / "trainer", create=True)
        try:
            write_checkout(issued, secret.folder / "exam.json", trainer=secret)
        except CheckoutFileError as exc:
            lines.append(
                f"A paper written beside the trainer's secret: refused: {str(exc).replace(folder, '…')}"
            )
        answers = CheckoutSitting(issued.paper).answers_data()
        written = write_answers(answers, Path(folder) / "answers.json")
        lines.append(
            f"An answers file written: {len(written.read_text(encoding='utf-8').splitlines())} lines"
        )
        try:
            write_answers(answers, written)
        except CheckoutFileError as exc:
            lines.append(f"Written again to the same name: refused: {str(exc).replace(folder, '…')}")
    return "\n".join(lines)
