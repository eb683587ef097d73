"""Reports of a batch run: plain text for people and JSON for pipelines.

Every failure is explained in one line; a changed sentinel answer is shown as a
character-level diff (:func:`helpers.core.chardiff.diff_text`), so a trailing space
or a zero-width character is visible. Long ID lists are cut to a few IDs and
"and N more". The HTML tables are in :mod:`helpers.team.views.batch_html`, the
chart in :mod:`helpers.team.views.batch_chart`.

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from typing import Any

from helpers.core.chardiff import diff_text
from helpers.core.checks import CHECK_TITLES
from helpers.core.errors import CheckInputError, JSONLoadError
from helpers.core.outcomes import EXIT_MEANINGS
from helpers.team.id_display import id_json, id_text, ids_json, ids_text
from helpers.team.key_checks import KeyCheck
from helpers.team.outcome_lines import IDS_SHOWN, count_text, explain_outcome
from helpers.team.summary import BAD_INPUT, BatchSummary, Failure

__all__ = [
    "summary_rows",
    "percent",
    "counts_text",
    "failure_where",
    "IDS_SHOWN",
    "TOP_LOST",
    "explain_outcome",
    "summary_text",
    "summary_json",
    "key_check_text",
    "key_check_json",
    "key_error_object",
    "key_result_json",
]

#: How many of the most often lost targets a summary lists.
TOP_LOST = 10


# --- record files ------------------------------------------------------------------------


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def summary_rows(summary: BatchSummary) -> list[tuple[str, int, bool]]:
    """(label, count, indented) rows of the summary table, in a fixed order."""
    rows = []
    for label, count in summary.counts.items():
        rows.append((label, count, False))
        if label == "not preserved":
            rows += [
                ("lost targets", summary.lost, True),
                ("added targets", summary.added, True),
                ("lost and added", summary.lost_and_added, True),
            ]
    return rows


def failure_where(failure: Failure, unit: str = "line") -> str:
    """Where a failed record is: ``line N`` (or ``row N`` in a Parquet file), and its ``id``."""
    where = f"{unit} {failure.line}"
    if failure.id is not None:
        where += f" (id {id_text(failure.id)})"
    return where


def counts_text(summary: BatchSummary) -> list[str]:
    out = [f"{CHECK_TITLES[summary.check]}: {summary.source}", f"records checked: {summary.records}"]
    for label, count, indented in summary_rows(summary):
        pad = "    " if indented else "  "
        share = "" if indented else f"  {percent(count, summary.records):>6}"
        out.append(f"{pad}{label:<{22 - len(pad)}}{count:>10}{share}")
    return out


def summary_text(summary: BatchSummary) -> str:
    """A plain-text summary: counts by outcome, the most often lost targets, the first failures.

    Taught in ``05_check_your_data.ipynb``.
    """
    out = counts_text(summary)
    if summary.check == "target-scope" and summary.lost_targets.counts:
        top = ", ".join(f"{id_text(t)} ×{c}" for t, c in summary.lost_targets.most_common(TOP_LOST))
        note = (
            ""
            if summary.lost_targets.exact
            else (f" (counts may be low by up to {summary.lost_targets.undercount})")
        )
        out.append(f"most often lost: {top}{note}")
    if summary.failures:
        shown = len(summary.failures)
        out.append(
            f"first {shown} of {summary.failures_total} records that did not pass:"
            if shown < summary.failures_total
            else f"records that did not pass ({shown}):"
        )
        out += [f"  {failure_where(f, summary.unit)}: {f.outcome}: {f.explanation}" for f in summary.failures]
    code = summary.exit_code
    meaning = "no records to check" if summary.records == 0 else EXIT_MEANINGS[code]
    out.append(f"exit status {code}: {meaning}")
    return "\n".join(out) + "\n"


def _failure_json(failure: Failure) -> dict[str, Any]:
    data: dict[str, Any] = {"line": failure.line}
    if failure.id is not None:
        data["id"] = failure.id
    if failure.query is not None:
        data["query"] = failure.query
    data["outcome"] = failure.outcome
    data["explanation"] = failure.explanation
    data["output"] = failure.output
    return data


def summary_json(summary: BatchSummary) -> dict[str, Any]:
    """The summary as a JSON-ready object for pipelines (shape documented in ``--help``).

    Taught in ``05_check_your_data.ipynb``.
    """
    data: dict[str, Any] = {
        "check": summary.check,
        "source": summary.source,
        "records": summary.records,
        "outcomes": dict(summary.counts),
    }
    if summary.check == "target-scope":
        data["changes"] = {
            "lost": summary.lost,
            "added": summary.added,
            "lost and added": summary.lost_and_added,
        }
        data["most_often_lost"] = [
            {"id": target, "count": count} for target, count in summary.lost_targets.most_common(TOP_LOST)
        ]
        data["most_often_lost_undercount"] = summary.lost_targets.undercount
    data["failures_total"] = summary.failures_total
    data["failures"] = [_failure_json(f) for f in summary.failures]
    data["exit_status"] = summary.exit_code
    return data


# --- answer keys -------------------------------------------------------------------------


def key_error_object(exc: CheckInputError, *, pairs: bool = False) -> dict[str, Any]:
    """``{"source", "line", "field", "error"}`` for a problem in an answer-key file.

    With ``pairs``, a field that is a qrels judgement is ``{"query": ..., "doc": ...}``.
    Taught in ``05_check_your_data.ipynb``.
    """
    field = exc.field if exc.field is None or not pairs else id_json(exc.field, pairs=True)
    if isinstance(exc, JSONLoadError):
        return {"source": exc.source, "line": exc.line, "field": field, "error": exc.detail}
    return {"source": None, "line": None, "field": field, "error": exc.message}


def key_result_json(check: KeyCheck) -> dict[str, Any]:
    """The check's own result line, ``{"missing", "changed", "intact"}``, qrels judgements as objects.

    Taught in ``05_check_your_data.ipynb``.
    """
    assert check.result is not None
    data = check.result.as_dict()
    if check.pairs:
        data["missing"] = ids_json(data["missing"], pairs=True)
        data["changed"] = ids_json(data["changed"], pairs=True)
    return data


def _changed_entries(check: KeyCheck, limit: int) -> list[dict[str, Any]]:
    assert check.result is not None
    entries = []
    for s in check.result.changed[:limit]:
        old, new = check.answers(s)
        entries.append(
            {
                "id": id_json(s, pairs=check.pairs),
                "baseline": old,
                "proposed": new,
                "diff": diff_text(old, new),
            }
        )
    return entries


def _outcome_label(check: KeyCheck) -> str:
    if check.result is None:
        return BAD_INPUT
    return check.result.outcome


def key_check_json(check: KeyCheck, *, limit: int = 20) -> dict[str, Any]:
    """The two-file sentinel check as a JSON-ready object for pipelines.

    Taught in ``05_check_your_data.ipynb``.
    """
    data: dict[str, Any] = {
        "check": "sentinels",
        "baseline": {
            "source": check.baseline.source,
            "format": check.baseline.format,
            "ids": check.baseline_ids,
        },
        "proposed": {
            "source": check.proposed.source,
            "format": check.proposed.format,
            "ids": check.proposed_ids,
            "new_ids": check.new_ids,
        },
        "outcome": _outcome_label(check),
    }
    if check.result is None:
        data["missing"] = None
        data["changed"] = None
    else:
        data["missing"] = {
            "count": len(check.result.missing),
            "first": ids_json(check.result.missing[:limit], pairs=check.pairs),
        }
        data["changed"] = {
            "count": len(check.result.changed),
            "first": _changed_entries(check, limit),
        }
    data["errors_total"] = len(check.errors)
    data["errors"] = [key_error_object(e, pairs=check.pairs) for e in check.errors[:limit]]
    data["exit_status"] = check.exit_code
    return data


def key_check_text(check: KeyCheck, *, limit: int = 20) -> str:
    """A plain-text report of the two-file sentinel check, with a diff per changed answer.

    Taught in ``05_check_your_data.ipynb``.
    """
    b, p = check.baseline, check.proposed
    out = [
        f"Sentinel answer key: baseline {b.source} ({count_text(check.baseline_ids, 'ID')}), "
        f"proposed {p.source} ({count_text(check.proposed_ids, 'ID')}, {check.new_ids} not sentinels)"
    ]
    if check.result is None:
        out.append(f"not checked: {count_text(len(check.errors), 'problem')} in the answer keys")
        out += [f"  {e}" for e in check.errors[:limit]]
        if len(check.errors) > limit:
            out.append(f"  … and {len(check.errors) - limit} more")
    else:
        r = check.result
        out.append(f"outcome: {r.outcome}")
        out.append(f"  missing sentinels  {len(r.missing):>10}")
        out.append(f"  changed answers    {len(r.changed):>10}")
        if r.missing:
            out.append(f"missing: {ids_text(r.missing, limit, pairs=check.pairs)}")
        for s in r.changed[:limit]:
            out.append(f"changed {id_text(s, pairs=check.pairs)}: {diff_text(*check.answers(s))}")
        if len(r.changed) > limit:
            out.append(f"… and {len(r.changed) - limit} more changed")
    out.append(f"exit status {check.exit_code}: {EXIT_MEANINGS[check.exit_code]}")
    return "\n".join(out) + "\n"
