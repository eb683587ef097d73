"""The six filled cases: typed objects, exact outputs, JSON and CSV forms that agree."""

from __future__ import annotations

import csv
import dataclasses
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import helpers
from helpers import Case, filled_cases
from helpers.core.jsonio import dumps_compact
from helpers.core.paths import filled_cases_csv, filled_cases_json
from helpers.trainee.cases.filled import (
    cases_from_csv,
    cases_from_data,
    cases_to_csv,
    cases_to_data,
    from_spreadsheet_safe,
    load_cases,
    spreadsheet_safe,
)

# The seeds' data, written out independently of fixtures/: (check, id, input, expected).
SEED_CASES = [
    (
        "target-scope",
        "lost-comparison",
        '{"original":["induction","refresher"],"rewritten":["induction"]}',
        '{"missing":["refresher"],"added":[],"preserved":false}',
    ),
    (
        "target-scope",
        "reordered-targets",
        '{"original":["induction","refresher"],"rewritten":["refresher","induction"]}',
        '{"missing":[],"added":[],"preserved":true}',
    ),
    (
        "target-scope",
        "new-target",
        '{"original":["induction"],"rewritten":["induction","payroll"]}',
        '{"missing":[],"added":["payroll"],"preserved":false}',
    ),
    (
        "sentinels",
        "sentinel-mutated",
        '{"baseline":{"S1":"R"},"proposed":{"S1":"S"}}',
        '{"missing":[],"changed":["S1"],"intact":false}',
    ),
    (
        "sentinels",
        "new-case-only",
        '{"baseline":{"S1":"R"},"proposed":{"S1":"R","C2":"A"}}',
        '{"missing":[],"changed":[],"intact":true}',
    ),
    (
        "sentinels",
        "sentinel-missing",
        '{"baseline":{"S1":"R","S2":"A"},"proposed":{"S1":"R"}}',
        '{"missing":["S2"],"changed":[],"intact":false}',
    ),
]


def test_fixtures_carry_the_seed_data_unchanged(filled):
    """Checks, ids, inputs and expected outputs are the seeds', in the seeds' order."""
    assert [(c.check, c.id, c.input_json, c.expected_json) for c in filled] == SEED_CASES


@pytest.mark.parametrize("index", range(len(SEED_CASES)), ids=[row[1] for row in SEED_CASES])
def test_filled_case_reproduces_its_expected_output(filled, index):
    """run().as_dict() equals the expected output, with the same keys in the same order."""
    case = filled[index]
    actual = case.run().as_dict()
    assert actual == case.expected
    assert list(actual) == list(case.expected)
    assert dumps_compact(actual) == SEED_CASES[index][3]


def test_cases_are_typed_and_fully_written(filled):
    """Every case is a Case with a title, decision and reason in the project's words."""
    for case in filled:
        assert isinstance(case, Case)
        for text in (case.title, case.decision, case.reason):
            assert isinstance(text, str) and text.strip()


@pytest.mark.parametrize(
    ("check", "ids"),
    [
        ("target-scope", ["lost-comparison", "reordered-targets", "new-target"]),
        ("sentinels", ["sentinel-mutated", "new-case-only", "sentinel-missing"]),
    ],
)
def test_filled_cases_filter_by_check(check, ids):
    """filled_cases(check) returns only that check's cases, in order."""
    assert [case.id for case in filled_cases(check)] == ids


# --- CSV ------------------------------------------------------------------


def test_committed_csv_is_generated_from_the_json(filled):
    """fixtures/filled_cases.csv is exactly what cases_to_csv writes for the JSON cases."""
    assert filled_cases_csv().read_bytes().decode("utf-8") == cases_to_csv(filled)


def test_committed_csv_loads_back_equal_to_the_json(filled):
    """The CSV and the JSON give the same cases, key order included."""
    from_csv = load_cases(filled_cases_csv())
    assert from_csv == filled
    assert json.dumps(cases_to_data(from_csv)) == json.dumps(cases_to_data(filled))


def test_json_round_trip_through_a_file(tmp_path, filled):
    """cases_to_data written as JSON loads back to the same cases."""
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases_to_data(filled), ensure_ascii=False), encoding="utf-8")
    assert load_cases(path) == filled
    assert cases_to_data(load_cases(path)) == json.loads(filled_cases_json().read_text("utf-8"))


text_cells = st.text(
    st.one_of(st.characters(codec="utf-8"), st.sampled_from(',"\n\r\t 😀\ue000\ufeff')),
    min_size=1,
    max_size=20,
).filter(str.strip)
ids = st.lists(st.text(min_size=1, max_size=6), max_size=4)


@st.composite
def cases(draw):
    """A valid case of either check, with arbitrary text everywhere text may go."""
    check = draw(st.sampled_from(["target-scope", "sentinels"]))
    if check == "target-scope":
        case_input = {"original": draw(ids), "rewritten": draw(ids)}
        expected = {"missing": draw(ids), "added": [], "preserved": draw(st.booleans())}
    else:
        key = st.dictionaries(st.text(min_size=1, max_size=6), st.text(max_size=6), min_size=1, max_size=3)
        case_input = {"baseline": draw(key), "proposed": draw(key)}
        expected = {"missing": [], "changed": draw(ids), "intact": draw(st.booleans())}
    return Case(
        check=check,
        id=draw(text_cells),
        title=draw(text_cells),
        input=case_input,
        expected=expected,
        decision=draw(text_cells),
        reason=draw(text_cells),
    )


def unique_ids(items):
    return len({(case.check, case.id) for case in items}) == len(items)


@given(items=st.lists(cases(), max_size=4).filter(unique_ids))
def test_csv_round_trip_is_lossless(items):
    """Commas, quotes, newlines, carriage returns and any Unicode survive CSV and back."""
    text = cases_to_csv(items)
    back = cases_from_csv(text)
    assert back == items
    assert json.dumps(cases_to_data(back)) == json.dumps(cases_to_data(items))


@given(items=st.lists(cases(), max_size=3).filter(unique_ids))
def test_csv_round_trip_through_a_utf8_file(tmp_path_factory, items):
    """Writing the CSV to disk as UTF-8 and loading it gives the same cases."""
    path = tmp_path_factory.mktemp("csv") / "cases.csv"
    path.write_bytes(cases_to_csv(items).encode("utf-8"))
    assert load_cases(path) == items


def test_csv_quotes_a_lone_carriage_return():
    """A title with a bare \\r must not split the row when read back."""
    [case] = filled_cases("sentinels")[:1]
    edited = Case(**{**case.to_data(), "title": "first\rsecond"})
    assert cases_from_csv(cases_to_csv([edited])) == [edited]


def test_data_round_trip(filled):
    """cases_from_data inverts cases_to_data."""
    assert cases_from_data(cases_to_data(filled)) == filled


# --- spreadsheet-safe CSV ------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
risky_text = st.builds(
    lambda start, rest: start + rest,
    st.sampled_from([*FORMULA_STARTS, "'", "''", "'=", ""]),
    text_cells,
).filter(str.strip)


@given(cell=risky_text)
def test_a_spreadsheet_safe_cell_never_starts_a_formula_and_reads_back(cell):
    safe = spreadsheet_safe(cell)
    assert not safe.startswith(FORMULA_STARTS)
    assert from_spreadsheet_safe(safe) == cell


@given(
    items=st.lists(
        st.builds(
            lambda case, title, reason: dataclasses.replace(case, title=title, reason=reason),
            cases(),
            risky_text,
            risky_text,
        ),
        max_size=3,
    ).filter(unique_ids)
)
def test_exported_csv_cells_never_start_a_formula_and_round_trip(items):
    text = cases_to_csv(items)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS), cell
    assert cases_from_csv(text) == items


def test_a_formula_title_is_shown_not_run():
    case = dataclasses.replace(helpers.filled_cases()[0], title='=HYPERLINK("http://x","y")')
    row = list(csv.reader(io.StringIO(cases_to_csv([case]), newline="")))[1]
    assert row[2] == '\'=HYPERLINK("http://x","y")'
