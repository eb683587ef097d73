"""The mastery drill: a thin view over :class:`helpers.trainee.drill.engine.DrillSession`.

The engine serves each case, grades it, keeps the hints and reveals, and
decides mastery; this widget only shows the case and passes on the clicks.
Cases carry neutral labels ("Drill case 12"), and the rule a case was about is
named only once it is scored. Progress is a version 3 file
(:mod:`helpers.trainee.progress.files`). Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w

from helpers.core.errors import ProgressFileError
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.times import now_text
from helpers.trainee.drill.to_go import progress_line
from helpers.trainee.grading import Answer
from helpers.trainee.html import Html
from helpers.trainee.html import html as markup
from helpers.trainee.progress.files import (
    TraineeProgress,
    load_trainee_progress,
    new_attempt_path,
    save_trainee_progress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)
from helpers.trainee.progress.paths import shown_path
from helpers.trainee.views.case_html import esc
from helpers.trainee.widgets.base import (
    TextPicture,
    button,
    frame,
    html,
    progress_path_box,
    wide_style,
    wrap_html,
    wrap_row,
)
from helpers.trainee.widgets.case_area import CaseArea
from helpers.trainee.widgets.exercise import AnswerControls
from helpers.trainee.widgets.mastery_bars import bar_lines, bars_html, cases_worded
from helpers.trainee.widgets.progress_transfer import ProgressTransfer

__all__ = ["MasteryDrill", "DEFAULT_MASTERY_FILE"]

#: Where the mastery drill saves by default (git-ignored in this project's checkout).
DEFAULT_MASTERY_FILE = "integrity-mastery-progress.json"

#: Offered when Save refuses a file holding your earlier progress (for example after Start again).
_SAVE_CHOICES = (
    "That file holds your earlier progress, so it was kept. To keep both, press Save as a new attempt. "
    "To replace it with this drill, tick Overwrite with this drill and press Save progress again."
)

_SKIP = "Skip this case (counts as a miss)"

#: What the drill says before Start is pressed (the same for everyone, so a stored output stays as it was).
_NOT_STARTED = (
    "Not started: press Start for your own drill, on fresh cases from a fresh random seed. "
    "Nothing is scored before Start."
)
_NEXT = "Next case"


class MasteryDrill(TextPicture):
    """Practise every rule on fresh generated cases until each is mastered; bars and a summary.

    Drive it without a front end: :meth:`set_answer` (or the controls in
    :attr:`inputs`), then ``check_button.click()``, ``hint_button.click()`` or
    ``reveal_button.click()``, then ``next_button.click()``; set ``path.value``
    and click ``save_button``, ``load_button``, ``new_attempt_button``, or tick
    ``overwrite`` before saving. **Start again** asks to be confirmed
    (``confirm_restart_button``), and so does **Load progress** over unsaved work
    (``confirm_load_button``). Nothing is written until a save button is
    pressed.

    Without ``seed`` (or ``session``) the drill waits for **Start** (``start_button``), which
    begins the trainee's own drill from a fresh random seed drawn then (``"seed_kind": "fresh"``);
    a given seed is for demos and tests and starts at once. Opened on a ``path`` that holds a
    saved drill (and without ``session``), it loads that file by itself and says so, with no
    Start to press; ``autoload=False`` leaves the file alone. Taught in ``04_practice.ipynb``.
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        trainee: str = "",
        check: str | None = None,
        path: str | Path = DEFAULT_MASTERY_FILE,
        rules: Sequence[Rule] | None = None,
        session: DrillSession | None = None,
        autoload: bool = True,
    ) -> None:
        self.all_rules = list(rules) if rules is not None else load_rules()
        self._check = check
        self._session = session or DrillSession.start(
            seed=seed, trainee=trainee, check=check, rules=self.all_rules
        )
        #: The file-level record (attempt id, digest, course, earlier practice); its drill is taken at a save.
        self.progress = TraineeProgress(self._session.record())
        self.saved_step: int | None = None

        #: False until Start is pressed (or a drill is given, seeded, loaded or started again).
        self.started = session is not None or seed is not None
        self.start_button = button("Start", "eic-start", button_style="primary")
        self.start_note = html(markup("<p><b>{}</b></p>", esc(_NOT_STARTED)), css="eic-start-note")
        self.start_row = w.VBox([self.start_note, wrap_row([self.start_button])])
        self.bars = html(css="eic-rule-bars")
        self.area = CaseArea(
            lambda: self.session, self.all_rules, on_scored=self._after_scoring, next_label=_NEXT
        )
        self.case_view, self.slot, self.live = self.area.case_view, self.area.slot, self.area.live
        self.check_button, self.hint_button = self.area.check_button, self.area.hint_button
        self.reveal_button, self.feedback = self.area.reveal_button, self.area.feedback
        self.hint_view, self.reveal, self.scored_view = (
            self.area.hint_view,
            self.area.reveal,
            self.area.scored_view,
        )
        self.next_button = button(_SKIP, "eic-next")
        self.summary_view = html(css="eic-summary")
        self.trainee = w.Text(
            value=trainee,
            description="Your name (optional)",
            style=wide_style(),
            layout=w.Layout(width="auto"),
        )
        self.trainee.add_class("eic-trainee")
        self.path = progress_path_box(str(path))
        self.save_button = button("Save progress", "eic-save")
        self.load_button = button("Load progress", "eic-load")
        self.restart_button = button("Start again", "eic-restart")
        self.confirm_restart_button = button(
            "Yes, start again", "eic-confirm-restart", button_style="warning"
        )
        self.cancel_restart_button = button("Keep this drill", "eic-cancel-restart")
        self.confirm_row = wrap_row([self.confirm_restart_button, self.cancel_restart_button])
        self.confirm_row.layout.display = "none"
        self.confirm_load_button = button("Yes, load the file", "eic-confirm-load", button_style="warning")
        self.cancel_load_button = button("Keep this drill", "eic-cancel-load")
        self.confirm_load_row = wrap_row([self.confirm_load_button, self.cancel_load_button])
        self.confirm_load_row.layout.display = "none"
        self.overwrite = w.Checkbox(
            value=False, description="Overwrite with this drill", indent=False, layout=w.Layout(width="auto")
        )
        self.overwrite.add_class("eic-overwrite")
        self.new_attempt_button = button("Save as a new attempt", "eic-new-attempt")
        self.unsaved = html(css="eic-unsaved")
        self.file_status = html(css="eic-file-status")
        self.transfer = ProgressTransfer(self._dump, self._accept_upload, self._report)

        self.start_button.on_click(lambda _b: self.start())
        self.next_button.on_click(lambda _b: self.next_case())
        self.save_button.on_click(lambda _b: self.save())
        self.load_button.on_click(lambda _b: self.load())
        self.restart_button.on_click(lambda _b: self.ask_restart())
        self.confirm_restart_button.on_click(lambda _b: self.restart())
        self.cancel_restart_button.on_click(lambda _b: self.cancel_restart())
        self.confirm_load_button.on_click(lambda _b: self.load(confirmed=True))
        self.cancel_load_button.on_click(lambda _b: self.cancel_load())
        self.new_attempt_button.on_click(lambda _b: self.save_new_attempt())

        self.next_row = wrap_row([self.next_button])
        self.widget = frame(
            [
                self.bars,
                self.start_row,
                self.area.widget,
                self.next_row,
                self.summary_view,
                wrap_row([self.trainee, self.path]),
                wrap_row([self.save_button, self.load_button, self.restart_button]),
                self.confirm_row,
                self.confirm_load_row,
                wrap_row([self.overwrite, self.new_attempt_button]),
                self.unsaved,
                self.file_status,
                self.transfer.widget,
            ],
            "eic-mastery",
        )
        if self.started:
            self.start_row.layout.display = "none"
            self._serve()
        else:
            self._await_start()
        if session is None and autoload and _saved_file_at(self.path.value):
            self._open_saved()

    # --- the engine -------------------------------------------------------------------------

    @property
    def session(self) -> DrillSession:
        """The engine behind the view."""
        return self._session

    @property
    def view(self) -> CaseView | None:
        """The case on screen."""
        return self.session.current

    def _await_start(self) -> None:
        """Before Start: the bars, the note and the Start button; no case is served."""
        for part in (self.area.widget, self.next_row, self.restart_button):
            part.layout.display = "none"
        self._show_bars()

    def start(self) -> None:
        """Begin the trainee's own drill: a fresh random seed drawn now, and its first case."""
        if self.started:
            return
        self._begin_fresh()
        self._report(
            markup(
                '<span class="eic-started" role="status">Your own drill has started, on fresh cases (fresh '
                "random seed {}, kept in its progress file). Nothing is saved until "
                "you press <b>Save progress</b>.</span>",
                self.session.mastery.seed,
            )
        )
        self.transfer.refresh()

    def _begin_fresh(self) -> None:
        """A new drill from a fresh random seed, with nothing scored, on show."""
        self._session = DrillSession.start(
            seed=None,
            trainee=self.trainee.value,
            check=self._check,
            rules=self.all_rules,
        )
        self.progress = TraineeProgress(self._session.record())
        self.saved_step = None
        self._serve()

    def _serve(self) -> None:
        """Show the case being worked, or serve the next one."""
        if not self.started:
            self.started = True
            for part in (self.area.widget, self.next_row, self.restart_button):
                part.layout.display = None
            self.start_row.layout.display = "none"
        view = self.session.current
        if view is None or self.session.current_scored is not None:
            view = self.session.next_case()
        self._show(view)

    @property
    def inputs(self) -> AnswerControls | None:
        """The answer controls of the case on show."""
        return self.area.inputs

    def _show(self, view: CaseView) -> None:
        self.area.show(view)
        self.next_button.description = _SKIP
        self.next_button.button_style = ""
        self._show_bars()
        self._show_unsaved()

    def set_answer(self, answer: Answer) -> None:
        """Put ``answer`` into the controls."""
        self.area.set_answer(answer)

    def check(self) -> None:
        """Check the answer on screen; the first check scores the case."""
        self.area.check()

    def hint(self) -> None:
        """Show the next rung of the hint ladder (a hinted answer is recorded as helped)."""
        self.area.hint()

    def toggle_worked_answer(self) -> None:
        """Show the worked answer (a miss if no check came first), or hide it again."""
        self.area.toggle_worked_answer()

    def _after_scoring(self) -> None:
        if self.session.current_scored is not None:
            self.next_button.description = _NEXT
            self.next_button.button_style = "primary"
        self._show_bars()
        self._show_unsaved()
        self.transfer.refresh()

    def next_case(self) -> None:
        """Serve the next case; leaving this one unchecked scores it as skipped (a miss)."""
        self.session.next_case()
        self._show(self.session.current)  # type: ignore[arg-type]
        self.transfer.refresh()

    # --- display ----------------------------------------------------------------------------

    def bar_lines(self) -> list[str]:
        """Each rule's bar as text, then each look-alike kind, in rule and facet order."""
        return bar_lines(self.session.mastery)

    def _show_bars(self) -> None:
        shown = self.session
        self.bars.value = wrap_html(
            bars_html(shown.mastery, self.bar_lines(), shown.due(), demo=shown.seed_kind == "fixed")
        )

    def _show_unsaved(self) -> None:
        step = self.session.mastery.step
        if self.saved_step == step:
            self.unsaved.value = wrap_html(Html('<span role="status">✔ Everything is saved.</span>'))
        elif step == 0:
            self.unsaved.value = ""
        else:
            since = step - (self.saved_step or 0)
            self.unsaved.value = wrap_html(
                markup(
                    '<span role="status"><b>● Unsaved work:</b> {} case{} '
                    "since the last save. Press <b>Save progress</b> to keep them.</span>",
                    since,
                    "s" if since != 1 else "",
                )
            )

    def completion_text(self) -> str:
        """The completion summary as text, or "" while rules or look-alike kinds remain."""
        done = self.session.mastery.completion()
        if done is None:
            return ""
        return (
            f"Every rule mastered on {str(done['completed_on'])[:10]}: {done['cases_worked']} cases worked, "
            f"{done['hints_used']} hints used, {done['reveals']} reveals"
        )

    # --- starting again -----------------------------------------------------------------------

    def ask_restart(self) -> None:
        """Ask before throwing this drill away."""
        self.confirm_row.layout.display = "flex"
        self._report(
            Html(
                '<span role="alert"><b>Start again?</b> This drill is replaced by a fresh one; your progress '
                "file is kept. Press <b>Yes, start again</b> or <b>Keep this drill</b>.</span>"
            )
        )

    def cancel_restart(self) -> None:
        """Keep the drill as it is."""
        self.confirm_row.layout.display = "none"
        self._report(Html('<span role="status">Kept this drill.</span>'))

    def restart(self) -> None:
        """Start a new drill (fresh cases, nothing scored); saving over the old file then needs consent."""
        self.confirm_row.layout.display = "none"
        self.overwrite.value = False
        self._begin_fresh()
        self._report(
            Html(
                '<span role="status">Started again with fresh cases (a fresh random seed). '
                "Your earlier progress file is kept: Save "
                "will not write over it unless you tick <b>Overwrite with this drill</b>, or press "
                "<b>Save as a new attempt</b>.</span>"
            )
        )
        self.transfer.refresh()

    # --- progress files -------------------------------------------------------------------------

    def _report(self, shown: Html) -> None:
        self.file_status.value = wrap_html(shown)

    def _error(self, verb: str, exc: ProgressFileError, then: str = "") -> None:
        more = markup("<br>{}", esc(then)) if then else Html("")
        self._report(
            markup('<div class="eic-error" role="alert"><b>✘ {}:</b> {}{}</div>', esc(verb), esc(exc), more)
        )

    def save(self, *, path: str | Path | None = None) -> Path | None:
        """Save to :attr:`path` (or ``path``); refuse another drill's file unless :attr:`overwrite` is ticked."""
        if not self.started:
            self._report(
                Html('<span role="alert">Nothing to save yet: press <b>Start</b> for your own drill.</span>')
            )
            return None
        self.session.trainee = self.trainee.value
        target = path if path is not None else self.path.value
        try:
            written = save_trainee_progress(self._recorded(), target, overwrite=self.overwrite.value)
        except ProgressFileError as exc:
            self._error("Not saved", exc, _SAVE_CHOICES if "your earlier progress" in exc.message else "")
            return None
        self.overwrite.value = False
        self.saved_step = self.session.mastery.step
        self._report(
            markup(
                '<span class="eic-saved" role="status">✔ Saved {} cases worked to <code>{}</code>.</span>',
                self.saved_step,
                esc(shown_path(written)),
            )
        )
        self._show_unsaved()
        self.transfer.refresh()
        return written

    def save_new_attempt(self) -> Path | None:
        """Save under a fresh name beside :attr:`path` (``name-2.json``, …), keeping the earlier file."""
        if not self.started:
            return self.save()
        self.path.value = str(new_attempt_path(self.path.value))
        return self.save()

    def _recorded(self) -> TraineeProgress:
        """:attr:`progress` with the drill as it stands now."""
        self.progress.drill = self.session.record()
        return self.progress

    def _adopt(self, progress: TraineeProgress) -> None:
        self.progress = progress
        self._session = DrillSession.resume(progress.drill, rules=self.all_rules)
        self.trainee.value = progress.trainee
        self.saved_step = progress.mastery.step
        self._serve()

    def _loaded_note(self, progress: TraineeProgress) -> str:
        due = progress.mastery.due(now_text())
        parts = [f"{progress.mastery.step} cases worked"]
        if due:
            parts.append(f"due for review today: {', '.join(due)}")
        if progress.earlier:
            parts.append(
                f"{len(progress.earlier['attempts'])} cases from an earlier course are kept in the file, "
                "but mastery starts afresh on the current cases"
            )
        return "; ".join(parts)

    def has_unsaved_work(self) -> bool:
        """True when cases were worked since the last save or load (what a load would replace)."""
        step = self.session.mastery.step
        return step > 0 and self.saved_step != step

    def cancel_load(self) -> None:
        """Keep the drill on screen instead of loading the file."""
        self.confirm_load_row.layout.display = "none"
        self._report(Html('<span role="status">Kept this drill; nothing was loaded.</span>'))

    def _open_saved(self) -> None:
        """Open the saved drill at :attr:`path` by itself, as a reopened notebook does, and say so."""
        progress = self.load(confirmed=True)
        if progress is not None:
            self._report(
                markup(
                    '<span class="eic-loaded" role="status">✔ Opened your saved drill from <code>'
                    "{}</code> by itself: {}. Carry on below.</span>",
                    esc(shown_path(self.path.value)),
                    esc(self._loaded_note(progress)),
                )
            )
        else:
            self.file_status.value = self.file_status.value.replace(
                "Not loaded", "Your saved drill was not opened"
            )

    def load(self, *, confirmed: bool = False) -> TraineeProgress | None:
        """Load a progress file (version 1, 2 or 3) from :attr:`path` and carry on where it stopped.

        Over unsaved work it asks first (``confirm_load_button``) unless ``confirmed``.
        """
        if not confirmed and self.has_unsaved_work():
            since = self.session.mastery.step - (self.saved_step or 0)
            self.confirm_load_row.layout.display = "flex"
            self._report(
                markup(
                    '<span role="alert"><b>Load and replace this drill?</b> {} case'
                    "{} worked here since the last save would be lost. Press "
                    "<b>Yes, load the file</b> or <b>Keep this drill</b> (then save it first).</span>",
                    since,
                    "s" if since != 1 else "",
                )
            )
            return None
        self.confirm_load_row.layout.display = "none"
        try:
            progress = load_trainee_progress(self.path.value, rules=self.all_rules)
        except ProgressFileError as exc:
            self._error("Not loaded", exc)
            return None
        self._adopt(progress)
        self._report(
            markup(
                '<span class="eic-loaded" role="status">✔ Loaded from <code>{}</code>: {}.</span>',
                esc(shown_path(self.path.value)),
                esc(self._loaded_note(progress)),
            )
        )
        self.transfer.refresh()
        return progress

    def _dump(self) -> tuple[str, str]:
        text = json.dumps(trainee_progress_to_data(self._recorded()), ensure_ascii=False, indent=1) + "\n"
        return Path(self.path.value).name or DEFAULT_MASTERY_FILE, text

    def _accept_upload(self, data: Any, source: str) -> str:
        progress = trainee_progress_from_data(data, rules=self.all_rules, source=source)
        self._adopt(progress)
        return f"Loaded from the upload {source}: {self._loaded_note(progress)}."

    def describe(self) -> str:
        """A plain-text picture of the drill: bars, the case, the buttons."""
        m = self.session.mastery
        kind = f" (demo: fixed seed {m.seed})" if self.session.seed_kind == "fixed" else ""
        lines = [
            f"Mastery drill{kind}: {progress_line(m)}",
            f"  {len(m.secured)} of {len(m.facets)} look-alike kinds mastered, {cases_worded(m.step)} worked",
            *(f"  {line}" for line in self.bar_lines()),
        ]
        if not self.started:
            lines.append(f"  {_NOT_STARTED}")
            lines.append(f"  buttons: [{self.start_button.description}]")
        else:
            lines.extend(self.area.describe_lines())
            lines.append(
                f"  buttons: [{self.check_button.description}] [{self.hint_button.description}] "
                f"[{self.reveal_button.description}] [{self.next_button.description}]"
            )
        again = f"[{self.restart_button.description}] " if self.started else ""
        lines.append(
            f"  [{self.save_button.description}] [{self.load_button.description}] "
            f"{again}[{self.new_attempt_button.description}]  "
            f"[{'x' if self.overwrite.value else ' '}] {self.overwrite.description}"
        )
        lines.append(f"  {self.path.description}: {self.path.value}")
        return "\n".join(lines)


def _saved_file_at(path: str) -> bool:
    """True when ``path`` names an existing regular file (a saved drill to open by itself)."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False
