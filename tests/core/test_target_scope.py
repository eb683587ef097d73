"""The target-scope check: exact set comparison, JavaScript order, held inputs."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from helpers import NeedsStaffLabels, TargetScopeResult, check_target_scope, check_target_scope_input
from helpers.core.errors import CheckInputError, InvalidInputError

# IDs that collide often and sort differently in JavaScript and Python:
# emoji (surrogate pairs in UTF-16) against U+E000..U+FFFF, look-alikes,
# whitespace, case and normalisation variants.
TRICKY_IDS = [
    "induction",
    "refresher",
    "payroll",
    "a",
    "A",
    "a ",
    " a",
    "é",
    "e\u0301",
    "😀",
    "🧪",
    "\U00010000",
    "\ue000",
    "\uffff",
    "\ufb01",
    "x",
    "x\u200b",
]
id_strings = st.one_of(
    st.sampled_from(TRICKY_IDS),
    st.text(
        st.one_of(st.characters(exclude_categories=["Cs"]), st.sampled_from("😀\ue000\uffffaA ")),
        min_size=1,
        max_size=5,
    ),
)
id_lists = st.lists(id_strings, max_size=8)
non_empty_id_lists = st.lists(id_strings, min_size=1, max_size=8)


def oracle(original, rewritten, js_sorted):
    """What the reference evaluator computes, in plain set arithmetic."""
    before, after = set(original), set(rewritten)
    missing, added = js_sorted(before - after), js_sorted(after - before)
    return {"missing": missing, "added": added, "preserved": not missing and not added}


@given(original=id_lists, rewritten=id_lists)
def test_agrees_with_set_oracle(js_sorted, original, rewritten):
    """Missing, added and preserved are plain set differences, sorted as JavaScript sorts."""
    result = check_target_scope(original, rewritten)
    assert isinstance(result, TargetScopeResult)
    assert result.as_dict() == oracle(original, rewritten, js_sorted)
    assert list(result.as_dict()) == ["missing", "added", "preserved"]


@given(original=id_lists, rewritten=id_lists, rnd=st.randoms(use_true_random=False))
def test_order_and_duplicates_never_change_the_result(original, rewritten, rnd):
    """Shuffling either list and repeating items in it gives the same result."""

    def scramble(ids):
        ids = ids + [rnd.choice(ids) for _ in range(rnd.randint(0, 3))] if ids else []
        rnd.shuffle(ids)
        return ids

    expected = check_target_scope(original, rewritten).as_dict()
    assert check_target_scope(scramble(list(original)), scramble(list(rewritten))).as_dict() == expected


@given(original=id_lists, rewritten=id_lists)
def test_missing_comes_from_original_and_added_from_rewritten(original, rewritten):
    """missing ⊆ original \\ rewritten and added ⊆ rewritten \\ original."""
    result = check_target_scope(original, rewritten)
    assert set(result.missing) <= set(original)
    assert set(result.added) <= set(rewritten)
    assert not set(result.missing) & set(rewritten)
    assert not set(result.added) & set(original)


@given(original=id_lists, data=st.data())
def test_preserved_exactly_when_the_sets_are_equal(original, data):
    """preserved is true iff both lists hold the same set of IDs."""
    if data.draw(st.booleans(), label="same set"):
        rewritten = data.draw(st.permutations(original + original[: len(original) // 2]))
    else:
        rewritten = data.draw(id_lists, label="rewritten")
    result = check_target_scope(original, rewritten)
    assert result.preserved is (set(original) == set(rewritten))
    assert result.passed is result.preserved
    assert result.outcome == ("preserved" if result.preserved else "not preserved")


@given(original=id_lists, rewritten=id_lists)
def test_lists_are_sorted_by_utf16_code_units_without_repeats(js_sorted, original, rewritten):
    """Both reported lists come out deduplicated, in JavaScript's string order."""
    result = check_target_scope(original, rewritten)
    for reported in (list(result.missing), list(result.added)):
        assert reported == js_sorted(set(reported))


def test_order_follows_javascript_not_python_code_points():
    """An emoji (a surrogate pair) sorts before U+E000..U+FFFF, as in JavaScript."""
    result = check_target_scope(["\uffff", "z", "😀", "\ue000", "é"], [])
    assert result.missing == ("z", "é", "😀", "\ue000", "\uffff")
    assert sorted(result.missing) != list(result.missing)  # Python's own order differs


@pytest.mark.parametrize(
    ("original", "rewritten"),
    [
        (["induction"], ["Induction"]),
        (["induction"], ["induction "]),
        (["induction"], [" induction"]),
        (["é"], [unicodedata.normalize("NFD", "é")]),
        (["payroll"], ["payroll\u200b"]),
        (["ﬁle"], ["file"]),
    ],
    ids=["case", "trailing-space", "leading-space", "nfc-vs-nfd", "zero-width-space", "ligature"],
)
def test_ids_compare_exactly_as_given(original, rewritten):
    """No trimming, case folding or normalisation: a look-alike ID is a different target."""
    result = check_target_scope(original, rewritten)
    assert result.as_dict() == {"missing": original, "added": rewritten, "preserved": False}


def test_empty_lists_are_preserved():
    """Two empty target lists have nothing missing or added (as in the reference)."""
    assert check_target_scope([], []).as_dict() == {"missing": [], "added": [], "preserved": True}


def test_input_object_accepts_the_optional_fields():
    """ "id" and "query" ride along without changing the result."""
    record = {"original": ["a"], "rewritten": ["a", "b"], "id": "q1", "query": "a and b?"}
    assert check_target_scope_input(record).as_dict() == {
        "missing": [],
        "added": ["b"],
        "preserved": False,
    }


# --- needs staff labels -----------------------------------------------------


@given(original=id_lists, unresolved=non_empty_id_lists)
def test_unresolved_targets_are_held_even_when_the_lists_match(js_sorted, original, unresolved):
    """A non-empty "unresolved" list gives "needs staff labels", never preserved."""
    result = check_target_scope(original, list(reversed(original)), unresolved=unresolved)
    assert isinstance(result, NeedsStaffLabels)
    assert result.preserved is False and result.passed is False
    assert result.outcome == "needs staff labels"
    assert result.as_dict() == {
        "held": "needs staff labels",
        "unresolved": js_sorted(set(unresolved)),
        "preserved": False,
    }
    assert list(result.as_dict()) == ["held", "unresolved", "preserved"]


def test_unresolved_input_object_is_held_not_an_error():
    """An input object with unresolved mentions is a held outcome, not a format error."""
    record = {"original": ["induction"], "rewritten": ["induction"], "unresolved": ["the new one"]}
    result = check_target_scope_input(record)
    assert result.as_dict() == {
        "held": "needs staff labels",
        "unresolved": ["the new one"],
        "preserved": False,
    }


def test_empty_unresolved_list_runs_the_check():
    """ "unresolved": [] means every target was resolved, so the check runs."""
    record = {"original": ["a"], "rewritten": ["a"], "unresolved": []}
    assert check_target_scope_input(record).as_dict() == {
        "missing": [],
        "added": [],
        "preserved": True,
    }


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            {"original": ["a", 7], "rewritten": ["a"], "unresolved": ["x"]},
            "original[1] is 7, expected a string ID",
        ),
        (
            {"original": ["a"], "rewritten": "a", "unresolved": ["x"]},
            'rewritten is "a", expected a list of string IDs',
        ),
        (
            {"original": ["a"], "rewritten": ["a"], "unresolved": ["x", ""]},
            "unresolved[1] is an empty string, expected a non-empty ID",
        ),
    ],
    ids=["bad-original", "bad-rewritten", "bad-unresolved"],
)
def test_bad_lists_raise_before_any_hold(record, message):
    """A malformed list is bad input even when the input would otherwise be held."""
    with pytest.raises(InvalidInputError) as info:
        check_target_scope_input(record)
    assert str(info.value) == message


# --- bad input never passes -------------------------------------------------

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
FIELDS = ["original", "rewritten", "unresolved", "id", "query", "rewriten", "extra"]
field_values = st.one_of(
    id_lists,
    st.lists(st.one_of(id_strings, json_values), max_size=4),
    json_values.filter(lambda value: value is not None),
)
records = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), field_values, max_size=5),
    json_values,
)


def is_valid_record(record) -> bool:
    """The input contract, written independently: two ID lists, optional fields only."""
    if not isinstance(record, dict):
        return False
    allowed = {"original", "rewritten", "unresolved", "id", "query"}
    if not {"original", "rewritten"} <= set(record) <= allowed:
        return False
    lists = [record[name] for name in ("original", "rewritten", "unresolved") if name in record]
    return all(isinstance(ids, list) and all(isinstance(item, str) and item for item in ids) for ids in lists)


@given(record=records)
def test_bad_input_never_passes(js_sorted, record):
    """Either the input is valid and checked like the oracle, or a ValueError is raised."""
    try:
        result = check_target_scope_input(record)
    except CheckInputError as exc:
        assert isinstance(exc, ValueError)
        assert not is_valid_record(record), f"valid input refused: {exc}"
        return
    assert is_valid_record(record), f"bad input accepted: {record!r}"
    if record.get("unresolved"):
        assert isinstance(result, NeedsStaffLabels)
    else:
        assert result.as_dict() == oracle(record["original"], record["rewritten"], js_sorted)


@given(
    ids=non_empty_id_lists, bad=st.one_of(json_scalars, st.lists(json_scalars, max_size=2)), data=st.data()
)
def test_one_bad_item_is_named_by_index(ids, bad, data):
    """A single non-string or empty item anywhere in a list is refused by its index."""
    assume(not (isinstance(bad, str) and bad))
    index = data.draw(st.integers(0, len(ids)), label="index")
    field = data.draw(st.sampled_from(["original", "rewritten"]), label="field")
    corrupted = [*ids[:index], bad, *ids[index:]]
    lists = {"original": ids, "rewritten": ids, field: corrupted}
    with pytest.raises(InvalidInputError) as info:
        check_target_scope(lists["original"], lists["rewritten"])
    assert info.value.field == f"{field}[{index}]"
    assert str(info.value).startswith(f"{field}[{index}] is ")
