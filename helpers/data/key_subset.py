"""Sentinels out of a full answer key: a list of sentinel IDs, and the changes outside it.

A team's baseline often holds every judgement, of which a fixed few are the
sentinels. :func:`check_sentinel_subset` checks only those few, exactly as the
sentinel check does, and counts the other judgements that changed, were dropped
or were added: allowed, but worth seeing. Taught in ``05_check_your_data.ipynb``
("Answer keys in the formats teams already have").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CheckInputError, JSONLoadError, describe_value
from ..core.ordering import sorted_ids
from .answer_keys import AnswerKey
from .batch import KeyCheck, check_answer_keys
from .inputs import DuplicateIDError, InputFile, KeyFormat

__all__ = [
    "SentinelIDs",
    "OutsideChanges",
    "SubsetCheck",
    "read_sentinel_ids",
    "outside_changes",
    "check_sentinel_subset",
    "check_subset_files",
    "subset_check_json",
    "subset_check_text",
]


@dataclass
class SentinelIDs:
    """The sentinel IDs read from a file (one ID a line, exactly as the key's reader writes IDs)."""

    source: str
    ids: list[str] = field(default_factory=list)
    errors: list[CheckInputError] = field(default_factory=list)


@dataclass(frozen=True)
class OutsideChanges:
    """Judgements outside the sentinels that differ between the keys; each list in UTF-16 order."""

    changed: tuple[str, ...]
    dropped: tuple[str, ...]
    added: tuple[str, ...]

    @property
    def total(self) -> int:
        """How many non-sentinel judgements differ in any way."""
        return len(self.changed) + len(self.dropped) + len(self.added)


def read_sentinel_ids(stream: Iterable[bytes], *, source: str) -> SentinelIDs:
    """Read one ID a line. Only the line end (LF, CRLF, or a CR ending the file) is dropped: an ID is never trimmed.

    A blank line, a line that is not UTF-8 and a repeated ID (naming both lines)
    are errors; a file with no IDs is refused, since it would check nothing.
    Taught in ``05_check_your_data.ipynb``.
    """
    found = SentinelIDs(source=source)
    first: dict[str, int] = {}
    for number, raw in enumerate(stream, 1):
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        elif raw.endswith(b"\r"):
            raw = raw[:-1]  # a lone CR ending the file's last line
        try:
            ident = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            found.errors.append(
                JSONLoadError(f"not UTF-8 text (byte {exc.start})", source=source, line=number)
            )
            continue
        if not ident:
            found.errors.append(
                JSONLoadError("blank line, expected a sentinel ID", source=source, line=number)
            )
            continue
        if ident in first:
            found.errors.append(DuplicateIDError(ident, source=source, line=number, first_line=first[ident]))
            continue
        first[ident] = number
        found.ids.append(ident)
    if not found.ids and not found.errors:
        found.errors.append(JSONLoadError("has no sentinel IDs; it would check nothing", source=source))
    return found


def outside_changes(baseline: AnswerKey, proposed: AnswerKey, sentinels: Iterable[str]) -> OutsideChanges:
    """The non-sentinel judgements changed, dropped (in the baseline only) and added (proposed only)."""
    skip = set(sentinels)
    base, prop = baseline.answers, proposed.answers
    changed = [i for i, answer in base.items() if i not in skip and i in prop and prop[i] != answer]
    dropped = [i for i in base if i not in skip and i not in prop]
    added = [i for i in prop if i not in base and i not in skip]
    return OutsideChanges(tuple(sorted_ids(changed)), tuple(sorted_ids(dropped)), tuple(sorted_ids(added)))


@dataclass
class SubsetCheck:
    """A sentinel check of the listed IDs only, with the changes outside them.

    ``check`` is the sentinel check of the baseline cut to the sentinels; ``outside``
    is ``None`` when the check could not run. Taught in ``05_check_your_data.ipynb``.
    """

    check: KeyCheck
    sentinels: SentinelIDs
    baseline_ids: int
    outside: OutsideChanges | None

    @property
    def exit_code(self) -> int:
        """0 intact, 1 hold before scoring, 4 bad input (as :class:`KeyCheck`)."""
        return self.check.exit_code


def check_sentinel_subset(baseline: AnswerKey, proposed: AnswerKey, sentinels: SentinelIDs) -> SubsetCheck:
    """Check only ``sentinels`` of a full ``baseline``; every sentinel must be in the baseline.

    Taught in ``05_check_your_data.ipynb``.
    """
    absent = [
        JSONLoadError(
            f"sentinel {describe_value(ident)} is not in the baseline {baseline.source}",
            source=sentinels.source,
            field=ident,
        )
        for ident in sentinels.ids
        if ident not in baseline.answers
    ]
    problems = [*sentinels.errors, *(absent if baseline.ok else [])]
    if problems:
        cut = AnswerKey(source=baseline.source, format=baseline.format)
        errors = [*baseline.errors, *proposed.errors, *problems]
        return SubsetCheck(KeyCheck(cut, proposed, None, errors), sentinels, len(baseline.answers), None)
    cut = AnswerKey(source=baseline.source, format=baseline.format, errors=list(baseline.errors))
    if baseline.ok:
        cut.answers = {ident: baseline.answers[ident] for ident in sentinels.ids}
    check = check_answer_keys(cut, proposed)
    outside = None if check.result is None else outside_changes(baseline, proposed, sentinels.ids)
    return SubsetCheck(check, sentinels, len(baseline.answers), outside)


def check_subset_files(
    baseline: InputFile,
    proposed: InputFile,
    sentinels: InputFile,
    *,
    format: KeyFormat,
    id_columns: Sequence[str] = (),
    answer_column: str | None = None,
) -> SubsetCheck:
    """Read two answer keys and a sentinel list (paths or uploads) and check only those sentinels.

    Each file is refused unread when it is not a regular file or is over
    :data:`~helpers.data.inputs.MAX_KEY_BYTES` (:class:`~helpers.core.errors.JSONLoadError`).

    Taught in ``05_check_your_data.ipynb``.
    """
    from .inputs import MAX_KEY_BYTES, open_input
    from .key_formats import read_key

    keys = []
    for item in (baseline, proposed):
        stream, name, _size = open_input(item, max_bytes=MAX_KEY_BYTES)
        with stream:
            keys.append(
                read_key(
                    stream, source=name, format=format, id_columns=id_columns, answer_column=answer_column
                )
            )
    stream, name, _size = open_input(sentinels, max_bytes=MAX_KEY_BYTES)
    with stream:
        listed = read_sentinel_ids(stream, source=name)
    return check_sentinel_subset(keys[0], keys[1], listed)


def subset_check_json(subset: SubsetCheck, *, limit: int = 20) -> dict[str, Any]:
    """:func:`~helpers.data.reports.key_check_json` with ``"sentinels"`` and ``"outside"`` added.

    ``"outside"`` counts the non-sentinel judgements changed, dropped and added (each
    with its first ``limit`` IDs), or is ``null`` when the check could not run.
    Taught in ``05_check_your_data.ipynb``.
    """
    from .reports import key_check_json

    data = key_check_json(subset.check, limit=limit)
    data["baseline"]["ids"] = subset.baseline_ids
    data["sentinels"] = {"source": subset.sentinels.source, "ids": len(subset.sentinels.ids)}
    data["outside"] = None
    if subset.outside is not None:
        data["outside"] = {
            name: {"count": len(ids), "first": list(ids[:limit])}
            for name, ids in (
                ("changed", subset.outside.changed),
                ("dropped", subset.outside.dropped),
                ("added", subset.outside.added),
            )
        }
    data["exit_status"] = data.pop("exit_status")
    return data


def subset_check_text(subset: SubsetCheck, *, limit: int = 20) -> str:
    """:func:`~helpers.data.reports.key_check_text` with the sentinel list and the changes outside it.

    Taught in ``05_check_your_data.ipynb``.
    """
    from .explanations import count_text
    from .reports import key_check_text

    lines = key_check_text(subset.check, limit=limit).splitlines()
    lines[0] = lines[0].replace(
        f"baseline {subset.check.baseline.source} ({count_text(len(subset.check.baseline.answers), 'ID')})",
        f"baseline {subset.check.baseline.source} ({count_text(subset.baseline_ids, 'ID')})",
        1,
    )
    lines.insert(1, f"sentinels {subset.sentinels.source} ({count_text(len(subset.sentinels.ids), 'ID')})")
    if subset.outside is not None:
        out = subset.outside
        extra = [
            f"outside the sentinels (allowed, not checked): {out.total} judgements differ",
            f"  changed answers    {len(out.changed):>10}",
            f"  dropped            {len(out.dropped):>10}",
            f"  added              {len(out.added):>10}",
        ]
        for name, ids in (("changed", out.changed), ("dropped", out.dropped), ("added", out.added)):
            if ids:
                shown = ", ".join(describe_value(i) for i in ids[:limit])
                more = f" … and {len(ids) - limit} more" if len(ids) > limit else ""
                extra.append(f"{name} outside the sentinels: {shown}{more}")
        lines[-1:-1] = extra
    return "\n".join(lines) + "\n"
