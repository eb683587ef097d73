"""The work-it-yourself widget: build the output, check it, reveal the answer.

Taught in ``01_start_here.ipynb`` ("How the widgets work"); one per filled
case in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from helpers.core.chardiff import visible_id, visible_text
from helpers.trainee.answers import HOLD_LABELS
from helpers.trainee.cases.rules import Rule
from helpers.trainee.grading import (
    Answer,
    Grade,
    answer_fields,
    candidate_ids,
    decisive_rules,
    grade,
    hints,
    reason_options,
)
from helpers.trainee.html import Html, esc, esc_id, json_html
from helpers.trainee.html import html as markup
from helpers.trainee.views.answer_html import (
    HIDE_SUMMARY,
    REVEAL_SUMMARY,
    feedback_html,
    hint_html,
    reveal_html,
)
from helpers.trainee.views.reasons import reasons_html, rules_for
from helpers.trainee.widgets.base import (
    TextPicture,
    auto_layout,
    button,
    frame,
    html,
    id_checkbox,
    view_markup,
    wrap_html,
    wrap_row,
)

if TYPE_CHECKING:  # a case is only read here; its loader comes in when a case is loaded
    from helpers.trainee.cases.filled import Case

__all__ = ["CaseExercise", "AnswerControls", "case_widgets", "unset_html"]

#: The hint button's label: a name that makes sense alone.
HINT_LABEL = "Show the next hint"

_HOLD_LABELS = HOLD_LABELS


def unset_html(unset: Sequence[str]) -> Html:
    """What Check says when parts of the answer are unset: it names them, and nothing is checked or scored."""
    return markup(
        '<div class="eic-unset" role="alert"><b>⚠ Not checked yet.</b> Still unset: {}. '
        "Set them, then press <b>Check my answer</b>. Nothing was checked or scored.</div>",
        esc(", ".join(unset)),
    )


def case_widgets() -> tuple[w.HTML, w.Button, w.Button, w.Button, w.HTML, w.HTML, w.HTML]:
    """A case's live JSON, its Check, hint and reveal buttons, and the areas they write to.

    The same for a filled case and for a drill's case, so browser tests find them by one set of classes.
    """
    return (
        html(css="eic-live"),
        button("Check my answer", "eic-check", button_style="primary"),
        button(HINT_LABEL, "eic-hint"),
        button(REVEAL_SUMMARY, "eic-show-answer"),
        html(css="eic-feedback-area"),
        html(css="eic-hint-area"),
        html(css="eic-reveal-area"),
    )


class AnswerControls:
    """The controls a trainee answers with: IDs to tick in two lists, the flag, hold, and the reason.

    Shared by the filled-case exercise, the drill and the check-out. ``reason_options`` are
    ``(text, rule_id)`` pairs in the order shown (the text a rule's short name, then its id:
    :attr:`~helpers.trainee.cases.rules.Rule.label`); each radio button comes first, before the
    first line of its label, and what each rule says is folded away under the options
    (:func:`~helpers.trainee.views.reasons.reasons_html`, from ``rules`` or the project's).
    ``on_change`` runs whenever any control changes.
    """

    def __init__(
        self,
        check: str,
        ids: Sequence[str],
        reason_options: Sequence[tuple[str, str]],
        *,
        on_change: Callable[[], None] | None = None,
        rules: Sequence[Rule] | None = None,
    ) -> None:
        self.check = check
        first, second, flag = answer_fields(check)
        self.fields = (first, second, flag)
        self.first_boxes = {i: id_checkbox(i, first) for i in ids}
        self.second_boxes = {i: id_checkbox(i, second) for i in ids}
        self.flag = w.RadioButtons(
            options=[(f"{flag}: true", True), (f"{flag}: false", False)],
            value=None,
            description=flag,
            layout=auto_layout(),
        )
        self.flag.add_class("eic-flag")
        self.hold = w.Checkbox(
            value=False, description=_HOLD_LABELS[check], indent=False, layout=auto_layout()
        )
        self.hold.add_class("eic-hold")
        self.reason_ids = [rule_id for _text, rule_id in reason_options]
        self.reason = w.RadioButtons(
            options=list(reason_options), value=None, description="reason", layout=auto_layout()
        )
        self.reason.add_class("eic-reason")
        self.reason_notes = html(
            view_markup(reasons_html(rules_for(self.reason_ids, rules))), css="eic-reason-notes-area"
        )
        self._on_change = on_change
        for control in self.controls():
            control.observe(self._changed, names="value")

    def controls(self) -> list[w.ValueWidget]:
        """Every control whose value is part of the answer."""
        return [*self.first_boxes.values(), *self.second_boxes.values(), self.flag, self.hold, self.reason]

    def _changed(self, _change: dict[str, Any]) -> None:
        if self._on_change is not None:
            self._on_change()

    @property
    def asks_reason(self) -> bool:
        """True when there are reasons to pick from."""
        return bool(self.reason_ids)

    def rows(self) -> list[w.Widget]:
        """The controls laid out: the two ID columns, the flag, hold, and the reason question."""
        first, second, _flag = self.fields
        rows: list[w.Widget] = [
            wrap_row([_column(first, self.first_boxes), _column(second, self.second_boxes)]),
            self.flag,
            self.hold,
        ]
        if self.asks_reason:
            rows += [
                html(Html("<b>Why?</b> Pick the rule that decides this case.")),
                self.reason,
                self.reason_notes,
            ]
        return rows

    def answer(self) -> Answer:
        """The answer the controls currently show."""
        return Answer(
            self.check,
            missing=frozenset(i for i, box in self.first_boxes.items() if box.value),
            second=frozenset(i for i, box in self.second_boxes.items() if box.value),
            flag=self.flag.value,
            hold=self.hold.value,
            reason=self.reason.value if self.asks_reason else None,
        )

    def set_answer(self, answer: Answer) -> None:
        """Put ``answer`` into the controls (used by tests and simulated trainees)."""
        for i, box in self.first_boxes.items():
            box.value = i in answer.missing
        for i, box in self.second_boxes.items():
            box.value = i in answer.second
        self.flag.value = answer.flag
        self.hold.value = answer.hold
        if self.asks_reason:
            self.reason.value = answer.reason if answer.reason in self.reason_ids else None

    def unset(self) -> tuple[str, ...]:
        """What the answer leaves unset: the flag (unless held or refused), then the reason.

        The ID lists are never unset: an empty list is an answer. Check names these and scores nothing.
        """
        missing = []
        if self.flag.value is None and not self.hold.value:
            word = _HOLD_LABELS[self.check].split(":")[0]
            missing.append(f"{self.fields[2]} (true or false, or tick {word})")
        if self.asks_reason and self.reason.value is None:
            missing.append("the reason")
        return tuple(missing)

    def describe_lines(self) -> list[str]:
        """The controls as plain-text lines, read from the live widgets."""

        def ticks(field: str, boxes: dict[str, w.Checkbox]) -> str:
            marks = "  ".join(f"[{'x' if b.value else ' '}] {visible_id(i)}" for i, b in boxes.items())
            return f"  {field}: {marks}"

        first, second, _ = self.fields
        flag = "  ".join(
            f"({'*' if self.flag.value is value else ' '}) {label.split(': ')[-1]}"
            for label, value in self.flag.options
        )
        lines = [
            ticks(first, self.first_boxes),
            ticks(second, self.second_boxes),
            f"  {self.flag.description}: {flag}",
            f"  [{'x' if self.hold.value else ' '}] {self.hold.description}",
        ]
        if self.asks_reason:
            lines.append("  reason:")
            lines += [
                f"    ({'*' if self.reason.value == rule_id else ' '}) {visible_text(text, notated=True)}"
                for text, rule_id in self.reason.options
            ]
        return lines


def _column(field: str, boxes: dict[str, w.Checkbox]) -> w.VBox:
    column = w.VBox(
        [html(markup("<b>{}</b>", esc(field))), *boxes.values()], layout=w.Layout(margin="0 3em 0 0")
    )
    column.add_class(f"eic-column-{field}")
    return column


class CaseExercise(TextPicture):
    """Work one case: pick IDs, set the flag, check the answer, reveal the worked answer.

    Drive it without a front end: :meth:`set_answer` (or set ``.value`` on the
    controls in :attr:`first_boxes`, :attr:`second_boxes`, :attr:`flag` and
    :attr:`hold`), then call ``check_button.click()`` or ``reveal_button.click()``
    (a second click hides the answer again). The flag is a labelled radio group,
    so its state is exposed to assistive technology, not shown by styling alone.

    When the case has a deciding rule (every filled, practice and generated
    case), :attr:`reason` asks for it too: the rule that decides it among rules
    that don't, shuffled for the case; pass ``ask_reason=False`` to leave it out.
    :attr:`hint_button` steps down the hint ladder (the method, where to look,
    the rule), which never looks at the answer; :attr:`hints_used` counts the
    rungs shown. ``label`` replaces the case's id in the heading. Taught in
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
        label: str | None = None,
    ) -> None:
        self.case = case
        self._on_graded = on_graded
        self._on_hint = on_hint
        self._on_reveal = on_reveal
        self._rules = list(rules) if rules is not None else None
        asks = ask_reason and bool(decisive_rules(case))
        self.choices = reason_options(case, rules=self._rules) if asks else []
        self.inputs = AnswerControls(
            case.check,
            candidate_ids(case),
            [(rule.label, rule.id) for rule in self.choices],
            on_change=self._changed,
            rules=self._rules,
        )
        self.asks_reason = self.inputs.asks_reason
        self.first_boxes = self.inputs.first_boxes
        self.second_boxes = self.inputs.second_boxes
        self.flag = self.inputs.flag
        self.hold = self.inputs.hold
        self.reason = self.inputs.reason
        self.hints_used = 0
        self.revealed = False
        (
            self.live,
            self.check_button,
            self.hint_button,
            self.reveal_button,
            self.feedback,
            self.hint_view,
            self.reveal,
        ) = case_widgets()
        self.check_button.on_click(lambda _button: self.check())
        self.reveal_button.on_click(lambda _button: self.toggle_worked_answer())
        self.hint_button.on_click(lambda _button: self.hint())
        shown = markup('<code class="eic-id">{}</code>', esc_id(case.id)) if label is None else esc(label)
        self.widget = frame(
            [
                html(markup("<b>Your answer</b> for {}", shown)),
                *self.inputs.rows(),
                self.live,
                wrap_row([self.check_button, self.hint_button, self.reveal_button]),
                self.feedback,
                self.hint_view,
                self.reveal,
            ],
            "eic-exercise",
        )
        self._label = label
        self._show_live()

    def answer(self) -> Answer:
        """The answer the controls currently show."""
        return self.inputs.answer()

    def set_answer(self, answer: Answer) -> None:
        """Put ``answer`` into the controls (used by tests and the practice drill)."""
        self.inputs.set_answer(answer)

    def _changed(self) -> None:
        self.feedback.value = ""
        self._show_live()

    def _show_live(self) -> None:
        built = self.answer().as_dict(self.case)
        self.live.value = wrap_html(markup("<div><b>The JSON you are building</b></div>{}", json_html(built)))

    def check(self) -> Grade | None:
        """Grade the current answer and show feedback naming each field and rule to apply.

        A fully correct answer clears the hints shown before it. With the flag or the reason
        unset it names them and grades nothing (None).
        """
        unset = self.inputs.unset()
        if unset:
            self.feedback.value = wrap_html(unset_html(unset))
            return None
        result = grade(self.case, self.answer(), ask_reason=self.asks_reason, rules=self._rules)
        self.feedback.value = wrap_html(
            view_markup(feedback_html(result.correct, [(m.field, m.message) for m in result.mistakes]))
        )
        if result.correct:
            self.hint_view.value = ""
        if self._on_graded is not None:
            self._on_graded(result)
        return result

    def hint(self) -> str:
        """Show the next rung of the hint ladder (three rungs, then none); it never checks the answer."""
        ladder = hints(self.case, rules=self._rules)
        if self.hints_used < len(ladder):
            self.hints_used += 1
            if self._on_hint is not None:
                self._on_hint(self.hints_used)
        shown = ladder[: self.hints_used]
        last = self.hints_used >= len(ladder)
        self.hint_button.disabled = last
        self.hint_view.value = wrap_html(view_markup(hint_html(shown, last=last)))
        return shown[-1]

    def show_worked_answer(self) -> None:
        """Reveal the expected output, decision and reason (works before any answer)."""
        self.reveal.value = wrap_html(view_markup(reveal_html(self.case)))
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
        heading = self._label if self._label is not None else visible_id(self.case.id)
        return "\n".join(
            [
                f"Work-it-yourself widget: {heading}",
                *self.inputs.describe_lines(),
                f"  buttons: [{self.check_button.description}] [{self.hint_button.description}] "
                f"[{self.reveal_button.description}]",
            ]
        )
