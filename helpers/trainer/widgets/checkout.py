"""The check-out widget: each case of a paper served once, one try, no hints, no feedback until the end.

A thin view over :class:`helpers.trainer.checkout.CheckoutSitting`. The trainee opens their own
paper in it, as a file upload (read by :func:`helpers.trainer.paper.paper_from_bytes`, the
strict reader :func:`~helpers.trainer.paper.load_paper` uses) or from the papers listed in
the notebook's folder, so the code-free app sits any paper, not only the sample. The answers
are saved to a named file, never over an existing one unasked, and offered as a download.
Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets as w

from helpers.core.errors import CheckInputError, CheckoutFileError
from helpers.trainee.grading import Answer, candidate_ids
from helpers.trainee.html import Html, html_join
from helpers.trainee.html import html as markup
from helpers.trainee.views.case_html import esc, supplied_input
from helpers.trainee.views.inputs import context_view
from helpers.trainee.views.reasons import reason_label
from helpers.trainee.widgets.base import (
    TextPicture,
    auto_layout,
    button,
    frame,
    html,
    view_markup,
    wide_style,
    wrap_html,
)
from helpers.trainee.widgets.exercise import AnswerControls
from helpers.trainer.answers import answers_file_name
from helpers.trainer.checkout import CheckoutSitting
from helpers.trainer.paper import load_paper, paper_case, paper_files, paper_from_bytes

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

    With ``choose`` (the default), the trainee can open their own paper: an upload
    (:attr:`upload`; a bad file is refused in one line, naming the field) or one of the
    papers in ``papers_dir`` (default: the current folder; :attr:`papers` and
    :attr:`open_button`). A paper opened over unsaved answers asks first
    (:attr:`open_confirm_button`). The answers file is then named for the paper
    (:func:`helpers.trainer.answers.answers_file_name`). Without ``choose`` (a proctored
    sitting) none of those controls is made (:attr:`upload`, :attr:`papers`, :attr:`open_button`
    and :attr:`open_confirm_button` are None), so no widget message can reach one, and
    :meth:`open_paper` refuses in one line: the paper opens once.
    """

    def __init__(
        self,
        paper: Mapping[str, Any],
        *,
        path: str = "checkout-answers.json",
        papers_dir: str | Path | None = None,
        choose: bool = True,
        sitting: Any = None,
    ) -> None:
        #: The sitting drawn: a fixed paper's :class:`CheckoutSitting`, or a sequential
        #: :class:`helpers.trainer.sitting.Sitting` (a proctored page), which picks each next case.
        self.sitting: Any = sitting if sitting is not None else CheckoutSitting(paper)
        self.source = f"paper {paper.get('paper_id', '')}"
        self._pending: tuple[Mapping[str, Any], str] | None = None
        self.paper_note = html(css="eic-paper-note")
        #: Whether the trainee may open a paper here. Without it (a proctored sitting: the trainer
        #: chose the paper, and it opens once) no upload, list or open control is made at all,
        #: so no widget message can reach one, and :meth:`open_paper` refuses.
        self.choose = choose
        self.upload: w.FileUpload | None = None
        self.papers: w.Dropdown | None = None
        self.open_button: w.Button | None = None
        self.open_confirm_button: w.Button | None = None
        self.papers_dir = Path(papers_dir) if papers_dir is not None else Path(".")
        self.listed = paper_files(self.papers_dir) if choose else []
        self.chooser = w.VBox(self._chooser_rows() if choose else [])
        self.chooser.add_class("eic-paper-chooser")
        if not choose:  # a proctored paper: the trainer chose it, and nothing is uploaded
            self.chooser.layout.display = "none"
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
                html(Html("<b>What next?</b> Pick what to do with this input.")),
                self.action,
                w.HBox([self.submit_button, self.confirm_button]),
            ]
        )
        self.save_area = w.VBox([self.path, self.overwrite, self.save_button])
        self.download = html(css="eic-download-area")
        self.widget = frame(
            [
                html(
                    Html(
                        "<p>One try per case: no hints, no worked answers and no feedback until your trainer "
                        "grades the paper. A submitted case does not come back.</p>"
                    )
                ),
                self.chooser,
                self.heading,
                self.shown_input,
                self.answer_area,
                self.save_area,
                self.message,
                self.download,
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

    @staticmethod
    def _listed_label(path: Path, paper: Mapping[str, Any]) -> str:
        return f"{path.name}: {paper['trainee']}, {len(paper['cases'])} cases"

    def _chooser_rows(self) -> list[w.Widget]:
        """Make the upload, the folder's papers and their open buttons (only when the trainee may choose)."""
        self.upload = w.FileUpload(
            accept=".json",
            multiple=False,
            description="Open my paper file",
            icon="",  # an icon glyph would start the button's accessible name
            tooltip="Choose the paper file (EXAM.json) your trainer gave you",
            layout=w.Layout(width="auto", min_width="max-content"),
        )
        self.upload.add_class("eic-paper-upload")
        self.upload.observe(lambda _change: self.uploaded(), names="value")
        self.papers = w.Dropdown(
            options=[(self._listed_label(f, p), str(f)) for f, p in self.listed],
            value=None,
            description="Papers in this folder",
            style=wide_style(),
            layout=auto_layout(),
        )
        self.papers.add_class("eic-paper-list")
        self.open_button = button("Open this paper", "eic-paper-open")
        self.open_button.on_click(lambda _b: self.open_listed())
        self.open_confirm_button = button("Open it and leave these answers", "eic-paper-confirm")
        self.open_confirm_button.on_click(lambda _b: self.open_pending())
        self.open_confirm_button.layout.display = "none"
        listed = (
            [w.HBox([self.papers, self.open_button])]
            if self.listed
            else [
                html(
                    Html(
                        "<p><small>No check-out paper in this folder: open yours with the button.</small></p>"
                    )
                )
            ]
        )
        return [self.paper_note, w.HBox([self.upload, self.open_confirm_button]), *listed]

    # --- opening a paper -------------------------------------------------------------------

    def uploaded(self) -> None:
        """Read the uploaded file strictly as a paper and open it, or say in one line why not."""
        upload = self.upload
        if not self.choose or upload is None:
            self._fixed_paper()
            return
        if not upload.value:
            return
        item = upload.value[0]
        name = str(item["name"])
        try:
            paper = paper_from_bytes(bytes(item["content"]), source=name)
        except CheckoutFileError as exc:
            self._refused(exc)
        else:
            self.open_paper(paper, name)
        finally:
            upload.value = ()

    def open_listed(self) -> None:
        """Open the paper picked in :attr:`papers` (read again, strictly, from its file)."""
        if not self.choose or self.papers is None:
            self._fixed_paper()
            return
        if self.papers.value is None:
            self.message.value = wrap_html(Html('<p role="alert">Pick a paper in the list first.</p>'))
            return
        path = Path(self.papers.value)
        try:
            paper = load_paper(path)
        except CheckoutFileError as exc:
            self._refused(exc)
            return
        self.open_paper(paper, path.name)

    def _refused(self, exc: CheckoutFileError) -> None:
        self.message.value = wrap_html(
            markup('<p role="alert"><b>Not opened:</b> {}</p>', esc(" ".join(str(exc).split())))
        )

    def _fixed_paper(self) -> None:
        """Say in one line that this sitting's paper cannot be changed (``choose`` is off)."""
        self._pending = None
        self.message.value = wrap_html(
            Html(
                '<p role="alert"><b>Not opened:</b> your trainer chose this paper, and it opens once; '
                "no other paper can be opened here.</p>"
            )
        )

    def open_paper(self, paper: Mapping[str, Any], source: str, *, confirmed: bool = False) -> None:
        """Sit ``paper`` from its first case; over answers not yet saved, only once confirmed.

        Without ``choose`` (a proctored sitting) nothing is opened, ever: the sitting stays where it is.
        """
        confirm = self.open_confirm_button
        if not self.choose or confirm is None:
            self._fixed_paper()
            return
        unsaved = len(self.sitting.answers) if self.sitting.saved_to is None else 0
        if unsaved and not confirmed:
            self._pending = (paper, source)
            confirm.layout.display = None
            counted = f"{unsaved} answers to this paper are" if unsaved != 1 else "1 answer to this paper is"
            self.message.value = wrap_html(
                markup(
                    '<p role="alert"><b>Not opened yet.</b> {} not saved. Save them first, or press <b>{}'
                    "</b> to open {} and leave them.</p>",
                    counted,
                    esc(confirm.description),
                    esc(source),
                )
            )
            return
        self._pending = None
        confirm.layout.display = "none"
        self.sitting = CheckoutSitting(paper)
        self.source = source
        self.path.value = answers_file_name(paper)
        self.overwrite.value = False
        self.download.value = ""
        self._show()
        self.message.value = wrap_html(
            markup(
                '<p role="status">Opened {}: {} cases for {}. Your answers will be saved as <code>{}</code>.</p>',
                esc(source),
                len(self.sitting.cases),
                esc(str(paper["trainee"])),
                esc(self.path.value),
            )
        )

    def open_pending(self) -> None:
        """Open the paper held back by :meth:`open_paper`'s warning."""
        if not self.choose:
            self._fixed_paper()
            return
        if self._pending is not None:
            self.open_paper(*self._pending, confirmed=True)

    def _show(self) -> None:
        self.warned = ()
        paper = self.sitting.paper
        self.paper_note.value = wrap_html(
            markup(
                "<p><b>Your paper:</b> {}, for {} ({} cases). Your trainer gave you another? Open it here.</p>",
                esc(self.source),
                esc(str(paper.get("trainee", ""))),
                len(self.sitting.cases),
            )
        )
        self.confirm_button.layout.display = "none"
        case = self.sitting.current()
        total = len(self.sitting.cases)
        if case is None:
            self.heading.value = wrap_html(markup("<p>{}</p>", esc(self.finished_words())))
            self.shown_input.value = ""
            self.answer_area.layout.display = "none"
            self.save_area.layout.display = None
            return
        self.answer_area.layout.display = None
        self.save_area.layout.display = "none"
        shown = paper_case(case)
        where = (
            self.sitting.position() if hasattr(self.sitting, "position") else f"{case['label']} of {total}"
        )
        self.heading.value = wrap_html(
            markup(
                '<h3 class="eic-checkout-label">{}</h3><p>Check: <b>{}</b></p>',
                esc(where),
                esc(case["check"]),
            )
        )
        context = case.get("context")
        extra = (
            markup("<p><b>Context</b></p>{}", view_markup(context_view(context).html))
            if context
            else Html("")
        )
        self.shown_input.value = wrap_html(
            html_join([view_markup(supplied_input(shown, label=case["label"]).html), extra])
        )
        options = [(reason_label(o["rule"]), o["rule"]) for o in case["reason_options"]]
        self.inputs = AnswerControls(case["check"], candidate_ids(shown), options)
        self.answer_slot.children = tuple(self.inputs.rows())
        self.action.options = [(text, text) for text in case["actions"]]
        self.action.value = None

    def finished_words(self) -> str:
        """What the last page says happens to the answers."""
        total = len(self.sitting.cases)
        return (
            f"All {total} cases answered. Save your answers: the file is written where this notebook runs, "
            "and you can download a copy. Hand that file to your trainer, who grades it with the key; "
            "you see no verdict here."
        )

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
            self.message.value = wrap_html(Html("<p>Every case is answered already.</p>"))
            return
        unset = self.unset()
        if unset and not (confirmed and set(unset) <= set(self.warned)):
            self.warned = unset
            self.confirm_button.layout.display = None
            self.message.value = wrap_html(
                markup(
                    '<p role="alert"><b>Not sent yet.</b> Still unset: {}. '
                    "Set them and press <b>Submit this case and go on</b>, or press <b>{}</b> "
                    "to send this case as it is: there is one try, and it will not come back.</p>",
                    esc(", ".join(unset)),
                    esc(self.confirm_button.description),
                )
            )
            return
        try:
            self.sitting.submit(self.answer(), self.action.value)
        except CheckInputError as exc:
            self.message.value = wrap_html(markup('<p role="alert">{}</p>', esc(exc.message)))
            return
        self.message.value = ""
        self._show()

    def save(self) -> None:
        """Write the answers file (only once every case is answered)."""
        if not self.sitting.done:
            self.message.value = wrap_html(Html('<p role="alert">Answer every case before saving.</p>'))
            return
        try:
            written = self.sitting.save(self.path.value, overwrite=self.overwrite.value)
        except CheckoutFileError as exc:
            self.message.value = wrap_html(markup('<p role="alert">Not saved: {}</p>', esc(exc)))
            return
        self.message.value = wrap_html(
            markup(
                '<p role="status">Saved {} answers to <code>{}</code>. '
                "Hand that file to your trainer, or download a copy.</p>",
                len(self.sitting.answers),
                esc(written),
            )
        )
        text = json.dumps(self.sitting.answers_data(), ensure_ascii=False, indent=1) + "\n"
        payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
        name = Path(written).name
        self.download.value = wrap_html(
            markup(
                '<a class="eic-download" download="{}" href="data:application/json;base64,{}">'
                "Download my answers ({})</a>",
                esc(name),
                payload,
                esc(name),
            )
        )

    def describe(self) -> str:
        """A plain-text picture of the controls, read from the live widgets."""
        case = self.sitting.current()
        total = len(self.sitting.cases)
        if case is None or self.inputs is None:
            return (
                f"Check-out widget: {self.finished_words()}\n"
                + "".join(f"{line}\n" for line in self._describe_chooser())
                + f"  {self.path.description}: {self.path.value}\n"
                f"  [{'x' if self.overwrite.value else ' '}] {self.overwrite.description}\n"
                f"  buttons: [{self.save_button.description}]"
            )
        where = (
            self.sitting.position() if hasattr(self.sitting, "position") else f"{case['label']} of {total}"
        )
        return "\n".join(
            [
                f"Check-out widget: {where} ({case['check']})",
                *self._describe_chooser(),
                *self.inputs.describe_lines(),
                "  next action: "
                + "  ".join(f"({_dot(self.action.value == v)}) {v}" for _, v in self.action.options),
                f"  buttons: [{self.submit_button.description}]"
                + (f" [{self.confirm_button.description}]" if self.warned else ""),
            ]
        )

    def _describe_chooser(self) -> list[str]:
        if self.upload is None or self.papers is None or self.chooser.layout.display == "none":
            return []
        listed = ", ".join(label for label, _ in self.papers.options) or "none"
        return [f"  paper: {self.source} [{self.upload.description}]; papers in this folder: {listed}"]


def _dot(picked: bool) -> str:
    return "*" if picked else " "
