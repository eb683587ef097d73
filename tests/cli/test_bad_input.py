"""Every error path: the exact exception type and a message naming the field or item.

Each row calls one entry point with one bad input. ``TMP`` in an expected
message stands for the test's scratch folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import (
    check_sentinels,
    check_sentinels_input,
    check_target_scope,
    check_target_scope_input,
    filled_cases,
    load_baseline,
    load_json_file,
    revise_baseline,
)
from helpers.cli import EXIT_BAD_INPUT
from helpers.core.checks import check_lines, run_check
from helpers.core.errors import (
    BaselineError,
    DuplicateKeyError,
    EmptyBaselineError,
    InvalidInputError,
    JSONLoadError,
)
from helpers.core.jsonio import JsonLine, iter_json_lines, loads_strict
from helpers.trainee.cases.filled import CSV_COLUMNS, cases_from_csv, cases_from_data, load_cases
from helpers.trainee.worked_answers import check_worked_answers

HEADER = ",".join(CSV_COLUMNS) + "\n"
GOOD_ROW = (
    'target-scope,c1,A title,"{""original"":[""a""],""rewritten"":[""a""]}",'
    '"{""missing"":[],""added"":[],""preserved"":true}",Accept,Because.\n'
)
GOOD_BASELINE = {"version": 1, "revised_on": "2026-01-01", "reason": "First.", "answers": {"S1": "R"}}


def good_case(**changes):
    """One valid case object, with some fields replaced."""
    case = {
        "check": "sentinels",
        "id": "c1",
        "title": "A title",
        "input": {"baseline": {"S1": "R"}, "proposed": {"S1": "R"}},
        "expected": {"missing": [], "changed": [], "intact": True},
        "decision": "Intact",
        "reason": "Because.",
    }
    case.update(changes)
    return {key: value for key, value in case.items() if value is not ...}


def write(tmp: Path, name: str, content: str | bytes) -> Path:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def write_json(tmp: Path, name: str, data) -> Path:
    return write(tmp, name, json.dumps(data))


def first_line_error(data: bytes):
    """Raise the error of the first bad line in a JSON Lines byte stream."""
    for line in iter_json_lines(data.splitlines(keepends=True), source="<stdin>"):
        if line.error is not None:
            raise line.error
    raise AssertionError("no line was reported bad")


def revise_twice(tmp: Path):
    """Revise once, put v1 back in place by hand, then revise again onto the kept v1.json."""
    path = write_json(tmp, "b/baseline.json", GOOD_BASELINE)
    revise_baseline(path, {"S1": "S"}, reason="Second.", retained_dir=tmp / "b/retained")
    write_json(tmp, "b/baseline.json", GOOD_BASELINE)
    revise_baseline(path, {"S1": "T"}, reason="Third.", retained_dir=tmp / "b/retained")


def rebaseline_over_empty(tmp: Path):
    """The worked answers checked against a baseline with no answers."""
    write(
        tmp, "fx/filled_cases.json", (Path(__file__).parents[2] / "fixtures/filled_cases.json").read_bytes()
    )
    write_json(tmp, "fx/worked_answers/baseline.json", {**GOOD_BASELINE, "answers": {}})
    check_worked_answers(tmp / "fx")


ROWS = [
    # --- validation.py via the target-scope check ------------------------
    (
        "original-not-a-list",
        lambda t: check_target_scope("induction", []),
        InvalidInputError,
        'original is "induction", expected a list of string IDs',
        "original",
    ),
    (
        "original-an-object",
        lambda t: check_target_scope({"a": 1}, []),
        InvalidInputError,
        'original is {"a": 1}, expected a list of string IDs',
        "original",
    ),
    (
        "rewritten-null",
        lambda t: check_target_scope([], None),
        InvalidInputError,
        "rewritten is null, expected a list of string IDs",
        "rewritten",
    ),
    (
        "rewritten-item-number",
        lambda t: check_target_scope(["a"], ["a", "b", 7]),
        InvalidInputError,
        "rewritten[2] is 7, expected a string ID",
        "rewritten[2]",
    ),
    (
        "original-item-null",
        lambda t: check_target_scope(["a", None], []),
        InvalidInputError,
        "original[1] is null, expected a string ID",
        "original[1]",
    ),
    (
        "rewritten-item-bool",
        lambda t: check_target_scope([], [True]),
        InvalidInputError,
        "rewritten[0] is true, expected a string ID",
        "rewritten[0]",
    ),
    (
        "original-item-list",
        lambda t: check_target_scope([["a"]], []),
        InvalidInputError,
        'original[0] is ["a"], expected a string ID',
        "original[0]",
    ),
    (
        "original-item-empty",
        lambda t: check_target_scope(["a", ""], ["a"]),
        InvalidInputError,
        "original[1] is an empty string, expected a non-empty ID",
        "original[1]",
    ),
    (
        "unresolved-not-a-list",
        lambda t: check_target_scope([], [], unresolved="payroll"),
        InvalidInputError,
        'unresolved is "payroll", expected a list of string IDs',
        "unresolved",
    ),
    (
        "unresolved-item-number",
        lambda t: check_target_scope([], [], unresolved=["x", 3]),
        InvalidInputError,
        "unresolved[1] is 3, expected a string ID",
        "unresolved[1]",
    ),
    (
        "unresolved-null-in-input",
        lambda t: check_target_scope_input({"original": ["a"], "rewritten": ["a"], "unresolved": None}),
        InvalidInputError,
        "unresolved is null, expected a list of string IDs",
        "unresolved",
    ),
    (
        "long-value-shortened",
        lambda t: check_target_scope(["a"], [{"k": "x" * 100}]),
        InvalidInputError,
        'rewritten[0] is {"k": "' + "x" * 52 + "…, expected a string ID",
        "rewritten[0]",
    ),
    # --- validation.py: the input object ----------------------------------
    (
        "scope-input-not-object",
        lambda t: check_target_scope_input(["a"]),
        InvalidInputError,
        'input is ["a"], expected an object with the fields "original", "rewritten"',
        "input",
    ),
    (
        "scope-input-no-rewritten",
        lambda t: check_target_scope_input({"original": ["a"]}),
        InvalidInputError,
        'input has no "rewritten" field',
        "rewritten",
    ),
    (
        "scope-input-unknown-field",
        lambda t: check_target_scope_input({"original": [], "rewritten": [], "rewriten": []}),
        InvalidInputError,
        'input has an unknown field "rewriten" (allowed: "original", "rewritten", "unresolved", "id", "query", "rewritten_query")',
        "rewriten",
    ),
    (
        "sentinel-input-not-object",
        lambda t: check_sentinels_input("S1"),
        InvalidInputError,
        'input is "S1", expected an object with the fields "baseline", "proposed"',
        "input",
    ),
    (
        "sentinel-input-no-proposed",
        lambda t: check_sentinels_input({"baseline": {"S1": "R"}}),
        InvalidInputError,
        'input has no "proposed" field',
        "proposed",
    ),
    (
        "sentinel-input-unknown-field",
        lambda t: check_sentinels_input({"baseline": {"S1": "R"}, "proposed": {}, "answers": {}}),
        InvalidInputError,
        'input has an unknown field "answers" (allowed: "baseline", "proposed", "id")',
        "answers",
    ),
    # --- validation.py via the sentinel check ------------------------------
    (
        "baseline-not-object",
        lambda t: check_sentinels(["S1"], {}),
        InvalidInputError,
        'baseline is ["S1"], expected an object mapping IDs to answers',
        "baseline",
    ),
    (
        "proposed-null",
        lambda t: check_sentinels({"S1": "R"}, None),
        InvalidInputError,
        "proposed is null, expected an object mapping IDs to answers",
        "proposed",
    ),
    (
        "proposed-answer-number",
        lambda t: check_sentinels({"S1": "R"}, {"S1": 7}),
        InvalidInputError,
        'proposed["S1"] is 7, expected a string answer',
        'proposed["S1"]',
    ),
    (
        "baseline-answer-null",
        lambda t: check_sentinels({"S1": None}, {}),
        InvalidInputError,
        'baseline["S1"] is null, expected a string answer',
        'baseline["S1"]',
    ),
    (
        "baseline-key-not-string",
        lambda t: check_sentinels({1: "R"}, {}),
        InvalidInputError,
        "baseline has the key 1, expected a string ID",
        "baseline",
    ),
    (
        "proposed-empty-id",
        lambda t: check_sentinels({"S1": "R"}, {"": "R"}),
        InvalidInputError,
        "proposed has an empty ID, expected a non-empty ID",
        'proposed[""]',
    ),
    # --- sentinels.py -------------------------------------------------------
    (
        "baseline-empty",
        lambda t: check_sentinels({}, {"S1": "R"}),
        EmptyBaselineError,
        "baseline has no sentinel IDs, so the check would verify nothing; supply the fixed sentinel baseline",
        "baseline",
    ),
    (
        "baseline-empty-in-input",
        lambda t: check_sentinels_input({"baseline": {}, "proposed": {}}),
        EmptyBaselineError,
        "baseline has no sentinel IDs, so the check would verify nothing; supply the fixed sentinel baseline",
        "baseline",
    ),
    # --- checks.py ----------------------------------------------------------
    (
        "unknown-check",
        lambda t: run_check("scope", {}),
        InvalidInputError,
        'check is "scope", expected one of "target-scope", "sentinels"',
        "check",
    ),
    (
        "unknown-check-filter",
        lambda t: filled_cases("sentinel"),
        InvalidInputError,
        'check is "sentinel", expected one of "target-scope", "sentinels"',
        "check",
    ),
    # --- jsonio.py ----------------------------------------------------------
    (
        "duplicate-key-string",
        lambda t: loads_strict('{"S1":"R","S1":"S"}', source="key.json"),
        DuplicateKeyError,
        'key.json: duplicate key "S1" in a JSON object (each key may appear only once)',
        "S1",
    ),
    (
        "duplicate-key-file-nested",
        lambda t: load_json_file(
            write(t, "key.json", '{"baseline": {"S1": "R",\n "S1": "S"}, "proposed": {}}')
        ),
        DuplicateKeyError,
        'TMP/key.json: duplicate key "S1" in a JSON object (each key may appear only once)',
        "S1",
    ),
    (
        "nan",
        lambda t: load_json_file(write(t, "nan.json", '{"a": NaN}')),
        JSONLoadError,
        "TMP/nan.json: NaN is not valid JSON",
        None,
    ),
    (
        "infinity",
        lambda t: loads_strict("[Infinity]", source="x.json"),
        JSONLoadError,
        "x.json: Infinity is not valid JSON",
        None,
    ),
    (
        "minus-infinity",
        lambda t: loads_strict("[-Infinity]", source="x.json", line=4),
        JSONLoadError,
        "x.json, line 4: -Infinity is not valid JSON",
        None,
    ),
    (
        "malformed-with-line",
        lambda t: load_json_file(write(t, "bad.json", '{\n  "original": ["a"]\n  "rewritten": []\n}')),
        JSONLoadError,
        "TMP/bad.json, line 3: not valid JSON: Expecting ',' delimiter (column 3)",
        None,
    ),
    (
        "trailing-comma",
        lambda t: loads_strict('{"a": [1,]}', source="x.json"),
        JSONLoadError,
        "x.json, line 1: not valid JSON: Expecting value (column 10)",
        None,
    ),
    (
        "empty-file",
        lambda t: load_json_file(write(t, "empty.json", "")),
        JSONLoadError,
        "TMP/empty.json, line 1: not valid JSON: Expecting value (column 1)",
        None,
    ),
    (
        "not-utf8",
        lambda t: load_json_file(write(t, "latin1.json", b'{\n"a": "caf\xe9"}')),
        JSONLoadError,
        "TMP/latin1.json, line 2: not UTF-8 text (byte 11)",
        None,
    ),
    (
        "missing-file",
        lambda t: load_json_file(t / "nowhere.json"),
        JSONLoadError,
        "TMP/nowhere.json: cannot be read (No such file or directory)",
        None,
    ),
    (
        "nested-too-deeply",
        lambda t: loads_strict("[" * 100_000 + "]" * 100_000, source="x.json", line=2),
        JSONLoadError,
        "x.json, line 2: arrays or objects are nested more than 500 levels deep",
        None,
    ),
    (
        "jsonl-blank-line",
        lambda t: first_line_error(b'{"a":1}\n\n{"b":2}\n'),
        JSONLoadError,
        "<stdin>, line 2: blank line, expected a JSON object",
        None,
    ),
    (
        "jsonl-whitespace-line",
        lambda t: first_line_error(b'{"a":1}\n \t\r\n'),
        JSONLoadError,
        "<stdin>, line 2: blank line, expected a JSON object",
        None,
    ),
    (
        "jsonl-not-utf8",
        lambda t: first_line_error(b'{"a":1}\n{"a":"\xff"}\n'),
        JSONLoadError,
        "<stdin>, line 2: not UTF-8 text (byte 6)",
        None,
    ),
    (
        "jsonl-duplicate-key",
        lambda t: first_line_error(b'{"original":[],"original":[],"rewritten":[]}\n'),
        DuplicateKeyError,
        '<stdin>, line 1: duplicate key "original" in a JSON object (each key may appear only once)',
        "original",
    ),
    (
        "jsonl-malformed",
        lambda t: first_line_error(b'{"a":1}\n{"a":\n'),
        JSONLoadError,
        "<stdin>, line 2: not valid JSON: Expecting value (column 6)",
        None,
    ),
    # --- cases.py: CSV ------------------------------------------------------
    (
        "csv-empty",
        lambda t: cases_from_csv("", source="c.csv"),
        JSONLoadError,
        "c.csv, line 1: is empty, expected a header row",
        None,
    ),
    (
        "csv-wrong-header",
        lambda t: cases_from_csv("check,id\n", source="c.csv"),
        JSONLoadError,
        'c.csv, line 1: header is ["check","id"], expected '
        '["check","id","title","input","expected","decision","reason"]',
        None,
    ),
    (
        "csv-short-row",
        lambda t: cases_from_csv(HEADER + "sentinels,c1,T,{},{},D\n", source="c.csv"),
        JSONLoadError,
        "c.csv, line 2: has 6 cells, expected 7",
        None,
    ),
    (
        "csv-blank-row",
        lambda t: cases_from_csv(HEADER + GOOD_ROW + "\n", source="c.csv"),
        JSONLoadError,
        "c.csv, line 3: has 0 cells, expected 7",
        None,
    ),
    (
        "csv-bad-json-cell",
        lambda t: cases_from_csv(HEADER + GOOD_ROW.replace('""rewritten""', "rewritten"), source="c.csv"),
        JSONLoadError,
        "c.csv (input column), line 2: not valid JSON: Expecting property name enclosed "
        "in double quotes (column 19)",
        None,
    ),
    (
        "csv-duplicate-key-cell",
        lambda t: cases_from_csv(HEADER + GOOD_ROW.replace('""rewritten""', '""original""'), source="c.csv"),
        DuplicateKeyError,
        'c.csv (input column), line 2: duplicate key "original" in a JSON object (each key may appear only once)',
        "original",
    ),
    (
        "csv-bad-expected-shape",
        lambda t: cases_from_csv(HEADER + GOOD_ROW.replace('""added"":[],', ""), source="c.csv"),
        InvalidInputError,
        'c.csv, line 2.expected has the keys ["missing","preserved"], expected '
        '["missing","added","preserved"] or ["held","unresolved","preserved"] or ["error"]',
        "c.csv, line 2.expected",
    ),
    (
        "csv-empty-title",
        lambda t: cases_from_csv(HEADER + GOOD_ROW.replace("A title", " "), source="c.csv"),
        InvalidInputError,
        "c.csv, line 2.title must be a non-empty string",
        "c.csv, line 2.title",
    ),
    (
        "csv-duplicate-id",
        lambda t: cases_from_csv(HEADER + GOOD_ROW + GOOD_ROW, source="c.csv"),
        InvalidInputError,
        'c.csv: the case id "c1" appears twice for "target-scope"',
        "id",
    ),
    (
        "csv-file-not-utf8",
        lambda t: load_cases(write(t, "c.csv", HEADER.encode() + b"\xff")),
        JSONLoadError,
        "TMP/c.csv: not UTF-8 text (byte 46)",
        None,
    ),
    (
        "csv-file-missing",
        lambda t: load_cases(t / "nowhere.csv"),
        JSONLoadError,
        "TMP/nowhere.csv: cannot be read (No such file or directory)",
        None,
    ),
    # --- cases.py: JSON case objects -----------------------------------------
    (
        "cases-not-a-list",
        lambda t: cases_from_data({"cases": {}}),
        InvalidInputError,
        '<data>: expected an object with a "cases" list',
        "cases",
    ),
    (
        "case-not-object",
        lambda t: cases_from_data({"cases": ["c1"]}),
        InvalidInputError,
        "<data>: cases[0] is not an object",
        "<data>: cases[0]",
    ),
    (
        "case-no-reason",
        lambda t: cases_from_data({"cases": [good_case(reason=...)]}),
        InvalidInputError,
        '<data>: cases[0] has no "reason" field',
        "<data>: cases[0].reason",
    ),
    (
        "case-unknown-field",
        lambda t: cases_from_data({"cases": [{**good_case(), "notes": ""}]}),
        InvalidInputError,
        '<data>: cases[0] has an unknown field "notes"',
        "<data>: cases[0].notes",
    ),
    (
        "case-id-not-string",
        lambda t: cases_from_data({"cases": [good_case(id=3)]}),
        InvalidInputError,
        "<data>: cases[0].id must be a non-empty string",
        "<data>: cases[0].id",
    ),
    (
        "case-unknown-check",
        lambda t: cases_from_data({"cases": [good_case(check="sentinel")]}),
        InvalidInputError,
        '<data>: cases[0].check is "sentinel", expected one of "target-scope", "sentinels"',
        "<data>: cases[0].check",
    ),
    (
        "case-input-not-object",
        lambda t: cases_from_data({"cases": [good_case(input=[])]}),
        InvalidInputError,
        "<data>: cases[0].input must be an object",
        "<data>: cases[0].input",
    ),
    (
        "case-expected-wrong-order",
        lambda t: cases_from_data(
            {"cases": [good_case(expected={"intact": True, "missing": [], "changed": []})]}
        ),
        InvalidInputError,
        '<data>: cases[0].expected has the keys ["intact","missing","changed"], '
        'expected ["missing","changed","intact"] or ["error"]',
        "<data>: cases[0].expected",
    ),
    (
        "case-duplicate-id",
        lambda t: cases_from_data({"cases": [good_case(), good_case(title="Again")]}),
        InvalidInputError,
        '<data>: the case id "c1" appears twice for "sentinels"',
        "id",
    ),
    (
        "cases-file-duplicate-key",
        lambda t: load_cases(write(t, "cases.json", '{"cases": [],\n "cases": []}')),
        DuplicateKeyError,
        'TMP/cases.json: duplicate key "cases" in a JSON object (each key may appear only once)',
        "cases",
    ),
    # --- baselines.py ---------------------------------------------------------
    (
        "baseline-file-wrong-fields",
        lambda t: load_baseline(write_json(t, "b.json", {"version": 1})),
        BaselineError,
        "TMP/b.json: expected the fields ['version', 'revised_on', 'reason', 'answers'], found ['version']",
        None,
    ),
    (
        "baseline-file-not-object",
        lambda t: load_baseline(write_json(t, "b.json", [])),
        BaselineError,
        "TMP/b.json: expected the fields ['version', 'revised_on', 'reason', 'answers'], found list",
        None,
    ),
    (
        "baseline-version-zero",
        lambda t: load_baseline(write_json(t, "b.json", {**GOOD_BASELINE, "version": 0})),
        BaselineError,
        "TMP/b.json: version is 0, expected a whole number from 1",
        "version",
    ),
    (
        "baseline-version-bool",
        lambda t: load_baseline(write_json(t, "b.json", {**GOOD_BASELINE, "version": True})),
        BaselineError,
        "TMP/b.json: version is true, expected a whole number from 1",
        "version",
    ),
    (
        "baseline-empty-reason",
        lambda t: load_baseline(write_json(t, "b.json", {**GOOD_BASELINE, "reason": " "})),
        BaselineError,
        "TMP/b.json: reason must be a non-empty string",
        "reason",
    ),
    (
        "baseline-date-not-string",
        lambda t: load_baseline(write_json(t, "b.json", {**GOOD_BASELINE, "revised_on": 20260101})),
        BaselineError,
        "TMP/b.json: revised_on must be a non-empty string",
        "revised_on",
    ),
    (
        "baseline-answer-number",
        lambda t: load_baseline(write_json(t, "b.json", {**GOOD_BASELINE, "answers": {"S1": 1}})),
        BaselineError,
        'TMP/b.json: answers["S1"] is 1, expected a string answer',
        'answers["S1"]',
    ),
    (
        "baseline-file-duplicate-key",
        lambda t: load_baseline(write(t, "b.json", '{"version": 1, "version": 2}')),
        DuplicateKeyError,
        'TMP/b.json: duplicate key "version" in a JSON object (each key may appear only once)',
        "version",
    ),
    (
        "revise-without-reason",
        lambda t: revise_baseline(t / "b.json", {"S1": "R"}, reason="  ", retained_dir=t / "r"),
        BaselineError,
        "a baseline revision needs a non-empty reason",
        "reason",
    ),
    (
        "revise-bad-answers",
        lambda t: revise_baseline(t / "b.json", {"S1": ["R"]}, reason="x", retained_dir=t / "r"),
        InvalidInputError,
        'answers["S1"] is ["R"], expected a string answer',
        'answers["S1"]',
    ),
    (
        "revise-over-retained",
        revise_twice,
        BaselineError,
        "TMP/b/retained/v1.json already exists; retained evidence is never overwritten",
        "version",
    ),
    (
        "worked-answers-empty-baseline",
        rebaseline_over_empty,
        EmptyBaselineError,
        "baseline has no sentinel IDs, so the check would verify nothing; supply the fixed sentinel baseline",
        "baseline",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "message", "field"),
    [pytest.param(*row[1:], id=row[0]) for row in ROWS],
)
def test_bad_input_raises_a_named_value_error(tmp_path, call, error, message, field):
    """The exact error type, a ValueError, whose message names the field or item."""
    with pytest.raises(ValueError) as info:
        call(tmp_path)
    assert type(info.value) is error
    assert str(info.value) == message.replace("TMP", str(tmp_path))
    assert info.value.field == field


def test_every_error_type_is_a_value_error():
    """All the typed errors are ValueError subclasses, so callers can catch one type."""
    for error in (InvalidInputError, EmptyBaselineError, JSONLoadError, DuplicateKeyError, BaselineError):
        assert issubclass(error, ValueError)


# The record-level rows above, as JSON input objects a pipeline would send.
BAD_RECORDS = [
    (
        "target-scope",
        {"original": ["a"], "rewritten": ["a", "b", 7]},
        "rewritten[2]",
        "rewritten[2] is 7, expected a string ID",
    ),
    (
        "target-scope",
        {"original": "a", "rewritten": ["a"]},
        "original",
        'original is "a", expected a list of string IDs',
    ),
    (
        "target-scope",
        {"original": ["a"], "rewritten": ["a"], "unresolved": [""]},
        "unresolved[0]",
        "unresolved[0] is an empty string, expected a non-empty ID",
    ),
    ("target-scope", {"original": ["a"]}, "rewritten", 'input has no "rewritten" field'),
    (
        "sentinels",
        {"baseline": {}, "proposed": {}},
        "baseline",
        "baseline has no sentinel IDs, so the check would verify nothing; supply the fixed sentinel baseline",
    ),
    (
        "sentinels",
        {"baseline": {"S1": "R"}, "proposed": {"S1": None}},
        'proposed["S1"]',
        'proposed["S1"] is null, expected a string answer',
    ),
    ("sentinels", [], "input", 'input is [], expected an object with the fields "baseline", "proposed"'),
]


@pytest.mark.parametrize(("check", "record", "field", "message"), BAD_RECORDS)
def test_bad_records_become_error_objects_with_exit_4(check, record, field, message):
    """In a pipeline a bad input object is an error line with the bad-input code, never a pass."""
    [(obj, code)] = list(check_lines(check, [JsonLine(5, value=record)]))
    assert obj == {"line": 5, "field": field, "error": message}
    assert code == EXIT_BAD_INPUT
