"""Look-alike IDs never look the same: one visible notation on every surface, and safe text reprs.

Covers :func:`helpers.core.chardiff.visible_id` (Hypothesis: different IDs never show the same),
the HTML and the plain-text reprs of every render helper, the widgets' labels and feedback,
maths-looking IDs, and lone surrogates (which must never make an output unsendable).
"""

from __future__ import annotations

import html
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.chardiff import visible_id, visible_text
from helpers.trainee import practice
from helpers.trainee.cases.filled import Case
from helpers.trainee.grading import Answer, correct_answer
from helpers.trainee.views import case_html
from helpers.trainee.widgets import CaseExercise

ZERO = next(case for case in practice.practice_cases() if case.id == "zero-width-target")
CAFE = next(case for case in practice.practice_cases() if case.id == "decomposed-sentinel-id")
SURROGATE = chr(0xD800)


@given(st.text(max_size=8), st.text(max_size=8))
def test_two_different_ids_never_show_the_same(a: str, b: str) -> None:
    if a != b:
        assert visible_id(a) != visible_id(b)


@given(st.text(max_size=12))
def test_the_notation_is_visible_and_sendable(text: str) -> None:
    shown = visible_id(text)
    shown.encode("utf-8")  # never a lone surrogate
    for char in shown:
        category = unicodedata.category(char)
        assert category[0] in "LNPS", f"{char!r} ({category}) would be invisible or space-like"
        assert unicodedata.normalize("NFKC", char) == char or char in "·"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("pay\u200broll", "pay⟨U+200B⟩roll"),
        ("cafe\u0301-1", "cafe⟨U+0301⟩-1"),
        ("café-1", "café-1"),
        ("\uff50ayroll", "⟨U+FF50⟩ayroll"),
        ("p\u0430yroll", "p⟨U+0430⟩yroll"),  # Cyrillic а
        ("refresher ", "refresher·"),
        ("a\u00a0b", "a⟨U+00A0⟩b"),
        ("x\u2010y", "x⟨U+2010⟩y"),  # a hyphen that is not ASCII
        ("😀-survey", "😀-survey"),
        ("$x^2$", "$x^2$"),
        ("a·b", "a⟨U+00B7⟩b"),
    ],
)
def test_visible_id_examples(raw: str, shown: str) -> None:
    assert visible_id(raw) == shown


def _surfaces(case: Case) -> dict[str, case_html.HtmlBlock]:
    return {
        "cases_table": case_html.cases_table([case]),
        "supplied_input": case_html.supplied_input(case),
        "worked_answer": case_html.worked_answer(case),
        "run_cases": case_html.run_cases([case]),
        "check_block": case_html.check_block(case.check, case.input),
    }


@pytest.mark.parametrize("case", [ZERO, CAFE], ids=lambda c: c.id)
def test_every_render_surface_shows_the_look_alikes_distinctly(case: Case) -> None:
    hidden = {"zero-width-target": "pay⟨U+200B⟩roll", "decomposed-sentinel-id": "cafe⟨U+0301⟩-1"}[case.id]
    for name, block in _surfaces(case).items():
        text, page = repr(block), block._repr_html_().replace("<wbr>", "")
        for shown in (text, page):
            assert "\u200b" not in shown and "\u0301" not in shown, name
        if name in ("worked_answer", "run_cases") and case is CAFE:
            continue  # its answer names only café-1; the look-alike is in the input
        assert hidden in text, name
        assert html.escape(hidden) in page, name
        assert "mathjax_ignore" in page, name


def test_widget_labels_feedback_and_answer_tell_look_alikes_apart() -> None:
    exercise = CaseExercise(ZERO)
    labels = [box.description for box in exercise.first_boxes.values()]
    assert labels == ["missing: induction", "missing: payroll", "missing: pay⟨U+200B⟩roll"]
    assert "pay⟨U+200B⟩roll" in exercise.describe() and "\u200b" not in exercise.describe()
    exercise.set_answer(
        Answer(
            "target-scope",
            missing=frozenset({"pay\u200broll"}),
            flag=False,
            reason=correct_answer(ZERO).reason,
        )
    )
    feedback = exercise.check()
    lines = [m.message for m in feedback.mistakes]
    wrong = next(
        line for line in lines if line.startswith("`missing` has `pay⟨U+200B⟩roll`, which was never")
    )
    assert "it only looks like an original target" in wrong
    # The look-alike the trainee left unmarked is counted, never named.
    assert "`missing` is incomplete: one original target is not in the rewrite as written" in lines[0]
    assert not any("`payroll`" in line for line in lines)
    exercise.show_worked_answer()
    assert "pay⟨U+200B⟩roll" in exercise.reveal.value and "\u200b" not in exercise.reveal.value


def test_cafe_feedback_does_not_contradict_itself() -> None:
    exercise = CaseExercise(CAFE)
    exercise.set_answer(
        Answer(
            "sentinels", missing=frozenset({"cafe\u0301-1"}), flag=False, reason=correct_answer(CAFE).reason
        )
    )
    lines = [m.message for m in exercise.check().mistakes]
    assert any(
        "`cafe⟨U+0301⟩-1`, which is not in the baseline" in line and "only looks like a sentinel" in line
        for line in lines
    )
    assert any(line.startswith("`missing` is incomplete: one baseline sentinel is absent") for line in lines)
    assert not any("café-1" in line for line in lines)


MATHS = Case(
    "target-scope",
    "$x^2$",
    "Title $a$",
    {"original": ["$x^2$", "k"], "rewritten": ["k"]},
    {"missing": ["$x^2$"], "added": [], "preserved": False},
    "Reject $b$",
    "Because $c$",
)


def test_maths_looking_ids_titles_and_reasons_are_never_typeset() -> None:
    for name, block in _surfaces(MATHS).items():
        page = block._repr_html_()
        assert page.count('class="eic-block mathjax_ignore tex2jax_ignore"') == 1, name
    exercise = CaseExercise(MATHS)
    maths = exercise.first_boxes["$x^2$"]
    assert maths.description_allow_html and 'class="mathjax_ignore' in maths.description
    assert ">$x^2$<" in maths.description
    assert not exercise.first_boxes["k"].description_allow_html
    exercise.check()
    assert exercise.feedback.value.startswith('<div class="mathjax_ignore')


SURROGATE_CASE = Case(
    "target-scope",
    "lone-" + SURROGATE,
    "Title " + SURROGATE,
    {"original": [SURROGATE, "k"], "rewritten": ["k"]},
    {"missing": [SURROGATE], "added": [], "preserved": False},
    "Reject",
    "Because " + SURROGATE,
)


@pytest.mark.parametrize(
    "name", ["cases_table", "supplied_input", "worked_answer", "run_cases", "check_block"]
)
def test_lone_surrogates_never_make_an_output_unsendable(name: str) -> None:
    block = _surfaces(SURROGATE_CASE)[name]
    repr(block).encode("utf-8")
    block._repr_html_().encode("utf-8")
    assert "⟨U+D800⟩" in repr(block)


def test_widgets_with_a_lone_surrogate_still_send() -> None:
    exercise = CaseExercise(SURROGATE_CASE)
    exercise._repr_mimebundle_()["text/plain"].encode("utf-8")
    for box in exercise.first_boxes.values():
        box.description.encode("utf-8")
    exercise.check()
    exercise.feedback.value.encode("utf-8")


def test_prose_keeps_its_punctuation_but_shows_invisible_characters() -> None:
    assert visible_text("A… “quoted” — done") == "A… “quoted” — done"
    assert visible_text("pay\u200broll and \uff50") == "pay⟨U+200B⟩roll and ⟨U+FF50⟩"


#: Blank-looking characters of every kind: Hangul fillers, the braille blank, wide and narrow spaces,
#: format characters, a combining mark alone, variation selectors and tags.
BLANKS = (
    "\u3164\u115f\u1160\uffa0\u2800\u3000\u2000\u2005\u200a\u205f\u180e\u034f\u061c\ufe0f\ufe00"
    "\U000e0041\U000e0001\U000e0100\u200b\u200d\u2060\ufeff\u00a0\u00ad\u17b4\U0001d173\u0301\u2028\U0001d159"
)


@pytest.mark.parametrize("char", sorted(BLANKS), ids=lambda c: f"U+{ord(c):04X}")
def test_a_checkbox_label_codes_each_blank_looking_character(char: str) -> None:
    from helpers.trainee.widgets.base import id_checkbox

    box = id_checkbox(f"pay{char}roll", "missing")
    assert char not in box.description and f"⟨U+{ord(char):04X}⟩" in box.description
