"""The check-out widget: each case of a paper served once, one try, no hints, no feedback until the end.

A thin view over :class:`helpers.teach.checkout.CheckoutSitting`. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as w

from ..core.chardiff import visible_id
from ..core.errors import CheckInputError, CheckoutFileError
from ..teach.checkout import CheckoutSitting, paper_case
from ..teach.grading import Answer, answer_fields, candidate_ids
from ..teach.render import esc, json_html, supplied_input
from .base import TextPicture, auto_layout, button, frame, html, id_checkbox, wide_style, wrap_html

__all__ = ["CheckoutWidget"]

_HOLD_LABELS = {
    "target-scope": "Hold: needs staff labels",
    "sentinels": "Refuse: the check cannot run on this input",
}


class CheckoutWidget(TextPicture):
    """Sit a check-out paper: build the output, pick the reason and the next action, submit once.

    Drive it without a front end as the tests do: set ``.value`` on the boxes in
    :attr:`first_boxes` and :attr:`second_boxes`, :attr:`flag`, :attr:`hold`,
    :attr:`reason` and :attr:`action`, then ``submit_button.click()``. After the
    last case, ``save_button.click()`` writes the answers file at
    :attr:`path`; an existing file is replaced only when :attr:`overwrite` is ticked.
    Nothing here grades: the trainer grades with the key.
    """

    def __init__(self, paper: Mapping[str, Any], *, path: str = "checkout-answers.json") -> None:
        self.sitting = CheckoutSitting(paper)
        self.heading = html(css="eic-checkout-heading")
        self.shown_input = html(css="eic-checkout-input")
        self.columns = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.flag = w.RadioButtons(options=[], value=None, layout=auto_layout())
        self.hold = w.Checkbox(value=False, indent=False, layout=auto_layout())
        self.reason = w.RadioButtons(options=[], value=None, description="reason", layout=auto_layout())
        self.action = w.RadioButtons(options=[], value=None, description="next action", layout=auto_layout())
        self.reason.add_class("eic-reason")
        self.action.add_class("eic-action")
        self.flag.add_class("eic-flag")
        self.hold.add_class("eic-hold")
        self.first_boxes: dict[str, w.Checkbox] = {}
        self.second_boxes: dict[str, w.Checkbox] = {}
        self.submit_button = button(
            "Submit this case and go on", "eic-checkout-submit", button_style="primary"
        )
        self.submit_button.on_click(lambda _b: self.submit())
        self.path = w.Text(value=path, description="Answers file", style=wide_style())
        self.overwrite = w.Checkbox(
            value=False,
            description="Replace this file if it already exists",
            indent=False,
            layout=auto_layout(),
        )
        self.save_button = button("Save my answers", "eic-checkout-save")
        self.save_button.on_click(lambda _b: self.save())
        self.message = html(css="eic-checkout-message")
        self.message.layout = w.Layout()
        self.answer_area = w.VBox(
            [
                self.columns,
                self.flag,
                self.hold,
                html("<b>Why?</b> Pick the rule that decides this case."),
                self.reason,
                html("<b>What next?</b> Pick what to do with this input."),
                self.action,
                self.submit_button,
            ]
        )
        self.save_area = w.VBox([self.path, self.overwrite, self.save_button])
        self.widget = frame(
            [
                html(
                    "<p>One try per case: no hints, no worked answers and no feedback until your trainer "
                    "grades the paper. A submitted case does not come back.</p>"
                ),
                self.heading,
                self.shown_input,
                self.answer_area,
                self.save_area,
                self.message,
            ],
            "eic-checkout",
        )
        self._show()

    def _show(self) -> None:
        case = self.sitting.current()
        total = len(self.sitting.cases)
        if case is None:
            self.heading.value = wrap_html(
                f"<p><b>All {total} cases answered.</b> Save your answers and hand the file to your trainer.</p>"
            )
            self.shown_input.value = ""
            self.answer_area.layout.display = "none"
            self.save_area.layout.display = None
            return
        self.answer_area.layout.display = None
        self.save_area.layout.display = "none"
        shown = paper_case(case)
        self.heading.value = wrap_html(
            f'<h3 class="eic-checkout-label">{esc(case["label"])} of {total}</h3>'
            f"<p>Check: <b>{esc(case['check'])}</b></p>"
        )
        context = case.get("context")
        extra = f"<p><b>Context</b></p>{json_html(context)}" if context else ""
        self.shown_input.value = wrap_html(supplied_input(shown).html + extra)
        first, second, flag = answer_fields(case["check"])
        ids = candidate_ids(shown)
        self.first_boxes = {i: id_checkbox(i, first) for i in ids}
        self.second_boxes = {i: id_checkbox(i, second) for i in ids}
        self.columns.children = [
            self._column(first, self.first_boxes),
            self._column(second, self.second_boxes),
        ]
        self.flag.description = flag
        self.flag.options = [(f"{flag}: true", True), (f"{flag}: false", False)]
        self.flag.value = None
        self.hold.description = _HOLD_LABELS[case["check"]]
        self.hold.value = False
        self.reason.options = [(f"{o['rule']}: {o['statement']}", o["rule"]) for o in case["reason_options"]]
        self.reason.value = None
        self.action.options = [(text, text) for text in case["actions"]]
        self.action.value = None

    @staticmethod
    def _column(field: str, boxes: dict[str, w.Checkbox]) -> w.VBox:
        column = w.VBox([html(f"<b>{esc(field)}</b>"), *boxes.values()], layout=w.Layout(margin="0 3em 0 0"))
        column.add_class(f"eic-column-{field}")
        return column

    def answer(self) -> Answer:
        """The answer the controls show for the current case."""
        case = self.sitting.current()
        check = case["check"] if case is not None else "target-scope"
        return Answer(
            check,
            missing=frozenset(i for i, box in self.first_boxes.items() if box.value),
            second=frozenset(i for i, box in self.second_boxes.items() if box.value),
            flag=self.flag.value,
            hold=self.hold.value,
            reason=self.reason.value,
        )

    def set_answer(self, answer: Answer, action: str | None) -> None:
        """Put an answer into the controls (used by tests)."""
        for i, box in self.first_boxes.items():
            box.value = i in answer.missing
        for i, box in self.second_boxes.items():
            box.value = i in answer.second
        self.flag.value = answer.flag
        self.hold.value = answer.hold
        self.reason.value = answer.reason
        self.action.value = action

    def submit(self) -> None:
        """Record this case's answer as it stands and serve the next case."""
        if self.sitting.done:
            self.message.value = wrap_html("<p>Every case is answered already.</p>")
            return
        try:
            self.sitting.submit(self.answer(), self.action.value)
        except CheckInputError as exc:
            self.message.value = wrap_html(f'<p role="alert">{esc(exc.message)}</p>')
            return
        self.message.value = ""
        self._show()

    def save(self) -> None:
        """Write the answers file (only once every case is answered)."""
        if not self.sitting.done:
            self.message.value = wrap_html('<p role="alert">Answer every case before saving.</p>')
            return
        try:
            written = self.sitting.save(self.path.value, overwrite=self.overwrite.value)
        except CheckoutFileError as exc:
            self.message.value = wrap_html(f'<p role="alert">Not saved: {esc(exc)}</p>')
            return
        self.message.value = wrap_html(
            f'<p role="status">Saved {len(self.sitting.answers)} answers to <code>{esc(written)}</code>.</p>'
        )

    def describe(self) -> str:
        """A plain-text picture of the controls, read from the live widgets."""
        case = self.sitting.current()
        total = len(self.sitting.cases)
        if case is None:
            return (
                f"Check-out widget: all {total} cases answered\n"
                f"  {self.path.description}: {self.path.value}\n"
                f"  [{'x' if self.overwrite.value else ' '}] {self.overwrite.description}\n"
                f"  buttons: [{self.save_button.description}]"
            )

        def ticks(field: str, boxes: dict[str, w.Checkbox]) -> str:
            return f"  {field}: " + "  ".join(
                f"[{'x' if b.value else ' '}] {visible_id(i)}" for i, b in boxes.items()
            )

        first, second, _ = answer_fields(case["check"])
        return "\n".join(
            [
                f"Check-out widget: {case['label']} of {total} ({case['check']})",
                ticks(first, self.first_boxes),
                ticks(second, self.second_boxes),
                f"  {self.flag.description}: "
                + "  ".join(
                    f"({_dot(self.flag.value is v)}) {label.split(': ')[-1]}"
                    for label, v in self.flag.options
                ),
                f"  [{'x' if self.hold.value else ' '}] {self.hold.description}",
                "  reason: "
                + "  ".join(f"({_dot(self.reason.value == v)}) {v}" for _, v in self.reason.options),
                "  next action: "
                + "  ".join(f"({_dot(self.action.value == v)}) {v}" for _, v in self.action.options),
                f"  buttons: [{self.submit_button.description}]",
            ]
        )


def _dot(picked: bool) -> str:
    return "*" if picked else " "
