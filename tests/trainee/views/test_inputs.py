"""A case's input before answering: two keys as tables sorted by ID, two lists as lists, side by side,
and nothing that marks a difference (:mod:`helpers.trainee.views.inputs`)."""

from __future__ import annotations

import re

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.chardiff import visible_id
from helpers.core.ordering import sorted_ids
from helpers.trainee.cases.filled import get_case
from helpers.trainee.views import case_html
from helpers.trainee.views.inputs import input_view

IDS = st.text(alphabet="Ss12AaZz\u0430\u200b \u3164", min_size=1, max_size=4)
KEYS = st.dictionaries(IDS, st.text(alphabet="RAyes \u00e9", max_size=4), max_size=6)

_ROW_ID = re.compile(r'<tr><th scope="row"><code class="eic-id">(.*?)</code></th>')


def _tables(html: str) -> list[str]:
    return re.findall(r'<table class="eic-key">.*?</table>', html)


@settings(max_examples=examples(200), deadline=None)
@given(KEYS, KEYS)
def test_each_key_is_a_table_sorted_by_id_that_does_not_depend_on_the_other(baseline, proposed):
    block = input_view({"baseline": baseline, "proposed": proposed})
    left, right = _tables(block.html)
    for table, key in ((left, baseline), (right, proposed)):
        shown = [cell.replace("&#x27;", "'").replace("&amp;", "&") for cell in _ROW_ID.findall(table)]
        assert shown == [visible_id(i) for i in sorted_ids(key)]
    # the baseline's table is the same whatever the proposed key holds, and the other way round:
    # so no row can mark a difference before the answer is checked
    assert _tables(input_view({"baseline": baseline, "proposed": {}}).html)[0] == left
    assert _tables(input_view({"baseline": {}, "proposed": proposed}).html)[1] == right
    for mark in ("eic-correct", "eic-wrong", "changed", "missing", "✘", "✔"):
        assert mark not in block.html.replace("The same input as JSON", "")


def test_the_tables_sit_side_by_side_and_the_json_is_one_click_away():
    case = get_case("sentinel-mutated")
    block = case_html.supplied_input(case)
    assert (
        '<div class="eic-sides"><div class="eic-side"><table class="eic-key"><caption>baseline' in block.html
    )
    assert (
        '<details class="eic-as-json"><summary>The same input as JSON</summary><pre class="eic-json">'
        in block.html
    )
    assert block.text.splitlines()[1:] == [
        "baseline (1 ID, sorted by ID):",
        '  S1: "R"',
        "proposed (1 ID, sorted by ID):",
        '  S1: "S"',
    ]
    # an answer's trailing space shows before the closing quote
    assert "<code>&quot;yes &quot;</code>" in input_view({"baseline": {"S1": "yes "}, "proposed": {}}).html


def test_target_lists_keep_their_order_and_repeats():
    block = input_view({"original": ["b", "a", "b"], "rewritten": ["pay\u200broll"]})
    assert block.text.splitlines() == [
        "original (3 IDs):",
        "  1. b",
        "  2. a",
        "  3. b",
        "rewritten (1 ID):",
        "  1. pay⟨U+200B⟩roll",
    ]
    assert "\u200b" not in block.html and "pay⟨U+200B⟩roll" in block.html
    assert "<p><i>(empty)</i></p>" in input_view({"original": [], "rewritten": ["a"]}).html


def test_an_input_of_another_shape_shows_as_json():
    odd = {"baseline": ["S1"], "proposed": {"S1": "R"}}
    block = input_view(odd)
    assert block.html.startswith('<pre class="eic-json">') and "eic-sides" not in block.html
    assert block.text == '{"baseline":["S1"],"proposed":{"S1":"R"}}'


def test_a_context_key_is_a_table_too_and_the_rest_stays_json():
    from helpers.trainee.views.inputs import context_view

    block = context_view({"earlier_key": {"S2": "A", "S10": "B"}, "revision": {"id": "S2", "from": "A"}})
    assert "<caption>earlier key (2 IDs, sorted by ID)</caption>" in block.html
    assert block.text.splitlines() == [
        "earlier key (2 IDs, sorted by ID):",
        '  S10: "B"',
        '  S2: "A"',
        '{"revision":{"id":"S2","from":"A"}}',
    ]
