"""Answer keys in the formats evaluation teams already have: TREC qrels, BEIR TSV, lm-eval samples, Parquet.

Each reader maps a file to IDs and literal answers (see ``docs/formats.md``):

* ``trec-qrels``: ``query iteration document relevance`` per line, one space or one
  tab between fields. The ID is the pair ``["query","document"]``; the answer is
  the relevance label as written (``1`` and ``01`` differ); the iteration is not
  compared.
* ``beir-tsv``: the header ``query-id<TAB>corpus-id<TAB>score``, then one tab-separated
  judgement per line; the ID is the same pair, the answer the score as written.
* ``lm-eval-samples``: lm-evaluation-harness per-sample JSON Lines; the ID is ``doc_id``
  (an integer written in decimal, or a string) and the answer is ``target`` written as
  compact JSON, so the string ``"1"`` and the number ``1`` differ.
* ``parquet``: one ID column (or two, a query and a document, for a qrels table) and
  an answer column, each holding strings or integers.

A pair is written as a compact JSON array of two strings, ``["q1","d7"]``: any two
strings give a different array, so no query and document can collide, which a
separator such as a tab could not promise once a field may hold one.

Every reader is as strict as the JSON readers: a repeated ID is an error naming
both lines (rows), a malformed line names its number, and nothing is trimmed:
a doubled separator or one at the end of a line is an error, never a silent
empty or shortened field. Taught in ``05_check_your_data.ipynb`` ("Answer keys in
the formats teams already have").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

from ..core.errors import CheckInputError, JSONLoadError, describe_value
from ..core.jsonio import dumps_compact, parse_json_line
from .answer_keys import AnswerKey, load_answer_key
from .inputs import DuplicateIDError, KeyFormat, SourceFormatError

__all__ = [
    "KEY_FORMATS",
    "TABLE_FORMATS",
    "BEIR_HEADER",
    "pair_id",
    "read_trec_qrels",
    "read_beir_tsv",
    "read_lm_eval_samples",
    "read_parquet_key",
    "read_key",
]

#: Every answer-key format, as ``--format`` names it.
KEY_FORMATS: tuple[KeyFormat, ...] = ("json", "jsonl", "trec-qrels", "beir-tsv", "lm-eval-samples", "parquet")
#: The formats that need ``--id-column`` and ``--answer-column``.
TABLE_FORMATS: tuple[KeyFormat, ...] = ("parquet",)

BEIR_HEADER = ("query-id", "corpus-id", "score")
_TREC_FIELDS = ("query", "iteration", "document", "relevance")
_TREC_SEPARATOR = re.compile("[ \t]")


def pair_id(query: str, document: str) -> str:
    """The ID of a (query, document) judgement: ``["q1","d7"]``, compact JSON of two strings.

    >>> pair_id("q1", "d7")
    '["q1","d7"]'
    >>> pair_id("q 1", "d\\t7") != pair_id("q", "1 d\\t7")
    True
    """
    return dumps_compact([query, document])


def _text_lines(
    stream: Iterable[bytes], source: str
) -> Iterator[tuple[int, str | None, JSONLoadError | None]]:
    """``(number, text, error)`` per physical line; the line end (LF or CRLF) is dropped, nothing else."""
    for number, raw in enumerate(stream, 1):
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            yield (
                number,
                None,
                JSONLoadError(f"not UTF-8 text (byte {exc.start})", source=source, line=number),
            )
            continue
        yield number, text, None


def _empty_field(fields: Sequence[str], names: Sequence[str], separator: str) -> str | None:
    for name, value in zip(names, fields, strict=False):
        if not value:
            return (
                f"the {name} field is empty ({separator} twice in a row, or at the start or end "
                "of the line); fields are never trimmed"
            )
    return None


class _Collector:
    """Answers as they are read, each ID's first line, and every problem, in line order."""

    def __init__(self, key: AnswerKey) -> None:
        self.key = key
        self.first: dict[str, int] = {}

    def add(self, ident: str, answer: str, number: int, *, rows: bool = False) -> None:
        first = self.first.get(ident)
        if first is not None:
            if rows:
                from .parquet_tables import DuplicateRowError

                self.key.errors.append(
                    DuplicateRowError(ident, source=self.key.source, row=number, first_row=first)
                )
            else:
                self.key.errors.append(
                    DuplicateIDError(ident, source=self.key.source, line=number, first_line=first)
                )
            return
        self.first[ident] = number
        self.key.answers[ident] = answer

    def fail(self, message: str, number: int, field: str | None = None) -> None:
        self.key.errors.append(JSONLoadError(message, source=self.key.source, line=number, field=field))


def read_trec_qrels(stream: Iterable[bytes], *, source: str) -> AnswerKey:
    """Read TREC qrels: ``query iteration document relevance``, one space or one tab between fields.

    The ID is :func:`pair_id` of the query and the document; the answer is the
    relevance label exactly as written. Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="trec-qrels")
    seen = _Collector(key)
    for number, text, error in _text_lines(stream, source):
        if error is not None:
            key.errors.append(error)
            continue
        assert text is not None
        if not text:
            seen.fail('blank line, expected "query iteration document relevance"', number)
            continue
        fields = _TREC_SEPARATOR.split(text)
        if len(fields) != 4:
            seen.fail(
                f"has {len(fields)} fields, expected 4 (query, iteration, document, relevance) "
                "with one space or tab between them",
                number,
            )
            continue
        problem = _empty_field(fields, _TREC_FIELDS, "a space or tab")
        if problem is not None:
            seen.fail(problem, number)
            continue
        query, _iteration, document, relevance = fields
        seen.add(pair_id(query, document), relevance, number)
    return key


def read_beir_tsv(stream: Iterable[bytes], *, source: str) -> AnswerKey:
    """Read BEIR qrels TSV: the header ``query-id<TAB>corpus-id<TAB>score``, then one judgement per line.

    The ID is :func:`pair_id` of the query and the corpus ID; the answer is the
    score exactly as written. Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="beir-tsv")
    seen = _Collector(key)
    header = "\t".join(BEIR_HEADER)
    read_any = False
    for number, text, error in _text_lines(stream, source):
        read_any = True
        if error is not None:
            key.errors.append(error)
            if number == 1:
                return key
            continue
        assert text is not None
        if number == 1:
            if text != header:
                key.errors.append(
                    SourceFormatError(
                        f"header is {describe_value(text)}, expected "
                        '"query-id<TAB>corpus-id<TAB>score" (separated by single tabs)',
                        source=source,
                        line=1,
                    )
                )
                return key
            continue
        if not text:
            seen.fail('blank line, expected "query-id<TAB>corpus-id<TAB>score"', number)
            continue
        fields = text.split("\t")
        if len(fields) != 3:
            seen.fail(
                f"has {len(fields)} tab-separated fields, expected 3 (query-id, corpus-id, score)",
                number,
            )
            continue
        problem = _empty_field(fields, BEIR_HEADER, "a tab")
        if problem is not None:
            seen.fail(problem, number)
            continue
        seen.add(pair_id(fields[0], fields[1]), fields[2], number)
    if not read_any:
        key.errors.append(
            SourceFormatError(
                'is empty, expected the header "query-id<TAB>corpus-id<TAB>score"', source=source, line=1
            )
        )
    return key


def _lm_eval_id(value: Any) -> str | None:
    if type(value) is int:
        return str(value)
    if isinstance(value, str) and value:
        return value
    return None


def read_lm_eval_samples(stream: Iterable[bytes], *, source: str) -> AnswerKey:
    """Read lm-evaluation-harness per-sample JSON Lines: ``doc_id`` and ``target`` from each line.

    Other fields (``doc``, ``resps``, ``target_hash``, metrics) are allowed and not
    compared. The answer is ``target`` as compact JSON. A ``doc_id`` given twice is
    an error naming both lines (a file holding several filters' samples repeats each
    ``doc_id``: check one filter at a time). Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="lm-eval-samples")
    seen = _Collector(key)
    for number, raw in enumerate(stream, 1):
        parsed = parse_json_line(raw, number, source)
        if parsed.error is not None:
            key.errors.append(parsed.error)
            continue
        value = parsed.value
        if not isinstance(value, dict):
            seen.fail(f'is {describe_value(value)}, expected an object with "doc_id" and "target"', number)
            continue
        missing = next((name for name in ("doc_id", "target") if name not in value), None)
        if missing is not None:
            seen.fail(f'has no "{missing}" field', number, missing)
            continue
        ident = _lm_eval_id(value["doc_id"])
        if ident is None:
            seen.fail(
                f"doc_id is {describe_value(value['doc_id'])}, expected an integer or a non-empty string",
                number,
                "doc_id",
            )
            continue
        seen.add(ident, dumps_compact(value["target"]), number)
    return key


def _table_text(value: Any, column: str, row: int, source: str, *, empty_ok: bool) -> str:
    from .parquet_tables import RowError

    if type(value) is int:
        return str(value)
    if isinstance(value, str) and (value or empty_ok):
        return value
    what = "null" if value is None else describe_value(value)
    expected = "a string or an integer" if empty_ok else "a non-empty string or an integer"
    raise RowError(f"column {column!r} is {what}, expected {expected}", source=source, row=row, field=column)


def read_parquet_key(
    stream: IO[bytes] | Any,
    *,
    source: str,
    id_columns: Sequence[str],
    answer_column: str,
) -> AnswerKey:
    """Read an answer key from a Parquet table: one ID column (or a query and a document column).

    Values are strings or integers (an integer is written in decimal); a null, an
    empty ID or any other type is an error naming the row and the column. Needs
    the ``parquet`` extra (pyarrow). Taught in ``05_check_your_data.ipynb``.
    """
    from .parquet_tables import column_names, iter_rows, open_parquet

    if len(id_columns) not in (1, 2):
        raise ValueError("give one ID column, or two (query and document) for a qrels table")
    key = AnswerKey(source=source, format="parquet")
    try:
        table = open_parquet(stream, source=source)
    except JSONLoadError as exc:
        key.errors.append(exc)
        return key
    names = column_names(table)
    wanted = [*id_columns, answer_column]
    for column in wanted:
        if column not in names:
            key.errors.append(
                SourceFormatError(
                    f"has no column {column!r} (its columns: {', '.join(map(repr, names)) or 'none'})",
                    source=source,
                    field=column,
                )
            )
    if len(set(wanted)) != len(wanted):
        key.errors.append(
            SourceFormatError("the ID and answer columns must be different columns", source=source)
        )
    if key.errors:
        return key
    seen = _Collector(key)
    for row, values in enumerate(iter_rows(table, sorted(set(wanted))), 1):
        try:
            parts = [_table_text(values[c], c, row, source, empty_ok=False) for c in id_columns]
            answer = _table_text(values[answer_column], answer_column, row, source, empty_ok=True)
        except CheckInputError as exc:
            key.errors.append(exc)
            continue
        ident = parts[0] if len(parts) == 1 else pair_id(parts[0], parts[1])
        seen.add(ident, answer, row, rows=True)
    return key


_TEXT_READERS: dict[str, Callable[..., AnswerKey]] = {
    "trec-qrels": read_trec_qrels,
    "beir-tsv": read_beir_tsv,
    "lm-eval-samples": read_lm_eval_samples,
}


def read_key(
    stream: IO[bytes] | Any,
    *,
    source: str,
    format: KeyFormat,
    id_columns: Sequence[str] = (),
    answer_column: str | None = None,
) -> AnswerKey:
    """Read an answer key in any of :data:`KEY_FORMATS` (a Parquet key needs its columns named).

    Taught in ``05_check_your_data.ipynb``.
    """
    if format in TABLE_FORMATS:
        if not id_columns or answer_column is None:
            raise ValueError("a Parquet answer key needs id_columns and answer_column")
        return read_parquet_key(stream, source=source, id_columns=id_columns, answer_column=answer_column)
    if id_columns or answer_column is not None:
        raise ValueError(f"ID and answer columns apply only to {', '.join(TABLE_FORMATS)} keys")
    reader = _TEXT_READERS.get(format)
    if reader is not None:
        return reader(stream, source=source)
    return load_answer_key(stream, source=source, format=format)
