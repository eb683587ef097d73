"""Sentinel answer keys: a JSON object ``{id: answer}`` (``.json``) or JSON Lines of ``{"id", "answer"}``.

An ID given twice is an error naming the ID and both lines, in either form. A key
is held in memory, because the check needs all of it. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from helpers.core.errors import CheckInputError, DuplicateKeyError, JSONLoadError, describe_value
from helpers.core.jsonio import (
    LimitedText,
    NestingTooDeep,
    RepeatedKey,
    decode_utf8,
    loads_strict,
    parse_json_line,
    skip_space,
    value_error_message,
)
from helpers.team.fastpath import fast_answer_key, loads_fast
from helpers.team.inputs import DuplicateIDError, KeyFormat, key_format_for

__all__ = ["AnswerKey", "load_answer_key", "read_answer_key_object", "read_answer_key_lines"]


@dataclass
class AnswerKey:
    """An answer key read from a file: its answers, and every problem found, by line.

    ``errors`` is empty when the key is usable. Taught in ``05_check_your_data.ipynb``.
    """

    source: str
    format: KeyFormat
    answers: dict[str, str] = field(default_factory=dict)
    errors: list[CheckInputError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the key had no problems."""
        return not self.errors


_scanstring: Any = getattr(json.decoder, "scanstring")  # noqa: B009 - untyped in typeshed


class _Lines:
    """Line numbers of positions in a text, counted incrementally."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1

    def at(self, pos: int) -> int:
        if pos < self.pos:
            return self.text.count("\n", 0, pos) + 1
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def _members(text: str, source: str) -> Iterator[tuple[str, Any, int]]:
    """Yield ``(key, value, line)`` for each member of the top-level JSON object in ``text``.

    Values are read by the standard library's parser (duplicate keys refused), so
    they are exactly what :func:`~helpers.core.jsonio.loads_strict` would give.
    """
    lines = _Lines(text)

    def fail(message: str, pos: int, key: str | None = None) -> JSONLoadError:
        return JSONLoadError(message, source=source, line=lines.at(pos), field=key)

    pos = skip_space(text, 0)
    if text[pos : pos + 1] != "{":
        value = loads_strict(text, source=source)  # the precise syntax error, if any
        raise fail(f"is {describe_value(value)}, expected a JSON object mapping IDs to answers", pos)
    readable = LimitedText.of(text)
    pos = skip_space(text, pos + 1)
    if text[pos : pos + 1] == "}":
        pos += 1
    else:
        while True:
            if text[pos : pos + 1] != '"':
                raise fail("not valid JSON: expected a quoted ID", pos)
            line = lines.at(pos)
            try:
                key, pos = _scanstring(text, pos + 1, True)
            except json.JSONDecodeError as exc:
                raise fail(f"not valid JSON: {exc.msg}", exc.pos) from None
            pos = skip_space(text, pos)
            if text[pos : pos + 1] != ":":
                raise fail("not valid JSON: expected ':' after an ID", pos, key)
            pos = skip_space(text, pos + 1)
            try:
                value, pos = readable.decode(pos)
            except NestingTooDeep as deep:
                raise fail(deep.message, pos, key) from None
            except RepeatedKey as dup:
                raise DuplicateKeyError(dup.key, source=source, line=line) from None
            except json.JSONDecodeError as exc:
                raise fail(f"not valid JSON: {exc.msg}", exc.pos, key) from None
            except ValueError as exc:  # NaN/Infinity, or a number too long to read
                raise fail(value_error_message(exc), pos, key) from None
            yield key, value, line
            pos = skip_space(text, pos)
            mark = text[pos : pos + 1]
            if mark == "}":
                pos += 1
                break
            if mark != ",":
                raise fail("not valid JSON: expected ',' or '}' after a value", pos, key)
            pos = skip_space(text, pos + 1)
    pos = skip_space(text, pos)
    if pos != len(text):
        raise fail("not valid JSON: extra data after the object", pos)


def read_answer_key_object(data: bytes, *, source: str) -> AnswerKey:
    """Read an answer key written as one JSON object ``{id: answer}``.

    Reports every repeated ID (with both lines), every empty ID and every answer
    that is not a string, each with its line; a JSON syntax error ends reading.

    Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="json")
    fast = loads_fast(data[3:] if data.startswith(b"\xef\xbb\xbf") else data)
    if fast is not None and fast_answer_key(fast, json_keys=True):
        key.answers = fast
        return key
    try:
        text = decode_utf8(data, source)
    except JSONLoadError as exc:
        key.errors.append(exc)
        return key
    first_lines: dict[str, int] = {}
    try:
        for name, answer, line in _members(text, source):
            if name in first_lines:
                key.errors.append(
                    DuplicateIDError(name, source=source, line=line, first_line=first_lines[name])
                )
                continue
            first_lines[name] = line
            problem = _key_entry_problem(name, answer, source, line)
            if problem is not None:
                key.errors.append(problem)
            else:
                key.answers[name] = answer
    except JSONLoadError as exc:
        key.errors.append(exc)
    return key


def _key_entry_problem(name: Any, answer: Any, source: str, line: int) -> CheckInputError | None:
    return _id_and_answer_problem(
        name, answer, source, line, id_words="ID", answer_words=f"the answer for {describe_value(name)}"
    )


def _id_and_answer_problem(
    ident: Any,
    answer: Any,
    source: str,
    line: int,
    *,
    id_words: str,
    answer_words: str,
    answer_field: str | None = None,
) -> CheckInputError | None:
    """An entry's ID that is not a non-empty string, or its answer that is not a string, named."""
    if not isinstance(ident, str) or not ident:
        return JSONLoadError(
            f"{id_words} is {describe_value(ident)}, expected a non-empty string ID",
            source=source,
            line=line,
            field="id",
        )
    if not isinstance(answer, str):
        return JSONLoadError(
            f"{answer_words} is {describe_value(answer)}, expected a string answer",
            source=source,
            line=line,
            field=answer_field if answer_field is not None else ident,
        )
    return None


_KEY_LINE_FIELDS = frozenset(("id", "answer"))


def _key_line_problem(value: Any, source: str, line: int) -> CheckInputError | None:
    if not isinstance(value, dict):
        return JSONLoadError(
            f'is {describe_value(value)}, expected an object {{"id": ..., "answer": ...}}',
            source=source,
            line=line,
        )
    for name in ("id", "answer"):
        if name not in value:
            return JSONLoadError(f'has no "{name}" field', source=source, line=line, field=name)
    for name in value:
        if name not in _KEY_LINE_FIELDS:
            return JSONLoadError(
                f'has an unknown field {describe_value(name)} (allowed: "id", "answer")',
                source=source,
                line=line,
                field=name,
            )
    return _id_and_answer_problem(
        value["id"], value["answer"], source, line, id_words="id", answer_words="answer"
    )


def read_answer_key_lines(stream: Iterable[bytes], *, source: str) -> AnswerKey:
    """Read an answer key written as JSON Lines of ``{"id": ..., "answer": ...}``, line by line.

    Every bad line and every repeated ID (naming both lines) is reported.

    Taught in ``05_check_your_data.ipynb``.
    """
    key = AnswerKey(source=source, format="jsonl")
    answers = key.answers
    lines = array("Q")  # the line of each ID, in insertion order
    repeats: list[tuple[str, int]] = []
    problems: list[CheckInputError] = []
    for number, raw in enumerate(stream, 1):
        value = loads_fast(raw) if number > 1 else None
        if (
            type(value) is dict
            and len(value) == 2
            and type(value.get("id")) is str
            and type(value.get("answer")) is str
            and value["id"]
        ):
            ident, answer = value["id"], value["answer"]
        else:
            parsed = parse_json_line(raw, number, source)
            problem = parsed.error or _key_line_problem(parsed.value, source, number)
            if problem is not None:
                problems.append(problem)
                continue
            ident, answer = parsed.value["id"], parsed.value["answer"]
        if ident in answers:
            repeats.append((ident, number))
            continue
        answers[ident] = answer
        lines.append(number)
    if repeats:
        wanted = {ident for ident, _ in repeats}
        first = {ident: lines[index] for index, ident in enumerate(answers) if ident in wanted}
        problems += [
            DuplicateIDError(ident, source=source, line=number, first_line=first[ident])
            for ident, number in repeats
        ]
        problems.sort(key=lambda exc: getattr(exc, "line", None) or 0)
    key.errors = problems
    return key


def load_answer_key(stream: IO[bytes], *, source: str, format: KeyFormat | None = None) -> AnswerKey:
    """Read an answer key from a binary stream; ``format`` defaults to the one ``source`` names.

    Taught in ``05_check_your_data.ipynb``.
    """
    fmt = format or key_format_for(source)
    if fmt == "json":
        return read_answer_key_object(stream.read(), source=source)
    if fmt == "jsonl":
        return read_answer_key_lines(stream, source=source)
    raise ValueError(f"unknown answer-key format {fmt!r}; expected 'json' or 'jsonl'")
