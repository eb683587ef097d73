"""Practice beyond the filled cases: rules, practice cases, drills, scores and progress.

* ``fixtures/rules.json`` lists each check's rules: a stable id, a one-line
  statement and the notebook section that teaches it.
* ``fixtures/practice_cases.json`` holds practice cases: filled-case fields
  plus ``"rules"``, the rule ids each case exercises.
* A drill is a seeded shuffle of practice cases, so the order is reproducible.
* A :class:`Progress` record scores the first check of every case, per case
  and per rule, and is saved as local JSON where the trainee chooses. Nothing
  is sent anywhere. A corrupt or foreign file raises
  :class:`~helpers.errors.ProgressFileError` and is never overwritten.

No widgets here: the drill widget in :mod:`helpers.widgets.practice` calls
these functions. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cases import CSV_COLUMNS, Case, cases_from_data, filled_cases
from .checks import CHECK_TITLES, require_check_name
from .errors import InvalidInputError, JSONLoadError, ProgressFileError, describe_value
from .grading import Grade
from .jsonio import load_json_file, loads_strict
from .paths import fixtures_dir
from .render import HtmlBlock, esc

__all__ = [
    "Rule",
    "PracticeCase",
    "Attempt",
    "Progress",
    "RuleScore",
    "GRADED_RULES",
    "DEFAULT_SEED",
    "DEFAULT_PROGRESS_FILE",
    "PROGRESS_FORMAT",
    "PROGRESS_VERSION",
    "rules_json",
    "practice_cases_json",
    "load_rules",
    "rules_from_data",
    "project_rules",
    "load_practice_cases",
    "practice_cases_from_data",
    "practice_cases",
    "coverage",
    "coverage_table",
    "rules_table",
    "drill_order",
    "rules_missed",
    "rule_scores",
    "summary",
    "save_progress",
    "load_progress",
    "progress_from_data",
]

#: Rule ids that :func:`helpers.grading.grade` can name in its feedback. The
#: other rules in ``fixtures/rules.json`` are about context no widget mistake
#: can show (the query's wording, a non-sentinel's history, a rubric change):
#: a wrong answer on a case that exercises one of them counts as missing it.
GRADED_RULES: frozenset[str] = frozenset({
    "ts-lost", "ts-added", "ts-order", "ts-duplicates", "ts-exact-ids", "ts-empty",
    "ts-several", "ts-unresolved",
    "sk-changed", "sk-whitespace-case", "sk-invisible", "sk-missing", "sk-all-missing",
    "sk-new-case", "sk-empty-baseline",
})

#: The seed of the notebook's drill; any whole number gives another reproducible order.
DEFAULT_SEED = 5

#: Where progress is saved unless the trainee chooses: this name in the working folder.
DEFAULT_PROGRESS_FILE = "integrity-practice-progress.json"

#: The marker that tells a progress file apart from any other JSON file.
PROGRESS_FORMAT = "eval-integrity-practice-progress"
PROGRESS_VERSION = 1

_RULE_FIELDS = ("id", "statement", "section")
_PROGRESS_FIELDS = ("format", "version", "seed", "order", "attempts")
_ATTEMPT_FIELDS = ("case", "correct", "rules_missed")


def rules_json() -> Path:
    """``fixtures/rules.json``: every rule of both checks."""
    return fixtures_dir() / "rules.json"


def practice_cases_json() -> Path:
    """``fixtures/practice_cases.json``: the practice cases with their rule ids."""
    return fixtures_dir() / "practice_cases.json"


# --- rules ------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One rule: its check, stable id, one-line statement and teaching section.

    ``section`` reads ``"02_target_scope.ipynb#Order and duplicates"``: a
    notebook, then the heading of the section that teaches the rule.
    Taught in ``04_practice.ipynb``.
    """

    check: str
    id: str
    statement: str
    section: str

    @property
    def notebook(self) -> str:
        """The notebook that teaches the rule, e.g. ``02_target_scope.ipynb``."""
        return self.section.partition("#")[0]

    @property
    def heading(self) -> str:
        """The heading of the teaching section, e.g. ``Order and duplicates``."""
        return self.section.partition("#")[2]

    @property
    def href(self) -> str:
        """A link to the section from a notebook in the same folder (JupyterLab's anchors)."""
        return f"{self.notebook}#{self.heading.replace(' ', '-')}"

    @property
    def pointer(self) -> str:
        """The section as plain text: ``02_target_scope.ipynb › Order and duplicates``."""
        return f"{self.notebook} › {self.heading}"


def _text(raw: Mapping[str, Any], name: str, where: str) -> str:
    value = raw[name]
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{where}.{name} must be a non-empty string", field=f"{where}.{name}")
    return value


def _rule_from_mapping(check: str, raw: Any, where: str) -> Rule:
    if not isinstance(raw, Mapping) or set(raw) != set(_RULE_FIELDS):
        found = list(raw) if isinstance(raw, Mapping) else type(raw).__name__
        raise InvalidInputError(f"{where} must have the fields {list(_RULE_FIELDS)}, found {found}", field=where)
    rule = Rule(check, *(_text(raw, name, where) for name in _RULE_FIELDS))
    notebook, hash_, heading = rule.section.partition("#")
    if not hash_ or not notebook.endswith(".ipynb") or not heading.strip():
        raise InvalidInputError(
            f'{where}.section is {describe_value(rule.section)}, expected "NOTEBOOK.ipynb#Section heading"',
            field=f"{where}.section",
        )
    return rule


def rules_from_data(data: Any, *, source: str = "<data>") -> list[Rule]:
    """Build rules from a parsed ``{"rules": {check: [rule, ...]}}`` object; ids are unique."""
    if not isinstance(data, Mapping) or set(data) != {"rules"} or not isinstance(data["rules"], Mapping):
        raise InvalidInputError(f'{source}: expected an object {{"rules": {{check: [...]}}}}', field="rules")
    rules: list[Rule] = []
    seen: set[str] = set()
    for check, items in data["rules"].items():
        require_check_name(check, f"{source}: rules key")
        if not isinstance(items, list) or not items:
            raise InvalidInputError(f"{source}: rules[{describe_value(check)}] must be a non-empty list", field=check)
        for index, raw in enumerate(items):
            rule = _rule_from_mapping(check, raw, f"{source}: rules[{describe_value(check)}][{index}]")
            if rule.id in seen:
                raise InvalidInputError(f"{source}: the rule id {describe_value(rule.id)} appears twice", field="id")
            seen.add(rule.id)
            rules.append(rule)
    return rules


def load_rules(path: str | Path | None = None) -> list[Rule]:
    """Load the rule list (default ``fixtures/rules.json``). Taught in ``04_practice.ipynb``."""
    path = Path(path) if path is not None else rules_json()
    return rules_from_data(load_json_file(path), source=str(path))


def project_rules(check: str | None = None) -> list[Rule]:
    """The project's rules, optionally only those of one check."""
    rules = load_rules()
    if check is None:
        return rules
    require_check_name(check)
    return [rule for rule in rules if rule.check == check]


# --- practice cases ---------------------------------------------------------


@dataclass(frozen=True)
class PracticeCase(Case):
    """A case worked in the drill: a filled-case record plus the rule ids it exercises.

    It is a :class:`~helpers.cases.Case`, so grading and the work-it-yourself
    widget take it as they are. Taught in ``04_practice.ipynb``.
    """

    rules: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """``check/id``: unique across both checks, as in the worked-answer baseline."""
        return f"{self.check}/{self.id}"

    def to_data(self) -> dict[str, Any]:
        """The case as stored in ``fixtures/practice_cases.json``: filled-case fields, then rules."""
        return {**super().to_data(), "rules": list(self.rules)}


def practice_cases_from_data(
    data: Any, *, rules: Sequence[Rule], source: str = "<data>"
) -> list[PracticeCase]:
    """Build practice cases from ``{"cases": [...]}``, each case with a ``"rules"`` list.

    The other fields are read exactly as filled cases are. Each rule id must be
    a rule of the case's own check, listed once.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list):
        raise InvalidInputError(f'{source}: expected an object with a "cases" list', field="cases")
    known = {rule.id: rule.check for rule in rules}
    plain: list[Any] = []
    tags: list[tuple[str, ...]] = []
    for index, raw in enumerate(data["cases"]):
        where = f"{source}: cases[{index}]"
        if not isinstance(raw, Mapping):
            raise InvalidInputError(f"{where} is not an object", field=where)
        if "rules" not in raw:
            raise InvalidInputError(f"{where} has no \"rules\" field", field=f"{where}.rules")
        ids = raw["rules"]
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
            raise InvalidInputError(f"{where}.rules must be a non-empty list of rule ids", field=f"{where}.rules")
        if len(set(ids)) != len(ids):
            raise InvalidInputError(f"{where}.rules lists a rule twice", field=f"{where}.rules")
        for rule_id in ids:
            if known.get(rule_id) != raw.get("check"):
                raise InvalidInputError(
                    f"{where}.rules has {describe_value(rule_id)}, which is not a rule of {describe_value(raw.get('check'))}",
                    field=f"{where}.rules",
                )
        plain.append({name: value for name, value in raw.items() if name != "rules"})
        tags.append(tuple(ids))
    cases = cases_from_data({"cases": plain}, source=source)
    return [
        PracticeCase(**{name: getattr(case, name) for name in CSV_COLUMNS}, rules=ids)
        for case, ids in zip(cases, tags)
    ]


def load_practice_cases(
    path: str | Path | None = None, *, rules: Sequence[Rule] | None = None
) -> list[PracticeCase]:
    """Load practice cases (default ``fixtures/practice_cases.json``), checking their rule ids.

    Taught in ``04_practice.ipynb``.
    """
    path = Path(path) if path is not None else practice_cases_json()
    rules = list(rules) if rules is not None else load_rules()
    return practice_cases_from_data(load_json_file(path), rules=rules, source=str(path))


def practice_cases(check: str | None = None) -> list[PracticeCase]:
    """The project's practice cases, optionally only one check's.

    Their ids never repeat a filled case's id. Taught in ``04_practice.ipynb``.
    """
    cases = load_practice_cases()
    filled = {case.id for case in filled_cases()}
    for case in cases:
        if case.id in filled:
            raise InvalidInputError(
                f"{practice_cases_json()}: the practice case id {describe_value(case.id)} is also a filled case",
                field="id",
            )
    if check is None:
        return cases
    require_check_name(check)
    return [case for case in cases if case.check == check]


# --- coverage -----------------------------------------------------------------


def coverage(rules: Sequence[Rule], cases: Sequence[PracticeCase]) -> dict[str, list[PracticeCase]]:
    """Each rule id, in rule order, with the cases that exercise it (possibly none)."""
    table: dict[str, list[PracticeCase]] = {rule.id: [] for rule in rules}
    for case in cases:
        for rule_id in case.rules:
            if rule_id in table:
                table[rule_id].append(case)
    return table


def coverage_table(rules: Sequence[Rule], cases: Sequence[PracticeCase], check: str) -> HtmlBlock:
    """One check's rules × cases: a ● where a case exercises a rule, and a count per rule.

    Taught in ``04_practice.ipynb`` ("Which case practises which rule").
    """
    require_check_name(check)
    rules = [rule for rule in rules if rule.check == check]
    cases = [case for case in cases if case.check == check]
    covered = coverage(rules, cases)
    head = "".join(f'<th title="{esc(rule.statement)}"><code>{esc(rule.id)}</code></th>' for rule in rules)
    rows = []
    for case in cases:
        cells = "".join(
            f"<td>{'●' if rule.id in case.rules else ''}</td>" for rule in rules
        )
        rows.append(f"<tr><th><code>{esc(case.id)}</code></th>{cells}</tr>")
    counts = "".join(f"<td><b>{len(covered[rule.id])}</b></td>" for rule in rules)
    html = (
        f'<table class="eic-coverage"><thead><tr><th>{esc(CHECK_TITLES[check])}: case</th>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}<tr><th>cases per rule</th>{counts}</tr></tbody></table>'
    )
    text = [f"{CHECK_TITLES[check]}: {len(cases)} practice cases, {len(rules)} rules"]
    for rule in rules:
        ids = ", ".join(case.id for case in covered[rule.id]) or "(none)"
        text.append(f"{rule.id} ({len(covered[rule.id])}): {ids}")
    return HtmlBlock(html, "\n".join(text))


def rules_table(rules: Sequence[Rule]) -> HtmlBlock:
    """The rules with their statements and the section that teaches each.

    Taught in ``04_practice.ipynb`` ("The rules").
    """
    rows, text = [], []
    for rule in rules:
        rows.append(
            f"<tr><td><code>{esc(rule.id)}</code></td><td>{esc(rule.statement)}</td>"
            f'<td><a href="{esc(rule.href)}">{esc(rule.pointer)}</a></td></tr>'
        )
        text.append(f"{rule.id}: {rule.statement}\n  taught in {rule.pointer}")
    html = (
        '<table class="eic-rules"><thead><tr><th>Rule</th><th>Statement</th><th>Taught in</th></tr>'
        f'</thead><tbody>{"".join(rows)}</tbody></table>'
    )
    return HtmlBlock(html, "\n".join(text))


# --- drills and scoring ---------------------------------------------------------


def drill_order(
    cases: Iterable[PracticeCase], seed: int, *, size: int | None = None
) -> list[PracticeCase]:
    """The cases in a shuffled order fixed by ``seed``; the first ``size`` if given.

    The same seed and cases always give the same order, whatever order the
    cases arrive in. Taught in ``04_practice.ipynb`` ("The drill").
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInputError(f"seed is {describe_value(seed)}, expected a whole number", field="seed")
    ordered = sorted(cases, key=lambda case: case.key)
    if len({case.key for case in ordered}) != len(ordered):
        raise InvalidInputError("a drill cannot hold the same case twice", field="cases")
    random.Random(seed).shuffle(ordered)
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= len(ordered):
            raise InvalidInputError(
                f"size is {describe_value(size)}, expected a whole number from 1 to {len(ordered)}", field="size"
            )
        ordered = ordered[:size]
    return ordered


def rules_missed(case: PracticeCase, grade: Grade) -> tuple[str, ...]:
    """The rules an answer missed: those its feedback names, then the case's context rules.

    A context rule (one not in :data:`GRADED_RULES`) is missed whenever the
    answer is wrong, because the case exists to teach it. A correct answer
    misses nothing.
    """
    if grade.correct:
        return ()
    context = [rule for rule in case.rules if rule not in GRADED_RULES]
    return tuple(dict.fromkeys([*grade.rules_missed, *context]))


@dataclass(frozen=True)
class Attempt:
    """The scored (first) check of one case: its key, whether it was right, the rules missed."""

    case: str
    correct: bool
    rules_missed: tuple[str, ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The attempt as stored in a progress file."""
        return {"case": self.case, "correct": self.correct, "rules_missed": list(self.rules_missed)}


@dataclass
class Progress:
    """A trainee's drill: the seed, the case order, and the scored check of each case.

    Only the first check of a case is scored; checking again still gives
    feedback but changes nothing here. Taught in ``04_practice.ipynb``.
    """

    seed: int
    order: tuple[str, ...]
    attempts: dict[str, Attempt] = field(default_factory=dict)

    @classmethod
    def start(cls, cases: Iterable[PracticeCase], seed: int = DEFAULT_SEED, *, size: int | None = None) -> Progress:
        """A fresh drill over ``cases`` in the order :func:`drill_order` gives."""
        return cls(seed, tuple(case.key for case in drill_order(cases, seed, size=size)))

    def record(self, case: PracticeCase, grade: Grade) -> Attempt:
        """Score ``grade`` for ``case`` if it is the case's first check; return the scored attempt."""
        if case.key not in self.order:
            raise InvalidInputError(f"{case.key} is not in this drill", field="case")
        if case.key not in self.attempts:
            self.attempts[case.key] = Attempt(case.key, grade.correct, rules_missed(case, grade))
        return self.attempts[case.key]

    def next_key(self) -> str | None:
        """The first case in drill order not yet checked, or None when the drill is done."""
        return next((key for key in self.order if key not in self.attempts), None)

    @property
    def total(self) -> int:
        """How many cases the drill holds."""
        return len(self.order)

    @property
    def done(self) -> int:
        """How many cases have a scored check."""
        return len(self.attempts)

    @property
    def correct(self) -> int:
        """How many scored checks were fully correct."""
        return sum(attempt.correct for attempt in self.attempts.values())

    @property
    def finished(self) -> bool:
        """True once every case in the drill has been checked."""
        return self.done == self.total

    def percent(self) -> int:
        """Correct checks as a whole percentage of checks so far, rounded down (0 before any)."""
        return self.correct * 100 // self.done if self.done else 0

    def score_line(self) -> str:
        """A one-line running score, e.g. ``Score: 3 of 4 correct (75%) · 4 of 38 cases done``."""
        if not self.done:
            return f"Score: nothing checked yet · 0 of {self.total} cases done"
        return (
            f"Score: {self.correct} of {self.done} correct ({self.percent()}%) · "
            f"{self.done} of {self.total} cases done"
        )

    def to_data(self) -> dict[str, Any]:
        """The JSON object a progress file holds."""
        return {
            "format": PROGRESS_FORMAT,
            "version": PROGRESS_VERSION,
            "seed": self.seed,
            "order": list(self.order),
            "attempts": [attempt.to_data() for attempt in self.attempts.values()],
        }


@dataclass(frozen=True)
class RuleScore:
    """How a trainee did on one rule: cases that exercised or missed it, and where it was missed."""

    rule: Rule
    seen: int
    missed_in: tuple[str, ...]

    @property
    def missed(self) -> int:
        """How many cases missed the rule."""
        return len(self.missed_in)

    @property
    def right(self) -> int:
        """How many cases exercised the rule without missing it."""
        return self.seen - self.missed


def rule_scores(
    progress: Progress, cases: Iterable[PracticeCase], rules: Sequence[Rule]
) -> list[RuleScore]:
    """Per rule, in rule order: checked cases that exercised or missed it, and where it was missed.

    A case counts for a rule when it lists the rule or its scored check
    missed the rule. Taught in ``04_practice.ipynb`` ("How the drill is scored").
    """
    by_key = {case.key: case for case in cases}
    scores = []
    for rule in rules:
        seen, missed = 0, []
        for attempt in progress.attempts.values():
            tagged = rule.id in by_key[attempt.case].rules
            if tagged or rule.id in attempt.rules_missed:
                seen += 1
            if rule.id in attempt.rules_missed:
                missed.append(attempt.case)
        scores.append(RuleScore(rule, seen, tuple(missed)))
    return scores


def summary(progress: Progress, cases: Iterable[PracticeCase], rules: Sequence[Rule]) -> HtmlBlock:
    """The end-of-drill summary: score, each rule missed, where, and the section that teaches it.

    Taught in ``04_practice.ipynb``.
    """
    by_key = {case.key: case for case in cases}
    scores = rule_scores(progress, by_key.values(), rules)
    missed = [score for score in scores if score.missed]
    state = "Drill finished" if progress.finished else "Drill so far"
    head = f"{state}: {progress.correct} of {progress.done} correct ({progress.percent()}%)."
    html = [f'<div class="eic-summary-body"><p><b>{esc(head)}</b></p>']
    text = [head]
    if not missed:
        html.append("<p>No rule missed.</p>")
        text.append("No rule missed.")
    else:
        html.append(
            '<p><b>Rules missed</b></p><table class="eic-missed"><thead><tr><th>Rule</th>'
            "<th>Missed in</th><th>Taught in</th></tr></thead><tbody>"
        )
        text.append("Rules missed:")
        for score in missed:
            where = "<br>".join(
                f"<code>{esc(by_key[key].id)}</code> {esc(by_key[key].title)}" for key in score.missed_in
            )
            html.append(
                f"<tr><td><code>{esc(score.rule.id)}</code><br>{esc(score.rule.statement)}</td>"
                f'<td>{where}</td><td><a href="{esc(score.rule.href)}">{esc(score.rule.pointer)}</a></td></tr>'
            )
            text.append(f"- {score.rule.id}: {score.rule.statement}")
            text.extend(f"    missed in {by_key[key].id}: {by_key[key].title}" for key in score.missed_in)
            text.append(f"    taught in {score.rule.pointer}")
        html.append("</tbody></table>")
    html.append(
        '<p><b>Every rule</b></p><table class="eic-rule-scores"><thead><tr><th>Rule</th>'
        "<th>Cases</th><th>Right</th><th>Missed</th></tr></thead><tbody>"
    )
    text.append("Every rule (cases, right, missed):")
    for score in scores:
        html.append(
            f"<tr><td><code>{esc(score.rule.id)}</code></td><td>{score.seen}</td>"
            f"<td>{score.right}</td><td>{score.missed}</td></tr>"
        )
        text.append(f"  {score.rule.id}: {score.seen}, {score.right}, {score.missed}")
    html.append("</tbody></table></div>")
    return HtmlBlock("".join(html), "\n".join(text))


# --- progress files -------------------------------------------------------------


def progress_from_data(
    data: Any,
    *,
    cases: Iterable[PracticeCase],
    rules: Sequence[Rule],
    source: str = "<data>",
) -> Progress:
    """Validate a parsed progress object against these cases and rules.

    Raises :class:`~helpers.errors.ProgressFileError` naming what is wrong.
    """

    def bad(message: str) -> ProgressFileError:
        return ProgressFileError(message, path=source)

    if not isinstance(data, Mapping) or data.get("format") != PROGRESS_FORMAT:
        raise bad(f'is not a practice progress file (it has no "format": "{PROGRESS_FORMAT}")')
    version = data.get("version")
    if isinstance(version, bool) or version != PROGRESS_VERSION:
        raise bad(f"has version {describe_value(version)}; this helper reads version {PROGRESS_VERSION}")
    if set(data) != set(_PROGRESS_FIELDS):
        raise bad(f"expected the fields {list(_PROGRESS_FIELDS)}, found {list(data)}")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise bad(f"seed is {describe_value(seed)}, expected a whole number")
    by_key = {case.key: case for case in cases}
    rule_checks = {rule.id: rule.check for rule in rules}
    order = data["order"]
    if not isinstance(order, list) or not order or not all(isinstance(key, str) for key in order):
        raise bad("order must be a non-empty list of case keys")
    if len(set(order)) != len(order):
        raise bad("order lists a case twice")
    for key in order:
        if key not in by_key:
            raise bad(f"order refers to the case {describe_value(key)}, which is not a practice case here")
    if not isinstance(data["attempts"], list):
        raise bad("attempts must be a list")
    attempts: dict[str, Attempt] = {}
    for index, raw in enumerate(data["attempts"]):
        where = f"attempts[{index}]"
        if not isinstance(raw, Mapping) or set(raw) != set(_ATTEMPT_FIELDS):
            raise bad(f"{where} must have the fields {list(_ATTEMPT_FIELDS)}")
        key, correct, missed = raw["case"], raw["correct"], raw["rules_missed"]
        if not isinstance(key, str) or key not in order:
            raise bad(f"{where}.case is {describe_value(key)}, which is not in the drill's order")
        if key in attempts:
            raise bad(f"{where}.case {describe_value(key)} is scored twice")
        if not isinstance(correct, bool):
            raise bad(f"{where}.correct is {describe_value(correct)}, expected true or false")
        if (
            not isinstance(missed, list)
            or not all(isinstance(rule_id, str) for rule_id in missed)
            or len(set(missed)) != len(missed)
        ):
            raise bad(f"{where}.rules_missed must be a list of distinct rule ids")
        for rule_id in missed:
            if rule_checks.get(rule_id) != by_key[key].check:
                raise bad(f"{where}.rules_missed has {describe_value(rule_id)}, which is not a rule of {describe_value(by_key[key].check)}")
        if correct == bool(missed):
            raise bad(f"{where}: a correct check misses no rule, and a wrong one misses at least one")
        attempts[key] = Attempt(key, correct, tuple(missed))
    return Progress(seed, tuple(order), attempts)


def _shown_path(path: str | Path) -> str:
    """``path`` as text safe to show and send: lone surrogates and control characters escaped."""
    text = os.fspath(path)
    if isinstance(text, bytes):  # pragma: no cover - str paths only in practice
        text = os.fsdecode(text)
    return "".join(
        char if char.isprintable() and not "\ud800" <= char <= "\udfff" else ascii(char)[1:-1]
        for char in text
    )


def _path_problem(exc: OSError | ValueError) -> str:
    """Why ``exc`` stops a path being used, in a few plain words."""
    if isinstance(exc, UnicodeError):
        return "it has characters a file name cannot hold"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    if "null" in str(exc):
        return "it contains a null character"
    return str(exc) or type(exc).__name__


def _checked_path(path: str | Path) -> Path:
    """``path`` expanded, or ValueError when no file could have that name (a null, a lone surrogate)."""
    path = Path(path).expanduser()
    if b"\0" in os.fsencode(path):  # os.fsencode raises UnicodeEncodeError for a lone surrogate
        raise ValueError("embedded null character in path")
    return path


def _read_progress(path: Path) -> Any:
    if path.is_dir():
        raise ProgressFileError("is a folder, not a progress file", path=_shown_path(path))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProgressFileError(f"cannot be read ({exc.strerror})", path=_shown_path(path)) from None
    try:
        return loads_strict(data.decode("utf-8-sig"), source=_shown_path(path))
    except UnicodeDecodeError as exc:
        raise ProgressFileError(
            f"is not UTF-8 text (byte {exc.start}), so not a progress file", path=_shown_path(path)
        ) from None
    except JSONLoadError as exc:
        raise ProgressFileError(f"is not a progress file: {exc.detail}", path=_shown_path(path)) from None


def load_progress(
    path: str | Path = DEFAULT_PROGRESS_FILE,
    *,
    cases: Iterable[PracticeCase] | None = None,
    rules: Sequence[Rule] | None = None,
) -> Progress:
    """Read a progress file (default in the working folder); the file is never changed.

    Raises :class:`~helpers.errors.ProgressFileError` when it is missing,
    corrupt, foreign, or refers to cases these practice cases lack, or when
    the path itself cannot be used (a null character, an over-long name).
    Taught in ``04_practice.ipynb`` ("Keeping your progress").
    """
    try:
        path = _checked_path(path)
        if not path.exists():
            raise ProgressFileError("does not exist; save your progress there first", path=_shown_path(path))
        data = _read_progress(path)
    except ProgressFileError:
        raise
    except (OSError, ValueError) as exc:
        raise ProgressFileError(f"cannot be read ({_path_problem(exc)})", path=_shown_path(path)) from None
    return progress_from_data(
        data,
        cases=cases if cases is not None else practice_cases(),
        rules=rules if rules is not None else load_rules(),
        source=_shown_path(path),
    )


def _continues(progress: Progress, earlier: Progress) -> bool:
    """True when ``progress`` is ``earlier`` carried on: same drill, every earlier check kept."""
    return (
        progress.seed == earlier.seed
        and progress.order == earlier.order
        and all(progress.attempts.get(key) == attempt for key, attempt in earlier.attempts.items())
    )


def save_progress(
    progress: Progress,
    path: str | Path = DEFAULT_PROGRESS_FILE,
    *,
    cases: Iterable[PracticeCase] | None = None,
    rules: Sequence[Rule] | None = None,
) -> Path:
    """Write ``progress`` as JSON to ``path`` (default in the working folder), atomically.

    An existing file is replaced only if it is a valid progress file (checked
    as :func:`load_progress` checks it) of the same drill (seed and order)
    whose checks ``progress`` still holds, so saving never loses checked
    cases; anything else raises :class:`~helpers.errors.ProgressFileError`
    and is left untouched. Returns the path written.
    Taught in ``04_practice.ipynb`` ("Keeping your progress").
    """
    try:
        path = _checked_path(path)
        return _save_progress(progress, path, cases=cases, rules=rules)
    except ProgressFileError:
        raise
    except (OSError, ValueError) as exc:
        raise ProgressFileError(f"cannot be written ({_path_problem(exc)})", path=_shown_path(path)) from None


def _save_progress(
    progress: Progress, path: Path, *, cases: Iterable[PracticeCase] | None, rules: Sequence[Rule] | None
) -> Path:
    shown = _shown_path(path)
    if path.exists() or path.is_symlink():
        try:
            earlier = load_progress(path, cases=cases, rules=rules)
        except ProgressFileError as exc:
            raise ProgressFileError(
                f"{exc.message}; it was not overwritten, so choose another path", path=shown
            ) from None
        if not _continues(progress, earlier):
            raise ProgressFileError(
                f"holds other progress (seed {earlier.seed}, {earlier.done} checked cases); "
                "press Load progress to continue it, or choose another path",
                path=shown,
            )
    folder = path.parent
    if not folder.is_dir():
        raise ProgressFileError(
            f"cannot be written: the folder {_shown_path(folder)} does not exist", path=shown
        )
    text = json.dumps(progress.to_data(), ensure_ascii=False, indent=1) + "\n"
    try:
        handle, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ProgressFileError(f"cannot be written ({exc.strerror})", path=shown) from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ProgressFileError(f"cannot be written ({exc.strerror})", path=shown) from None
    return path
