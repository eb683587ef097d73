"""The check-out widget: each case of a paper served once, one try, no hints, no feedback until the end.

A thin view over :class:`helpers.teach.checkout.CheckoutSitting`. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as w

from ..core.errors import CheckInputError, CheckoutFileError
from ..teach.checkout import CheckoutSitting, paper_case
from ..teach.grading import Answer, candidate_ids
from ..teach.render import esc, json_html, supplied_input
from .base import TextPicture, auto_layout, button, frame, html, wide_style, wrap_html
from .exercise import AnswerControls

__all__ = ["CheckoutWidget"]


class CheckoutWidget(TextPicture):
    """Sit a check-out paper: build the output, pick the reason and the next action, submit once.

    Drive it without a front end as the tests do: set ``.value`` on the boxes in
    :attr:`first_boxes` and :attr:`second_boxes`, :attr:`flag`, :attr:`hold`,
    :attr:`reason` and :attr:`action`, then ``submit_button.click()``. A case with
    the reason, the next action or the flag still unset is not sent: the message
    names what is unset, and only :attr:`confirm_button` (shown then) sends it
    that way. After the
    last case, ``save_button.click()`` writes the answers file at
    :attr:`path`; an existing file is replaced only when :attr:`overwrite` is ticked.
    Nothing here grades: the trainer grades with the key.
    """

    def __init__(self, paper: Mapping[str, Any], *, path: str = "checkout-answers.json") -> None:
        self.sitting = CheckoutSitting(paper)
        self.heading = html(css="eic-checkout-heading")
        self.shown_input = html(css="eic-checkout-input")
        self.inputs: AnswerControls | None = None
        self.answer_slot = w.VBox()
        self.action = w.RadioButtons(options=[], value=None, description="next action", layout=auto_layout())
        self.action.add_class("eic-action")
        self.submit_button = button(
            "Submit this case and go on", "eic-checkout-submit", button_style="primary"
        )
        self.submit_button.on_click(lambda _b: self.submit())
        self.confirm_button = button("Send this case with those unset", "eic-checkout-confirm")
        self.confirm_button.on_click(lambda _b: self.submit(confirmed=True))
        self.confirm_button.layout.display = "none"
        #: What was unset when the trainee was last warned; the confirmation covers only these.
        self.warned: tuple[str, ...] = ()
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
                self.answer_slot,
                html("<b>What next?</b> Pick what to do with this input."),
                self.action,
                w.HBox([self.submit_button, self.confirm_button]),
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

    # The current case's controls, by the names the tests and notebooks use.
    @property
    def first_boxes(self) -> dict[str, w.Checkbox]:
        return self.inputs.first_boxes if self.inputs is not None else {}

    @property
    def second_boxes(self) -> dict[str, w.Checkbox]:
        return self.inputs.second_boxes if self.inputs is not None else {}

    @property
    def flag(self) -> w.RadioButtons:
        assert self.inputs is not None
        return self.inputs.flag

    @property
    def hold(self) -> w.Checkbox:
        assert self.inputs is not None
        return self.inputs.hold

    @property
    def reason(self) -> w.RadioButtons:
        assert self.inputs is not None
        return self.inputs.reason

    def _show(self) -> None:
        self.warned = ()
        self.confirm_button.layout.display = "none"
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
        self.shown_input.value = wrap_html(supplied_input(shown, label=case["label"]).html + extra)
        options = [(f"{o['rule']}: {o['statement']}", o["rule"]) for o in case["reason_options"]]
        self.inputs = AnswerControls(case["check"], candidate_ids(shown), options)
        self.answer_slot.children = tuple(self.inputs.rows())
        self.action.options = [(text, text) for text in case["actions"]]
        self.action.value = None

    def answer(self) -> Answer:
        """The answer the controls show for the current case."""
        if self.inputs is None:
            return Answer("target-scope")
        return self.inputs.answer()

    def set_answer(self, answer: Answer, action: str | None) -> None:
        """Put an answer into the controls (used by tests)."""
        assert self.inputs is not None
        self.inputs.set_answer(answer)
        self.action.value = action

    def unset(self) -> tuple[str, ...]:
        """What the current answer leaves unset: the reason, the next action, the flag (unless held)."""
        if self.inputs is None:
            return ()
        missing = []
        if self.inputs.asks_reason and self.inputs.reason.value is None:
            missing.append("the reason")
        if self.action.value is None:
            missing.append("the next action")
        if self.inputs.flag.value is None and not self.inputs.hold.value:
            missing.append(f"{self.inputs.fields[2]} (true or false, or tick hold)")
        return tuple(missing)

    def submit(self, *, confirmed: bool = False) -> None:
        """Record this case's answer and serve the next case; with something unset, warn first.

        The first press with the reason, the next action or the flag unset sends
        nothing and names what is unset; only :attr:`confirm_button`
        (``confirmed``) sends it that way, and only while nothing more is unset
        than the warning named.
        """
        if self.sitting.done:
            self.message.value = wrap_html("<p>Every case is answered already.</p>")
            return
        unset = self.unset()
        if unset and not (confirmed and set(unset) <= set(self.warned)):
            self.warned = unset
            self.confirm_button.layout.display = None
            self.message.value = wrap_html(
                '<p role="alert"><b>Not sent yet.</b> Still unset: '
                + esc(", ".join(unset))
                + ". Set them and press <b>Submit this case and go on</b>, or press <b>"
                + esc(self.confirm_button.description)
                + "</b> to send this case as it is: there is one try, and it will not come back.</p>"
            )
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
        if case is None or self.inputs is None:
            return (
                f"Check-out widget: all {total} cases answered\n"
                f"  {self.path.description}: {self.path.value}\n"
                f"  [{'x' if self.overwrite.value else ' '}] {self.overwrite.description}\n"
                f"  buttons: [{self.save_button.description}]"
            )
        return "\n".join(
            [
                f"Check-out widget: {case['label']} of {total} ({case['check']})",
                *self.inputs.describe_lines(),
                "  next action: "
                + "  ".join(f"({_dot(self.action.value == v)}) {v}" for _, v in self.action.options),
                f"  buttons: [{self.submit_button.description}]"
                + (f" [{self.confirm_button.description}]" if self.warned else ""),
            ]
        )


def _dot(picked: bool) -> str:
    return "*" if picked else " "
