"""The summary of a run: counts by outcome, the first failures and a bounded count of the most
often lost targets, so memory stays flat however long the file is (:class:`BatchSummary`, merged
by :func:`merge_summaries`). An outcome is the plain tuple :mod:`helpers.team.batch` describes.
Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from helpers.core.ordering import utf16_key
from helpers.core.outcomes import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_HELD,
    EXIT_PASS,
    json_safe,
    output_object,
    worst_code,
)
from helpers.core.target_scope import TargetScopeResult

#: ``(line, code, result, error, record)``: one record's outcome (see :mod:`helpers.team.batch`).
Outcome = tuple[int, int, Any, Any, Any]

#: The outcome label of a record that could not be checked.
BAD_INPUT = "bad input"


def _explain(check: str, outcome: Outcome) -> str:
    from helpers.team.outcome_lines import explain_outcome

    return explain_outcome(check, outcome)


class TopCounter:
    """How often each item occurs, for the most frequent items, in bounded memory.

    Counts are exact while at most ``capacity`` distinct items have been seen.
    After that it is the Misra–Gries summary: it never holds more than
    ``capacity`` items, any item occurring more than ``n / (capacity + 1)`` times
    is kept, and each kept count is at most :attr:`undercount` below the true one.
    Taught in ``05_check_your_data.ipynb`` ("A chart of the outcomes").
    """

    def __init__(self, capacity: int = 10_000) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.counts: dict[str, int] = {}
        self.total = 0
        self.undercount = 0

    @property
    def exact(self) -> bool:
        """True while every count is exact."""
        return self.undercount == 0

    def add(self, item: str) -> None:
        """Count one occurrence of ``item``."""
        self.total += 1
        counts = self.counts
        if item in counts:
            counts[item] += 1
        elif len(counts) < self.capacity:
            counts[item] = 1
        else:
            self.undercount += 1
            for key in list(counts):
                if counts[key] == 1:
                    del counts[key]
                else:
                    counts[key] -= 1

    def most_common(self, n: int) -> list[tuple[str, int]]:
        """The ``n`` highest counts, ties in JavaScript's string order."""
        ranked = sorted(self.counts.items(), key=lambda pair: (-pair[1], utf16_key(pair[0])))
        return ranked[:n]


@dataclass(frozen=True)
class Failure:
    """A record that did not pass, as a summary lists it. Taught in ``05_check_your_data.ipynb``."""

    line: int
    outcome: str
    output: dict[str, Any]
    explanation: str
    id: Any = None
    query: Any = None


_OUTCOME_LABELS: dict[str, tuple[str, ...]] = {
    "target-scope": ("preserved", "not preserved", "needs staff labels", BAD_INPUT),
    "sentinels": ("intact", "hold before scoring", BAD_INPUT),
}


def record_unit(format: str) -> str:
    """What a file's record numbers count: ``"row"`` in a Parquet table, ``"line"`` in the text formats."""
    return "row" if format == "parquet" else "line"


@dataclass
class BatchSummary:
    """Counts by outcome and the first failures of one run; bounded in size.

    ``lost``/``added``/``lost_and_added`` count target-scope records by what
    changed; ``lost_targets`` counts the lost IDs themselves. ``failures`` keeps
    the first ``max_failures`` records that did not pass, each explained.
    Taught in ``05_check_your_data.ipynb``.
    """

    check: str
    source: str
    max_failures: int = 20
    #: What the records' numbers count: ``"line"`` (JSON Lines, CSV) or ``"row"`` (Parquet).
    unit: str = "line"
    records: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    added: int = 0
    lost_and_added: int = 0
    lost_targets: TopCounter = field(default_factory=TopCounter)
    failures: list[Failure] = field(default_factory=list)
    failures_total: int = 0
    worst: int = EXIT_PASS

    def __post_init__(self) -> None:
        for label in _OUTCOME_LABELS[self.check]:
            self.counts.setdefault(label, 0)

    @property
    def exit_code(self) -> int:
        """The exit status of the run: the most serious outcome; 4 when there were no records."""
        return EXIT_BAD_INPUT if self.records == 0 else self.worst

    @property
    def passed(self) -> int:
        """How many records passed."""
        return self.counts[_OUTCOME_LABELS[self.check][0]]

    def add_passes(self, count: int) -> None:
        """Count ``count`` records that passed (the runner batches these)."""
        self.records += count
        self.counts[_OUTCOME_LABELS[self.check][0]] += count

    def failures_full(self) -> bool:
        """True once ``max_failures`` failures are kept (later ones are only counted)."""
        return len(self.failures) >= self.max_failures

    def add_not_preserved(self, missing: tuple[str, ...], added: tuple[str, ...]) -> None:
        """What :meth:`add` does for a rewrite that is not preserved once the failures are full.

        ``missing`` and ``added`` are the result's sorted lists; no outcome is built.
        """
        self.records += 1
        if self.worst != EXIT_FAILED:
            self.worst = worst_code(self.worst, EXIT_FAILED)
        if missing and added:
            self.lost_and_added += 1
        elif missing:
            self.lost += 1
        else:
            self.added += 1
        add_target = self.lost_targets.add
        for target in missing:
            add_target(target)
        self.counts["not preserved"] += 1
        self.failures_total += 1

    def add_written(self, written: Written) -> None:
        """Count the rewrites an engine checked and wrote (see :class:`Written`): no failure is kept."""
        failed = written.lost + written.added + written.lost_and_added
        self.records += written.rows
        self.counts[_OUTCOME_LABELS[self.check][0]] += written.rows - failed - written.held
        if failed:
            self.worst = worst_code(self.worst, EXIT_FAILED)
            self.counts["not preserved"] += failed
            self.lost += written.lost
            self.added += written.added
            self.lost_and_added += written.lost_and_added
        if written.held:
            self.worst = worst_code(self.worst, EXIT_HELD)
            self.counts["needs staff labels"] += written.held
        self.failures_total += failed + written.held

    def add(self, outcome: Outcome) -> None:
        """Count one outcome; a failure is explained and kept while fewer than N are."""
        line, code, result, error, record = outcome
        self.records += 1
        if code == EXIT_PASS:
            self.counts[_OUTCOME_LABELS[self.check][0]] += 1
            return
        if code != self.worst:
            self.worst = worst_code(self.worst, code)
        if type(result) is TargetScopeResult:  # the common failure, counted without detours
            label = "not preserved"
            missing = result.missing
            if missing and result.added:
                self.lost_and_added += 1
            elif missing:
                self.lost += 1
            else:
                self.added += 1
            add_target = self.lost_targets.add
            for target in missing:
                add_target(target)
        else:
            label = BAD_INPUT if error is not None else result.outcome
        self.counts[label] += 1
        self.failures_total += 1
        if len(self.failures) < self.max_failures:
            carried = record if isinstance(record, Mapping) else {}
            self.failures.append(
                Failure(
                    line=line,
                    outcome=label,
                    output=output_object(outcome),
                    explanation=_explain(self.check, outcome),
                    id=json_safe(carried.get("id")),
                    query=json_safe(carried.get("query")),
                )
            )


class Written:
    """Consecutive rewrites an engine checked and wrote itself (:mod:`helpers.team.duckdb_scope`).

    ``rows`` of them, their output lines as one ``text``, and how many were ``lost`` only,
    ``added`` only, ``lost_and_added`` or ``held``; the others were preserved. For a run that
    shows no summary: its counts and exit status are exact, but no failure is kept and no lost
    target is counted.
    """

    __slots__ = ("added", "held", "lost", "lost_and_added", "rows", "text")

    def __init__(
        self, rows: int, text: bytes, *, lost: int = 0, added: int = 0, lost_and_added: int = 0, held: int = 0
    ) -> None:
        self.rows, self.text, self.held = rows, text, held
        self.lost, self.added, self.lost_and_added = lost, added, lost_and_added


def merge_summaries(into: BatchSummary, other: BatchSummary) -> BatchSummary:
    """Add ``other`` (the records that follow) to ``into``: counts exactly, failures in order.

    The most-often-lost counts stay exact while both are exact and together hold
    at most ``capacity`` targets; beyond that they are merged as Misra–Gries
    summaries are (subtract the next-largest count), and ``undercount`` grows by it.
    Taught in ``05_check_your_data.ipynb``.
    """
    into.records += other.records
    for label, count in other.counts.items():
        into.counts[label] = into.counts.get(label, 0) + count
    into.lost += other.lost
    into.added += other.added
    into.lost_and_added += other.lost_and_added
    into.failures_total += other.failures_total
    into.failures.extend(other.failures[: max(0, into.max_failures - len(into.failures))])
    into.worst = worst_code(into.worst, other.worst)
    top, more = into.lost_targets, other.lost_targets
    counts = top.counts
    for item, count in more.counts.items():
        counts[item] = counts.get(item, 0) + count
    top.total += more.total
    top.undercount += more.undercount
    if len(counts) > top.capacity:
        cut = sorted(counts.values(), reverse=True)[top.capacity]
        top.counts = {item: count - cut for item, count in counts.items() if count > cut}
        top.undercount += cut
    return into
