"""The sentinel answer-key check: literal answers, extra cases ignored, no empty baseline."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from helpers import SentinelResult, check_sentinels, check_sentinels_input
from helpers.core.errors import CheckInputError, EmptyBaselineError, InvalidInputError

TRICKY_IDS = ["S1", "S2", "s1", "S1 ", "C2", "é", "e\u0301", "😀", "\ue000", "\uffff", "10", "2"]
id_strings = st.one_of(
    st.sampled_from(TRICKY_IDS),
    st.text(
        st.one_of(st.characters(exclude_categories=["Cs"]), st.sampled_from("😀\ue000\uffffS1")),
        min_size=1,
        max_size=5,
    ),
)
answers = st.one_of(
    st.sampled_from(["R", "A", "r", "R ", "", "café", "cafe\u0301", "😀"]),
    st.text(max_size=6),
)
answer_keys = st.dictionaries(id_strings, answers, max_size=6)
baselines = st.dictionaries(id_strings, answers, min_size=1, max_size=6)


def oracle(baseline, proposed, js_sorted):
    """What the reference evaluator computes, in plain lines."""
    missing = js_sorted(k for k in baseline if k not in proposed)
    changed = js_sorted(k for k in baseline if k in proposed and proposed[k] != baseline[k])
    return {"missing": missing, "changed": changed, "intact": not missing and not changed}


@given(baseline=baselines, proposed=answer_keys)
def test_agrees_with_oracle(js_sorted, baseline, proposed):
    """missing and changed follow the plain definition, sorted as JavaScript sorts."""
    result = check_sentinels(baseline, proposed)
    assert isinstance(result, SentinelResult)
    assert result.as_dict() == oracle(baseline, proposed, js_sorted)
    assert list(result.as_dict()) == ["missing", "changed", "intact"]


@given(baseline=baselines, data=st.data())
def test_a_copied_key_is_intact(baseline, data):
    """The baseline itself, in any key order, is an intact proposal."""
    items = data.draw(st.permutations(list(baseline.items())))
    result = check_sentinels(baseline, dict(items))
    assert result.as_dict() == {"missing": [], "changed": [], "intact": True}
    assert result.passed and result.outcome == "intact"


@given(baseline=baselines, proposed=answer_keys, extra=answer_keys)
def test_extra_non_sentinel_cases_never_change_the_result(baseline, proposed, extra):
    """Adding IDs the baseline does not hold leaves missing, changed and intact alone."""
    extra = {key: value for key, value in extra.items() if key not in baseline}
    before = check_sentinels(baseline, proposed)
    after = check_sentinels(baseline, {**proposed, **extra})
    assert after == before


EDITS = {
    "replaced": lambda s: s + "X" if s == "Y" else "Y",
    "trailing-space": lambda s: s + " ",
    "leading-space": lambda s: " " + s,
    "trailing-newline": lambda s: s + "\n",
    "case-flipped": str.swapcase,
    "zero-width-space": lambda s: s + "\u200b",
    "nfd": lambda s: unicodedata.normalize("NFD", s),
    "nfc": lambda s: unicodedata.normalize("NFC", s),
    "truncated": lambda s: s[:-1],
    "emptied": lambda s: "",
}


@given(baseline=baselines, edit=st.sampled_from(sorted(EDITS)), data=st.data())
def test_any_edit_to_a_sentinel_answer_is_changed(baseline, edit, data):
    """Whitespace, case, zero-width and normalisation edits all count as changed."""
    sentinel = data.draw(st.sampled_from(sorted(baseline)), label="sentinel")
    edited = EDITS[edit](baseline[sentinel])
    assume(edited != baseline[sentinel])
    result = check_sentinels(baseline, {**baseline, sentinel: edited})
    assert result.changed == (sentinel,)
    assert result.missing == ()
    assert result.intact is False


@pytest.mark.parametrize(
    ("answer", "edited"),
    [
        ("R", "R "),
        ("R", "r"),
        ("R", "R\u200b"),
        ("café", unicodedata.normalize("NFD", "café")),
        (unicodedata.normalize("NFD", "café"), "café"),
        ("R", "\ufeffR"),
    ],
    ids=["whitespace", "case", "zero-width-space", "nfc-to-nfd", "nfd-to-nfc", "bom"],
)
def test_literal_comparison_examples(answer, edited):
    """Concrete invisible edits, each reported as changed."""
    result = check_sentinels({"S1": answer}, {"S1": edited})
    assert result.as_dict() == {"missing": [], "changed": ["S1"], "intact": False}


@given(baseline=baselines, data=st.data())
def test_a_removed_sentinel_is_missing(baseline, data):
    """Dropping a sentinel from the proposed key reports it missing, not changed."""
    removed = data.draw(st.sets(st.sampled_from(sorted(baseline)), min_size=1), label="removed")
    proposed = {key: value for key, value in baseline.items() if key not in removed}
    result = check_sentinels(baseline, proposed)
    assert set(result.missing) == removed
    assert result.changed == ()
    assert result.intact is False


@given(baseline=baselines, proposed=answer_keys)
def test_reported_ids_are_baseline_ids_sorted_by_utf16(js_sorted, baseline, proposed):
    """Both lists hold only baseline IDs, never overlap, and come out in JavaScript order."""
    result = check_sentinels(baseline, proposed)
    assert set(result.missing) <= set(baseline) and set(result.changed) <= set(baseline)
    assert not set(result.missing) & set(result.changed)
    assert list(result.missing) == js_sorted(set(result.missing))
    assert list(result.changed) == js_sorted(set(result.changed))
    assert result.intact is (not result.missing and not result.changed)


def test_order_follows_javascript_not_python_code_points():
    """Sentinels are walked in UTF-16 order: the emoji before U+E000 and U+FFFF."""
    baseline = {"\uffff": "a", "😀": "b", "\ue000": "c", "S1": "d"}
    assert check_sentinels(baseline, {}).missing == ("S1", "😀", "\ue000", "\uffff")


def test_numeric_looking_ids_sort_as_strings():
    """ "10" sorts before "2", as JavaScript's default sort compares strings."""
    result = check_sentinels({"2": "a", "10": "b"}, {"2": "x", "10": "y"})
    assert result.changed == ("10", "2")


def test_empty_baseline_is_refused_not_intact():
    """An empty baseline would check nothing, so it raises instead of passing."""
    with pytest.raises(EmptyBaselineError) as info:
        check_sentinels({}, {"S1": "R"})
    assert isinstance(info.value, InvalidInputError) and isinstance(info.value, ValueError)
    assert info.value.field == "baseline"


def test_input_object_accepts_an_id():
    """The optional "id" field rides along."""
    record = {"id": "build-7", "baseline": {"S1": "R"}, "proposed": {"S1": "R", "C2": "A"}}
    assert check_sentinels_input(record).as_dict() == {"missing": [], "changed": [], "intact": True}


# --- bad input never passes -------------------------------------------------

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
FIELDS = ["baseline", "proposed", "id", "baseline_v2", "extra"]
field_values = st.one_of(
    answer_keys,
    st.dictionaries(st.one_of(id_strings, st.just("")), st.one_of(answers, json_scalars), max_size=3),
    json_values,
)
records = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), field_values, max_size=4),
    json_values,
)


def is_answer_key(value) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, str) and key and isinstance(answer, str) for key, answer in value.items()
    )


def is_valid_record(record) -> bool:
    """The input contract, written independently."""
    return (
        isinstance(record, dict)
        and {"baseline", "proposed"} <= set(record) <= {"baseline", "proposed", "id"}
        and is_answer_key(record["baseline"])
        and is_answer_key(record["proposed"])
        and len(record["baseline"]) > 0
    )


@given(record=records)
def test_bad_input_never_passes(js_sorted, record):
    """Either the input is valid and checked like the oracle, or a ValueError is raised."""
    try:
        result = check_sentinels_input(record)
    except CheckInputError as exc:
        assert isinstance(exc, ValueError)
        assert not is_valid_record(record), f"valid input refused: {exc}"
        return
    assert is_valid_record(record), f"bad input accepted: {record!r}"
    assert result.as_dict() == oracle(record["baseline"], record["proposed"], js_sorted)
