"""A graded check-out as a trainer reads it: plain text, and one spreadsheet-safe CSV row per case.

Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import csv
import io

from helpers.core.chardiff import visible_text
from helpers.trainee.cases.filled import spreadsheet_safe
from helpers.trainer.checkout_result import CheckoutResult

__all__ = [
    "result_text",
    "result_csv",
]


def _evidence(ok: int, n: int) -> str:
    if not n:
        return "not on the paper  <- not shown"
    return f"{ok} of {n}" + ("  <- never right" if not ok else "")


def result_text(result: CheckoutResult) -> str:
    """A graded check-out as plain text: the verdict and what it proves, then per rule, kind, field and case."""
    verdict = "PASSED" if result.passed else "NOT PASSED"
    lines = [
        f"Check-out {result.paper_id} for {_plain(result.trainee)}: {verdict}",
        f"  {result.statement()}",
        f"  Pass rule: {result.threshold}.",
        "per rule (cases fully correct of those served; a pass needs each seen and cleared):",
        *(f"  {rule}: {_evidence(ok, n)}" for rule, (ok, n) in result.per_rule().items()),
        "per look-alike kind (cases that turn on it fully correct; a pass needs each seen and cleared):",
        *(f"  {kind}: {_evidence(ok, n)}" for kind, (ok, n) in result.per_kind().items()),
        "per field (cases right):",
        *(f"  {name}: {ok} of {n}" for name, (ok, n) in result.per_field().items()),
        "per case:",
    ]
    for case in result.cases:
        if not case.answered:
            lines.append(f"  {case.label}: not answered")
            continue
        wrong = [name for name, ok in case.fields.items() if not ok]
        lines.append(f"  {case.label}: " + ("correct" if not wrong else "wrong in " + ", ".join(wrong)))
    return "\n".join(lines) + "\n"


def _plain(text: str) -> str:
    """``text`` safe for a terminal and readable: control, invisible, blank-looking and look-alike
    characters and lone surrogates as ``⟨U+XXXX⟩`` (:func:`~helpers.core.chardiff.visible_text`)."""
    return visible_text(text)


def result_csv(result: CheckoutResult) -> str:
    """One row per case, spreadsheet-safe: label, rule, look-alike, answered, correct, each field.

    Each row also carries the evidence the verdict rests on: its rule's cases
    right (``2 of 2``), its look-alike kinds and theirs, the paper's accuracy
    bound and the verdict.
    """
    names = list(dict.fromkeys(n for c in result.cases for n in c.fields))
    per_rule, per_kind = result.per_rule(), result.per_kind()
    verdict = "passed" if result.passed else "not passed"
    bound = f"{result.accuracy_lower_bound:.4f}"
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(
        [
            "trainee",
            "paper_id",
            "label",
            "rule",
            "lookalike",
            "answered",
            "correct",
            *names,
            "rules_missed",
            "rule_cases_right",
            "lookalike_kinds",
            "kind_cases_right",
            "accuracy_lower_bound",
            "why",
            "too_fast",
            "verdict",
        ]
    )
    for c in result.cases:
        cells = [
            _plain(result.trainee),
            result.paper_id,
            c.label,
            c.rule,
            str(c.lookalike).lower(),
            str(c.answered).lower(),
            str(c.correct).lower(),
            *(
                "" if n not in c.fields else ("right" if c.fields[n] and c.answered else "wrong")
                for n in names
            ),
            " ".join(c.rules_missed),
            "{} of {}".format(*per_rule[c.rule]),
            " ".join(c.kinds),
            "; ".join("{}: {} of {}".format(k, *per_kind[k]) for k in c.kinds),
            bound,
            result.why,
            result.too_fast,
            verdict,
        ]
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    return buffer.getvalue()
