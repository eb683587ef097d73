"""Filled cases: typed objects loaded from ``fixtures/`` as JSON or CSV.

A case records its check, id, title, input, expected output, decision and
reason. The CSV form puts ``input`` and ``expected`` in cells as compact JSON
and round-trips losslessly with the JSON form.
Taught in ``01_start_here.ipynb``; the cases are worked in ``02_…`` and ``03_…``, and
``06_trainer.ipynb`` ("Cases of your own") shows case files read and refused.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.checks import CheckResult, require_check_name, run_check
from helpers.core.errors import CheckInputError, InvalidInputError, JSONLoadError, describe_value
from helpers.core.jsonio import dumps_compact, load_json_file, loads_strict
from helpers.core.paths import filled_cases_json

__all__ = [
    "Case",
    "CSV_COLUMNS",
    "load_cases",
    "cases_from_data",
    "cases_to_data",
    "cases_to_csv",
    "cases_from_csv",
    "spreadsheet_safe",
    "from_spreadsheet_safe",
    "filled_cases",
    "get_case",
]

CSV_COLUMNS: tuple[str, ...] = ("check", "id", "title", "input", "expected", "decision", "reason")
_TEXT_FIELDS = ("check", "id", "title", "decision", "reason")

#: The output keys, in order, that an expected output may have, per check.
#: ``{"error": message}`` records that the check refuses the input.
_EXPECTED_SHAPES: dict[str, tuple[tuple[str, ...], ...]] = {
    "target-scope": (
        ("missing", "added", "preserved"),
        ("held", "unresolved", "preserved"),
        ("error",),
    ),
    "sentinels": (("missing", "changed", "intact"), ("error",)),
}


@dataclass(frozen=True)
class Case:
    """One worked case. Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``."""

    check: str
    id: str
    title: str
    input: Mapping[str, Any]
    expected: Mapping[str, Any]
    decision: str
    reason: str

    def run(self) -> CheckResult:
        """Run the case's check on its input; bad input raises a typed error."""
        return run_check(self.check, self.input)

    def actual(self) -> dict[str, Any]:
        """What the helpers say for this input, comparable with :attr:`expected`.

        A refused input gives ``{"error": message}``.
        """
        try:
            return self.run().as_dict()
        except CheckInputError as exc:
            return {"error": exc.message}

    def agrees_with(self, actual: Mapping[str, Any]) -> bool:
        """True when ``actual`` is the expected output, key order included (as the seeds' output objects)."""
        return actual == self.expected and list(actual) == list(self.expected)

    @property
    def input_json(self) -> str:
        """The input as compact JSON."""
        return dumps_compact(self.input)

    @property
    def expected_json(self) -> str:
        """The expected output as compact JSON."""
        return dumps_compact(self.expected)

    def to_data(self) -> dict[str, Any]:
        """The case as a JSON-ready object, fields in the fixture order."""
        return {name: getattr(self, name) for name in CSV_COLUMNS}


def _case_from_mapping(raw: Any, where: str) -> Case:
    if not isinstance(raw, Mapping):
        raise InvalidInputError(f"{where} is not an object", field=where)
    missing = [name for name in CSV_COLUMNS if name not in raw]
    if missing:
        raise InvalidInputError(
            f"{where} has no {describe_value(missing[0])} field", field=f"{where}.{missing[0]}"
        )
    extra = [name for name in raw if name not in CSV_COLUMNS]
    if extra:
        raise InvalidInputError(
            f"{where} has an unknown field {describe_value(extra[0])}", field=f"{where}.{extra[0]}"
        )
    for name in _TEXT_FIELDS:
        if not isinstance(raw[name], str) or not raw[name].strip():
            raise InvalidInputError(f"{where}.{name} must be a non-empty string", field=f"{where}.{name}")
    check = require_check_name(raw["check"], f"{where}.check")
    for name in ("input", "expected"):
        if not isinstance(raw[name], Mapping):
            raise InvalidInputError(f"{where}.{name} must be an object", field=f"{where}.{name}")
    shape = tuple(raw["expected"])
    if shape not in _EXPECTED_SHAPES[check]:
        allowed = " or ".join(dumps_compact(list(s)) for s in _EXPECTED_SHAPES[check])
        raise InvalidInputError(
            f"{where}.expected has the keys {dumps_compact(list(shape))}, expected {allowed}",
            field=f"{where}.expected",
        )
    return Case(**{name: raw[name] for name in CSV_COLUMNS})


def _check_unique(cases: list[Case], source: str) -> list[Case]:
    seen: set[tuple[str, str]] = set()
    for case in cases:
        key = (case.check, case.id)
        if key in seen:
            raise InvalidInputError(
                f"{source}: the case id {describe_value(case.id)} appears twice for "
                f"{describe_value(case.check)}",
                field="id",
            )
        seen.add(key)
    return cases


def cases_from_data(data: Any, *, source: str = "<data>") -> list[Case]:
    """Build cases from a parsed ``{"cases": [...]}`` object."""
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list):
        raise InvalidInputError(f'{source}: expected an object with a "cases" list', field="cases")
    cases = [_case_from_mapping(raw, f"{source}: cases[{index}]") for index, raw in enumerate(data["cases"])]
    return _check_unique(cases, source)


def cases_to_data(cases: Iterable[Case]) -> dict[str, Any]:
    """The inverse of :func:`cases_from_data`."""
    return {"cases": [case.to_data() for case in cases]}


#: A cell starting with one of these is run as a formula by spreadsheets.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: The mark that neutralises such a cell; a cell already starting with it gets one more.
_SAFE_MARK = "'"


def spreadsheet_safe(cell: str) -> str:
    """``cell`` as a spreadsheet shows it literally: a formula start gets a leading ``'``.

    Reversible with :func:`from_spreadsheet_safe`: a cell that already starts with
    ``'`` gets one more, so the round trip is lossless.

    >>> spreadsheet_safe("=1+1"), spreadsheet_safe("'quoted"), spreadsheet_safe("plain")
    ("'=1+1", "''quoted", 'plain')
    """
    return _SAFE_MARK + cell if cell.startswith((*_FORMULA_STARTS, _SAFE_MARK)) else cell


def from_spreadsheet_safe(cell: str) -> str:
    """The inverse of :func:`spreadsheet_safe`."""
    return cell[1:] if cell.startswith(_SAFE_MARK) else cell


def cases_to_csv(cases: Iterable[Case]) -> str:
    """Write cases as CSV text with ``input`` and ``expected`` as compact JSON cells.

    Every cell is made spreadsheet-safe (:func:`spreadsheet_safe`), so a title
    like ``=HYPERLINK(…)`` is shown, never run; :func:`cases_from_csv` undoes it.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    # QUOTE_MINIMAL only quotes the "\n" line terminator, not a lone "\r",
    # which the reader would then take as a line break; quote such rows fully.
    quote_all = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(CSV_COLUMNS)
    for case in cases:
        row = case.to_data()
        row["input"] = case.input_json
        row["expected"] = case.expected_json
        cells = [spreadsheet_safe(row[name]) for name in CSV_COLUMNS]
        (quote_all if any("\r" in cell for cell in cells) else writer).writerow(cells)
    return buffer.getvalue()


def cases_from_csv(text: str, *, source: str = "<csv>") -> list[Case]:
    """Read cases from CSV text; errors name the source, row and column."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise JSONLoadError("is empty, expected a header row", source=source, line=1) from None
    if tuple(header) != CSV_COLUMNS:
        raise JSONLoadError(
            f"header is {dumps_compact(header)}, expected {dumps_compact(list(CSV_COLUMNS))}",
            source=source,
            line=1,
        )
    cases = []
    for row in reader:
        line = reader.line_num
        if len(row) != len(CSV_COLUMNS):
            raise JSONLoadError(
                f"has {len(row)} cells, expected {len(CSV_COLUMNS)}", source=source, line=line
            )
        raw: dict[str, Any] = dict(zip(CSV_COLUMNS, map(from_spreadsheet_safe, row), strict=True))
        for name in ("input", "expected"):
            raw[name] = loads_strict(raw[name], source=f"{source} ({name} column)", line=line)
        cases.append(_case_from_mapping(raw, f"{source}, line {line}"))
    return _check_unique(cases, source)


def load_cases(path: str | Path) -> list[Case]:
    """Load cases from a ``.json`` or ``.csv`` file. Taught in ``01_start_here.ipynb``."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        try:
            text = path.read_bytes().decode("utf-8-sig")  # keep \r inside cells
        except OSError as exc:
            raise JSONLoadError(f"cannot be read ({exc.strerror})", source=str(path)) from None
        except UnicodeDecodeError as exc:
            raise JSONLoadError(f"not UTF-8 text (byte {exc.start})", source=str(path)) from None
        return cases_from_csv(text, source=str(path))
    return cases_from_data(load_json_file(path), source=str(path))


def filled_cases(check: str | None = None) -> list[Case]:
    """The project's six filled cases, optionally only those of one check.

    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    cases = load_cases(filled_cases_json())
    if check is None:
        return cases
    require_check_name(check)
    return [case for case in cases if case.check == check]


def get_case(case_id: str, check: str | None = None) -> Case:
    """The filled case called ``case_id``; raises ``KeyError`` naming the known ids."""
    cases = filled_cases(check)
    for case in cases:
        if case.id == case_id:
            return case
    known = ", ".join(case.id for case in cases)
    raise KeyError(f"no filled case {case_id!r}; known: {known}")
