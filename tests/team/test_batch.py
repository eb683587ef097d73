"""The streaming runner, its fast paths, the bounded summary and the reports."""

from __future__ import annotations

import io
import itertools
import json
import os
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.checks import check_lines
from helpers.core.errors import CheckInputError
from helpers.core.jsonio import JsonLine, dumps_compact, iter_json_lines
from helpers.core.outcomes import SEVERITY
from helpers.core.paths import fixtures_dir
from helpers.core.sentinels import check_sentinels, check_sentinels_input
from helpers.core.target_scope import check_target_scope_input
from helpers.team import fast_checks, fast_json, fastpath
from helpers.team.batch import (
    BatchSummary,
    check_file,
    check_records,
    outcomes,
    outcomes_jsonl,
    output_line,
    output_object,
)
from helpers.team.fastpath import (
    PRESERVED,
    dumps_line,
    fast_answer_key,
    fast_sentinels,
    fast_sentinels_input,
    fast_target_scope,
)
from helpers.team.reports import (
    summary_json,
)
from helpers.team.sources import Upload

SAMPLE = fixtures_dir() / "sample_data"

# --- strategies -------------------------------------------------------------

IDS = st.text(alphabet=["a", "b", "c", ":", " ", "é", "😀", "\ue000", "\ud800"], max_size=3)
ID_LISTS = st.lists(IDS, max_size=5)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    IDS,
    st.lists(st.one_of(IDS, st.integers(), st.none()), max_size=3),
    st.dictionaries(IDS, IDS, max_size=2),
)


@st.composite
def scope_records(draw):
    """Mostly well-formed target-scope records, sometimes broken in one or more ways."""
    record: dict = {}
    for name, optional in (("original", False), ("rewritten", False), ("unresolved", True)):
        if optional and draw(st.booleans()):
            continue
        if not optional and draw(st.integers(0, 15)) == 0:
            continue
        record[name] = draw(ID_LISTS if draw(st.integers(0, 5)) else JUNK)
    for name in ("id", "query"):
        if draw(st.booleans()):
            record[name] = draw(IDS if draw(st.integers(0, 4)) else JUNK)
    if draw(st.integers(0, 15)) == 0:
        record[draw(st.sampled_from(["rewriten", "extra", "ID"]))] = 1
    if draw(st.integers(0, 20)) == 0:
        return draw(JUNK)
    return record


ANSWER_KEYS = st.dictionaries(IDS, IDS, max_size=5)


@st.composite
def sentinel_records(draw):
    record: dict = {}
    for name in ("baseline", "proposed"):
        if draw(st.integers(0, 15)):
            key = draw(ANSWER_KEYS if draw(st.integers(0, 6)) else JUNK)
            if isinstance(key, dict) and key and draw(st.integers(0, 6)) == 0:
                key[draw(st.sampled_from(list(key)))] = draw(JUNK)
            record[name] = key
    both = isinstance(record.get("baseline"), dict) and isinstance(record.get("proposed"), dict)
    if both and draw(st.booleans()):
        record["proposed"].update({k: v for k, v in record["baseline"].items() if draw(st.booleans())})
    if draw(st.booleans()):
        record["id"] = draw(IDS if draw(st.integers(0, 4)) else JUNK)
    if draw(st.integers(0, 15)) == 0:
        record["extra"] = 1
    return record


def exact(function, record):
    try:
        return function(record)
    except CheckInputError as exc:
        return exc


def _is_plain(record) -> bool:
    """A record made only of JSON objects, lists and strings (what orjson and json read alike)."""
    if isinstance(record, str):
        return True
    if isinstance(record, list):
        return all(_is_plain(v) for v in record)
    if isinstance(record, dict):
        return all(_is_plain(v) for v in record.values())
    return False


def _well_formed(record) -> bool:
    """Made of strings only, with a string id and query when present."""
    return (
        isinstance(record, dict)
        and _is_plain(record)
        and all(isinstance(record.get(name, ""), str) for name in ("id", "query"))
    )


# --- the fast checks equal the exact ones -------------------------------------


@given(scope_records())
def test_fast_target_scope_equals_the_exact_check_or_declines(record):
    fast = fast_target_scope(record)
    want = exact(check_target_scope_input, record)
    if fast is not None:
        assert not isinstance(want, CheckInputError)
        assert type(fast) is type(want) and fast == want
    elif not isinstance(want, CheckInputError) and _well_formed(record):
        pytest.fail("the fast path declined a well-formed record")


@given(sentinel_records())
def test_fast_sentinels_equal_the_exact_check_or_decline(record):
    fast = fast_sentinels_input(record)
    want = exact(check_sentinels_input, record)
    if fast is not None:
        assert not isinstance(want, CheckInputError)
        assert fast == want
    elif not isinstance(want, CheckInputError) and _well_formed(record):
        pytest.fail("the fast path declined a well-formed record")


@given(ANSWER_KEYS, ANSWER_KEYS)
def test_fast_sentinels_on_two_keys(baseline, proposed):
    fast = fast_sentinels(baseline, proposed)
    want = exact(lambda b: check_sentinels(b, proposed), baseline)
    if fast is not None:
        assert fast == want
    else:  # only an empty baseline or an empty ID is left to the exact check, which refuses it
        assert isinstance(want, CheckInputError)


@st.composite
def key_pairs(draw):
    """A baseline and a proposed key made from it as real ones are: mostly in the same order,
    with answers changed, IDs dropped, cases added, a few IDs moved, or all shuffled."""
    ids = draw(st.lists(st.sampled_from([f"S{n}" for n in range(40)]), unique=True, max_size=40))
    baseline = {sentinel: draw(st.sampled_from("ABC")) for sentinel in ids}
    proposed = []
    for sentinel, answer in baseline.items():
        if draw(st.integers(0, 9)) == 0:
            proposed.append((draw(st.sampled_from(["C1", "C2", "C3", "S3", "S7"])), "A"))
        change = draw(st.integers(0, 9))
        if change == 0:
            continue  # dropped
        proposed.append((sentinel, draw(st.sampled_from("ABCa")) if change == 1 else answer))
    for _ in range(draw(st.integers(0, 2))):
        if len(proposed) > 1:
            first, second = draw(st.integers(0, len(proposed) - 1)), draw(st.integers(0, len(proposed) - 1))
            proposed[first], proposed[second] = proposed[second], proposed[first]
    if draw(st.integers(0, 9)) == 0:
        proposed = draw(st.permutations(proposed))
    if draw(st.integers(0, 4)) == 0:  # cases added after the last sentinel: the proposed key runs on
        proposed += [(f"E{n}", "A") for n in range(draw(st.integers(1, 12)))]
    return baseline, dict(proposed)


@given(key_pairs(), st.integers(1, 9))
def test_walking_two_keys_in_order_finds_what_looking_each_id_up_finds(pair, window):
    baseline, proposed = pair
    want = [sentinel for sentinel, answer in baseline.items() if proposed.get(sentinel) != answer]
    assert fast_checks._differing_in_order(baseline, proposed, window=window) == want


@pytest.mark.parametrize("shape", ["in order", "moved", "shuffled", "most changed"])
def test_fast_sentinels_on_long_keys_equal_the_exact_check(shape):
    rng = random.Random(shape)
    baseline = {f"S{n}": rng.choice("ABCD") for n in range(3 * fast_checks._WALK_MIN)}
    items = [(sentinel, answer) for sentinel, answer in baseline.items() if rng.random() > 0.01]
    for index in rng.sample(range(len(items)), 40 if shape != "most changed" else len(items) // 2):
        items[index] = (items[index][0], items[index][1].lower())
    items[rng.randrange(len(items)) : 0] = [(f"C{n}", "A") for n in range(20)]
    if shape == "moved":
        items.append(items.pop(len(items) // 3))
    elif shape == "shuffled":
        rng.shuffle(items)
    proposed = dict(items)
    assert fast_sentinels(baseline, proposed) == check_sentinels(baseline, proposed)


def test_fast_paths_decline_what_they_cannot_vouch_for():
    assert fast_target_scope({"original": ["a"], "rewritten": ["a"], "unresolved": None}) is None
    assert fast_target_scope({"original": ("a",), "rewritten": ["a"]}) is None
    assert fast_target_scope({"original": ["a"], "rewritten": ["a"], "id": 12}) is None
    assert fast_target_scope({"original": ["a"], "rewritten": ["a"]}) is PRESERVED
    assert fast_sentinels({}, {"S1": "R"}) is None


# --- the streaming runner equals the foundation's line-by-line CLI -------------

VARIANTS = st.sampled_from(
    ["plain", "ascii", "spaced", "dup", "escape", "dup+escape", "crlf", "broken", "blank"]
)


def _line(record, variant: str) -> bytes:
    """One JSON Lines line for ``record``, written in one of several ways (some invalid)."""
    separators = (", ", ": ") if variant == "spaced" else (",", ":")
    text = json.dumps(record, ensure_ascii=variant == "ascii", separators=separators)
    if "dup" in variant and isinstance(record, dict) and record:
        text = text[:-1] + "," + json.dumps(next(iter(record))) + ":[]}"
    if "escape" in variant:
        text = text.replace('"a', '"\\u003a', 1)  # a string now starts with an escaped colon
    if variant == "broken":
        text = text[: max(0, len(text) - 2)]
    if variant == "blank":
        text = " "
    return text.encode("utf-8", "surrogatepass") + (b"\r" if variant == "crlf" else b"")


def _foundation(check: str, data: bytes):
    return [(obj, code) for obj, code in check_lines(check, iter_json_lines(io.BytesIO(data), source="s"))]


def _runner(check: str, data: bytes):
    return [(output_object(o), o[1]) for o in outcomes_jsonl(io.BytesIO(data), check, source="s")]


@given(st.lists(st.tuples(scope_records(), VARIANTS), max_size=6), st.booleans())
def test_jsonl_runner_equals_the_foundation_for_target_scope(lines, bom):
    data = b"\n".join(_line(r, v) for r, v in lines) + b"\n"
    if bom:
        data = b"\xef\xbb\xbf" + data
    assert _runner("target-scope", data) == _foundation("target-scope", data)


@given(st.lists(st.tuples(sentinel_records(), VARIANTS), max_size=6))
def test_jsonl_runner_equals_the_foundation_for_sentinels(lines):
    data = b"\n".join(_line(r, v) for r, v in lines)
    assert _runner("sentinels", data) == _foundation("sentinels", data)


#: Values that put braces, brackets, quotes and backslashes where a count of bytes could be fooled.
TRICKY_VALUES = st.one_of(
    JUNK,
    st.text(alphabet=['"', "{", "}", "[", "]", "\\", ":", ",", "a"], max_size=4),
    st.dictionaries(IDS, st.dictionaries(IDS, IDS, max_size=2), max_size=2),
    st.lists(st.dictionaries(IDS, IDS, max_size=2), max_size=2),
)


@st.composite
def keyed_records(draw):
    """Sentinel-shaped records whose keys hold values of every kind, mostly strings."""
    record: dict = {}
    for name in ("baseline", "proposed", "id", "extra"):
        if draw(st.integers(0, 3)):
            values = st.one_of(IDS, IDS, TRICKY_VALUES)
            record[name] = draw(st.dictionaries(IDS, values, max_size=4) if name != "id" else values)
    return record


@given(keyed_records(), VARIANTS)
def test_the_text_proves_the_answers_strings_only_when_they_are(record, variant):
    """answers_are_strings is sound: when it says yes, every value of every object in the record is a string."""
    text = _line(record, variant)
    value = fastpath.loads_fast(text)  # parsed strictly, as the loop parses it
    if type(value) is not dict:
        return
    if fastpath.answers_are_strings(text, value):
        for inner in value.values():
            if type(inner) is dict:
                assert all(type(answer) is str for answer in inner.values()), text


def test_the_text_proof_says_yes_for_a_plain_key_pair():
    record = {"baseline": {"S1": "R", "S2": "N"}, "proposed": {"S1": "R", "S2": "n"}, "id": "k"}
    text = json.dumps(record, separators=(",", ":")).encode()
    assert fastpath.answers_are_strings(text, fastpath.loads_fast(text))
    for spoiled in ('"S2":1', '"S2":null', '"S2":true', '"S2":["N"]', '"S2":{"a":"b"}'):
        bad = text.replace(b'"S2":"N"', spoiled.encode(), 1)
        assert not fastpath.answers_are_strings(bad, fastpath.loads_fast(bad)), spoiled
    # A value that is not a string, and quotes made up elsewhere: an object's, an array's, escaped ones.
    for spoiled in ('"S2":1,"S3":{"x":"y"}', '"S2":1,"S3":["x"]', '"S2":1,"S3":"a\\"\\"b"'):
        bad = text.replace(b'"S2":"N"', spoiled.encode(), 1)
        value = fastpath.loads_fast(bad)
        assert value is not None and not fastpath.answers_are_strings(bad, value), spoiled


@given(st.lists(st.tuples(st.one_of(sentinel_records(), keyed_records()), VARIANTS), max_size=6))
def test_the_loop_with_the_text_proof_equals_the_foundation_for_sentinels(lines):
    """Every sentinel record, however short, taken through the proof of its text: the foundation's results."""
    data = b"\n".join(_line(r, v) for r, v in lines) + b"\n"
    assert fastpath._fast_json() is not None  # orjson is loaded, so short blocks parse fast too
    before = fast_checks._PROOF_MIN
    fast_checks._PROOF_MIN = 0
    try:
        got: list[bytes] = []
        summary = BatchSummary("sentinels", "s")
        check_records(io.BytesIO(data), summary, write=got.append)
    finally:
        fast_checks._PROOF_MIN = before
    want = _foundation("sentinels", data)
    assert b"".join(got) == b"".join(dumps_compact(obj).encode() + b"\n" for obj, _ in want)
    assert summary.exit_code == (max((c for _, c in want), key=SEVERITY.index) if want else 4)


def _one_by_one(outcome_stream, summary: BatchSummary) -> BatchSummary:
    """The plain route: every outcome into the summary, one at a time."""
    for outcome in outcome_stream:
        summary.add(outcome)
    return summary


@given(st.lists(st.tuples(scope_records(), VARIANTS), max_size=8), st.integers(0, 3), st.booleans())
def test_the_batch_loop_equals_the_outcomes_one_by_one(lines, max_failures, carry):
    """The loop gives the summary, the output lines and the bad lines the plain route gives."""
    data = b"\n".join(_line(r, v) for r, v in lines)
    plain = BatchSummary("target-scope", "s", max_failures=max_failures)
    found = list(outcomes_jsonl(io.BytesIO(data), "target-scope", source="s"))
    _one_by_one(found, plain)
    want_bad = "".join(f"s, line {o[0]}: {output_object(o)['error']}\n" for o in found if o[3] is not None)
    summary = BatchSummary("target-scope", "s", max_failures=max_failures)
    written: list[bytes] = []
    bad = io.StringIO()
    check_records(io.BytesIO(data), summary, write=written.append, carry=carry, bad_lines=bad)
    assert summary_json(summary) == summary_json(plain)
    assert b"".join(written) == b"".join(output_line(o, carry=carry) for o in found)
    assert bad.getvalue() == want_bad


@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
def test_without_orjson_the_runner_gives_the_same_results(monkeypatch, check):
    data = (SAMPLE / "rewrites.jsonl").read_bytes()
    if check == "sentinels":
        data = b'{"baseline":{"S1":"R"},"proposed":{"S1":"R "}}\n{"baseline":{}}\nnope\n'
    with_fast = _runner(check, data)
    monkeypatch.setattr(fast_json, "_orjson", None)
    assert _runner(check, data) == with_fast == _foundation(check, data)


def test_the_runner_reads_one_line_at_a_time():
    """Taking the first outcomes never reads past their lines: the file is streamed."""

    def lines():
        yield b'{"original":["a"],"rewritten":["a"]}\n'
        yield b'{"original":["a"],"rewritten":["b"]}\n'
        raise AssertionError("read too far")

    first = list(itertools.islice(outcomes_jsonl(lines(), "target-scope", source="s"), 2))
    assert [o[1] for o in first] == [0, 1]


@given(
    st.dictionaries(
        st.sampled_from(["missing", "added", "error", "field", "id", "query", "line"]),
        st.one_of(st.text(), st.lists(st.text()), st.booleans(), st.none(), st.integers(-(2**80), 2**80)),
    )
)
def test_dumps_line_writes_what_dumps_compact_writes(obj):
    assert dumps_line(obj) == dumps_compact(obj).encode("utf-8")


# --- carrying id and query ----------------------------------------------------


def test_output_object_carries_line_id_and_query():
    outcome = next(
        outcomes_jsonl(
            [b'{"query":"q","id":"r1","original":["a"],"rewritten":[]}'], "target-scope", source="s"
        )
    )
    assert output_object(outcome) == {"missing": ["a"], "added": [], "preserved": False}
    assert list(output_object(outcome, carry=True).items()) == [
        ("line", 1),
        ("id", "r1"),
        ("query", "q"),
        ("missing", ["a"]),
        ("added", []),
        ("preserved", False),
    ]
    bad = next(outcomes_jsonl([b'{"id":7,"original":[1],"rewritten":[]}'], "target-scope", source="s"))
    assert output_object(bad, carry=True) == {
        "line": 1,
        "id": 7,
        "field": "original[0]",
        "error": "original[0] is 1, expected a string ID",
    }


# --- the summary --------------------------------------------------------------


def test_sample_summary_counts_everything_once():
    summary = check_file(SAMPLE / "rewrites.jsonl")
    assert summary.records == 24
    assert summary.counts == {"preserved": 10, "not preserved": 8, "needs staff labels": 2, "bad input": 4}
    assert (summary.lost, summary.added, summary.lost_and_added) == (5, 1, 2)
    assert summary.lost_targets.most_common(3) == [("refresher", 4), ("induction", 2), ("fire-safety", 1)]
    assert [f.line for f in summary.failures] == [3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 19, 20, 22]
    assert summary.exit_code == 4


def test_no_records_is_bad_input():
    summary = check_records([], BatchSummary("target-scope", "s"))
    assert summary.exit_code == 4


def test_progress_reports_the_fraction_read():
    seen: list[float] = []
    check_file(SAMPLE / "rewrites.jsonl", progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)


def test_csv_sample_and_a_bad_header():
    summary = check_file(SAMPLE / "rewrites.csv")
    assert summary.records == 6 and summary.counts["bad input"] == 1
    assert summary.failures[-1].id == "c05"
    bad = check_file(Upload("x.csv", b"id,original\n"))
    assert bad.records == 1 and bad.exit_code == 4
    assert "has no 'rewritten' column" in bad.failures[0].explanation


def test_check_records_refuses_impossible_combinations():
    with pytest.raises(ValueError):
        check_records([], BatchSummary("sentinels", "s"), format="csv")
    with pytest.raises(ValueError):
        check_records([], BatchSummary("target-scope", "s"), list_separator=";")


# --- a file with 1% corrupt lines ------------------------------------------------

CORRUPTIONS = [
    b'{"original":["a"],"rewritten":["a"]',  # truncated
    b'{"original":["a"],"original":["b"],"rewritten":["a"]}',  # duplicate key
    b'{"original":["a"],"rewritten":[7]}',  # not a string ID
    b"",  # blank line
    b'{"original":["\xff"],"rewritten":["a"]}',  # not UTF-8
    b'{"original":["a"],"rewriten":["a"]}',  # unknown field
    b'{"original":[""],"rewritten":["a"]}',  # empty ID
    b"\xef\xbb\xbf{}",  # a byte-order mark in the middle
    b'{"a":"\\u003a","a":1}',  # a duplicate hidden behind an escaped colon
]


def corrupt_file(path, lines: int = 10_000, share: float = 0.01, seed: int = 7) -> set[int]:
    """Write ``lines`` records, ``share`` of them corrupt; returns the corrupt line numbers."""
    rng = random.Random(seed)
    bad = set(rng.sample(range(1, lines + 1), int(lines * share)))
    targets = ["induction", "refresher", "payroll", "first-aid", "fire-safety"]
    with open(path, "wb") as out:
        for number in range(1, lines + 1):
            if number in bad:
                out.write(rng.choice(CORRUPTIONS) + b"\n")
                continue
            original = rng.sample(targets, 2)
            rewritten = original if rng.random() < 0.9 else original[:1]
            out.write(
                json.dumps({"id": f"r{number}", "original": original, "rewritten": rewritten}).encode()
                + b"\n"
            )
    return bad


def test_every_corrupt_line_is_reported_and_the_run_goes_on(tmp_path):
    path = tmp_path / "corrupt.jsonl"
    expected = corrupt_file(path)
    bad = io.StringIO()
    summary = BatchSummary("target-scope", "corrupt.jsonl")
    with open(path, "rb") as stream:
        check_records(stream, summary, bad_lines=bad)
    reported = [int(line.split(", line ")[1].split(":")[0]) for line in bad.getvalue().splitlines()]
    assert sorted(reported) == sorted(expected) and len(reported) == 100
    assert summary.records == 10_000 and summary.counts["bad input"] == 100
    assert summary.exit_code == 4


# --- outcomes of parsed records -------------------------------------------------------


def test_outcomes_of_parsed_records():
    lines = [JsonLine(4, value={"original": ["a"], "rewritten": ["a"]}), JsonLine(5, value={"original": 1})]
    found = list(outcomes(lines, "target-scope"))
    assert [(o[0], o[1]) for o in found] == [(4, 0), (5, 4)]


_MESSY = (
    b'\xef\xbb\xbf{"original":["a"],"rewritten":["a"]}\r\n'
    b"\n"
    b'{"original":["a","b"],"rewritten":["b","a"]}\n'
    b'{"original":["a"],"rewritten":["a"],"original":["b"]}\n'
    b'{"original":["a"],"rewritten":[]}\r\n'
    b"   \n" + b"\x1c" * 40 + b"\n"
    b'{"original":["\xff"],"rewritten":[]}\n'
    b'{"original":["a"],"rewritten":["a"],"unresolved":["x"]}\n'
    b'{"original":["a:b"],"rewritten":["a\\u003ab"]}\n'
    b'{"original":[""],"rewritten":[""]}\n'
    b'\xef\xbb\xbf{"original":["a"],"rewritten":["a"]}\n'
    b'{"original":["a"],"rewritten":["a"]}\rnot json\r'
    b'{"original":["a"],"rewritten":["a"]}'
)


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
def test_the_block_writer_writes_what_the_line_writer_writes(monkeypatch, block, check):
    from helpers.team import batch
    from helpers.team.fastpath import dumps_line

    found = list(batch.outcomes_jsonl(io.BytesIO(_MESSY), check, source="m.jsonl"))
    expected = [dumps_line(output_object(o)) + b"\n" for o in found]
    want = _one_by_one(found, batch.BatchSummary(check=check, source="m.jsonl"))
    from helpers.team import line_blocks

    monkeypatch.setattr(line_blocks, "BLOCK_SIZE", block)
    got: list[bytes] = []
    summary = batch.BatchSummary(check=check, source="m.jsonl")
    batch.check_records(io.BytesIO(_MESSY), summary, write=got.append)
    assert b"".join(got) == b"".join(expected)
    assert (summary.records, summary.counts, summary.exit_code) == (want.records, want.counts, want.exit_code)
    assert (summary.lost, summary.added, summary.lost_and_added, summary.failures_total) == (
        want.lost,
        want.added,
        want.lost_and_added,
        want.failures_total,
    )
    assert summary.lost_targets.counts == want.lost_targets.counts
    assert [f.output for f in summary.failures] == [f.output for f in want.failures]


@pytest.mark.parametrize("max_failures", [0, 3, 1000])
@pytest.mark.parametrize("kept", [None, 0, 1])
def test_the_block_writer_counts_failures_as_the_summary_does(monkeypatch, max_failures, kept):
    from helpers.team import batch
    from helpers.team.fastpath import dumps_line

    if kept is not None:  # how many equal results are shared, and their output lines kept
        monkeypatch.setattr(fast_checks, "_RESULTS_MAX", kept)
        monkeypatch.setattr(fastpath, "_LINES_MAX", kept)

    rng = random.Random(5)
    pool = ["a", "b", "c", "d", "é", "😀", "\uff5e"]
    data = b"".join(
        json.dumps(
            {"original": rng.sample(pool, 3), "rewritten": rng.sample(pool, rng.randint(0, 4))},
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()
        + b"\n"
        for _ in range(400)
    )
    found = list(batch.outcomes_jsonl(io.BytesIO(data), "target-scope", source="r.jsonl"))
    expected = [dumps_line(output_object(o)) + b"\n" for o in found]
    want = _one_by_one(
        found, batch.BatchSummary(check="target-scope", source="r.jsonl", max_failures=max_failures)
    )
    got: list[bytes] = []
    summary = batch.BatchSummary(check="target-scope", source="r.jsonl", max_failures=max_failures)
    batch.check_records(io.BytesIO(data), summary, write=got.append)
    assert b"".join(got) == b"".join(expected)
    assert vars(summary) == vars(want) or (
        summary.counts,
        summary.lost,
        summary.added,
        summary.lost_and_added,
        summary.failures_total,
        summary.lost_targets.counts,
        summary.failures,
        summary.worst,
    ) == (
        want.counts,
        want.lost,
        want.added,
        want.lost_and_added,
        want.failures_total,
        want.lost_targets.counts,
        want.failures,
        want.worst,
    )


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.parametrize("repeat", [1, 2, 5, 33])
@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
@pytest.mark.parametrize("carry", [False, True])
def test_two_processes_write_exactly_what_one_writes(tmp_path, repeat, check, carry):
    from helpers.team import batch

    rng = random.Random(repeat)
    lines = _MESSY.split(b"\n") * repeat
    rng.shuffle(lines)
    data = _MESSY + b"\n" + b"\n".join(lines)  # the BOM line first, bad lines throughout
    path = tmp_path / "m.jsonl"
    path.write_bytes(data)
    serial: list[bytes] = []
    want = batch.BatchSummary(check=check, source="m.jsonl")
    batch.check_records(io.BytesIO(data), want, write=serial.append, carry=carry)
    parallel: list[bytes] = []
    got = batch.BatchSummary(check=check, source="m.jsonl")
    with open(path, "rb") as stream:
        batch.check_records(stream, got, write=parallel.append, carry=carry, parallel=True, min_bytes=1)
    assert b"".join(parallel) == b"".join(serial)
    assert (got.records, got.counts, got.worst, got.exit_code, got.failures_total) == (
        want.records,
        want.counts,
        want.worst,
        want.exit_code,
        want.failures_total,
    )
    assert (got.lost, got.added, got.lost_and_added) == (want.lost, want.added, want.lost_and_added)
    assert got.failures == want.failures
    assert got.lost_targets.counts == want.lost_targets.counts


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_the_command_line_on_two_processes_writes_the_serial_bytes(tmp_path):
    import subprocess
    import sys

    lines = _MESSY.split(b"\n") * 50
    random.Random(3).shuffle(lines)
    path = tmp_path / "m.jsonl"
    path.write_bytes(_MESSY + b"\n" + b"\n".join(lines))
    runs = [
        subprocess.run(
            [sys.executable, "-m", "helpers", "target-scope", str(path)],
            capture_output=True,
            timeout=60,
            env={**os.environ, "EIC_PARALLEL_MIN_BYTES": limit},
        )
        for limit in ("1", str(1 << 60))
    ]
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.count(b"\n") > 500
    assert runs[0].returncode == runs[1].returncode == 4
    assert runs[0].stderr == runs[1].stderr == b""


def test_the_fast_path_declines_a_key_whose_ids_are_not_strings() -> None:
    """Keys parsed from JSON are always strings; a Python caller's need not be, and then the exact way decides."""
    assert fast_answer_key({"S1": "A"}) and fast_answer_key({"S1": "A"}, json_keys=True)
    assert not fast_answer_key({1: "A"})
    assert fast_answer_key({1: "A"}, json_keys=True)  # trusted: JSON keys need no look
    assert not fast_answer_key({"S1": 1}, json_keys=True) and not fast_answer_key({"": "A"})
    assert fast_sentinels({1: "A"}, {1: "A"}) is None
    with pytest.raises(CheckInputError):
        check_sentinels({1: "A"}, {1: "A"})


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        (b'{"baseline":{"S1":"A","S2":"B"},"proposed":{"S1":"A"}}', True),
        (b'{"baseline":{"S1":"A","S1":"B"},"proposed":{"S1":"A"}}', False),
        (b'{"baseline":{"S1":"A"},"baseline":{"S1":"A"},"proposed":{}}', False),
        (b'{"baseline":{"S1":"A:"},"proposed":{"S1":"A"}}', True),
        (b'{"baseline":{"S1":{"x":1,"x":2}},"proposed":{"S1":"A"}}', False),
        (b'{"baseline":{"S1":"a\\u003a","S1":"b"},"proposed":{}}', False),
    ],
)
def test_counting_members_two_levels_deep_still_finds_a_repeated_key(text, clean):
    """The count that skips the strings vouches only when it accounts for every colon."""
    value = fastpath.loads_fast(text)
    assert (value is not None) is clean
    if clean:
        assert value == json.loads(text)
