"""HTML for the answer side of a case: the worked answer revealed, feedback on an answer, the hints.

Every string that goes into HTML is escaped here. Shown by the work-it-yourself
widget (``02_target_scope.ipynb``, ``03_sentinel_answer_key.ipynb``) and by the
tables of graded answers; :mod:`helpers.trainee.views.case_html` shows the rest of
a case. No widgets here. Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from helpers.trainee.html import Html, html, html_join, json_html, prose

if TYPE_CHECKING:  # a case is only read here; its loader comes in when a case is loaded
    from helpers.trainee.cases.filled import Case

__all__ = [
    "REVEAL_SUMMARY",
    "HIDE_SUMMARY",
    "reveal_html",
    "feedback_html",
    "verdict_text",
    "ticked_html",
    "hint_html",
]

#: The label of every worked-answer reveal, widget button and ``<details>`` alike.
REVEAL_SUMMARY = "Show the worked answer"
#: The widget's reveal button once the answer shows: it hides it again.
HIDE_SUMMARY = "Hide the worked answer"


def reveal_html(case: Case) -> Html:
    """The worked answer: expected output, decision and reason. Same in widget and ``<details>``."""
    return html(
        '<div class="eic-reveal">'
        "<p><b>Expected structured output</b></p>{}"
        "<p><b>Decision:</b> {}.</p>"
        "<p><b>Reason:</b> {}</p>"
        "</div>",
        json_html(case.expected),
        prose(case.decision, notated=True),
        prose(case.reason, notated=True),
    )


def feedback_html(correct: bool, mistakes: Sequence[tuple[str, str]], *, live: bool = True) -> Html:
    """Grading feedback: a verdict, then one line per ``(field, message)`` mistake.

    The verdict is in words and a symbol, never colour alone. In a widget it is
    announced when it appears (``role="status"``); ``live=False`` leaves that out,
    for the tables of graded answers in ``02_target_scope.ipynb`` and ``03_…``.
    """
    announce = html(' role="status" aria-live="polite" aria-atomic="true"') if live else Html()
    verdict = verdict_text(len(mistakes))
    if correct:
        return html(
            '<div class="eic-feedback eic-correct"{}><b>{}</b> Every field and every ID is right.</div>',
            announce,
            verdict,
        )
    items = html_join(
        html("<li>{}</li>", _ticked(prose(message, notated=True))) for _field, message in mistakes
    )
    return html('<div class="eic-feedback eic-wrong"{}><b>{}</b><ul>{}</ul></div>', announce, verdict, items)


def verdict_text(count: int) -> str:
    """The verdict that heads the feedback on an answer with ``count`` mistakes.

    Shown by the widgets and in the "Wrong answers, graded" tables of ``02_target_scope.ipynb``
    and ``03_sentinel_answer_key.ipynb``.
    """
    if count == 0:
        return "✔ Fully correct."
    return f"✘ Not yet: {count} {'thing' if count == 1 else 'things'} to fix."


_BACKTICKED = re.compile(r"`([^`]+)`")


def ticked_html(text: str) -> Html:
    """Feedback or hint text for HTML: invisible characters shown, escaped, each `backticked` name as code.

    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("Wrong answers, graded").
    """
    return _ticked(prose(text, notated=True))


def _ticked(escaped: Html) -> Html:
    """Escaped feedback text with each `backticked` field or ID as literal ``<code>``."""
    # No bypass: the text is escaped already, and the substitution only puts spans of it (cut at
    # backticks, which no entity holds) inside a literal element.
    return Html(_BACKTICKED.sub(r'<code class="eic-id">\1</code>', escaped))


def hint_html(rungs: Sequence[str], *, last: bool) -> Html:
    """The hints shown so far, numbered, announced; after the last, point to the worked answer."""
    items = html_join(html("<li>{}</li>", _ticked(prose(rung, notated=True))) for rung in rungs)
    after = (
        html("<p>That was the last hint. Next comes the worked answer: <b>{}</b>.</p>", REVEAL_SUMMARY)
        if last
        else Html()
    )
    return html(
        '<div class="eic-hints" role="status" aria-live="polite"><b>Hints</b><ol>{}</ol>{}</div>',
        items,
        after,
    )
