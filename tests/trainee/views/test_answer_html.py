"""The answer side of a case (``helpers/trainee/views/answer_html.py``): reveal, feedback, hints, escaped."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.cases.filled import get_case
from helpers.trainee.views.answer_html import (
    REVEAL_SUMMARY,
    feedback_html,
    hint_html,
    reveal_html,
    ticked_html,
    verdict_text,
)


def test_the_reveal_shows_the_expected_output_decision_and_reason() -> None:
    case = get_case("lost-comparison")
    shown = reveal_html(case)
    assert shown.startswith(
        '<div class="eic-reveal"><p><b>Expected structured output</b></p><pre class="eic-json">'
    )
    assert "{&quot;missing&quot;:[&quot;refresher&quot;],<wbr>&quot;added&quot;:[]" in shown
    assert (
        f"<p><b>Decision:</b> {case.decision}.</p>" in shown
        and f"<p><b>Reason:</b> {case.reason}</p>" in shown
    )


def test_the_verdict_counts_the_things_to_fix() -> None:
    assert [verdict_text(n) for n in (0, 1, 2)] == [
        "✔ Fully correct.",
        "✘ Not yet: 1 thing to fix.",
        "✘ Not yet: 2 things to fix.",
    ]


def test_feedback_is_announced_in_a_widget_and_not_in_a_table() -> None:
    right = feedback_html(True, [])
    assert right == (
        '<div class="eic-feedback eic-correct" role="status" aria-live="polite" aria-atomic="true">'
        "<b>✔ Fully correct.</b> Every field and every ID is right.</div>"
    )
    assert feedback_html(False, [("missing", "`missing` has `a<b`")], live=False) == (
        '<div class="eic-feedback eic-wrong"><b>✘ Not yet: 1 thing to fix.</b><ul>'
        '<li><code class="eic-id">missing</code> has <code class="eic-id">a&lt;b</code></li></ul></div>'
    )


def test_hints_are_numbered_and_the_last_points_to_the_worked_answer() -> None:
    assert hint_html(["one `x`"], last=False) == (
        '<div class="eic-hints" role="status" aria-live="polite"><b>Hints</b><ol>'
        '<li>one <code class="eic-id">x</code></li></ol></div>'
    )
    assert hint_html(["a", "b", "c"], last=True).endswith(
        f"<p>That was the last hint. Next comes the worked answer: <b>{REVEAL_SUMMARY}</b>.</p></div>"
    )


def test_invisible_characters_in_ticked_text_are_shown() -> None:
    assert ticked_html("`pay\u200broll` & more") == '<code class="eic-id">pay⟨U+200B⟩roll</code> &amp; more'


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_ticked_text_never_makes_an_element_other_than_code(text: str) -> None:
    shown = ticked_html(text)
    stripped = shown.replace('<code class="eic-id">', "").replace("</code>", "")
    assert "<" not in stripped and ">" not in stripped
