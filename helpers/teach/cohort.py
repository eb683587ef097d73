"""A trainer's view: trainees × rules from their progress files, the hardest rules, and completion.

Progress files are written by each trainee's own drill on their own machine,
so everything here is self-reported and not tamper-proof; each row shows the
file's ``content_hash`` (the rules, vocabulary and generators it was practised
on) and its version. A file that cannot be read is listed with the reason,
and the others are still shown.

Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ProgressFileError
from ..core.paths import fixtures_dir
from .mastery import MASTERY_STREAK, RuleState
from .progress_v2 import TraineeProgress, load_trainee_progress
from .render import HtmlBlock, esc
from .rules import Rule, load_rules

__all__ = [
    "Trainee",
    "Cohort",
    "sample_progress_dir",
    "progress_paths",
    "load_cohort",
    "cohort_text",
    "cohort_csv",
    "cohort_table",
    "hardest_table",
    "mastery_numbers",
    "cohort_chart",
]

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
)


@dataclass(frozen=True)
class Trainee:
    """One trainee's progress, as read from one file. Taught in ``06_trainer.ipynb``."""

    name: str
    file: str
    progress: TraineeProgress

    @property
    def states(self) -> dict[str, RuleState]:
        """Each rule's mastery state."""
        return self.progress.mastery.states

    @property
    def version(self) -> int:
        """The file's format version as written (a version 1 file is migrated on load)."""
        return self.progress.migrated_from or 3

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
        """``complete on DATE``, or how many rules are mastered so far."""
        summary = self.progress.mastery.completion()
        if summary is not None:
            return f"complete on {summary['completed_on'][:10]}"
        mastery, course = self.progress.mastery, self.progress.course
        if mastery.step == 0 and course is not None:
            return f"set course only: {course.correct} of {course.done} correct"
        return f"{len(mastery.mastered)} of {len(mastery.rules)} rules mastered"


@dataclass(frozen=True)
class Cohort:
    """Trainees, the rules, and the files that could not be read. Taught in ``06_trainer.ipynb``."""

    trainees: tuple[Trainee, ...]
    rules: tuple[Rule, ...]
    unreadable: tuple[tuple[str, str], ...] = ()

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


def sample_progress_dir() -> Path:
    """``fixtures/sample_progress/``: four sample trainees' progress files, one of them version 1."""
    return fixtures_dir() / "sample_progress"


def progress_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The progress files named: files as given, and every ``*.json`` in each folder (sorted)."""
    found: list[Path] = []
    for item in paths:
        path = Path(item).expanduser()
        found += sorted(path.glob("*.json")) if path.is_dir() else [path]
    return found


def load_cohort(paths: Iterable[str | Path], *, rules: Sequence[Rule] | None = None) -> Cohort:
    """Read every progress file; one that cannot be read is listed with its reason."""
    rules = list(rules) if rules is not None else load_rules()
    trainees, unreadable = [], []
    for path in progress_paths(paths):
        try:
            progress = load_trainee_progress(path, rules=rules)
        except ProgressFileError as exc:
            unreadable.append((str(path), exc.message))
            continue
        trainees.append(Trainee(progress.trainee or path.stem, str(path), progress))
    return Cohort(tuple(trainees), tuple(rules), tuple(unreadable))


_MARK = {"mastered": "✓", "not started": "·"}


def _mark(status: str) -> str:
    return _MARK.get(status, status)


def cohort_text(cohort: Cohort) -> str:
    """The trainer's table as plain text: a grid of trainees × rules, then each trainee's completion."""
    names = [t.name for t in cohort.trainees]
    width = max([len("rule"), *(len(r.id) for r in cohort.rules)])
    cols = [max(len(n), 11) for n in names]
    lines = [
        "Self-reported progress files: written by each trainee's own drill, not tamper-proof.",
        "  ".join(["rule".ljust(width), *(n.ljust(c) for n, c in zip(names, cols, strict=True))]),
    ]
    for rule in cohort.rules:
        cells = [_mark(t.status(rule.id)).ljust(c) for t, c in zip(cohort.trainees, cols, strict=True)]
        lines.append("  ".join([rule.id.ljust(width), *cells]).rstrip())
    lines.append("✓ mastered · not started  n/3 a streak under way")
    lines.append("")
    lines.append("trainee: completion; cases worked; last practised; content hash (version)")
    for t in cohort.trainees:
        m = t.progress.mastery
        lines.append(
            f"{t.name}: {t.completion()}; {m.step} cases; last {t.last_practised()}; "
            f"{t.progress.content_hash or '-'} (v{t.version})"
        )
    hardest = cohort.hardest()
    if hardest:
        lines.append("")
        lines.append("hardest rules (misses of attempts; trainees not yet mastered):")
        for rule, misses, attempts, waiting in hardest:
            lines.append(f"  {rule.id}: {misses} of {attempts}; {waiting} not yet mastered")
    for path, reason in cohort.unreadable:
        lines.append(f"not read: {path}: {reason}")
    return "\n".join(lines) + "\n"


def cohort_csv(cohort: Cohort) -> str:
    """The same table for a spreadsheet: one row per trainee and rule."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for t in cohort.trainees:
        for rule in cohort.rules:
            state = t.states.get(rule.id) or RuleState(rule.id)
            writer.writerow(
                [
                    t.name,
                    t.file,
                    rule.id,
                    t.status(rule.id),
                    state.streak,
                    state.attempts,
                    state.correct,
                    state.last_practised or "",
                    state.mastered_on or "",
                    t.progress.content_hash,
                    t.version,
                ]
            )
    return buffer.getvalue()


def cohort_table(cohort: Cohort) -> HtmlBlock:
    """Trainees × rules as an HTML table; each cell says its status in words and a mark."""
    head = "".join(f'<th scope="col">{esc(t.name)}</th>' for t in cohort.trainees)
    body = []
    for rule in cohort.rules:
        cells = []
        for t in cohort.trainees:
            status = t.status(rule.id)
            state = t.states.get(rule.id)
            tries = f"{state.attempts} tried" if state and state.attempts else ""
            cells.append(
                f'<td class="eic-cohort-{esc(status.replace("/", "-of-").replace(" ", "-"))}">'
                f"{esc(_mark(status))} {esc(status)}<br><small>{esc(tries)}</small></td>"
            )
        body.append(f'<tr><th scope="row"><code>{esc(rule.id)}</code></th>{"".join(cells)}</tr>')
    foot = "".join(
        f"<td>{esc(t.completion())}<br><small>hash <code>{esc(t.progress.content_hash or '-')}</code>"
        f" (v{t.version})</small></td>"
        for t in cohort.trainees
    )
    html = (
        '<table class="eic-results eic-cohort"><caption>Self-reported progress: written by each '
        "trainee's own drill, not tamper-proof</caption>"
        f'<thead><tr><th scope="col">Rule</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
        f'<tfoot><tr><th scope="row">Completion</th>{foot}</tr></tfoot></table>'
    )
    return HtmlBlock(html, cohort_text(cohort).rstrip("\n"))


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
