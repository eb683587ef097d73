"""The proctored check-out widget: the check-out, handed in to the trainer's side instead of saved to a file.

A thin view over :class:`helpers.trainer.proctoring.ProctoredSitting`: each case once, one
try, no feedback, every answer saved on the trainer's side before the next case is shown (a
reloaded page resumes at the next unanswered case, and says so); then **Hand in my answers**
grades and signs the saved answers where the trainer keeps them. There is no file name to type and nothing to download, and the
verdict is the trainer's to give. Served by ``python -m helpers checkout proctor``;
taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

from typing import Any

from helpers.core.error_root import HelpersError
from helpers.trainee.html import Html, esc
from helpers.trainee.html import html as markup
from helpers.trainee.widgets.base import frame, html, wrap_html
from helpers.trainer.proctoring import ProctoredSitting, sitting_from_environment
from helpers.trainer.widgets.checkout import CheckoutWidget

__all__ = ["ProctoredCheckoutWidget", "proctored_page"]


class ProctoredCheckoutWidget(CheckoutWidget):
    """Sit a proctored paper; the answers go to the trainer's side, once."""

    def __init__(self, sitting: ProctoredSitting) -> None:
        self.proctored = sitting
        self.handed_in = False
        super().__init__(sitting.paper, choose=False, sitting=sitting.sitting())
        self.save_button.description = "Hand in my answers"
        self.save_area.children = (self.save_button,)
        if sitting.resumed is not None:
            self.message.value = wrap_html(
                markup(
                    '<p role="status">Resumed: your {} answers so far are kept, and '
                    "this is where you stopped. Your trainer sees that the sitting was resumed.</p>",
                    len(self.sitting.answers),
                )
            )

    def submit(self, *, confirmed: bool = False) -> None:
        """Send this case; if it cannot be saved on the trainer's side, it is not taken and stays on screen."""
        try:
            super().submit(confirmed=confirmed)
        except HelpersError as exc:
            self.message.value = wrap_html(
                markup(
                    '<p role="alert">Not sent: {}. This case is still yours to answer; tell your trainer.</p>',
                    esc(str(exc)),
                )
            )

    def save(self) -> None:
        """Hand the answers in (only once every case is answered, and only once)."""
        if not self.sitting.done:
            self.message.value = wrap_html(Html('<p role="alert">Answer every case before handing in.</p>'))
            return
        if self.handed_in:
            self.message.value = wrap_html(Html('<p role="status">Your answers are already handed in.</p>'))
            return
        try:
            self.proctored.hand_in()
        except HelpersError as exc:
            self.message.value = wrap_html(
                markup(
                    '<p role="alert">Not handed in: {}. Your answers are kept on your '
                    "trainer's side; tell your trainer.</p>",
                    esc(str(exc)),
                )
            )
            return
        self.handed_in = True
        self.save_area.layout.display = "none"
        self.message.value = wrap_html(
            markup(
                '<p role="status">Handed in: your {} answers are graded and signed '
                "on your trainer's machine, where this page runs; no file is left with you, and your trainer "
                "gives you the verdict. You may close this page.</p>",
                len(self.sitting.answers),
            )
        )

    def finished_words(self) -> str:
        """What the last page says happens to the answers: handed in to the trainer's side, no file."""
        total = len(self.sitting.cases)
        return (
            f"All {total} cases answered: the check-out has what it needs. Press Hand in my answers: they "
            "go straight to your trainer, who grades them on their side and gives you the verdict. "
            "There is no file to save or send."
        )


def proctored_page() -> Any:
    """What the proctored app's page shows: the sitting's widget, or why there is none."""
    try:
        return ProctoredCheckoutWidget(sitting_from_environment())
    except HelpersError as exc:
        why = getattr(exc, "message", str(exc))
        return frame(
            [html(markup('<p role="alert">No check-out on this page: {}</p>', esc(why)))], "eic-checkout"
        )
