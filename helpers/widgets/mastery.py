"""The mastery drill: fresh generated cases, served by spaced review, until every rule is mastered.

Each case comes from :mod:`helpers.teach.generators` for the rule most due
(:class:`helpers.teach.mastery.Mastery`), and is worked in the same
:class:`~helpers.widgets.exercise.CaseExercise` as the filled cases, reason and
hints included. The first check of a case scores it; a reveal before a correct
check scores a miss; hints are recorded. Progress is a version 2 file
(:mod:`helpers.teach.progress_v2`). Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as w

from ..core.chardiff import visible_text
from ..core.errors import ProgressFileError
from ..teach.drill import DEFAULT_SEED
from ..teach.grading import Grade
from ..teach.mastery import MASTERY_STREAK, Mastery, MasteryAttempt
from ..teach.practice_cases import PracticeCase
from ..teach.progress_files import shown_path
from ..teach.progress_v2 import (
    TraineeProgress,
    load_trainee_progress,
    new_attempt_path,
    save_trainee_progress,
    trainee_progress_from_data,
    trainee_progress_to_data,
)
from ..teach.render import esc, supplied_input
from ..teach.rules import Rule, load_rules
from .base import TextPicture, button, frame, html, progress_path_box, wide_style, wrap_html, wrap_row
from .exercise import CaseExercise
from .lite import ProgressTransfer

__all__ = ["MasteryDrill", "DEFAULT_MASTERY_FILE", "rule_bar"]

#: Where the mastery drill saves by default (a version 2 progress file).
DEFAULT_MASTERY_FILE = "integrity-mastery-progress.json"


#: Offered when Save refuses another drill's file (your own earlier drill after Start again).
_SAVE_CHOICES = (
    "To keep both, press Save as a new attempt. To replace that file with this drill, tick "
    "Overwrite with this drill and press Save progress again."
)


def rule_bar(rule: str, streak: int, mastered: bool) -> str:
    """One rule's bar as text: ``ts-lost ■■□ 2/3``, or ``… ■■■ mastered``."""
    filled = MASTERY_STREAK if mastered else min(streak, MASTERY_STREAK)
    blocks = "■" * filled + "□" * (MASTERY_STREAK - filled)
    return f"{rule} {blocks} " + ("✔ mastered" if mastered else f"{filled}/{MASTERY_STREAK}")


class MasteryDrill(TextPicture):
    """Practise every rule on fresh generated cases until each is mastered; bars and a summary.

    Drive it without a front end: answer :attr:`exercise` (``set_answer``,
    ``check_button.click()``, ``hint_button.click()``, ``reveal_button.click()``),
    then ``next_button.click()``; set ``path.value`` and click ``save_button``,
    ``load_button``, ``restart_button``, ``new_attempt_button``, or tick
    ``overwrite`` before saving. Nothing is written until a save button is
    pressed. Taught in ``04_practice.ipynb``.
    """

    def __init__(
        self,
        *,
        seed: int = DEFAULT_SEED,
        trainee: str = "",
        check: str | None = None,
        path: str | Path = DEFAULT_MASTERY_FILE,
        rules: Sequence[Rule] | None = None,
    ) -> None:
        every = list(rules) if rules is not None else load_rules()
        self.all_rules = every
        self.rules = [rule for rule in every if check is None or rule.check == check]
        self.progress = TraineeProgress(Mastery.start(self.rules, seed=seed, trainee=trainee))
        self.exercise: CaseExercise | None = None
        self.current: PracticeCase | None = None
        self.current_rule = ""
        self.current_seed = 0
        self.scored: MasteryAttempt | None = None

        self.bars = html(css="eic-rule-bars")
        self.case_view = html(css="eic-case")
        self.slot = w.VBox()
        self.scored_view = html(css="eic-scored")
        self.next_button = button("Next case", "eic-next", disabled=True, button_style="primary")
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
        self.overwrite = w.Checkbox(
            value=False, description="Overwrite with this drill", indent=False, layout=w.Layout(width="auto")
        )
        self.overwrite.add_class("eic-overwrite")
        self.new_attempt_button = button("Save as a new attempt", "eic-new-attempt")
        self.file_status = html(css="eic-file-status")
        self.transfer = ProgressTransfer(self._dump, self._accept_upload, self._report)

        self.next_button.on_click(lambda _button: self.next_case())
        self.save_button.on_click(lambda _button: self.save())
        self.load_button.on_click(lambda _button: self.load())
        self.restart_button.on_click(lambda _button: self.restart())
        self.new_attempt_button.on_click(lambda _button: self.save_new_attempt())

        self.widget = frame(
            [
                self.bars,
                self.case_view,
                self.slot,
                self.scored_view,
                wrap_row([self.next_button]),
                self.summary_view,
                wrap_row([self.trainee, self.path]),
                wrap_row([self.save_button, self.load_button, self.restart_button]),
                wrap_row([self.overwrite, self.new_attempt_button]),
                self.file_status,
                self.transfer.widget,
            ],
            "eic-mastery",
        )
        self._serve()

    @property
    def mastery(self) -> Mastery:
        """The drill's mastery record (states, attempts)."""
        return self.progress.mastery

    # --- serving and scoring ----------------------------------------------------------

    def _serve(self) -> None:
        self.scored = None
        self.scored_view.value = ""
        self.next_button.disabled = True
        self._show_bars()
        if self.mastery.complete:
            self.current, self.exercise = None, None
            self.slot.children = ()
            self.case_view.value = wrap_html("<p><b>Every rule is mastered.</b> Your summary is below.</p>")
            self.summary_view.value = wrap_html(self._completion_html())
            return
        self.summary_view.value = ""
        rule = self.mastery.next_rule()
        seed = self.mastery.case_seed(rule)
        case = self.mastery.next_case()
        self.current, self.current_rule, self.current_seed = case, rule, seed
        self.exercise = CaseExercise(
            case,
            rules=self.all_rules,
            on_graded=lambda grade: self._graded(case, grade),
            on_reveal=lambda: self._revealed(case),
        )
        self.slot.children = (self.exercise.widget,)
        self.case_view.value = wrap_html(
            f"<p><b>Case {self.mastery.step + 1}, a fresh case:</b> {esc(visible_text(case.title))}</p>"
            + supplied_input(case).html
        )

    def _record(self, grade: Grade | None) -> MasteryAttempt:
        assert self.exercise is not None
        answer = self.exercise.answer()
        stored: dict[str, Any] = {**answer.as_dict(self.exercise.case), "reason": answer.reason}
        attempt = self.mastery.record(
            self.current_rule,
            self.current_seed,
            answer=stored,
            correct=grade.correct if grade is not None else False,
            hints=self.exercise.hints_used,
            revealed=self.exercise.revealed,
            rules_missed=grade.rules_missed if grade is not None else (self.current_rule,),
        )
        self.scored = attempt
        self.next_button.disabled = False
        self._show_bars()
        self.transfer.refresh()
        return attempt

    def _graded(self, case: PracticeCase, grade: Grade) -> None:
        if case is not self.current:
            return
        if self.scored is not None:
            self.scored_view.value = wrap_html(
                '<div class="eic-scored-note" role="status">This case was already scored; checking again '
                "gives feedback but does not change your bars.</div>"
            )
            return
        attempt = self._record(grade)
        self.scored_view.value = wrap_html(_scored_html(attempt))
        if self.mastery.complete:
            self.summary_view.value = wrap_html(self._completion_html())

    def _revealed(self, case: PracticeCase) -> None:
        if case is not self.current or self.scored is not None:
            return
        self._record(None)
        self.scored_view.value = wrap_html(
            '<div class="eic-scored-note" role="status"><b>✘ Scored: missed.</b> You revealed the worked '
            "answer before a correct check, so this case counts as a miss and the rule comes round again "
            "soon. Read the answer, then press <b>Next case</b>.</div>"
        )

    def next_case(self) -> None:
        """Serve a fresh case for the rule most due, or the summary once every rule is mastered."""
        self._serve()

    def restart(self) -> None:
        """Start a new drill (fresh cases, nothing scored); saving over the old file then needs consent."""
        old = self.mastery
        self.progress = TraineeProgress(
            Mastery.start(self.rules, seed=old.seed + 1, trainee=self.trainee.value)
        )
        self.overwrite.value = False
        self.file_status.value = wrap_html(
            '<span role="status">Started again with fresh cases. Your earlier progress file is kept: Save '
            "will not write over it unless you tick <b>Overwrite with this drill</b>, or press "
            "<b>Save as a new attempt</b>.</span>"
        )
        self._serve()
        self.transfer.refresh()

    # --- display ----------------------------------------------------------------------

    def bar_lines(self) -> list[str]:
        """Each rule's bar as text, in the order of ``fixtures/rules.json``."""
        states = self.mastery.states
        return [rule_bar(r, states[r].streak, states[r].mastered) for r in self.mastery.rules]

    def _show_bars(self) -> None:
        m = self.mastery
        items = "".join(
            f'<li class="{"eic-mastered" if m.states[r].mastered else "eic-learning"}">'
            f"<code>{esc(line)}</code></li>"
            for r, line in zip(m.rules, self.bar_lines(), strict=True)
        )
        self.bars.value = wrap_html(
            f'<div role="status" aria-live="polite"><b>Mastery: {len(m.mastered)} of {len(m.rules)} rules '
            f"mastered, {m.step} cases worked.</b> A rule is mastered after {MASTERY_STREAK} correct first "
            f'tries in a row.</div><ul class="eic-bars" aria-label="Progress per rule">{items}</ul>'
        )

    def _completion_html(self) -> str:
        done = self.mastery.completion()
        if done is None:
            return ""
        return (
            '<div class="eic-feedback eic-correct" role="status"><b>✔ Every rule mastered.</b><ul>'
            f"<li>Completed on: {esc(str(done['completed_on'])[:10])}</li>"
            f"<li>Cases worked: {done['cases_worked']}</li>"
            f"<li>Correct first tries: {done['correct_first_tries']}</li>"
            f"<li>Hints used: {done['hints_used']}</li>"
            f"<li>Reveals: {done['reveals']}</li></ul>"
            "Save your progress to keep this record.</div>"
        )

    def completion_text(self) -> str:
        """The completion summary as text, or "" while rules remain."""
        done = self.mastery.completion()
        if done is None:
            return ""
        return (
            f"Every rule mastered on {str(done['completed_on'])[:10]}: {done['cases_worked']} cases worked, "
            f"{done['hints_used']} hints used, {done['reveals']} reveals"
        )

    # --- progress files -------------------------------------------------------------------

    def _report(self, markup: str) -> None:
        self.file_status.value = wrap_html(markup)

    def _error(self, verb: str, exc: ProgressFileError, then: str = "") -> None:
        more = f"<br>{esc(then)}" if then else ""
        self._report(f'<div class="eic-error" role="alert"><b>✘ {esc(verb)}:</b> {esc(exc)}{more}</div>')

    def save(self, *, path: str | Path | None = None) -> Path | None:
        """Save to :attr:`path` (or ``path``); refuse another drill's file unless :attr:`overwrite` is ticked."""
        self.mastery.trainee = self.trainee.value
        target = path if path is not None else self.path.value
        try:
            written = save_trainee_progress(self.progress, target, overwrite=self.overwrite.value)
        except ProgressFileError as exc:
            self._error("Not saved", exc, _SAVE_CHOICES if "another drill" in exc.message else "")
            return None
        self.overwrite.value = False
        self._report(
            f'<span class="eic-saved" role="status">✔ Saved {self.mastery.step} cases worked to '
            f"<code>{esc(shown_path(written))}</code>.</span>"
        )
        self.transfer.refresh()
        return written

    def save_new_attempt(self) -> Path | None:
        """Save under a fresh name beside :attr:`path` (``name-2.json``, …), keeping the earlier file."""
        fresh = new_attempt_path(self.path.value)
        self.path.value = str(fresh)
        return self.save()

    def _adopt(self, progress: TraineeProgress) -> None:
        known = {rule.id: rule for rule in self.all_rules}
        self.rules = [known[r] for r in progress.mastery.rules]
        self.progress = progress
        self.trainee.value = progress.trainee
        self._serve()

    def load(self) -> TraineeProgress | None:
        """Load a version 2 (or 1) progress file from :attr:`path` and carry on where it stopped."""
        try:
            progress = load_trainee_progress(self.path.value, rules=self.all_rules)
        except ProgressFileError as exc:
            self._error("Not loaded", exc)
            return None
        self._adopt(progress)
        self._report(
            f'<span class="eic-loaded" role="status">✔ Loaded {self.mastery.step} cases worked from '
            f"<code>{esc(shown_path(self.path.value))}</code>.</span>"
        )
        self.transfer.refresh()
        return progress

    def _dump(self) -> tuple[str, str]:
        text = json.dumps(trainee_progress_to_data(self.progress), ensure_ascii=False, indent=1) + "\n"
        return Path(self.path.value).name or DEFAULT_MASTERY_FILE, text

    def _accept_upload(self, data: Any, source: str) -> str:
        progress = trainee_progress_from_data(data, rules=self.all_rules, source=source)
        self._adopt(progress)
        return f"Loaded {self.mastery.step} cases worked from the upload {source}."

    def describe(self) -> str:
        """A plain-text picture of the drill: bars, the case, the buttons."""
        m = self.mastery
        lines = [
            f"Mastery drill: seed {m.seed}, {len(m.mastered)} of {len(m.rules)} rules mastered, "
            f"{m.step} cases worked",
            *(f"  {line}" for line in self.bar_lines()),
        ]
        if self.current is not None and self.exercise is not None:
            lines.append(f"  Case {m.step + 1}: {visible_text(self.current.title)}")
            lines.append(self.exercise.describe())
        else:
            lines.append(f"  {self.completion_text()}")
        lines.append(
            f"  buttons: [{self.next_button.description}] [{self.save_button.description}] "
            f"[{self.load_button.description}] [{self.restart_button.description}] "
            f"[{self.new_attempt_button.description}]  "
            f"[{'x' if self.overwrite.value else ' '}] {self.overwrite.description}"
        )
        lines.append(f"  {self.path.description}: {self.path.value}")
        return "\n".join(lines)


def _scored_html(attempt: MasteryAttempt) -> str:
    hints = f" You used {attempt.hints} hint{'s' if attempt.hints != 1 else ''}." if attempt.hints else ""
    if attempt.correct:
        return (
            f'<div class="eic-scored-note" role="status"><b>✔ Scored: correct first try.</b>{hints} '
            f"The bar for <code>{esc(attempt.rule)}</code> moved. Press <b>Next case</b>.</div>"
        )
    return (
        f'<div class="eic-scored-note" role="status"><b>✘ Scored: missed.</b>{hints} '
        f"<code>{esc(attempt.rule)}</code> goes back to the first box and comes round again soon. Fix it "
        "above if you like (the hints still help), then press <b>Next case</b>.</div>"
    )
