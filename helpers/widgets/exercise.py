"""The work-it-yourself widget: build the output, check it, reveal the answer.

Taught in ``01_start_here.ipynb`` ("How the widgets work"); one per filled
case in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from ..core.chardiff import visible_id
from ..teach.cases import Case
from ..teach.grading import (
    Answer,
    Grade,
    answer_fields,
    candidate_ids,
    decisive_rules,
    grade,
    hints,
    reason_choices,
)
from ..teach.render import (
    HIDE_SUMMARY,
    REVEAL_SUMMARY,
    esc,
    esc_id,
    feedback_html,
    hint_html,
    json_html,
    reveal_html,
)
from ..teach.rules import Rule
from .base import TextPicture, auto_layout, button, frame, html, id_checkbox, wrap_html, wrap_row

__all__ = ["CaseExercise"]

#: The hint button's label: a name that makes sense alone.
HINT_LABEL = "Show the next hint"

_HOLD_LABELS = {
    "target-scope": "Hold: needs staff labels",
    "sentinels": "Refuse: the check cannot run on this input",
}


class CaseExercise(TextPicture):
    """Work one case: pick IDs, set the flag, check the answer, reveal the worked answer.

    Drive it without a front end: set ``.value`` on the controls in
    :attr:`first_boxes`, :attr:`second_boxes`, :attr:`flag` and :attr:`hold`,
    then call ``check_button.click()`` or ``reveal_button.click()`` (a second
    click hides the answer again). The flag is a labelled radio group, so its
    state is exposed to assistive technology, not shown by styling alone.

    When the case has a deciding rule (every filled, practice and generated
    case), :attr:`reason` asks for it too: the right rule or rules plus
    distractors from the same check; pass ``ask_reason=False`` to leave it out.
    :attr:`hint_button` steps down the hint ladder (rule, where to look, the
    specific ID); :attr:`hints_used` counts the rungs shown. Taught in
    ``01_start_here.ipynb``.
    """

    def __init__(
        self,
        case: Case,
        *,
        on_graded: Callable[[Grade], None] | None = None,
        ask_reason: bool = True,
        rules: Sequence[Rule] | None = None,
        on_hint: Callable[[int], None] | None = None,
        on_reveal: Callable[[], None] | None = None,
    ) -> None:
        self.case = case
        self._on_graded = on_graded
        self._on_hint = on_hint
        self._on_reveal = on_reveal
        self._rules = list(rules) if rules is not None else None
        self.asks_reason = ask_reason and bool(decisive_rules(case))
        self.hints_used = 0
        self.revealed = False
        self.choices = reason_choices(case, self._rules) if self.asks_reason else []
        self.reason = w.RadioButtons(
            options=[(f"{rule.id}: {rule.statement}", rule.id) for rule in self.choices],
            value=None,
            description="reason",
            layout=auto_layout(),
        )
        self.reason.add_class("eic-reason")
        first, second, flag = answer_fields(case.check)
        ids = candidate_ids(case)
        self.first_boxes = {i: id_checkbox(i, first) for i in ids}
        self.second_boxes = {i: id_checkbox(i, second) for i in ids}
        self.flag = w.RadioButtons(
            options=[(f"{flag}: true", True), (f"{flag}: false", False)],
            value=None,
            description=flag,
            layout=auto_layout(),
        )
        self.hold = w.Checkbox(
            value=False, description=_HOLD_LABELS[case.check], indent=False, layout=auto_layout()
        )
        self.live = html(css="eic-live")
        self.check_button = button("Check my answer", "eic-check", button_style="primary")
        self.reveal_button = button(REVEAL_SUMMARY, "eic-show-answer")
        self.hint_button = button(HINT_LABEL, "eic-hint")
        self.feedback = html(css="eic-feedback-area")
        self.hint_view = html(css="eic-hint-area")
        self.reveal = html(css="eic-reveal-area")
        for control in (
            *self.first_boxes.values(),
            *self.second_boxes.values(),
            self.flag,
            self.hold,
            self.reason,
        ):
            control.observe(self._changed, names="value")
        self.check_button.on_click(lambda _button: self.check())
        self.reveal_button.on_click(lambda _button: self.toggle_worked_answer())
        self.hint_button.on_click(lambda _button: self.hint())
        reason_rows: list[w.Widget] = []
        if self.asks_reason:
            reason_rows = [
                html("<b>Why?</b> Pick the rule that decides this case."),
                self.reason,
            ]
        self.widget = frame(
            [
                html(f'<b>Your answer</b> for <code class="eic-id">{esc_id(case.id)}</code>'),
                wrap_row([self._column(first, self.first_boxes), self._column(second, self.second_boxes)]),
                self.flag,
                self.hold,
                *reason_rows,
                self.live,
                wrap_row([self.check_button, self.hint_button, self.reveal_button]),
                self.feedback,
                self.hint_view,
                self.reveal,
            ],
            "eic-exercise",
        )
        self.flag.add_class("eic-flag")
        self.hold.add_class("eic-hold")
        self._show_live()

    @staticmethod
    def _column(field: str, boxes: dict[str, w.Checkbox]) -> w.VBox:
        column = w.VBox(
            [html(f"<b>{esc(field)}</b>"), *boxes.values()],
            layout=w.Layout(margin="0 3em 0 0"),
        )
        column.add_class(f"eic-column-{field}")
        return column

    def answer(self) -> Answer:
        """The answer the controls currently show."""
        return Answer(
            self.case.check,
            missing=frozenset(i for i, box in self.first_boxes.items() if box.value),
            second=frozenset(i for i, box in self.second_boxes.items() if box.value),
            flag=self.flag.value,
            hold=self.hold.value,
            reason=self.reason.value if self.asks_reason else None,
        )

    def set_answer(self, answer: Answer) -> None:
        """Put ``answer`` into the controls (used by tests and the practice drill)."""
        for i, box in self.first_boxes.items():
            box.value = i in answer.missing
        for i, box in self.second_boxes.items():
            box.value = i in answer.second
        self.flag.value = answer.flag
        self.hold.value = answer.hold
        if self.asks_reason:
            self.reason.value = answer.reason if answer.reason in {r.id for r in self.choices} else None

    def _changed(self, _change: dict[str, Any]) -> None:
        self.feedback.value = ""
        self._show_live()

    def _show_live(self) -> None:
        built = self.answer().as_dict(self.case)
        self.live.value = wrap_html(f"<div><b>The JSON you are building</b></div>{json_html(built)}")

    def check(self) -> Grade:
        """Grade the current answer and show feedback naming each field and rule to apply."""
        result = grade(self.case, self.answer(), ask_reason=self.asks_reason, rules=self._rules)
        self.feedback.value = wrap_html(
            feedback_html(result.correct, [(m.field, m.message) for m in result.mistakes])
        )
        if self._on_graded is not None:
            self._on_graded(result)
        return result

    def hint(self) -> str:
        """Show the next rung of the hint ladder for the current answer (three rungs, then none)."""
        ladder = hints(self.case, self.answer(), ask_reason=self.asks_reason, rules=self._rules)
        if self.hints_used < len(ladder):
            self.hints_used += 1
            if self._on_hint is not None:
                self._on_hint(self.hints_used)
        shown = ladder[: self.hints_used]
        last = self.hints_used >= len(ladder)
        self.hint_button.disabled = last
        self.hint_view.value = wrap_html(hint_html(shown, last=last))
        return shown[-1]

    def show_worked_answer(self) -> None:
        """Reveal the expected output, decision and reason (works before any answer)."""
        self.reveal.value = wrap_html(reveal_html(self.case))
        self.reveal_button.description = HIDE_SUMMARY
        if not self.revealed:
            self.revealed = True
            if self._on_reveal is not None:
                self._on_reveal()

    def hide_worked_answer(self) -> None:
        """Hide the worked answer again."""
        self.reveal.value = ""
        self.reveal_button.description = REVEAL_SUMMARY

    def toggle_worked_answer(self) -> None:
        """The reveal button: show the worked answer, or hide it when it shows."""
        if self.reveal.value:
            self.hide_worked_answer()
        else:
            self.show_worked_answer()

    def describe(self) -> str:
        """A plain-text picture of the controls, read from the live widgets."""

        def ticks(field: str, boxes: dict[str, w.Checkbox]) -> str:
            marks = "  ".join(f"[{'x' if b.value else ' '}] {visible_id(i)}" for i, b in boxes.items())
            return f"  {field}: {marks}"

        first, second, _ = answer_fields(self.case.check)
        flag = "  ".join(
            f"({'*' if self.flag.value is value else ' '}) {label.split(': ')[-1]}"
            for label, value in self.flag.options
        )
        lines = [
            f"Work-it-yourself widget: {visible_id(self.case.id)}",
            ticks(first, self.first_boxes),
            ticks(second, self.second_boxes),
            f"  {self.flag.description}: {flag}",
            f"  [{'x' if self.hold.value else ' '}] {self.hold.description}",
        ]
        if self.asks_reason:
            picks = "  ".join(f"({'*' if self.reason.value == r.id else ' '}) {r.id}" for r in self.choices)
            lines.append(f"  reason: {picks}")
        lines.append(
            f"  buttons: [{self.check_button.description}] [{self.hint_button.description}] "
            f"[{self.reveal_button.description}]"
        )
        return "\n".join(lines)
