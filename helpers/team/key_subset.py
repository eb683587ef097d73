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

from helpers.core.errors import CheckInputError, JSONLoadError
from helpers.core.ordering import sorted_ids
from helpers.team.answer_keys import AnswerKey
from helpers.team.id_display import id_text
from helpers.team.inputs import DuplicateIDError, InputFile, KeyFormat
from helpers.team.key_checks import KeyCheck, check_answer_keys

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
    """The sentinel IDs read from a file, each with the line it was on."""

    source: str
    ids: list[str] = field(default_factory=list)
    errors: list[CheckInputError] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


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


#: The header line of a BEIR qrels TSV, skipped when a sentinel file is one.
_BEIR_HEADER = "query-id\tcorpus-id\tscore"


def _pair_line(text: str) -> tuple[str | None, str | None]:
    """``(ID, None)`` for a judgement line of a qrels key, or ``(None, why not)``.

    The line is ``qid docid``, a TREC qrels line ``qid iteration docid relevance``,
    a BEIR line ``qid<TAB>docid<TAB>score``, or the pair ID ``["qid","docid"]``.
    Fields are split as :func:`~helpers.team.key_formats.read_trec_qrels` splits
    them: on any run of :data:`~helpers.team.key_formats.TREC_SEPARATORS`, with
    those at the start and end of the line ignored. Three fields are a BEIR line
    only when single tabs separate them, as BEIR writes it.
    """
    from helpers.team.id_display import split_pair
    from helpers.team.key_formats import TREC_SEPARATORS, pair_id, trec_fields

    if text.startswith("["):
        pair = split_pair(text)
        if pair is not None and pair_id(*pair) == text:
            return text, None
        return None, 'is not a pair ID written as ["query","document"]'
    fields, count = trec_fields(text, 4)
    if not fields:
        return None, "holds only spaces or tabs, expected a judgement: query document"
    if len(fields) == 2:
        return pair_id(fields[0], fields[1]), None
    if len(fields) == 3 and text.strip(TREC_SEPARATORS) == "\t".join(fields):
        return pair_id(fields[0], fields[1]), None
    if len(fields) == 4:
        return pair_id(fields[0], fields[2]), None
    beir = " (a BEIR line is separated by single tabs)" if len(fields) == 3 else ""
    return None, (
        f"has {count} field{'' if count == '1' else 's'}, expected a judgement: query document, "
        f"a TREC qrels line or a BEIR TSV line{beir}"
    )


def read_sentinel_ids(stream: Iterable[bytes], *, source: str, pairs: bool = False) -> SentinelIDs:
    """Read one ID a line. Only the line end (LF, CRLF, or a CR ending the file) is dropped: an ID is never trimmed.

    With ``pairs`` (the keys are qrels), each line is a judgement in the key's own
    form: ``qid docid``, a TREC qrels or BEIR TSV line (a BEIR header is skipped),
    or ``["qid","docid"]``, its fields split as the TREC qrels reader splits them
    (any run of spaces or tabs; those at the ends ignored). A blank line, a line that is not UTF-8 and a repeated ID
    (naming both lines) are errors, each naming its line; a file with no IDs is
    refused, since it would check nothing. Taught in ``05_check_your_data.ipynb``.
    """
    found = SentinelIDs(source=source)
    first: dict[str, int] = {}
    number = 0
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
        if pairs:
            if number == 1 and ident == _BEIR_HEADER:
                continue
            pair, why = _pair_line(ident)
            if pair is None:
                found.errors.append(JSONLoadError(why or "", source=source, line=number))
                continue
            ident = pair
        if ident in first:
            found.errors.append(DuplicateIDError(ident, source=source, line=number, first_line=first[ident]))
            continue
        first[ident] = number
        found.ids.append(ident)
        found.lines.append(number)
    if not found.ids and not found.errors:
        found.errors.append(
            JSONLoadError("has no sentinel IDs; it would check nothing", source=source, line=max(number, 1))
        )
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


def check_sentinel_subset(
    baseline: AnswerKey, proposed: AnswerKey, sentinels: SentinelIDs, *, pairs: bool | None = None
) -> SubsetCheck:
    """Check only ``sentinels`` of a full ``baseline``; every sentinel must be in the baseline.

    ``pairs`` (the IDs are qrels judgements) defaults to what the baseline's format says.
    Taught in ``05_check_your_data.ipynb``.
    """
    if pairs is None:
        from helpers.team.id_display import PAIR_FORMATS

        pairs = baseline.format in PAIR_FORMATS
    lines: list[int | None] = [*sentinels.lines] or [None] * len(sentinels.ids)
    absent = [
        JSONLoadError(
            f"sentinel {id_text(ident, pairs=pairs)} is not in the baseline {baseline.source}",
            source=sentinels.source,
            line=line,
            field=ident,
        )
        for ident, line in zip(sentinels.ids, lines, strict=True)
        if ident not in baseline.answers
    ]
    problems = [*sentinels.errors, *(absent if baseline.ok else [])]
    if problems:
        cut = AnswerKey(source=baseline.source, format=baseline.format)
        errors = [*baseline.errors, *proposed.errors, *problems]
        check = KeyCheck(cut, proposed, None, errors, pairs)
        return SubsetCheck(check, sentinels, len(baseline.answers), None)
    cut = AnswerKey(source=baseline.source, format=baseline.format, errors=list(baseline.errors))
    if baseline.ok:
        cut.answers = {ident: baseline.answers[ident] for ident in sentinels.ids}
    check = check_answer_keys(cut, proposed, pairs=pairs)
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
    :data:`~helpers.team.inputs.MAX_KEY_BYTES` (:class:`~helpers.core.errors.JSONLoadError`).

    Taught in ``05_check_your_data.ipynb``.
    """
    from helpers.team.inputs import MAX_KEY_BYTES, open_input
    from helpers.team.key_formats import read_key

    keys = []
    for item in (baseline, proposed):
        stream, name, _size = open_input(item, max_bytes=MAX_KEY_BYTES)
        with stream:
            keys.append(
                read_key(
                    stream, source=name, format=format, id_columns=id_columns, answer_column=answer_column
                )
            )
    pairs = len(id_columns) == 2 or format in ("trec-qrels", "beir-tsv")
    stream, name, _size = open_input(sentinels, max_bytes=MAX_KEY_BYTES)
    with stream:
        listed = read_sentinel_ids(stream, source=name, pairs=pairs)
    return check_sentinel_subset(keys[0], keys[1], listed, pairs=pairs)


def subset_check_json(subset: SubsetCheck, *, limit: int = 20) -> dict[str, Any]:
    """:func:`~helpers.team.reports.key_check_json` with ``"sentinels"`` and ``"outside"`` added.

    ``"outside"`` counts the non-sentinel judgements changed, dropped and added (each
    with its first ``limit`` IDs), or is ``null`` when the check could not run.
    Taught in ``05_check_your_data.ipynb``.
    """
    from helpers.team.id_display import ids_json
    from helpers.team.reports import key_check_json

    data = key_check_json(subset.check, limit=limit)
    data["baseline"]["ids"] = subset.baseline_ids
    data["sentinels"] = {"source": subset.sentinels.source, "ids": len(subset.sentinels.ids)}
    data["outside"] = None
    if subset.outside is not None:
        data["outside"] = {
            name: {"count": len(ids), "first": ids_json(ids[:limit], pairs=subset.check.pairs)}
            for name, ids in (
                ("changed", subset.outside.changed),
                ("dropped", subset.outside.dropped),
                ("added", subset.outside.added),
            )
        }
    data["exit_status"] = data.pop("exit_status")
    return data


def subset_check_text(subset: SubsetCheck, *, limit: int = 20) -> str:
    """:func:`~helpers.team.reports.key_check_text` with the sentinel list and the changes outside it.

    Taught in ``05_check_your_data.ipynb``.
    """
    from helpers.team.id_display import ids_text
    from helpers.team.outcome_lines import count_text
    from helpers.team.reports import key_check_text

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
            f"outside the sentinels (allowed, not checked): {count_text(out.total, 'judgement')} "
            + ("differs" if out.total == 1 else "differ"),
            f"  changed answers    {len(out.changed):>10}",
            f"  dropped            {len(out.dropped):>10}",
            f"  added              {len(out.added):>10}",
        ]
        for name, ids in (("changed", out.changed), ("dropped", out.dropped), ("added", out.added)):
            if ids:
                shown = ids_text(ids, limit, pairs=subset.check.pairs)
                extra.append(f"{name} outside the sentinels: {shown}")
        lines[-1:-1] = extra
    return "\n".join(lines) + "\n"
