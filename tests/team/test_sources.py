"""Readers of real data files: strict fast JSON, JSON Lines, CSV and answer keys."""

from __future__ import annotations

import csv
import io
import json
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import DuplicateKeyError, JSONLoadError
from helpers.core.jsonio import iter_json_lines, loads_strict
from helpers.core.jsonio import parse_json_line as parse_line
from helpers.core.paths import project_root
from helpers.team import fast_json
from helpers.team.fastpath import loads_fast, members_and_colons
from helpers.team.sources import (
    DuplicateIDError,
    SourceFormatError,
    Upload,
    display_name,
    iter_scope_csv,
    key_format_for,
    load_answer_key,
    open_input,
    read_answer_key_lines,
    read_answer_key_object,
    resolve_input,
    scope_format_for,
)

# --- strategies -------------------------------------------------------------

TEXT = st.text(alphabet=st.sampled_from([*list('ab:"\\ é😀\t\u2028'), "\x00", "�"]), max_size=6)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)


def _objects(children):
    # A list of pairs, so that keys may repeat.
    return st.lists(st.tuples(TEXT, children), max_size=4).map(lambda pairs: ("obj", pairs))


TREES = st.recursive(SCALARS, lambda c: st.one_of(st.lists(c, max_size=4), _objects(c)), max_leaves=12)


def _escape(text: str, style: int) -> str:
    """JSON for a string; ``style`` writes some characters as \\u escapes (colons, or "a")."""
    out = ['"']
    for char in text:
        if char == ":" and style % 3 == 1:
            out.append("\\u003a" if style % 2 else "\\u003A")
        elif char == "a" and style % 3 == 2:
            out.append("\\u0061")
        elif char in '"\\' or char < " " or "\ud800" <= char <= "\udfff":
            out.append(json.dumps(char)[1:-1])
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _write(tree, style: int) -> str:
    if isinstance(tree, tuple) and tree and tree[0] == "obj":
        members = ",".join(f"{_escape(k, style)}:{_write(v, style)}" for k, v in tree[1])
        return "{" + members + "}"
    if isinstance(tree, list):
        return "[" + ",".join(_write(v, style) for v in tree) + "]"
    if isinstance(tree, str):
        return _escape(tree, style)
    return json.dumps(tree)


# --- the fast strict parser -------------------------------------------------


@given(TREES, st.integers(min_value=0, max_value=5))
def test_fast_parse_agrees_with_strict_parse_and_never_hides_a_duplicate(tree, style):
    """Whatever orjson accepts is what the strict parser returns; a repeated key always falls back."""
    text = _write(tree, style)
    data = text.encode("utf-8", "surrogatepass")
    fast = loads_fast(data)
    try:
        exact = loads_strict(text)
    except DuplicateKeyError:
        assert fast is None
        return
    if fast is not None:
        assert json.dumps(fast) == json.dumps(_as_orjson_reads(exact))


def _as_orjson_reads(value):
    """``value`` with integers beyond 64 bits as floats: the one documented difference."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return value
    if isinstance(value, int):
        return value if -(2**63) <= value < 2**64 else float(value)
    if isinstance(value, list):
        return [_as_orjson_reads(v) for v in value]
    return {k: _as_orjson_reads(v) for k, v in value.items()}


@given(st.dictionaries(TEXT, TEXT, min_size=1, max_size=6), st.data())
def test_a_repeated_key_is_caught_even_with_colons_in_strings(answers, data):
    """Colons inside keys and values never let a duplicate through."""
    items = list(answers.items())
    repeat = data.draw(st.sampled_from(items))
    items.insert(data.draw(st.integers(0, len(items))), (repeat[0], data.draw(TEXT)))
    style = data.draw(st.integers(0, 5))
    text = "{" + ",".join(f"{_escape(k, style)}:{_escape(v, style)}" for k, v in items) + "}"
    assert loads_fast(text.encode("utf-8", "surrogatepass")) is None


@pytest.mark.parametrize(
    "text",
    [
        '{"a":"x","a":"\\u003a"}',  # the escape would balance the count: refused
        '{"a":"x","a":"\\u003A"}',
        '{"a":{"b":1,"b":2}}',
        '[{"k":1},{"k":2,"k":3}]',
        '{"a":1,"a":1}',
    ],
)
def test_hidden_duplicates_fall_back(text):
    assert loads_fast(text.encode()) is None
    with pytest.raises(DuplicateKeyError):
        loads_strict(text)


@pytest.mark.parametrize(
    "data",
    [b"\xef\xbb\xbf{}", b'{"a":"\xed\xa0\x80"}', b'"\\ud800"', b"1e400", b"NaN", b"{}\x0c", b"[" * 2000],
    ids=["bom", "encoded-surrogate", "lone-surrogate", "overflow", "nan", "form-feed", "deep"],
)
def test_what_orjson_refuses_or_reads_differently_falls_back(data):
    assert loads_fast(data) is None


def test_colons_in_strings_still_parse_fast():
    assert loads_fast(b'{"id":"r:1","query":"a: b","original":["x:y"],"rewritten":["x:y"]}') == {
        "id": "r:1",
        "query": "a: b",
        "original": ["x:y"],
        "rewritten": ["x:y"],
    }


def test_without_orjson_everything_takes_the_exact_route(monkeypatch):
    monkeypatch.setattr(fast_json, "_orjson", None)
    assert loads_fast(b'{"a":1}') is None


def test_members_and_colons_counts_members_and_string_colons():
    assert members_and_colons({"a:": ["b:c", {"d": ":"}], "e": 1}) == 2 + 1 + 1 + 1 + 1


# --- JSON Lines: one line at a time, exactly as the foundation reads them ----

LINES = st.one_of(
    TREES.map(lambda t: _write(t, 0).encode("utf-8", "surrogatepass")),
    st.sampled_from([b"", b"   ", b"\r", b"\xef\xbb\xbf{}", b"\xff\xfe", b"{", b"[1,2]", b'{"a":1,"a":2}']),
    st.binary(max_size=8),
)


@given(st.lists(LINES, max_size=8), st.booleans())
def test_parse_line_matches_iter_json_lines(lines, final_newline):
    """Each line parsed alone gives the foundation reader's value or error, line numbers included."""
    lines = [line.replace(b"\n", b" ") for line in lines]
    data = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    expected = list(iter_json_lines(io.BytesIO(data), source="s"))
    actual = [parse_line(raw, n, "s") for n, raw in enumerate(io.BytesIO(data), 1)]
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected, strict=False):
        assert got.number == want.number
        assert repr(got.value) == repr(want.value)
        assert (type(got.error), str(got.error)) == (type(want.error), str(want.error))


def test_deep_nesting_is_an_error_not_a_crash():
    line = parse_line(b"[" * 100_000, 3, "deep.jsonl")
    assert isinstance(line.error, JSONLoadError)
    assert str(line.error) == "deep.jsonl, line 3: arrays or objects are nested more than 500 levels deep"


# --- CSV --------------------------------------------------------------------


def read_csv(text: str | bytes, **kwargs):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(iter_scope_csv(io.BytesIO(data), source="t.csv", **kwargs))


def test_csv_rows_become_records_numbered_by_line():
    rows = read_csv(
        "id,query,original,rewritten,unresolved\n"
        'a,"Compare, please","[""x"",""y""]","[""x""]",\n'
        'b,q,"[""x""]","[""x""]","[""the spring course""]"\n'
    )
    assert [(r.number, r.value, r.error) for r in rows] == [
        (2, {"id": "a", "query": "Compare, please", "original": ["x", "y"], "rewritten": ["x"]}, None),
        (
            3,
            {
                "id": "b",
                "query": "q",
                "original": ["x"],
                "rewritten": ["x"],
                "unresolved": ["the spring course"],
            },
            None,
        ),
    ]


def test_csv_with_a_list_separator_keeps_ids_exactly():
    rows = read_csv('id,original,rewritten\na,"x;y, z",\n', list_separator=";")
    assert rows[0].value == {"id": "a", "original": ["x", "y, z"], "rewritten": []}
    rows = read_csv("id,original,rewritten\na,x;;y,x\n", list_separator=";")
    assert rows[0].value["original"] == ["x", "", "y"]  # the check then refuses the empty ID


def test_csv_byte_order_mark_and_crlf_are_fine():
    rows = read_csv(b'\xef\xbb\xbfid,original,rewritten\r\na,"[""x""]","[""x""]"\r\n')
    assert rows[0].value == {"id": "a", "original": ["x"], "rewritten": ["x"]}


def test_csv_bad_rows_are_reported_by_line_and_reading_goes_on():
    rows = read_csv(
        b"id,original,rewritten\n"
        b'a,"[""x""]"\n'  # 2: too few cells
        b"\n"  # 3: blank
        b'b,"[""x""","[""x""]"\n'  # 4: bad JSON cell
        b'c,"[""x\xff""]","[""x""]"\n'  # 5: not UTF-8
        b',"[""x""]","[""x""]"\n'  # 6: empty id
        b'd,"[""x""]","[""x"",\n""y""]"\n'  # 7-8: a quoted cell over two lines
        b'e,"[""x""]","[""x""]"\n'  # 9
    )
    found = [(r.number, r.error and r.error.field, r.error and str(r.error)) for r in rows]
    assert found == [
        (2, None, "t.csv, line 2: has 2 cells, expected 3 (id, original, rewritten)"),
        (3, None, "t.csv, line 3: blank line, expected a CSV row"),
        (
            4,
            "original",
            "t.csv, line 4: the original cell: not valid JSON: Expecting ',' delimiter (column 5)",
        ),
        (5, None, "t.csv, line 5: not UTF-8 text"),
        (6, "id", "t.csv, line 6: id is an empty cell, expected a record ID"),
        (7, None, None),
        (9, None, None),
    ]
    assert rows[2].value == {"id": "b"}  # a bad row keeps its id for reports
    assert rows[5].value["rewritten"] == ["x", "y"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "t.csv, line 1: is empty, expected a header row naming the columns id, original, rewritten"),
        (
            "id,original,rewriten\n",
            't.csv, line 1: unknown column "rewriten" (allowed: id, original, rewritten, query, rewritten_query, unresolved)',
        ),
        ("id,original,rewritten,id\n", 't.csv, line 1: column "id" appears twice'),
        ("id,original\n", "t.csv, line 1: has no 'rewritten' column (needed: id, original, rewritten)"),
        (
            "id,original,rewritten,unresolve\n",
            't.csv, line 1: unknown column "unresolve" (allowed: id, original, rewritten, query, rewritten_query, unresolved)',
        ),
    ],
)
def test_csv_header_problems_stop_reading(text, message):
    with pytest.raises(SourceFormatError) as caught:
        read_csv(text)
    assert str(caught.value) == message


CSV_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=6
)
CSV_RECORDS = st.lists(
    st.fixed_dictionaries(
        {
            "id": CSV_TEXT.filter(bool),
            "query": CSV_TEXT,
            "original": st.lists(CSV_TEXT, max_size=4),
            "rewritten": st.lists(CSV_TEXT, max_size=4),
        }
    ),
    max_size=5,
)


@given(CSV_RECORDS)
def test_csv_round_trip_with_json_cells(records):
    """Whatever a CSV writer writes (commas, quotes, newlines in cells) reads back as written."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["id", "query", "original", "rewritten"])
    for r in records:
        writer.writerow([r["id"], r["query"], json.dumps(r["original"]), json.dumps(r["rewritten"])])
    rows = read_csv(buffer.getvalue())
    assert [row.error for row in rows] == [None] * len(records)
    assert [row.value for row in rows] == records


@given(CSV_RECORDS)
def test_csv_round_trip_with_a_separator(records):
    """IDs joined by a separator they do not contain read back exactly, untrimmed."""
    records = [r for r in records if all("|" not in i and i for i in r["original"] + r["rewritten"])]
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")  # so a lone "\r" in a cell is quoted
    writer.writerow(["id", "query", "original", "rewritten"])
    for r in records:
        writer.writerow([r["id"], r["query"], "|".join(r["original"]), "|".join(r["rewritten"])])
    rows = read_csv(buffer.getvalue(), list_separator="|")
    assert [row.value for row in rows] == records


def test_csv_cells_may_hold_long_lists():
    ids = [f"t{i}" for i in range(20_000)]
    cell = json.dumps(ids).replace('"', '""')
    rows = read_csv(f'id,original,rewritten\na,"{cell}","{cell}"\n')
    assert rows[0].value["original"] == ids


def test_csv_cells_with_numbers_are_read_exactly():
    rows = read_csv('id,original,rewritten\na,"[123456789012345678901234567890]","[]"\n')
    assert rows[0].value["original"] == [123456789012345678901234567890]


# --- answer keys ------------------------------------------------------------

ANSWERS = st.dictionaries(
    st.text(alphabet=string.ascii_letters + ':"\\ é😀', min_size=1, max_size=5),
    st.text(max_size=5).filter(lambda s: not any("\ud800" <= c <= "\udfff" for c in s)),
    max_size=8,
)


def key_json(answers) -> bytes:
    return json.dumps(answers, ensure_ascii=False, indent=1).encode("utf-8")


def key_jsonl(pairs) -> bytes:
    return "".join(json.dumps({"id": k, "answer": v}, ensure_ascii=False) + "\n" for k, v in pairs).encode(
        "utf-8"
    )


@given(ANSWERS)
def test_both_key_forms_read_the_same_answers(answers):
    by_object = read_answer_key_object(key_json(answers), source="k.json")
    by_lines = read_answer_key_lines(io.BytesIO(key_jsonl(answers.items())), source="k.jsonl")
    assert by_object.ok and by_lines.ok
    assert by_object.answers == by_lines.answers == answers


@given(ANSWERS.filter(bool), st.data())
def test_every_repeated_id_is_reported_with_both_lines(answers, data):
    pairs = list(answers.items())
    repeats = data.draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=3))
    for ident, _ in repeats:
        pairs.insert(data.draw(st.integers(0, len(pairs))), (ident, "again"))
    first_line: dict[str, int] = {}
    expected = []
    for number, (ident, _) in enumerate(pairs, 1):
        if ident in first_line:
            expected.append((ident, number, first_line[ident]))
        else:
            first_line[ident] = number
    by_lines = read_answer_key_lines(io.BytesIO(key_jsonl(pairs)), source="k.jsonl")
    assert [(e.key, e.line, e.first_line) for e in by_lines.errors] == expected
    # The JSON-object form, one member per line after the opening brace.
    text = (
        "{\n"
        + ",\n".join(
            f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in pairs
        )
        + "\n}\n"
    )
    by_object = read_answer_key_object(text.encode("utf-8"), source="k.json")
    assert [(e.key, e.line - 1, e.first_line - 1) for e in by_object.errors] == expected
    assert all(isinstance(e, DuplicateIDError) for e in by_object.errors + by_lines.errors)


def test_answer_key_object_problems_each_name_their_line():
    text = b'{\n "S1": "R",\n "S2": 7,\n "S1": "Q",\n "": "x",\n "S3": null\n}\n'
    key = read_answer_key_object(text, source="b.json")
    assert [str(e) for e in key.errors] == [
        'b.json, line 3: the answer for "S2" is 7, expected a string answer',
        'b.json, line 4: duplicate ID "S1" (first given on line 2); each ID may appear only once',
        'b.json, line 5: ID is "", expected a non-empty string ID',
        'b.json, line 6: the answer for "S3" is null, expected a string answer',
    ]
    assert key.answers == {"S1": "R"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "k.json, line 1: not valid JSON: Expecting value (column 1)"),
        (b"[1, 2]", "k.json, line 1: is [1, 2], expected a JSON object mapping IDs to answers"),
        (b'{"S1": "R",}', "k.json, line 1: not valid JSON: expected a quoted ID"),
        (b'{"S1": "R"}\n{"S2": "A"}', "k.json, line 2: not valid JSON: extra data after the object"),
        (b'{"S1" "R"}', "k.json, line 1: not valid JSON: expected ':' after an ID"),
        (b'{"S1": "R"\n "S2": "A"}', "k.json, line 2: not valid JSON: expected ',' or '}' after a value"),
        (b'{"S1": NaN}', "k.json, line 1: NaN is not valid JSON"),
        (b'{"S1": "\xff"}', "k.json, line 1: not UTF-8 text (byte 8)"),
    ],
)
def test_answer_key_object_syntax_errors(data, message):
    key = read_answer_key_object(data, source="k.json")
    assert [str(e) for e in key.errors] == [message]


def test_answer_key_lines_problems_each_name_their_line():
    data = (
        b'{"id":"S1","answer":"R"}\n'
        b"nope\n"
        b'{"id":"S2"}\n'
        b'{"id":"S3","answer":"x","note":1}\n'
        b"\n"
        b'{"id":7,"answer":"x"}\n'
        b'{"id":"S4","answer":false}\n'
        b"[]\n"
    )
    key = read_answer_key_lines(io.BytesIO(data), source="p.jsonl")
    assert [str(e) for e in key.errors] == [
        "p.jsonl, line 2: not valid JSON: Expecting value (column 1)",
        'p.jsonl, line 3: has no "answer" field',
        'p.jsonl, line 4: has an unknown field "note" (allowed: "id", "answer")',
        "p.jsonl, line 5: blank line, expected a JSON object",
        "p.jsonl, line 6: id is 7, expected a non-empty string ID",
        "p.jsonl, line 7: answer is false, expected a string answer",
        'p.jsonl, line 8: is [], expected an object {"id": ..., "answer": ...}',
    ]
    assert key.answers == {"S1": "R"}


def test_answer_key_lines_accept_a_byte_order_mark():
    key = read_answer_key_lines(io.BytesIO(b'\xef\xbb\xbf{"id":"S1","answer":"R"}\n'), source="p.jsonl")
    assert key.ok and key.answers == {"S1": "R"}


# --- names, formats and uploads ----------------------------------------------


@pytest.mark.parametrize(("name", "fmt"), [("a.jsonl", "jsonl"), ("A.NDJSON", "jsonl"), ("x/b.csv", "csv")])
def test_scope_format_for(name, fmt):
    assert scope_format_for(name) == fmt


@pytest.mark.parametrize(("name", "fmt"), [("k.json", "json"), ("k.jsonl", "jsonl"), ("k.ndjson", "jsonl")])
def test_key_format_for(name, fmt):
    assert key_format_for(name) == fmt


@pytest.mark.parametrize("name", ["data.txt", "data", "k.csv"])
def test_unknown_names_need_a_named_format(name):
    with pytest.raises(SourceFormatError):
        key_format_for(name)
    if not name.endswith(".csv"):
        with pytest.raises(SourceFormatError):
            scope_format_for(name)


def test_load_answer_key_from_an_upload_and_a_path(tmp_path):
    stream, name, size = open_input(Upload("p.jsonl", b'{"id":"S1","answer":"R"}\n'))
    assert (name, size) == ("p.jsonl", 25)
    assert load_answer_key(stream, source=name).answers == {"S1": "R"}
    path = tmp_path / "b.json"
    path.write_bytes(b'{"S1":"R"}')
    stream, name, size = open_input(path)
    with stream:
        assert load_answer_key(stream, source=name).answers == {"S1": "R"}
    assert name == str(path)


def test_open_input_names_a_missing_file():
    with pytest.raises(JSONLoadError, match=r"nowhere\.jsonl: cannot be read"):
        open_input("nowhere.jsonl")


def test_sample_paths_resolve_from_any_folder(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    path = resolve_input("fixtures/sample_data/rewrites.jsonl")
    assert path == project_root() / "fixtures/sample_data/rewrites.jsonl"
    assert display_name(path) == "fixtures/sample_data/rewrites.jsonl"


def test_an_object_key_with_a_number_too_long_to_read_names_it_clearly():
    from helpers.team.sources import read_answer_key_object

    key = read_answer_key_object(b'{"S1":"R",\n"S2":' + b"7" * 5000 + b"}", source="big.json")
    assert [(e.line, e.field, e.detail) for e in key.errors] == [
        (2, "S2", "a number has too many digits to read (more than 4300)")
    ]
