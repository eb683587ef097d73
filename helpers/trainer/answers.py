"""A check-out's answers: the answers file's object, writing it, and reading one row of it.

Each case asks for the output (the drill's :class:`~helpers.trainee.grading.Answer`
fields), the reason and the next action. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from helpers.core.errors import CheckoutFileError, describe_value
from helpers.core.files import write_atomically
from helpers.trainee.grading import Answer, answer_fields
from helpers.trainer.checkout_format import ANSWERS_FORMAT, VERSION, utc_now

__all__ = [
    "answers_file_name",
    "answers_data",
    "write_answers",
    "parse_answer",
]


def answers_file_name(paper: Mapping[str, Any]) -> str:
    """The answers file a paper's answers are saved as by default: ``answers-PAPER_ID.json``."""
    paper_id = "".join(
        c for c in str(paper.get("paper_id", "")) if c.isascii() and (c.isalnum() or c in "-_")
    )
    return f"answers-{paper_id[:40] or 'paper'}.json"


def answers_data(
    paper: Mapping[str, Any], answers: Mapping[str, tuple[Answer, str | None]]
) -> dict[str, Any]:
    """An answers file's object: for each label answered, the output fields, reason and next action."""
    rows = []
    for case in paper["cases"]:
        label = case["label"]
        if label not in answers:
            continue
        answer, action = answers[label]
        first, second, flag = answer_fields(case["check"])
        rows.append(
            {
                "label": label,
                first: sorted(answer.missing),
                second: sorted(answer.second),
                flag: answer.flag,
                "hold": answer.hold,
                "reason": answer.reason,
                "action": action,
            }
        )
    return {
        "format": ANSWERS_FORMAT,
        "version": VERSION,
        "paper_id": paper["paper_id"],
        "trainee": paper["trainee"],
        "submitted": utc_now(),
        "answers": rows,
    }


def write_answers(
    data: Mapping[str, Any], path: str | Path, *, overwrite: bool = False, mode: int | None = None
) -> Path:
    """Write an answers file atomically; an existing file is replaced only with ``overwrite``.

    ``mode`` sets its permissions whatever the umask (owner-only in the trainer's folder).
    """
    path = Path(path)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    try:
        if overwrite:
            return write_atomically(path, text, mode=mode)
        return write_atomically(path, text, replace=False, mode=mode)
    except FileExistsError:
        raise CheckoutFileError(
            "already exists; nothing was written (choose another name, or overwrite it on purpose)",
            path=str(path),
        ) from None
    except OSError as exc:
        raise CheckoutFileError(f"cannot be written ({exc.strerror})", path=str(path)) from None


def parse_answer(raw: Mapping[str, Any], check: str, where: str, source: str) -> tuple[Answer, str | None]:
    """One answers row (its types already checked by the answers schema) with the fields its case's check needs."""
    first, second, flag = answer_fields(check)
    expected = {"label", first, second, flag, "hold", "reason", "action"}
    if not expected <= set(raw) <= expected | {"seconds"}:
        raise CheckoutFileError(f"{where} must have the fields {sorted(expected)} (and seconds)", path=source)
    seconds = raw.get("seconds", 0)
    if not math.isfinite(seconds):  # NaN passes every comparison a schema makes
        raise CheckoutFileError(
            f"{where}.seconds is {describe_value(seconds)}, expected a number of seconds", path=source
        )
    answer = Answer(
        check,
        missing=frozenset(raw[first]),
        second=frozenset(raw[second]),
        flag=raw[flag],
        hold=raw["hold"],
        reason=raw["reason"],
    )
    return answer, raw["action"]
