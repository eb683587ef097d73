"""Two ``.json`` answer keys compared as lists (``helpers.team.key_lists``) give what the exact route gives.

The lists route reads a key as a flat JSON array and walks the proposed key beside the
baseline; anything it cannot vouch for goes to the exact reader. Each test here checks it
against that reader (``read_answer_key_object``, ``check_answer_keys``) on random keys:
look-alike and structural characters in IDs and answers, repeated IDs, empty IDs,
non-string answers, escapes, byte order marks and broken JSON.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.errors import CheckInputError
from helpers.core.jsonio import parse_json_line
from helpers.core.sentinels import SentinelResult, check_sentinels, check_sentinels_input
from helpers.team.answer_keys import read_answer_key_object
from helpers.team.batch import check_answer_keys
from helpers.team.inputs import DuplicateIDError
from helpers.team.json_keys import check_json_key_texts
from helpers.team.key_lists import (
    check_sentinel_record_text,
    compare_key_lists,
    flat_key_lists,
)
from helpers.team.reports import key_check_json, key_check_text
from tests.cli.test_cli import output_lines
from tests.support.budget import examples

#: Characters an ID or answer is drawn from: plain, look-alikes (Cyrillic А, a zero-width space,
#: a no-break space, a fullwidth colon), and every byte the lists route's proof counts.
PLAIN = "SAB12"
TRICKY = 'SAB12\u0410\u200b\u00a0\uff1a:,{}[]"\\ \n\u00e9'

IDS = st.text(st.sampled_from(PLAIN), max_size=3) | st.text(st.sampled_from(TRICKY), max_size=3)
ANSWERS = st.one_of(
    st.text(st.sampled_from(PLAIN), max_size=2),
    st.text(st.sampled_from(TRICKY), max_size=2),
    st.sampled_from([1, 1.5, None, True, [], {}, ["A"], {"a": "b"}]),
)
PAIRS = st.lists(st.tuples(IDS, ANSWERS), max_size=12)
WAYS = st.sampled_from(["compact", "spaced", "ascii", "bom", "cut", "extra", "swap", "trailing"])


def write_key(pairs: list[tuple[str, object]], way: str, rng: random.Random) -> bytes:
    """The key ``pairs`` (repeated IDs kept) as the bytes of a JSON object, written one ``way``
    (some of them not valid JSON)."""
    ascii_only = way == "ascii"
    members = [
        json.dumps(ident, ensure_ascii=ascii_only) + ":" + json.dumps(answer, ensure_ascii=ascii_only)
        for ident, answer in pairs
    ]
    if way == "spaced":
        text = "{\n  " + ",\n  ".join(member.replace(":", " : ", 1) for member in members) + "\n}\n"
    else:
        text = "{" + ",".join(members) + ("," if way == "trailing" else "") + "}"
    data = text.encode("utf-8")
    if way == "bom":
        data = b"\xef\xbb\xbf" + data
    elif way == "cut" and data:
        at = rng.randrange(len(data))
        data = data[:at] + data[at + 1 :]
    elif way == "extra":
        at = rng.randrange(len(data) + 1)
        data = data[:at] + rng.choice([b":", b",", b'"', b"{", b"}", b"0", b" "]) + data[at:]
    elif way == "swap" and b":" in data:  # a colon and the next comma change places
        at = data.index(b":")
        data = data[:at] + b"," + data[at + 1 :]
        after = data.find(b",", at + 1)
        if after > 0:
            data = data[:after] + b":" + data[after + 1 :]
    return data


def _first_answers(pairs: list[tuple[str, str]]) -> dict[str, str]:
    firsts: dict[str, str] = {}
    for ident, answer in pairs:
        firsts.setdefault(ident, answer)
    return firsts


@settings(max_examples=examples(600))
@given(PAIRS, WAYS, st.randoms(use_true_random=False))
def test_a_key_read_as_lists_is_what_the_exact_reader_reads_or_is_declined(pairs, way, rng):
    data = write_key(pairs, way, rng)
    got = flat_key_lists(data)
    exact = read_answer_key_object(data, source="k.json")
    if got is None:
        plain = all(isinstance(answer, str) and set(ident + answer) <= set(PLAIN) for ident, answer in pairs)
        if way in ("compact", "spaced", "bom") and pairs and plain:
            pytest.fail("the lists route declined a flat key of plain strings")
        return
    ids, answers = got
    assert all(type(answer) is str for answer in answers)
    read = list(zip(ids, answers, strict=True))
    # What the lists hold is what was written; the exact reader keeps each ID's first answer.
    firsts = _first_answers(read)
    empty = firsts.pop("", None)
    assert list(firsts.items()) == list(exact.answers.items())
    # Only what the lists route leaves to the walk (repeated and empty IDs) can be wrong with it.
    repeats = len(set(ids)) != len(ids)
    assert bool(exact.errors) == (repeats or empty is not None)
    for problem in exact.errors:
        assert isinstance(problem, DuplicateIDError) or problem.field == "id"


@st.composite
def key_pairs(draw):
    """A baseline and a proposed key made from it as real ones are, as lists of pairs (IDs may
    repeat in either): mostly in the same order, with answers changed, IDs dropped, cases added,
    a few moved, or all shuffled."""
    ids = draw(
        st.lists(st.sampled_from([f"S{n}" for n in range(40)] + ["S\u0410", "S\u200b1", ""]), max_size=40)
    )
    baseline = [(sentinel, draw(st.sampled_from("ABC"))) for sentinel in ids]
    proposed = []
    for sentinel, answer in baseline:
        if draw(st.integers(0, 9)) == 0:
            proposed.append((draw(st.sampled_from(["C1", "C2", "C3", "S3", "S7", "", "SА"])), "A"))
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
    return baseline, proposed


def _in_one_order(baseline: list[tuple[str, str]], proposed: list[tuple[str, str]]) -> bool:
    """True when the IDs the two keys share come in the same order in both."""
    ours = [ident for ident, _ in baseline]
    shared = set(ours) & {ident for ident, _ in proposed}
    return [i for i in ours if i in shared] == [i for i, _ in proposed if i in shared]


@settings(max_examples=examples(800))
@given(key_pairs(), st.integers(1, 9))
def test_walking_two_keys_as_lists_finds_what_the_exact_check_finds_or_declines(pair, window):
    baseline, proposed = pair
    compared = compare_key_lists(
        [i for i, _ in baseline],
        [a for _, a in baseline],
        [i for i, _ in proposed],
        [a for _, a in proposed],
        window=window,
    )
    ours, theirs = dict(baseline), dict(proposed)
    well_formed = (
        len(ours) == len(baseline)
        and len(theirs) == len(proposed)
        and ours
        and "" not in ours
        and "" not in theirs
    )
    if compared is None:
        if well_formed and _in_one_order(baseline, proposed):
            pytest.fail("the walk declined two well-formed keys in one order")
        return
    assert well_formed, "the walk vouched for a key with a repeated, empty or no ID"
    assert compared.result == check_sentinels(ours, theirs)
    assert compared.new_ids == len(theirs.keys() - ours.keys())
    assert compared.changed_answers == {s: (ours[s], theirs[s]) for s in compared.result.changed}


def _exact(baseline: bytes, proposed: bytes):
    return check_answer_keys(
        read_answer_key_object(baseline, source="b.json"), read_answer_key_object(proposed, source="p.json")
    )


def _same_reports(got, want) -> None:
    assert got.exit_code == want.exit_code
    assert key_check_json(got, limit=1000) == key_check_json(want, limit=1000)
    assert key_check_text(got, limit=1000) == key_check_text(want, limit=1000)


@settings(max_examples=examples(600))
@given(key_pairs(), WAYS, WAYS, st.randoms(use_true_random=False))
def test_two_key_texts_give_the_exact_routes_reports(pair, way, their_way, rng):
    baseline, proposed = pair
    ours = write_key(baseline, way if rng.random() < 0.3 else "compact", rng)
    theirs = write_key(proposed, their_way if rng.random() < 0.3 else "compact", rng)
    got = check_json_key_texts(ours, theirs, sources=("b.json", "p.json"), min_bytes=0)
    _same_reports(got, _exact(ours, theirs))


@given(PAIRS, PAIRS, WAYS, WAYS, st.randoms(use_true_random=False))
@settings(max_examples=examples(400))
def test_two_random_key_texts_give_the_exact_routes_reports(baseline, proposed, way, their_way, rng):
    ours, theirs = write_key(baseline, way, rng), write_key(proposed, their_way, rng)
    got = check_json_key_texts(ours, theirs, sources=("b.json", "p.json"), min_bytes=0)
    _same_reports(got, _exact(ours, theirs))


def _long_pair(count: int) -> tuple[dict[str, str], dict[str, str]]:
    rng = random.Random(8)
    baseline = {f"S{n}": rng.choice("ABCDRS") for n in range(1, count + 1)}
    proposed = dict(baseline)
    for sentinel in rng.sample(list(baseline), 30):
        proposed[sentinel] = rng.choice([c for c in "ABCDRS" if c != baseline[sentinel]])
    for sentinel in rng.sample(list(baseline), 30):
        proposed.pop(sentinel, None)
    proposed["S\u0410"] = "A"  # a look-alike of no sentinel: a new case
    for n in range(1, 200):
        proposed[f"C{n}"] = "A"
    return baseline, proposed


def _dump(key: dict[str, str]) -> bytes:
    return json.dumps(key, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def test_long_keys_take_the_lists_route_and_give_the_exact_routes_reports():
    baseline, proposed = _long_pair(20_000)
    ours, theirs = _dump(baseline), _dump(proposed)
    got = check_json_key_texts(ours, theirs, sources=("b.json", "p.json"))
    assert got.sizes == (len(baseline), len(proposed), 200)  # the lists route ran
    assert got.result is not None and len(got.result.missing) == 30 and len(got.result.changed) <= 30
    _same_reports(got, _exact(ours, theirs))


@pytest.mark.parametrize(
    "edit",
    [
        "repeat a sentinel",
        "repeat a new case",
        "move a sentinel",
        "an empty ID",
        "a number answer",
        "an escape",
    ],
)
def test_long_keys_the_lists_route_cannot_vouch_for_give_the_exact_routes_reports(edit):
    baseline, proposed = _long_pair(20_000)
    theirs = _dump(proposed)
    if edit == "repeat a sentinel":
        theirs = theirs[:-1] + b',"S17":"A"}'
    elif edit == "repeat a new case":
        theirs = theirs[:-1] + b',"C3":"A"}'
    elif edit == "move a sentinel":
        answer = proposed.pop("S2")
        proposed["S2"] = answer
        theirs = _dump(proposed)
    elif edit == "an empty ID":
        theirs = theirs[:-1] + b',"":"A"}'
    elif edit == "a number answer":
        theirs = theirs.replace(b'"S5":"', b'"S5":1,"S5x":"', 1)
    else:
        theirs = theirs.replace(b'"S5"', b'"S\\u0035"', 1)
    ours = _dump(baseline)
    got = check_json_key_texts(ours, theirs, sources=("b.json", "p.json"))
    want = _exact(ours, theirs)
    _same_reports(got, want)
    if edit.startswith("repeat") or edit == "an empty ID":
        assert want.exit_code == 4


def test_the_command_line_compares_two_long_json_keys_as_the_exact_route_does(run_cli, tmp_path):
    baseline, proposed = _long_pair(20_000)
    (tmp_path / "b.json").write_bytes(_dump(baseline))
    (tmp_path / "p.json").write_bytes(_dump(proposed)[:-1] + b',"S9":"A"}')  # S9 twice
    (tmp_path / "q.json").write_bytes(_dump(proposed))
    for output in ([], ["--summary"], ["--summary-json"]):
        done = run_cli("sentinels", "--baseline", "b.json", "--proposed", "q.json", *output)
        assert done.returncode == 1, done.stderr
        assert b"Traceback" not in done.stderr
        want = _exact(_dump(baseline), _dump(proposed))
        assert want.result is not None
        if output == ["--summary-json"]:
            data = json.loads(done.stdout)
            assert data["missing"]["count"] == len(want.result.missing)
            assert data["proposed"]["new_ids"] == 200
    done = run_cli("sentinels", "--baseline", "b.json", "--proposed", "p.json")
    assert done.returncode == 4
    assert b'"S9"' in done.stdout and b"Traceback" not in done.stderr


# --- one JSON Lines record of two keys -------------------------------------------

FIELD_ORDERS = st.sampled_from(
    [
        ("baseline", "proposed"),
        ("proposed", "baseline"),
        ("id", "baseline", "proposed"),
        ("baseline", "id", "proposed"),
    ]
)
IDENTS = st.sampled_from(['"r1"', '"r\u0410"', "7", "null", '{"a":1}', '""'])
EXTRA = st.sampled_from(["", ',"extra":"x"', ',"id":"again"', ',"baseline":{}', " ", "\n"])


@st.composite
def record_texts(draw):
    """One sentinel record as the bytes of a JSON line, its keys written as :func:`write_key`
    writes them, its fields in any order, sometimes with a non-string ``id``, a repeated or an
    unknown field."""
    rng = draw(st.randoms(use_true_random=False))
    if draw(st.booleans()):
        baseline, proposed = draw(key_pairs())
    else:
        baseline, proposed = draw(PAIRS), draw(PAIRS)
    keys = {
        "baseline": write_key(baseline, draw(WAYS) if rng.random() < 0.3 else "compact", rng),
        "proposed": write_key(proposed, draw(WAYS) if rng.random() < 0.3 else "compact", rng),
        "id": draw(IDENTS).encode("utf-8"),
    }
    members = [b'"' + name.encode() + b'":' + keys[name] for name in draw(FIELD_ORDERS)]
    return b"{" + b",".join(members) + draw(EXTRA).encode("utf-8") + b"}\n"


def _exact_record(text: bytes):
    parsed = parse_json_line(text, 1, "records.jsonl")
    if parsed.error is not None:
        return parsed.error
    try:
        return check_sentinels_input(parsed.value)
    except CheckInputError as exc:
        return exc


@settings(max_examples=examples(800))
@given(record_texts())
def test_a_record_compared_as_lists_gives_the_exact_result_or_is_declined(text):
    got = check_sentinel_record_text(text)
    if got is None:
        return
    carried, result = got
    want = _exact_record(text)
    assert isinstance(want, SentinelResult), want
    assert result == want
    value = json.loads(text)
    assert carried == ({"id": value["id"]} if "id" in value else {})


def test_a_long_record_on_standard_input_gives_the_exact_output(run_cli):
    baseline, proposed = _long_pair(20_000)
    line = b'{"id":"r\xd0\x90","baseline":' + _dump(baseline) + b',"proposed":' + _dump(proposed) + b"}\n"
    assert check_sentinel_record_text(line) is not None  # the lists route runs
    want = check_sentinels_input(json.loads(line))
    repeated = line.replace(b'"proposed":{', b'"proposed":{"S9":"A",', 1)  # S9 twice: a bad line
    done = run_cli("sentinels", "--carry", stdin=line + repeated + line)
    assert done.returncode == 4, done.stderr
    first, second, third = output_lines(done)

    def written(number: int) -> str:
        return json.dumps(
            {"line": number, "id": "r\u0410", **want.as_dict()}, ensure_ascii=False, separators=(",", ":")
        )

    assert (first, third) == (written(1), written(3))
    assert '"S9"' in second and '"line":2' in second


@settings(max_examples=examples(200))
@given(
    st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("RN")), max_size=12),
    st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("RN")), max_size=12),
    st.integers(0, 12),
    st.integers(0, 12),
    st.integers(1, 5),
)
def test_the_shared_walk_finds_the_first_place_two_keys_part(ours, theirs, i, j, window):
    """Both key walks step by :func:`first_difference`: the first pair, in step from ``(i, j)``,
    whose IDs or answers differ, or where either key ends; whatever the window."""
    from helpers.team.key_windows import first_difference

    ids, answers = [k for k, _ in ours], [a for _, a in ours]
    their_ids, their_answers = [k for k, _ in theirs], [a for _, a in theirs]
    i, j = min(i, len(ids)), min(j, len(their_ids))
    want = next(
        (
            (i + n, j + n)
            for n in range(min(len(ids) - i, len(their_ids) - j))
            if (ids[i + n], answers[i + n]) != (their_ids[j + n], their_answers[j + n])
        ),
        (i + min(len(ids) - i, len(their_ids) - j), j + min(len(ids) - i, len(their_ids) - j)),
    )
    assert first_difference(ids, answers, their_ids, their_answers, i, j, window) == want
