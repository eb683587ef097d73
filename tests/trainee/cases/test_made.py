"""The draws every case generator shares (``helpers/trainee/cases/made.py``): wording, order, look-alike kinds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.made import (
    careless_form,
    count_text,
    draw_topics,
    facet_for,
    insert_randomly,
    maybe_shuffled,
    names_text,
    repeat_one,
    verb_for,
)
from helpers.trainee.cases.vocabulary import load_vocabulary

words = st.lists(st.text(min_size=1, max_size=5), max_size=6)


def test_wording_agrees_with_its_count() -> None:
    assert names_text(["a"]) == "a"
    assert names_text(["a", "b", "pay\u200broll"]) == "a, b and pay⟨U+200B⟩roll"
    assert [count_text(n, "sentinel") for n in (0, 1, 2)] == ["no sentinels", "1 sentinel", "2 sentinels"]
    assert verb_for(["x"], "is", "are") == "is" and verb_for([], "is", "are") == "are"


def test_a_careless_reader_sees_look_alikes_as_one() -> None:
    assert careless_form("pay\u200broll") == careless_form("payroll")
    assert careless_form("Payroll ") == careless_form("payroll")


@given(st.integers(), words)
def test_shuffles_and_insertions_keep_every_item(seed: int, items: list[str]) -> None:
    rng = random.Random(seed)
    assert Counter(maybe_shuffled(rng, items)) == Counter(items)
    assert maybe_shuffled(rng, items, chance=0.0) == items
    grown = insert_randomly(rng, items, ["<new>", "<new>"])
    assert Counter(grown) == Counter([*items, "<new>", "<new>"])
    if items:
        repeated, which = repeat_one(rng, items)
        assert which in items and Counter(repeated) == Counter([*items, which])


def test_topics_are_drawn_from_the_vocabulary_without_repeats() -> None:
    vocab = load_vocabulary()
    topics = draw_topics(random.Random(1), vocab, 5)
    assert len(set(topics)) == 5 and set(topics) <= set(vocab.topics)
    assert topics == draw_topics(random.Random(1), vocab, 5)


def test_a_look_alike_kind_is_drawn_or_checked_against_those_a_rule_makes() -> None:
    assert facet_for(random.Random(0), "case", ("case", "zero-width"), "ts-exact-ids") == "case"
    assert facet_for(random.Random(0), None, ("zero-width",), "ts-exact-ids") == "zero-width"
    with pytest.raises(InvalidInputError) as caught:
        facet_for(random.Random(0), "script", ("case", "zero-width"), "sk-invisible")
    assert str(caught.value).endswith(
        "the generator for sk-invisible cannot make the look-alike kind 'script'; it makes case, zero-width"
    )
    assert caught.value.field == "facet"
