"""The practice drill: work shuffled practice cases one by one, scored, with a summary.

Each case is worked in the same :class:`~helpers.trainee.widgets.exercise.CaseExercise`
as the filled cases. Progress is saved or loaded only when the trainee
presses a button, at the path they type. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w

from helpers.core.checks import require_check_name
from helpers.core.errors import InvalidInputError, ProgressFileError
from helpers.trainee.cases.practice_cases import PracticeCase, practice_cases
from helpers.trainee.cases.rules import Rule, load_rules
from helpers.trainee.drill.course import DEFAULT_DRILL_SEED, Progress
from helpers.trainee.drill.course_session import CourseSession
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.html import Html, esc
from helpers.trainee.html import html as markup
from helpers.trainee.progress.files import (
    TraineeProgress,
    load_trainee_progress,
    save_trainee_progress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)
from helpers.trainee.progress.paths import DEFAULT_PROGRESS_FILE, shown_path
from helpers.trainee.views.practice_tables import summary
from helpers.trainee.widgets.base import (
    TextPicture,
    button,
    frame,
    html,
    progress_path_box,
    view_markup,
    wide_style,
    wrap_html,
    wrap_row,
)
from helpers.trainee.widgets.case_area import CaseArea
from helpers.trainee.widgets.progress_transfer import ProgressTransfer

__all__ = ["PracticeDrill"]


class PracticeDrill(TextPicture):
    """The set course: practice cases in a seeded order, running score, progress bar, summary.

    A thin view over :class:`helpers.trainee.drill.course_session.CourseSession`, the same engine
    as the mastery drill: cases carry neutral labels ("Case 3 of 39"), hints never
    look at the answer, and only an unaided right first check scores correct.
    Drive it without a front end: answer :attr:`exercise` (``set_answer`` then
    ``check_button.click()``), then ``next_button.click()``; set ``path.value`` and
    click ``save_button`` or ``load_button``. Nothing is written until the save
    button is pressed. Taught in ``04_practice.ipynb``.
    """

    def __init__(
        self,
        *,
        seed: int = DEFAULT_DRILL_SEED,
        check: str | None = None,
        size: int | None = None,
        path: str | Path = DEFAULT_PROGRESS_FILE,
        cases: Sequence[PracticeCase] | None = None,
        rules: Sequence[Rule] | None = None,
    ) -> None:
        if check is not None:
            require_check_name(check)
        pool = list(cases) if cases is not None else practice_cases()
        self.cases = [case for case in pool if check is None or case.check == check]
        if not self.cases:
            raise InvalidInputError("a drill needs at least one practice case", field="cases")
        checks = {case.check for case in self.cases}
        every_rule = list(rules) if rules is not None else load_rules()
        self.rules = [rule for rule in every_rule if rule.check in checks]
        self.session = CourseSession.start(seed=seed, size=size, cases=self.cases, rules=every_rule)
        self._every_rule = every_rule
        self.file = self._new_file()

        self.score = html(css="eic-score")
        self.bar = w.IntProgress(
            min=0, max=self.progress.total, value=0, description="Done", style=wide_style()
        )
        self.bar.add_class("eic-progress-bar")
        self.area = CaseArea(lambda: self.session, every_rule, on_scored=self._scored)
        self.case_view, self.slot, self.scored = self.area.case_view, self.area.slot, self.area.scored_view
        self.next_button = button("Next case", "eic-next", disabled=True, button_style="primary")
        self.summary_view = html(css="eic-summary")
        self.path = progress_path_box(str(path))
        self.save_button = button("Save progress", "eic-save")
        self.load_button = button("Load progress", "eic-load")
        self.restart_button = button("Start again", "eic-restart")
        self.file_status = html(css="eic-file-status")
        self.transfer = ProgressTransfer(self._dump, self._accept_upload, self._report)

        self.next_button.on_click(lambda _button: self.next_case())
        self.save_button.on_click(lambda _button: self.save())
        self.load_button.on_click(lambda _button: self.load())
        self.restart_button.on_click(lambda _button: self.restart())

        self.widget = frame(
            [
                wrap_row([self.bar, self.score]),
                self.area.widget,
                wrap_row([self.next_button]),
                self.summary_view,
                wrap_row([self.path, self.save_button, self.load_button, self.restart_button]),
                self.file_status,
                self.transfer.widget,
            ],
            "eic-practice",
        )
        self._serve()

    # --- the engine -------------------------------------------------------------

    @property
    def progress(self) -> Progress:
        """The course's scores (first checks)."""
        return self.session.progress

    @property
    def exercise(self) -> CaseArea | None:
        """The case on show (its controls and buttons), or None once the drill is finished."""
        return self.area if self.session.current is not None else None

    @property
    def current(self) -> PracticeCase | None:
        """The case on show, with its answer: for tests and scripts; the screen shows only its input."""
        return self.session.current_case

    # --- showing cases --------------------------------------------------------

    def _serve(self) -> None:
        view = self.session.next_case()
        self.next_button.disabled = True
        self.next_button.description = "Next case"
        self._update_score()
        if view is None:
            self.area.show(None, finished=Html("<p><b>Drill finished.</b> Your summary is below.</p>"))
            self.summary_view.value = wrap_html(
                view_markup(summary(self.progress, self.cases, self.rules).html)
            )
            return
        self.summary_view.value = ""
        self.area.show(view)

    def _update_score(self) -> None:
        self.bar.value = self.progress.done
        self.score.value = wrap_html(markup('<b role="status">{}</b>', esc(self.progress.score_line())))

    def _scored(self) -> None:
        self.next_button.disabled = False
        self._update_score()
        self.transfer.refresh()

    def next_case(self) -> None:
        """Move to the next unchecked case, or show the summary when none is left."""
        self._serve()

    def restart(self) -> None:
        """Start the same drill again from the first case, with nothing scored."""
        self.session = CourseSession(
            Progress(self.progress.seed, self.progress.order), self.cases, rules=self.session.rules
        )
        self.file_status.value = ""
        self._serve()
        self.transfer.refresh()

    def _new_file(self) -> TraineeProgress:
        """A fresh version 3 progress file for this course (its mastery part left unstarted)."""
        seed = self.progress.seed if Mastery.seed_problem(self.progress.seed) is None else 0
        return TraineeProgress(
            DrillSession.start(seed=seed, rules=self._every_rule).record(), course=self.progress
        )

    def _adopt(self, progress: Progress) -> None:
        self.session = CourseSession(progress, self.cases, rules=self.session.rules)
        self.bar.max = progress.total
        self._serve()

    # --- progress files ---------------------------------------------------------

    def save(self) -> Path | None:
        """Save progress (a version 3 file) to the path typed in :attr:`path`; show where, or why not."""
        self.file.course = self.progress
        try:
            written = save_trainee_progress(self.file, self.path.value)
        except ProgressFileError as exc:
            self.file_status.value = wrap_html(_file_error_html("Not saved", exc))
            return None
        self.file_status.value = wrap_html(
            markup(
                '<span class="eic-saved" role="status">Saved {} checked cases to <code>{}</code>.</span>',
                self.progress.done,
                esc(shown_path(written)),
            )
        )
        return written

    def _take(self, loaded: TraineeProgress, source: str) -> Progress:
        if loaded.course is None:
            raise ProgressFileError("holds no set course; load it in the mastery drill instead", path=source)
        self.file = loaded
        self._adopt(loaded.course)
        return loaded.course

    def load(self) -> Progress | None:
        """Load progress (version 3, or an earlier version) from :attr:`path` and carry on where it stopped."""
        try:
            progress = self._take(
                load_trainee_progress(self.path.value, cases=self.cases), shown_path(self.path.value)
            )
        except ProgressFileError as exc:
            self.file_status.value = wrap_html(_file_error_html("Not loaded", exc))
            return None
        self.transfer.refresh()
        self.file_status.value = wrap_html(
            markup(
                '<span class="eic-loaded" role="status">Loaded {} checked cases from <code>{}</code>.</span>',
                progress.done,
                esc(shown_path(self.path.value)),
            )
        )
        return progress

    def _report(self, shown: Html) -> None:
        self.file_status.value = wrap_html(shown)

    def _dump(self) -> tuple[str, str]:
        self.file.course = self.progress
        text = json.dumps(trainee_progress_to_data(self.file), ensure_ascii=False, indent=1) + "\n"
        return Path(self.path.value).name or DEFAULT_PROGRESS_FILE, text

    def _accept_upload(self, data: Any, source: str) -> str:
        progress = self._take(trainee_progress_from_data(data, cases=self.cases, source=source), source)
        return f"Loaded {progress.done} checked cases from the upload {source}."

    # --- display ------------------------------------------------------------------

    def describe(self) -> str:
        """A plain-text picture of the drill, read from the live state."""
        lines = [
            f"Practice drill: seed {self.progress.seed}, {self.progress.total} cases",
            f"  {self.progress.score_line()}",
        ]
        shown = self.area.describe_lines()
        lines.extend(shown if shown else ["  Drill finished."])
        lines.append(
            f"  buttons: [{self.area.check_button.description}] [{self.area.hint_button.description}] "
            f"[{self.area.reveal_button.description}] [{self.next_button.description}] "
            f"[{self.save_button.description}] [{self.load_button.description}] "
            f"[{self.restart_button.description}]"
        )
        lines.append(f"  {self.path.description}: {self.path.value}")
        return "\n".join(lines)


def _file_error_html(verb: str, exc: ProgressFileError) -> Html:
    return markup('<div class="eic-error" role="alert"><b>{}:</b> {}</div>', esc(verb), esc(exc))
