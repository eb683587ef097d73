"""Look-alike forms of a word (``helpers/trainee/cases/lookalike_forms.py``): each differs by one kind alone."""

from __future__ import annotations

import random
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.lookalike_forms import HOMOGLYPH_WEIGHTS, HOW, can_form, formable, forms, lookalike

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz- é", min_size=1, max_size=10)


def test_each_kind_of_look_alike_of_a_plain_word() -> None:
    assert forms("ab-c", "case") == ("Ab-c", "AB-C", "Ab-C")
    assert forms("ab-c", "outer-space") == ("ab-c ", " ab-c", "ab-c  ")
    assert forms("ab-c", "no-break-space") == ("ab-c\u00a0", "\u00a0ab-c")
    assert forms("a b", "no-break-space") == ("a\u00a0b",)  # an inner space is replaced, not added
    assert forms("ab-c", "nfd") == ()  # nothing to decompose
    assert forms("café", "nfd") == (unicodedata.normalize("NFD", "café"),)
    assert forms("ab", "zero-width")[0] == "a\u200bb" and len(forms("ab", "zero-width")) == 5
    assert forms("ab", "full-width") == ("ａb", "aｂ", "ａｂ")
    assert forms("ab-c", "homoglyph") == ("\u0430b-c", "ab-\u0441")


def test_only_the_words_that_can_carry_a_kind_are_formable() -> None:
    assert can_form("café", "nfd") and not can_form("cafe", "nfd")
    assert formable(("cafe", "café", "noël"), "nfd") == ("café", "noël")
    assert set(HOW) == {
        "case",
        "outer-space",
        "no-break-space",
        "nfd",
        "zero-width",
        "full-width",
        "homoglyph",
    }


@given(words, st.sampled_from(sorted(HOW)))
def test_every_form_differs_from_the_word_by_exactly_that_kind(word: str, facet: str) -> None:
    found = forms(word, facet)
    assert len(found) == len(set(found)) and word not in found
    for form in found:
        assert keyed.lookalike_kinds(word, form) == (facet,)


@given(words, st.sampled_from(sorted(HOW)), st.integers())
def test_a_drawn_look_alike_is_one_of_the_forms_and_the_same_for_a_seed(
    word: str, facet: str, seed: int
) -> None:
    if can_form(word, facet):
        drawn = lookalike(word, facet, random.Random(seed))
        assert drawn in forms(word, facet) and drawn == lookalike(word, facet, random.Random(seed))


def test_the_common_cyrillic_letters_are_drawn_most_often() -> None:
    assert HOMOGLYPH_WEIGHTS["\u0430"] == 24 and HOMOGLYPH_WEIGHTS["\u0410"] == 4
    rng = random.Random(0)
    drawn = [lookalike("ab-c", "homoglyph", rng) for _ in range(400)]
    # 'a' has a weight-24 look-alike (а); 'c' too (с): both show, each about half the time
    assert 120 < drawn.count("\u0430b-c") < 280 and 120 < drawn.count("ab-\u0441") < 280
