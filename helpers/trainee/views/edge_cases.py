"""The galleries' fixture, ``fixtures/edge_cases.json``, read strictly: the edge cases of each check, the
sources read line by line, the baseline files, the notation strings, the whole files and the case files.
A malformed entry raises naming it. The galleries (:mod:`helpers.trainee.views.gallery`) show them;
taught in ``01_start_here.ipynb`` to ``06_trainer.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.checks import require_check_name
from helpers.core.errors import InvalidInputError
from helpers.core.jsonio import dumps_compact, load_json_file, loads_document
from helpers.core.paths import fixtures_dir
from helpers.core.validation import require_record
from helpers.trainee.cases.filled import Case, cases_from_csv, cases_from_data
from helpers.trainee.cases.fixture_fields import text_field

__all__ = [
    "EdgeCase",
    "Source",
    "BaselineDocument",
    "edge_cases_json",
    "load_edge_cases",
    "edge_cases",
    "sources",
    "baseline_documents",
    "notation_examples",
    "documents",
    "case_files",
    "read_case_text",
    "fixture_line",
]

#: The fixture's optional top-level fields (besides ``edge_cases`` and ``sources``).
_TOP_LEVEL = (
    "about",
    "sources_about",
    "baselines",
    "baselines_about",
    "notation",
    "notation_about",
    "documents",
    "documents_about",
    "case_files",
    "case_files_about",
    "edge_cases",
    "sources",
)


@dataclass(frozen=True)
class EdgeCase:
    """One gallery entry: its check, group, title, teaching note and raw JSON line (UTF-8)."""

    check: str
    group: str
    title: str
    why: str
    line: bytes


@dataclass(frozen=True)
class Source:
    """A few lines of a JSON Lines source, read as the command line reads them."""

    check: str
    title: str
    why: str
    lines: tuple[bytes, ...]


def edge_cases_json() -> Path:
    """``fixtures/edge_cases.json``: the galleries' inputs and notes."""
    return fixtures_dir() / "edge_cases.json"


def _edge_case(raw: Any, where: str) -> EdgeCase:
    record = require_record(
        raw, required=("check", "group", "title", "why"), optional=("input", "line"), field=where
    )
    check = require_check_name(record["check"], f"{where}.check")
    if ("input" in record) == ("line" in record):
        raise InvalidInputError(f'{where} needs exactly one of "input" and "line"', field=where)
    line = (
        dumps_compact(record["input"]) if "input" in record else fixture_line(record["line"], f"{where}.line")
    )
    if not line:
        raise InvalidInputError(f"{where}.line must not be empty", field=f"{where}.line")
    return EdgeCase(
        check=check,
        group=text_field(record, "group", where),
        title=text_field(record, "title", where),
        why=text_field(record, "why", where),
        line=line.encode("utf-8", "surrogateescape"),
    )


def fixture_line(raw: Any, where: str) -> str:
    """A source line: a string, or a list of parts (strings, or ``{"repeat": text, "times": n}``) joined."""
    if isinstance(raw, str):
        return raw
    if not isinstance(raw, list):
        raise InvalidInputError(f"{where} must be a string or a list of parts", field=where)
    pieces = []
    for index, part in enumerate(raw):
        if isinstance(part, str):
            pieces.append(part)
            continue
        spec = require_record(part, required=("repeat", "times"), field=f"{where}[{index}]")
        times = spec["times"]
        if not isinstance(spec["repeat"], str) or type(times) is not int or times < 1:
            raise InvalidInputError(
                f"{where}[{index}] repeats a string a whole number of times", field=f"{where}[{index}]"
            )
        pieces.append(spec["repeat"] * times)
    return "".join(pieces)


def _source(raw: Any, where: str) -> Source:
    record = require_record(raw, required=("check", "title", "why", "lines"), field=where)
    lines = record["lines"]
    if not isinstance(lines, list):
        raise InvalidInputError(f"{where}.lines must be a list", field=f"{where}.lines")
    return Source(
        check=require_check_name(record["check"], f"{where}.check"),
        title=text_field(record, "title", where),
        why=text_field(record, "why", where),
        lines=tuple(
            fixture_line(line, f"{where}.lines[{n}]").encode("utf-8", "surrogateescape")
            for n, line in enumerate(lines)
        ),
    )


@dataclass(frozen=True)
class BaselineDocument:
    """A baseline file's content, shown with what :func:`~helpers.core.baselines.baseline_from_data` says."""

    title: str
    why: str
    document: Any


def _baseline_document(raw: Any, where: str) -> BaselineDocument:
    record = require_record(raw, required=("title", "why", "document"), field=where)
    return BaselineDocument(
        text_field(record, "title", where), text_field(record, "why", where), record["document"]
    )


def load_edge_cases(
    path: str | Path | None = None,
) -> tuple[list[EdgeCase], list[Source], list[BaselineDocument]]:
    """Read the galleries' fixture; a malformed entry raises naming it (e.g. ``edge_cases[3].why``)."""
    source = Path(path) if path is not None else edge_cases_json()
    data = require_record(
        load_json_file(source),
        required=("edge_cases", "sources"),
        optional=_TOP_LEVEL,
        field=source.name,
    )
    entries, reads, documents = data["edge_cases"], data["sources"], data.get("baselines", [])
    if not all(isinstance(group, list) for group in (entries, reads, documents)):
        raise InvalidInputError(
            f"{source.name}: edge_cases, sources and baselines must be lists", field=source.name
        )
    return (
        [_edge_case(raw, f"edge_cases[{n}]") for n, raw in enumerate(entries)],
        [_source(raw, f"sources[{n}]") for n, raw in enumerate(reads)],
        [_baseline_document(raw, f"baselines[{n}]") for n, raw in enumerate(documents)],
    )


def edge_cases(check: str) -> list[EdgeCase]:
    """The gallery entries of one check, in the fixture's order."""
    require_check_name(check)
    return [case for case in load_edge_cases()[0] if case.check == check]


def sources() -> list[Source]:
    """The multi-line sources that show how lines are read (``05_check_your_data.ipynb``)."""
    return load_edge_cases()[1]


def baseline_documents() -> list[BaselineDocument]:
    """The baseline documents of ``03_sentinel_answer_key.ipynb``'s gallery of baseline files."""
    return load_edge_cases()[2]


def _section(name: str, required: tuple[str, ...]) -> list[tuple[str, Mapping[str, Any]]]:
    """The entries of one optional list in the fixture, each checked for ``required`` and named."""
    source = edge_cases_json()
    entries = require_record(load_json_file(source), required=(), optional=_TOP_LEVEL, field=source.name).get(
        name, []
    )
    if not isinstance(entries, list):
        raise InvalidInputError(f"{source.name}: {name} must be a list", field=name)
    return [
        (f"{name}[{n}]", require_record(raw, required=required, field=f"{name}[{n}]"))
        for n, raw in enumerate(entries)
    ]


def notation_examples() -> list[tuple[str, str]]:
    """The strings of ``01_start_here.ipynb``'s notation table, each with its note."""
    found = []
    for where, record in _section("notation", ("text", "why")):
        if not isinstance(record["text"], str) or not record["text"]:
            raise InvalidInputError(f"{where}.text must be a non-empty string", field=f"{where}.text")
        found.append((record["text"], text_field(record, "why", where)))
    return found


def documents() -> list[tuple[str, str, bytes]]:
    """The whole files of ``01_start_here.ipynb``'s gallery: title, note and bytes."""
    return [
        (
            text_field(record, "title", where),
            text_field(record, "why", where),
            fixture_line(record["text"], f"{where}.text").encode("utf-8", "surrogateescape"),
        )
        for where, record in _section("documents", ("title", "why", "text"))
    ]


def case_files() -> list[tuple[str, str, str, str]]:
    """The case files of ``06_trainer.ipynb``'s gallery: title, note, file name and text."""
    found = []
    for where, record in _section("case_files", ("title", "why", "name", "text")):
        name = text_field(record, "name", where)
        if not name.endswith((".csv", ".json")):
            raise InvalidInputError(f"{where}.name must end in .csv or .json", field=f"{where}.name")
        text = record["text"]
        if not isinstance(text, str):
            raise InvalidInputError(f"{where}.text must be a string", field=f"{where}.text")
        found.append((text_field(record, "title", where), text_field(record, "why", where), name, text))
    return found


def read_case_text(name: str, text: str) -> list[Case]:
    """Read the cases in ``text`` as :func:`~helpers.trainee.cases.filled.load_cases` reads a file called ``name``."""
    if name.endswith(".csv"):
        return cases_from_csv(text, source=name)
    return cases_from_data(loads_document(text.encode("utf-8"), source=name), source=name)
