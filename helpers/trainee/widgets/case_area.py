"""The case on show in a drill: its input, the answer controls, Check, hints and the worked answer.

A thin view over a drill engine (:class:`helpers.trainee.drill.engine.DrillSession` or
:class:`~helpers.trainee.drill.course_session.CourseSession`): the engine grades, counts the hints
and keeps the score; this only shows the case and passes on the clicks. Both the
mastery drill and the set course show their cases through it. Taught in
``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from helpers.trainee.cases.rules import Rule
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.grading import Answer
from helpers.trainee.html import Html, html_join, prose
from helpers.trainee.html import html as markup
from helpers.trainee.views.case_html import (
    HIDE_SUMMARY,
    REVEAL_SUMMARY,
    esc,
    feedback_html,
    hint_html,
    json_html,
    reveal_html,
)
from helpers.trainee.views.inputs import context_view, input_view
from helpers.trainee.widgets.base import NO_HTML, html, view_markup, wrap_html, wrap_row
from helpers.trainee.widgets.exercise import AnswerControls, case_widgets, unset_html

__all__ = ["CaseArea", "OUTCOME_NOTES"]

#: What the scored note says for each outcome, in words and a symbol (never colour alone).
OUTCOME_NOTES = {
    "correct": Html("<b>✔ Scored: correct first try, unaided.</b>"),
    "helped": Html(
        "<b>◐ Scored: right, but helped by a hint</b>, so it does not count as your own first try."
    ),
    "missed": Html("<b>✘ Scored: missed.</b>"),
    "revealed": Html("<b>✘ Scored: missed</b>, because the worked answer was shown before a check."),
    "skipped": Html("<b>✘ Scored: missed</b>, because the case was skipped."),
}

_CHECK_KEYS = {"original", "rewritten", "unresolved", "query", "rewritten_query", "baseline", "proposed"}


def input_html(view: CaseView) -> Html:
    """The supplied input, and any context beside it, as the trainee reads it."""
    record = view.plain_input()
    supplied = {k: v for k, v in record.items() if k in _CHECK_KEYS}
    context = {k: v for k, v in record.items() if k not in _CHECK_KEYS}
    parts = [
        markup(
            "<p><b>Supplied input</b> for {}:</p>{}", esc(view.label), view_markup(input_view(supplied).html)
        )
    ]
    for key, name in (("query", "Original query"), ("rewritten_query", "Rewritten query")):
        if isinstance(supplied.get(key), str):
            parts.append(markup("<p><b>{}:</b> {}</p>", name, prose(supplied[key])))
    if context:
        parts.append(
            markup(
                "<p><b>Context</b> (the check does not read this; it tells you what happened):</p>{}",
                view_markup(context_view(context).html),
            )
        )
    return html_join(parts)


class _Shown:
    """What :meth:`Answer.as_dict` reads of a case: only its input, as the trainee sees it."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.input = record


class CaseArea:
    """The case on show, over the engine ``engine()`` returns; ``on_scored`` runs after each scoring."""

    def __init__(
        self,
        engine: Callable[[], Any],
        rules: Sequence[Rule],
        *,
        on_scored: Callable[[], None],
        next_label: str = "Next case",
    ) -> None:
        self._engine = engine
        self._rules = list(rules)
        self._on_scored = on_scored
        self._next_label = next_label
        self.inputs: AnswerControls | None = None
        self.case_view = html(css="eic-case")
        self.slot = w.VBox()
        (
            self.live,
            self.check_button,
            self.hint_button,
            self.reveal_button,
            self.feedback,
            self.hint_view,
            self.reveal,
        ) = case_widgets()
        self.scored_view = html(css="eic-scored")
        self.check_button.on_click(lambda _b: self.check())
        self.hint_button.on_click(lambda _b: self.hint())
        self.reveal_button.on_click(lambda _b: self.toggle_worked_answer())
        self.buttons = wrap_row([self.check_button, self.hint_button, self.reveal_button])
        self.widget = w.VBox(
            [
                self.case_view,
                self.slot,
                self.buttons,
                self.feedback,
                self.hint_view,
                self.reveal,
                self.scored_view,
            ]
        )
        self.widget.add_class("eic-exercise")

    def show(self, view: CaseView | None, *, finished: Html = NO_HTML) -> None:
        """Show ``view`` with fresh controls, or ``finished`` when no case is left."""
        for area in (self.feedback, self.hint_view, self.reveal, self.scored_view, self.live):
            area.value = ""
        self.reveal_button.description = REVEAL_SUMMARY
        if view is None:
            self.inputs = None
            self.slot.children = ()
            self.case_view.value = wrap_html(finished)
            self.buttons.layout.display = "none"
            return
        self.buttons.layout.display = None
        self.inputs = AnswerControls(view.check, view.ids, view.reason_options, on_change=self._changed)
        heading = html(markup("<b>Your answer</b> for {}", esc(view.label)), css="eic-answer-heading")
        self.slot.children = (heading, *self.inputs.rows(), self.live)
        self.case_view.value = wrap_html(input_html(view))
        self.check_button.disabled = False
        self.hint_button.disabled = False
        self._show_live()

    def _changed(self) -> None:
        self.feedback.value = ""
        self._show_live()

    def _show_live(self) -> None:
        view = self._engine().current
        if view is None or self.inputs is None:
            return
        answer = self.inputs.answer()
        built = answer.as_dict(_Shown(view.plain_input()))  # type: ignore[arg-type]
        reason = markup("<code>{}</code>", esc(answer.reason)) if answer.reason else Html("not picked yet")
        self.live.value = wrap_html(
            markup(
                "<div><b>The JSON you are building</b></div>{}<div>Reason: {}</div>", json_html(built), reason
            )
        )

    def set_answer(self, answer: Answer) -> None:
        """Put ``answer`` into the controls."""
        assert self.inputs is not None
        self.inputs.set_answer(answer)

    def answer(self) -> Answer:
        """The answer the controls show."""
        assert self.inputs is not None
        return self.inputs.answer()

    def check(self) -> None:
        """Check the answer on screen; the first check scores the case.

        With the flag or the reason unset it names them and checks nothing: no attempt is recorded.
        """
        unset = self.inputs.unset() if self.inputs is not None else ()
        if unset:
            self.feedback.value = wrap_html(unset_html(unset))
            return
        engine = self._engine()
        result = engine.check(self.answer())
        self.feedback.value = wrap_html(view_markup(feedback_html(result.correct, list(result.mistakes))))
        if result.correct:
            self.hint_view.value = ""
        self._note(first=result.scored)

    def hint(self) -> None:
        """Show the next rung of the hint ladder (a hinted answer is recorded, not counted as unaided)."""
        engine = self._engine()
        engine.hint()
        last = engine.hints_left == 0
        self.hint_button.disabled = last
        self.hint_view.value = wrap_html(view_markup(hint_html(engine.shown_hints(), last=last)))

    def toggle_worked_answer(self) -> None:
        """Show the worked answer (a miss if no check came first), or hide it again."""
        if self.reveal.value:
            self.reveal.value = ""
            self.reveal_button.description = REVEAL_SUMMARY
            return
        engine = self._engine()
        engine.reveal()
        case = engine.worked_case()
        assert case is not None
        self.reveal.value = wrap_html(view_markup(reveal_html(case)))
        self.reveal_button.description = HIDE_SUMMARY
        self._note(first=False)

    def _note(self, *, first: bool) -> None:
        engine = self._engine()
        attempt = engine.current_scored
        if attempt is not None:
            outcome = getattr(attempt, "outcome", "") or getattr(attempt, "how", "missed")
            rule = engine.scored_rule
            statement = next((r.statement for r in self._rules if r.id == rule), "")
            again = "" if first else " Checking again gives feedback but does not change your score."
            self.scored_view.value = wrap_html(
                markup(
                    '<div class="eic-scored-note" role="status">{}{} '
                    "This case was about <code>{}</code>: {} "
                    "Press <b>{}</b> when you are ready.</div>",
                    OUTCOME_NOTES[outcome],
                    again,
                    esc(rule),
                    esc(statement),
                    esc(self._next_label),
                )
            )
        self._on_scored()

    def describe_lines(self) -> list[str]:
        """The controls as text lines (empty when no case is on show)."""
        view = self._engine().current
        if view is None or self.inputs is None:
            return []
        return [f"  {view.label} ({view.check})", *self.inputs.describe_lines()]
