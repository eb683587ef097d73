"""Answer keys in the formats evaluation teams already have: TREC qrels, BEIR TSV, lm-eval samples, Parquet.

Each reader maps a file to IDs and literal answers (see ``docs/formats.md``):

* ``trec-qrels``: ``query iteration document relevance`` per line, read as trec_eval
  reads it: fields are separated by any run of ASCII whitespace (space, tab, and the
  rarer CR, VT and FF), and whitespace at the start and end of a line is ignored.
  Nothing else separates: a no-break space, a zero-width or a full-width character
  is part of the ID. The ID is the pair ``["query","document"]``; the answer is the
  relevance label as written (``1`` and ``01`` differ); the iteration is not compared.
* ``beir-tsv``: the header ``query-id<TAB>corpus-id<TAB>score``, then one judgement per
  line, fields separated by exactly one tab, as BEIR writes them, nothing trimmed; the
  ID is the same pair, the answer the score as written.
* ``lm-eval-samples``: lm-evaluation-harness per-sample JSON Lines; the ID is ``doc_id``
  (an integer written in decimal, or a string) and the answer is ``target`` written as
  compact JSON, so the string ``"1"`` and the number ``1`` differ.
* ``parquet``: one ID column (or two, a query and a document, for a qrels table) and
  an answer column, each holding strings or integers.

A pair is written as a compact JSON array of two strings, ``["q1","d7"]``: any two
strings give a different array, so no query and document can collide, which a
separator such as a tab could not promise once a field may hold one.

Every reader is as strict as the JSON readers: a repeated ID is an error naming
both lines (rows), a malformed line names its number (a blank line, a NUL, a
byte-order mark past the start of the file), and in the tab-separated format
nothing is trimmed: a doubled tab or one at the end of a line is an error, never
a silent empty or shortened field. Taught in ``05_check_your_data.ipynb`` ("Answer keys in
the formats teams already have").
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import IO, Any

from helpers.core.chardiff import visible_text
from helpers.core.errors import CheckInputError, JSONLoadError, describe_value
from helpers.core.jsonio import dumps_compact, parse_json_line
from helpers.team.answer_keys import AnswerKey, load_answer_key
from helpers.team.inputs import DuplicateIDError, KeyFormat, SourceFormatError

__all__ = [
    "KEY_FORMATS",
    "TABLE_FORMATS",
    "BEIR_HEADER",
    "TREC_SEPARATORS",
    "trec_fields",
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
#: Past this many characters, a line with too many fields is not split whole to count them.
_COUNTED_LINE = 4096
#: Rows of a Parquet key read at a time.
_BATCH_ROWS = 16_384
#: What separates qrels fields: ASCII whitespace, as C's ``isspace`` (trec_eval) knows it; a line
#: ends at LF. Python's ``str.split()`` splits on more (U+00A0, U+3000, U+001C...): here those are
#: part of an ID.
TREC_SEPARATORS = " \t\r\v\f"
_TREC_SEPARATOR = re.compile(f"[{TREC_SEPARATORS}]+")


def trec_fields(line: str, expected: int) -> tuple[list[str], str]:
    """A qrels line's fields as trec_eval splits them, and how many there are, as an error says it.

    Any run of :data:`TREC_SEPARATORS` separates; those at the start and end are
    ignored. At most ``expected + 1`` fields are split off (one more is enough to
    refuse the line); the count is exact unless the line is too long to split whole.

    >>> trec_fields("  q1 0\td1  1 ", 4)
    (['q1', '0', 'd1', '1'], '4')
    >>> trec_fields("a b c d e f", 4)
    (['a', 'b', 'c', 'd', 'e f'], '6')
    """
    text = line.strip(TREC_SEPARATORS)
    fields = _TREC_SEPARATOR.split(text, maxsplit=expected) if text else []
    return fields, _field_count(fields, text, _TREC_SEPARATOR.split, expected)


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
    """``(number, text, error)`` per physical line, without its line end.

    A line ends with LF or CRLF; the last line may end with a lone CR too (an editor's
    last save), which is dropped. A NUL, and a byte-order mark anywhere but at the start
    of the file (two files joined together), are errors naming the line.
    """
    for number, raw in enumerate(stream, 1):
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        elif raw.endswith(b"\r"):
            raw = raw[:-1]  # the last line: nothing follows a line without LF
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            yield (
                number,
                None,
                JSONLoadError(f"not UTF-8 text (byte {exc.start})", source=source, line=number),
            )
            continue
        if "\0" in text:
            problem = f"holds a NUL character (U+0000) at character {text.index(chr(0)) + 1}"
            yield number, None, JSONLoadError(problem, source=source, line=number)
            continue
        if "\ufeff" in text:
            problem = (
                f"holds a byte-order mark (U+FEFF) at character {text.index(chr(0xFEFF)) + 1}; "
                "only the start of a file may (were two files joined together?)"
            )
            yield number, None, JSONLoadError(problem, source=source, line=number)
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


def _field_count(fields: list[str], text: str, split: Callable[[str], list[str]], expected: int) -> str:
    """How many fields a line has, counted in full only on a line short enough to split whole."""
    if len(fields) <= expected or len(text) <= _COUNTED_LINE:
        return str(len(fields) if len(fields) <= expected else len(split(text)))
    return f"more than {expected}"


class _Collector:
    """Answers as they are read, each ID's line, and every problem; :meth:`done` puts them in line order.

    Each ID's line is kept in an array beside the answers (8 bytes an ID, not a second
    dict), and a repeat is named with its first line once reading is over.
    """

    def __init__(self, key: AnswerKey, *, rows: bool = False) -> None:
        self.key = key
        self.rows = rows
        self.lines = array("Q")  # the line (row) of each ID, in the answers' order
        self.repeats: list[tuple[str, int]] = []

    def add(self, ident: str, answer: str, number: int) -> None:
        answers = self.key.answers
        if ident in answers:
            self.repeats.append((ident, number))
            return
        answers[ident] = answer
        self.lines.append(number)

    def fail(self, message: str, number: int, field: str | None = None) -> None:
        self.key.errors.append(JSONLoadError(message, source=self.key.source, line=number, field=field))

    def done(self) -> AnswerKey:
        """The key, its repeated IDs named with both lines, every problem in line order."""
        key = self.key
        if self.repeats:
            wanted = {ident for ident, _ in self.repeats}
            first = {ident: self.lines[i] for i, ident in enumerate(key.answers) if ident in wanted}
            if self.rows:
                from helpers.team.parquet_tables import DuplicateRowError

                key.errors += [
                    DuplicateRowError(ident, source=key.source, row=number, first_row=first[ident])
                    for ident, number in self.repeats
                ]
            else:
                key.errors += [
                    DuplicateIDError(ident, source=key.source, line=number, first_line=first[ident])
                    for ident, number in self.repeats
                ]
            key.errors.sort(key=lambda exc: getattr(exc, "line", None) or 0)
        return key


def read_trec_qrels(stream: Iterable[bytes], *, source: str) -> AnswerKey:
    """Read TREC qrels: ``query iteration document relevance``, as trec_eval reads them.

    Fields are separated by any run of :data:`TREC_SEPARATORS` (space, tab, CR, VT,
    FF); whitespace at the start and end of a line is ignored. A line of other than
    four fields, a blank line, a NUL or a byte-order mark past the start is an error
    naming the line. The ID is :func:`pair_id` of the query and the document; the
    answer is the relevance label exactly as written. Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="trec-qrels")
    seen = _Collector(key)
    for number, text, error in _text_lines(stream, source):
        if error is not None:
            key.errors.append(error)
            continue
        assert text is not None
        fields, count = trec_fields(text, 4)  # a fifth field is enough to refuse
        if not fields:
            seen.fail('blank line, expected "query iteration document relevance"', number)
            continue
        if len(fields) != 4:
            hint = ""
            if len(fields) > 4 and "\r" in text:
                hint = " (it holds a CR that ends no line: a file with CR-only line ends?)"
            seen.fail(
                f"has {count} fields, expected 4 (query, iteration, document, relevance) "
                f"separated by spaces or tabs{hint}",
                number,
            )
            continue
        query, _iteration, document, relevance = fields
        seen.add(pair_id(query, document), relevance, number)
    return seen.done()


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
                        f"header is {visible_text(describe_value(text))}, expected "
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
        fields = text.split("\t", 3)  # a fourth field is enough to refuse
        if len(fields) != 3:
            seen.fail(
                f"has {_field_count(fields, text, lambda line: line.split(chr(9)), 3)} tab-separated fields, "
                "expected 3 (query-id, corpus-id, score)",
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
    return seen.done()


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
        try:
            answer = dumps_compact(value["target"])
        except ValueError:  # 1e400 reads as infinity, which JSON cannot write
            seen.fail(
                "target holds a number too large to read as written (such as 1e400), "
                "so it cannot be compared literally",
                number,
                "target",
            )
            continue
        seen.add(ident, answer, number)
    return seen.done()


def _table_text(value: Any, column: str, row: int, source: str, *, empty_ok: bool) -> str:
    if type(value) is str and (value or empty_ok):
        return value
    if type(value) is int:
        return str(value)
    if isinstance(value, str) and (value or empty_ok):
        return value
    from helpers.team.parquet_tables import RowError

    what = "null" if value is None else describe_value(value)
    expected = "a string or an integer" if empty_ok else "a non-empty string or an integer"
    raise RowError(f"column {column!r} is {what}, expected {expected}", source=source, row=row, field=column)


def _batches(table: Any, columns: list[str]) -> Generator[Any, None, None]:
    """The table's record batches, one row group at a time (a corrupt group fails at its first row)."""
    for group in range(table.num_row_groups):
        yield from table.iter_batches(batch_size=_BATCH_ROWS, row_groups=[group], columns=columns)


def read_parquet_key(
    stream: IO[bytes] | Any,
    *,
    source: str,
    id_columns: Sequence[str],
    answer_column: str,
) -> AnswerKey:
    """Read an answer key from a Parquet table: one ID column (or a query and a document column).

    Values are strings or integers (an integer is written in decimal); a null, an
    empty ID or any other type is an error naming the row and the column. A named
    column that the table holds twice is refused (which one counts would be a guess),
    and a table that stops being readable part-way (a corrupt page) is an error at
    the first row not read. The table is read one record batch at a time, so memory
    holds the key, not the table. Needs the ``parquet`` extra (pyarrow). Taught in
    ``05_check_your_data.ipynb``.
    """
    from helpers.team.parquet_tables import column_names, open_parquet, unreadable_from

    if len(id_columns) not in (1, 2):
        raise ValueError("give one ID column, or two (query and document) for a qrels table")
    key = AnswerKey(source=source, format="parquet")
    try:
        table = open_parquet(stream, source=source)
    except JSONLoadError as exc:
        key.errors.append(exc)
        return key
    import pyarrow as pa

    names = column_names(table)
    wanted = [*id_columns, answer_column]
    for column in dict.fromkeys(wanted):
        count = names.count(column)
        if count == 0:
            key.errors.append(
                SourceFormatError(
                    f"has no column {column!r} (its columns: {', '.join(map(repr, names)) or 'none'})",
                    source=source,
                    field=column,
                )
            )
        elif count > 1:
            key.errors.append(
                SourceFormatError(
                    f"has {count} columns named {column!r}; which one to read would be a guess",
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
    seen = _Collector(key, rows=True)
    row = 0
    batches = _batches(table, sorted(set(wanted)))
    try:
        for batch in batches:
            columns = [batch.column(name).to_pylist() for name in wanted]
            for values in zip(*columns, strict=True):
                row += 1
                try:
                    parts = [
                        _table_text(value, name, row, source, empty_ok=False)
                        for value, name in zip(values, id_columns, strict=False)
                    ]
                    answer = _table_text(values[-1], answer_column, row, source, empty_ok=True)
                except CheckInputError as exc:
                    key.errors.append(exc)
                    continue
                ident = parts[0] if len(parts) == 1 else pair_id(parts[0], parts[1])
                seen.add(ident, answer, row)
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        key.errors.append(unreadable_from(exc, source=source, row=row + 1, tidy=True))
    finally:
        batches.close()  # a reader left part-way lets its threads go now, not at the process's exit
    return seen.done()


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
