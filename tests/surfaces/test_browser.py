"""The notebooks as a trainee uses them: JupyterLab driven in a real Chromium.

nbval proves the stored outputs; these tests click. One JupyterLab serves a
temporary copy of ``notebooks/`` for all the tests in this module, and each notebook
gets one tab, opened and run once (see ``tests/support/lab_session.py``).

* every ``notebooks/NN_*.ipynb`` runs from the Run menu with no error output and
  no browser console error, and every widget renders;
* every filled case, through its widget's own controls: a wrong answer gets its
  targeted feedback, the right answer is fully correct, the worked answer shows,
  and the ``<details>`` fallback shows the same answer;
* the practice drill in ``04_practice.ipynb``: a wrong first case is scored with its
  targeted feedback, *Next case* moves on, the next case answered right is fully
  correct, and the score and progress bar follow; nothing is saved;
* every sandbox updates when edited and shows a clear error for bad input;
* markup in case IDs renders as text and runs nothing.

Screenshots go to ``artifacts/screenshots/``; timings to ``artifacts/browser-timings.json``.
Set ``EIC_DOC_SCREENSHOTS=1`` to refresh the two pictures in ``docs/screenshots/``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from axe_check import axe_violations, describe
from lab_session import (
    DOC_SCREENSHOTS,
    NOTEBOOKS,
    PANEL,
    SCREENSHOTS,
    WIDGET_TIMEOUT_MS,
    BrowserReport,
    Lab,
    LabServer,
    NotebookPage,
    chromium_executable,
    copy_notebooks,
    launch_chromium,
    notebook_paths,
    write_scratch_notebook,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import helpers
from helpers.core.chardiff import visible_id
from helpers.trainee.cases.filled import Case, get_case
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.course import DEFAULT_DRILL_SEED
from helpers.trainee.drill.engine import DrillSession
from helpers.trainee.grading import (
    Answer,
    answer_fields,
    candidate_ids,
    correct_answer,
    grade,
    reason_options,
)
from helpers.trainee.practice import (
    DEFAULT_PROGRESS_FILE,
    PROGRESS_FORMAT,
    drill_order,
    practice_cases,
)
from helpers.trainee.views.case_html import HIDE_SUMMARY, REVEAL_SUMMARY, display_json
from helpers.trainee.widgets.mastery_bars import rule_bar

pytestmark = pytest.mark.browser
expect.set_options(timeout=WIDGET_TIMEOUT_MS)

NOTEBOOK_NAMES = [path.name for path in notebook_paths()]
RULES = {rule.id: rule for rule in load_rules()}


def _shown(message: str) -> str:
    """A feedback message as the page shows it: its backticked fields and IDs as plain code text."""
    return message.replace("`", "")


#: Where each check's filled cases are worked.
CASE_NOTEBOOK = {
    "target-scope": "02_target_scope.ipynb",
    "sentinels": "03_sentinel_answer_key.ipynb",
}


@dataclass(frozen=True)
class WrongAnswer:
    """A wrong answer to give through the controls, and the feedback line it must get."""

    field: str
    phrase: str
    missing: frozenset[str] = frozenset()
    second: frozenset[str] = frozenset()
    flag: bool | None = None
    hold: bool = False

    def answer(self, case: Case) -> Answer:
        """This wrong answer for ``case``, with the right reason (so one field is wrong)."""
        return Answer(
            case.check, self.missing, self.second, self.flag, self.hold, correct_answer(case).reason
        )


#: One wrong answer per filled case, from the table in tests/trainee/widgets/test_widgets.py, which
#: checks the same feedback without a browser.
WRONG_ANSWERS: dict[str, WrongAnswer] = {
    "lost-comparison": WrongAnswer(
        "missing", "is incomplete: one original target is not in the rewrite.", flag=False
    ),
    "reordered-targets": WrongAnswer(
        "missing",
        "has induction, which is in both lists: order doesn't matter",
        missing=frozenset({"induction"}),
        flag=False,
    ),
    "new-target": WrongAnswer(
        "added", "is incomplete: one rewrite target is not in the original.", flag=False
    ),
    "sentinel-mutated": WrongAnswer(
        "changed", "is incomplete: one sentinel answer is a different string in the proposed key.", flag=False
    ),
    "new-case-only": WrongAnswer(
        "missing",
        "has C2, which is not in the baseline: a non-sentinel case is allowed and is never missing",
        missing=frozenset({"C2"}),
        flag=False,
    ),
    "sentinel-missing": WrongAnswer(
        "missing", "is incomplete: one baseline sentinel is absent from the proposed key.", flag=False
    ),
}

#: The case whose widget is photographed for the docs.
DOC_CASE = "lost-comparison"


def _exact(text: str) -> re.Pattern[str]:
    """A pattern matching exactly ``text`` (surrounding whitespace allowed)."""
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def _verbatim(text: str) -> re.Pattern[str]:
    """A pattern matching exactly ``text``, character for character.

    Playwright normalizes plain-string text (it drops U+200B and folds whitespace);
    regular expressions are matched against the raw text.
    """
    return re.compile(rf"^{re.escape(text)}$")


# --- fixtures ---------------------------------------------------------------


@pytest.fixture(scope="module")
def lab(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """One JupyterLab and one Chromium for all the tests here; both stopped even on failure.

    Module scope, and every test that uses them is in this module, so there is one of
    each per session. They close when this module is done: Playwright's sync API allows
    one running instance at a time, and other modules start their own browsers.
    """
    executable = chromium_executable()  # skips locally, fails under CI=true, when missing
    report = BrowserReport()
    request.config.pluginmanager.register(report, "eic-browser-report")
    for stale in SCREENSHOTS.glob("failure-*.png"):
        stale.unlink()
    home = tmp_path_factory.mktemp("lab")
    server = LabServer(copy_notebooks(home / "notebooks"), home)
    playwright = None
    context = None
    try:
        server.start()
        playwright = sync_playwright().start()
        context = launch_chromium(playwright, executable, home / "chromium-profile")
        yield Lab(server, context, report)
    finally:
        try:
            if context is not None:
                context.close()
            if playwright is not None:
                playwright.stop()
        finally:
            server.stop()


@pytest.fixture(autouse=True)
def _timed(lab: Lab) -> Iterator[None]:
    """Mark the end of each browser test, for the wall time in the summary."""
    yield
    lab.report.test_finished()


def _no_new_console_errors(notebook: NotebookPage, before: int) -> None:
    new = notebook.console_errors[before:]
    assert not new, f"browser console errors in {notebook.name}:\n" + "\n".join(new)


# --- every notebook ---------------------------------------------------------


def _stored_widget_outputs(name: str) -> int:
    """How many widget views the stored notebook displays (one per widget cell output)."""
    notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return sum(
        1
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
    )


@pytest.mark.parametrize(
    "name",
    # 02 is the fast loop's JupyterLab smoke test: the check's own notebook, run clean and passing axe.
    [pytest.param(n, marks=pytest.mark.smoke) if n.startswith("02_") else n for n in NOTEBOOK_NAMES],
    ids=lambda n: n.removesuffix(".ipynb"),
)
def test_notebook_runs_clean_in_jupyterlab(lab: Lab, name: str) -> None:
    """Open, Run > Run All Cells: every cell runs, no traceback, no console error, widgets render."""
    notebook = lab.notebook(name)
    # A rendered widget view is an output whose own child is the widget.
    widgets = notebook.panel.locator(".jp-OutputArea-output:has(> .jupyter-widgets)")
    expect(widgets).to_have_count(_stored_widget_outputs(name))
    notebook.screenshot(SCREENSHOTS / f"{name.removesuffix('.ipynb')}.png")

    errors = notebook.error_outputs()
    assert not errors, f"{name} shows error outputs:\n" + "\n---\n".join(errors)
    assert not notebook.unnumbered_prompts(), f"cells that did not run: {notebook.unnumbered_prompts()}"
    assert "Error displaying widget" not in (notebook.panel.text_content() or "")
    _expect_no_axe_violations(notebook)
    _no_new_console_errors(notebook, 0)


def test_error_checks_see_a_traceback_and_a_console_error(lab: Lab) -> None:
    """The checks above can fail: a raising cell and a console error are both seen."""
    write_scratch_notebook(
        lab.root / "scratch_probe.ipynb",
        ['print("before")', 'raise ValueError("probe failure")', 'print("after")'],
    )
    notebook = lab.notebook("scratch_probe.ipynb")
    errors = notebook.error_outputs()
    assert len(errors) == 1 and "ValueError: probe failure" in errors[0], errors
    assert [index for index, _ in notebook.unnumbered_prompts()] == [2]
    with notebook.page.expect_console_message(lambda message: message.type == "error"):
        notebook.page.evaluate("() => console.error('probe console error')")
    assert notebook.console_errors == ["console.error: probe console error"]


# --- the filled cases -------------------------------------------------------


class ExerciseWidget:
    """The work-it-yourself widget of one case, driven only through its own controls.

    Its parts are found by the CSS classes the widget sets (``eic-flag``, ``eic-hold``,
    ``eic-check``, ...), and each ID's checkbox by its exact label inside its column.
    """

    def __init__(
        self,
        notebook: NotebookPage,
        case: Case,
        report: BrowserReport,
        *,
        within: Locator | None = None,
        label: str | None = None,
    ) -> None:
        self.page = notebook.page
        self.case = case
        self.report = report
        exercises = (within if within is not None else notebook.panel).locator(".eic-exercise")
        if label is None:
            self.root = exercises.filter(
                has=self.page.locator("code").filter(has_text=_verbatim(visible_id(case.id)))
            )
        else:
            heading = re.compile(rf"Your answer for {re.escape(label)}(?![0-9])")
            self.root = exercises.filter(
                has=self.page.locator(".widget-html-content").filter(has_text=heading)
            )
        expect(self.root).to_have_count(1)

    def _checkbox(self, field: str, case_id: str) -> Locator:
        """The checkbox for ``case_id`` in the ``field`` column, matched on its exact label.

        A regular expression, because Playwright's plain text matching drops zero-width
        spaces and folds whitespace, and look-alike IDs differ in exactly those.
        """
        checkbox = self.root.locator(f".eic-column-{field} .widget-checkbox.eic-{field}").filter(
            has=self.page.locator("label.widget-label-basic > span").filter(
                has_text=_verbatim(f"{field}: {visible_id(case_id)}")
            )
        )
        expect(checkbox).to_have_count(1)
        return checkbox

    def _tick(self, checkbox: Locator, wanted: bool) -> None:
        """Click the checkbox's label if its state is not ``wanted``."""
        box = checkbox.locator('input[type="checkbox"]')
        expect(box).to_have_count(1)
        if box.is_checked() != wanted:
            checkbox.locator("label.widget-label-basic").click()
        expect(box).to_be_checked(checked=wanted)

    def give(self, answer: Answer) -> None:
        """Put ``answer`` into the controls by clicking, then wait for the live JSON to show it."""
        first, second, _ = answer_fields(self.case.check)
        for case_id in candidate_ids(self.case):
            self._tick(self._checkbox(first, case_id), case_id in answer.missing)
            self._tick(self._checkbox(second, case_id), case_id in answer.second)
        if answer.flag is not None:
            flag = answer_fields(self.case.check)[2]
            radio = self.root.locator(".eic-flag").get_by_role(
                "radio", name=f"{flag}: {'true' if answer.flag else 'false'}", exact=True
            )
            radio.check()
            expect(radio).to_be_checked()
        self._tick(self.root.locator(".widget-checkbox.eic-hold"), answer.hold)
        if answer.reason is not None and self.root.locator(".eic-reason").count():
            rule = RULES[answer.reason]
            radio = self.root.locator(".eic-reason").get_by_role("radio", name=rule.label, exact=True)
            radio.check()
            expect(radio).to_be_checked()
        live = self.root.locator(".eic-live .widget-html-content")
        expect(live).to_contain_text("The JSON you are building")
        expect(live.locator("pre.eic-json")).to_have_text(_verbatim(display_json(answer.as_dict(self.case))))

    def check(self) -> Locator:
        """Click *Check my answer* and return the feedback, timing click to feedback."""
        feedback = self.root.locator(".eic-feedback-area .eic-feedback")
        expect(feedback).to_have_count(0)  # changing a control clears old feedback
        button = self.root.locator("button.eic-check")
        expect(button).to_have_text(_exact("Check my answer"))
        started = time.perf_counter()
        button.click()
        try:
            feedback.wait_for(state="visible")
        except PlaywrightTimeoutError:
            pytest.fail(f"{self.case.id}: no feedback after clicking Check my answer")
        self.report.record_latency(time.perf_counter() - started)
        return feedback

    def reveal(self) -> Locator:
        """Click *Show the worked answer* and return the revealed block."""
        revealed = self.root.locator(".eic-reveal-area .eic-reveal")
        expect(revealed).to_have_count(0)
        button = self.root.locator("button.eic-show-answer")
        expect(button).to_have_text(_exact(REVEAL_SUMMARY))
        button.click()
        expect(revealed).to_be_visible()
        expect(button).to_have_text(_exact(HIDE_SUMMARY))
        return revealed


def _tick(control: Locator, tries: int = 3) -> None:
    """Check ``control``, again if a late output redrew the widget under the click (Notebook 7 does)."""
    for attempt in range(tries):
        try:
            control.check()
            return
        except PlaywrightError:
            if attempt == tries - 1:
                raise
            control.page.wait_for_timeout(500)


def _expect_worked_answer(revealed: Locator, case: Case) -> None:
    expect(revealed.locator("pre.eic-json")).to_have_text(display_json(case.expected))
    expect(revealed).to_contain_text(f"Decision: {case.decision}.")
    expect(revealed).to_contain_text(f"Reason: {case.reason}")


def _doc_screenshot(widget: Locator, file_name: str) -> None:
    path = SCREENSHOTS / file_name
    widget.screenshot(path=str(path))
    if os.environ.get("EIC_DOC_SCREENSHOTS") == "1":
        DOC_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOC_SCREENSHOTS / file_name)


@pytest.mark.parametrize("case", helpers.filled_cases(), ids=lambda case: case.id)
def test_filled_case_through_the_widget(lab: Lab, case: Case) -> None:
    """Wrong answer: targeted feedback. Right answer: fully correct. Reveal and <details> agree."""
    notebook = lab.notebook(CASE_NOTEBOOK[case.check])
    before = len(notebook.console_errors)
    number = [c.id for c in helpers.filled_cases(case.check)].index(case.id) + 1
    widget = ExerciseWidget(notebook, case, lab.report, label=f"Case {number}")

    wrong = WRONG_ANSWERS[case.id]
    widget.give(wrong.answer(case))
    feedback = widget.check()
    expect(feedback).to_have_class(re.compile(r"\beic-wrong\b"))
    expect(feedback).to_contain_text("Not yet")
    targeted = re.compile(rf"^\s*{re.escape(wrong.field)} {re.escape(wrong.phrase)}")
    expect(feedback.locator("li").filter(has_text=targeted)).to_have_count(1)
    if case.id == DOC_CASE:
        _doc_screenshot(widget.root, "graded-feedback.png")

    widget.give(correct_answer(case))
    feedback = widget.check()
    expect(feedback).to_have_class(re.compile(r"\beic-correct\b"))
    expect(feedback).to_contain_text("Fully correct")

    revealed = widget.reveal()
    _expect_worked_answer(revealed, case)
    if case.id == WRONG_ANSWERS_AXE_CASE.get(case.check):
        # With feedback and a worked answer showing: WCAG 2.1 AA in this notebook's output areas.
        _expect_no_axe_violations(notebook)
    if case.id == DOC_CASE:
        _doc_screenshot(widget.root, "worked-answer.png")

    # One reveal per case: the live notebook hides the kernel-free <details> block (and its
    # "No kernel?" note), which stays in the page for GitHub and the static site.
    details = (
        notebook.panel.locator("details")
        .filter(has=notebook.page.locator("summary").filter(has_text=_exact(REVEAL_SUMMARY)))
        .filter(has_text=case.reason)
    )
    expect(details).to_have_count(1)
    expect(details).to_be_hidden()
    fallback = details.locator(".eic-reveal")
    assert "".join((fallback.text_content() or "").split()) == "".join(
        (revealed.text_content() or "").split()
    )
    # The same button hides the answer again.
    widget.root.locator("button.eic-show-answer").click()
    expect(widget.root.locator(".eic-reveal-area .eic-reveal")).to_have_count(0)
    expect(widget.root.locator("button.eic-show-answer")).to_have_text(_exact(REVEAL_SUMMARY))
    _no_new_console_errors(notebook, before)


#: The case of each check after which axe-core runs on the notebook with feedback and a reveal showing.
WRONG_ANSWERS_AXE_CASE = {"target-scope": "new-target", "sentinels": "sentinel-missing"}

#: axe-core findings in markup that is not the project's: JupyterLab's and ipywidgets' own.
#: Each is listed with the reason it is not fixed here; the project's HTML must have none.
KNOWN_THIRD_PARTY: dict[str, str] = {}


def _expect_no_axe_violations(notebook: NotebookPage) -> None:
    """0 WCAG 2.1 AA violations in the visible notebook's output areas (the project's HTML and widgets)."""
    violations = axe_violations(notebook.page, f"{PANEL} .jp-OutputArea", known=KNOWN_THIRD_PARTY)
    assert not violations, f"axe-core in {notebook.name}:\n{describe(violations)}"


# --- the practice drill -----------------------------------------------------

PRACTICE_NOTEBOOK = "04_practice.ipynb"


def _expect_progress_bar(drill: Locator, done: int, total: int) -> None:
    """The drill's progress bar is filled to ``done`` of ``total``."""
    fill = drill.locator(".eic-progress-bar .progress-bar")
    expect(fill).to_have_count(1)
    want = 100 * done / total
    try:
        drill.page.wait_for_function(
            "([bar, want]) => Math.abs(parseFloat(bar.style.width) - want) < 0.01",
            arg=[fill.element_handle(), want],
            timeout=WIDGET_TIMEOUT_MS,
            polling=100,
        )
    except PlaywrightTimeoutError:
        width = fill.evaluate("bar => bar.style.width")
        pytest.fail(f"progress bar width is {width!r}, expected {want:.2f}% ({done} of {total} done)")


def _progress_files(folder: Path) -> list[Path]:
    """Files under ``folder`` that are, or are on the way to being, a practice progress file."""
    found = []
    for path in folder.rglob("*"):
        if not path.is_file() or path.suffix == ".ipynb":
            continue
        if DEFAULT_PROGRESS_FILE in path.name or PROGRESS_FORMAT.encode() in path.read_bytes():
            found.append(path)
    return found


def test_practice_drill_through_the_widget(lab: Lab) -> None:
    """After Run All: Check with nothing set scores nothing, a wrong first case, Next case, a right second case.

    The score and bar follow. Everything goes through the drill's own controls. Save is never
    pressed, and no progress file appears in the served notebooks folder.
    """
    order = drill_order(practice_cases(), seed=DEFAULT_DRILL_SEED)
    total = len(order)
    first, second = order[0], order[1]
    blank = Answer(first.check)
    given = Answer(first.check, flag=False, reason=correct_answer(first).reason)  # every part set
    wrong = grade(first, given, ask_reason=True)
    assert not wrong.correct and wrong.mistakes, f"{first.id}: the empty lists must be wrong"
    right = correct_answer(second)
    assert grade(second, right).correct

    notebook = lab.notebook(PRACTICE_NOTEBOOK)
    before = len(notebook.console_errors)
    assert not _progress_files(lab.root)
    drill = notebook.panel.locator(".eic-practice")
    expect(drill).to_have_count(1)
    case_view = drill.locator(".eic-case")
    score = drill.locator(".eic-score")
    scored = drill.locator(".eic-scored")
    next_button = drill.locator("button.eic-next")
    expect(next_button).to_have_text(_exact("Next case"))

    expect(case_view).to_contain_text(f"Supplied input for Case 1 of {total}:")
    expect(case_view).not_to_contain_text(first.title)  # the title may name the rule: not before the check
    expect(score).to_have_text(_exact(f"Score: nothing checked yet · 0 of {total} cases done"))
    _expect_progress_bar(drill, 0, total)
    expect(next_button).to_be_disabled()

    # First case: Check with nothing chosen says what is unset and scores nothing.
    widget = ExerciseWidget(notebook, first, lab.report, within=drill, label=f"Case 1 of {total}")
    widget.give(blank)  # the controls start blank: the live JSON shows the blank answer
    drill.locator("button.eic-check").click()
    unset = drill.locator(".eic-feedback-area .eic-unset")
    hold = "Hold" if first.check == "target-scope" else "Refuse"
    flag = answer_fields(first.check)[2]
    expect(unset).to_contain_text(
        f"Not checked yet. Still unset: {flag} (true or false, or tick {hold}), the reason."
    )
    expect(unset).to_have_attribute("role", "alert")
    expect(scored).to_have_text("")
    expect(score).to_have_text(_exact(f"Score: nothing checked yet · 0 of {total} cases done"))
    _expect_progress_bar(drill, 0, total)
    expect(next_button).to_be_disabled()
    # Then a wrong answer with every part set: scored as missed.
    widget.give(given)
    feedback = widget.check()
    expect(feedback).to_have_class(re.compile(r"\beic-wrong\b"))
    expect(feedback).to_contain_text("Not yet")
    expect(feedback.locator("li")).to_have_count(len(wrong.mistakes))
    for mistake in wrong.mistakes:
        line = _verbatim(_shown(mistake.message))
        expect(feedback.locator("li").filter(has_text=line)).to_have_count(1)
    expect(scored).to_contain_text("✘ Scored: missed.")
    expect(scored).to_contain_text(f"This case was about {first.rules[0]}")
    expect(score).to_have_text(_exact(f"Score: 0 of 1 correct (0%) · 1 of {total} cases done"))
    _expect_progress_bar(drill, 1, total)
    expect(next_button).to_be_enabled()

    # Next case: the counter advances and the new case starts unscored.
    next_button.click()
    expect(case_view).to_contain_text(f"Supplied input for Case 2 of {total}:")
    expect(next_button).to_be_disabled()
    expect(scored).to_have_text("")
    expect(drill.locator(".eic-exercise")).to_have_count(1)

    # Second case: the right answer, ticked by label in the right columns.
    widget = ExerciseWidget(notebook, second, lab.report, within=drill, label=f"Case 2 of {total}")
    widget.give(right)
    feedback = widget.check()
    expect(feedback).to_have_class(re.compile(r"\beic-correct\b"))
    expect(feedback).to_contain_text("Fully correct")
    expect(scored).to_contain_text("✔ Scored: correct first try, unaided.")
    expect(score).to_have_text(_exact(f"Score: 1 of 2 correct (50%) · 2 of {total} cases done"))
    _expect_progress_bar(drill, 2, total)
    expect(next_button).to_be_enabled()

    expect(drill.locator(".eic-file-status")).to_have_text("")
    assert not _progress_files(lab.root), "a progress file was written without pressing Save"
    assert not notebook.error_outputs()
    _no_new_console_errors(notebook, before)


# --- the mastery drill ------------------------------------------------------


class DrillWidget:
    """The mastery drill in 04, driven only through its own controls."""

    def __init__(self, notebook: NotebookPage) -> None:
        self.page = notebook.page
        self.root = notebook.panel.locator(".eic-mastery")
        expect(self.root).to_have_count(1)

    def start(self) -> int:
        """Press Start (unless pressed already) and return the fresh seed the drill says it drew."""
        button = self.root.locator("button.eic-start")
        if button.is_visible():
            expect(button).to_have_text(_exact("Start"))
            button.click()
        status = self.root.locator(".eic-file-status")
        expect(status).to_contain_text("Your own drill has started")
        found = re.search(r"fresh random seed (\d+)", status.inner_text())
        assert found, status.inner_text()
        return int(found.group(1))

    def _tick(self, field: str, case_id: str, wanted: bool) -> None:
        checkbox = self.root.locator(f".eic-column-{field} .widget-checkbox.eic-{field}").filter(
            has=self.page.locator("label.widget-label-basic > span").filter(
                has_text=_verbatim(f"{field}: {visible_id(case_id)}")
            )
        )
        expect(checkbox).to_have_count(1)
        box = checkbox.locator('input[type="checkbox"]')
        if box.is_checked() != wanted:
            checkbox.locator("label.widget-label-basic").click()
        expect(box).to_be_checked(checked=wanted)

    def give(self, view, answer: Answer) -> None:
        """Put ``answer`` to the case ``view`` shows into the controls by clicking."""
        first, second, flag = view.fields
        for case_id in view.ids:
            if case_id in answer.missing:
                self._tick(first, case_id, True)
            if case_id in answer.second:
                self._tick(second, case_id, True)
        if answer.hold:
            self.root.locator(".widget-checkbox.eic-hold label.widget-label-basic").click()
        elif answer.flag is not None:
            self.root.locator(".eic-flag").get_by_role(
                "radio", name=f"{flag}: {'true' if answer.flag else 'false'}", exact=True
            ).check()
        text = dict((rule_id, text) for text, rule_id in view.reason_options)[answer.reason]
        radio = self.root.locator(".eic-reason").get_by_role("radio", name=text, exact=True)
        radio.check()
        expect(radio).to_be_checked()
        # The kernel has the whole answer once the live JSON and the reason show it.
        live = self.root.locator(".eic-live .widget-html-content")
        shown = SimpleNamespace(
            input={k: list(v) if isinstance(v, tuple) else v for k, v in view.input.items()}
        )
        expect(live.locator("pre.eic-json")).to_have_text(_verbatim(display_json(answer.as_dict(shown))))
        expect(live).to_contain_text(f"Reason: {answer.reason}")


def test_the_first_run_of_the_mastery_drill(lab: Lab) -> None:
    """In 04 after Run All: the drill waits for Start; one press begins the trainee's own drill on a fresh
    seed; Check with nothing set says what is unset, and nothing is scored.
    """
    notebook = lab.notebook(PRACTICE_NOTEBOOK)
    before = len(notebook.console_errors)
    drill = DrillWidget(notebook)
    bars = drill.root.locator(".eic-rule-bars")
    start = drill.root.locator("button.eic-start")
    expect(start).to_be_visible()
    expect(drill.root.locator(".eic-start-note")).to_contain_text(
        "Not started: press Start for your own drill"
    )
    expect(drill.root.locator("button.eic-check")).to_be_hidden()  # no case before Start
    expect(bars).not_to_contain_text("Demo drill")
    seed = drill.start()
    assert seed != DEFAULT_DRILL_SEED
    expect(start).to_be_hidden()
    view = DrillSession.start(seed=seed).next_case()
    expect(drill.root.locator(".eic-case")).to_contain_text(f"Supplied input for {view.label}:")
    flag = answer_fields(view.check)[2]
    hold = "Hold" if view.check == "target-scope" else "Refuse"
    drill.root.locator("button.eic-check").click()
    unset = drill.root.locator(".eic-feedback-area .eic-unset")
    expect(unset).to_contain_text(
        f"Not checked yet. Still unset: {flag} (true or false, or tick {hold}), the reason."
    )
    expect(unset).to_have_attribute("role", "alert")
    expect(unset).to_contain_text("Nothing was checked or scored.")
    expect(drill.root.locator(".eic-scored")).to_have_text("")
    expect(bars).to_contain_text("0 cases worked")
    expect(drill.root.locator("button.eic-next")).to_have_text(_exact("Skip this case (counts as a miss)"))
    expect(drill.root.locator(".eic-unsaved")).to_have_text("")
    _expect_no_axe_violations(notebook)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    drill.root.screenshot(path=str(SCREENSHOTS / "mastery-first-run.png"))
    assert not notebook.error_outputs()
    _no_new_console_errors(notebook, before)


def test_a_full_mastery_run_with_a_perfect_strategy(lab: Lab) -> None:
    """In 04: every case answered right on the first try, unaided, until every rule is mastered.

    A twin :class:`DrillSession` with the same seed says what each case is; the page must show the
    same neutral label, and never the rule before the check. A hint on the first case is shown
    and leaves the answer unchecked. The final page is screenshotted.
    """
    from trainees import _blind_answer

    notebook = lab.notebook(PRACTICE_NOTEBOOK)
    before = len(notebook.console_errors)
    drill = DrillWidget(notebook)
    twin = DrillSession.start(seed=drill.start())
    bars = drill.root.locator(".eic-rule-bars")
    scored = drill.root.locator(".eic-scored")
    while not twin.complete:
        view = twin.next_case()
        case_area = drill.root.locator(".eic-case")
        expect(case_area).to_contain_text(f"Supplied input for {view.label}:")
        # The new case's own controls are in place (the heading comes with them).
        heading = drill.root.locator(".eic-answer-heading")
        expect(heading).to_have_text(_verbatim(f"Your answer for {view.label}"))
        answer = _blind_answer(view, None)
        drill.give(view, answer)
        expect(scored).to_have_text("")  # nothing scored, and the rule not named, before the check
        drill.root.locator("button.eic-check").click()
        result = twin.check(answer)
        assert result.outcome == "correct"
        expect(drill.root.locator(".eic-feedback-area .eic-feedback")).to_contain_text("Fully correct")
        expect(scored).to_contain_text("✔ Scored: correct first try, unaided.")
        step = twin.mastery.step
        expect(bars).to_contain_text(f"{step} case{'' if step == 1 else 's'} worked")
        if view.number == 1:
            _expect_no_axe_violations(notebook)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            drill.root.screenshot(path=str(SCREENSHOTS / "mastery-case.png"))
        drill.root.locator("button.eic-next").click()
    steps = twin.mastery.step
    assert steps <= 4 * len(twin.mastery.rules)
    expect(bars).to_contain_text(f"{len(twin.mastery.rules)} of {len(twin.mastery.rules)} rules mastered")
    expect(bars).to_contain_text(
        "Complete: every rule mastered and every look-alike kind mastered, with a whole record"
    )
    for rule in twin.mastery.rules:
        expect(bars.locator("li").filter(has_text=_exact(rule_bar(rule, 3, True)))).to_have_count(1)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    drill.root.locator(".eic-rule-bars").screenshot(path=str(SCREENSHOTS / "mastery-complete.png"))
    assert not notebook.error_outputs()
    _no_new_console_errors(notebook, before)


# --- the sandboxes ----------------------------------------------------------


@dataclass(frozen=True)
class SandboxScript:
    """What to type into one kind of sandbox, and what it must show."""

    key_field: str  # a text area only this kind of sandbox has
    start: dict[str, str]
    start_json: str
    edit: tuple[str, str]
    edit_json: str
    edit_line: str
    bad: tuple[tuple[str, str, str], ...]  # (field, text, clear error)


SANDBOX_SCRIPTS = {
    "TargetScopeSandbox": SandboxScript(
        key_field="rewritten",
        start={
            "original": '["induction","refresher"]',
            "rewritten": '["refresher","induction"]',
            "unresolved": "[]",
        },
        start_json='{"missing":[],"added":[],"preserved":true}',
        edit=("rewritten", '["induction"]'),
        edit_json='{"missing":["refresher"],"added":[],"preserved":false}',
        edit_line="refresher is missing",
        bad=(
            ("rewritten", '["induction", 7]', "rewritten[1] is 7, expected a string ID"),
            ("rewritten", '["induction"', "rewritten, line 1: not valid JSON"),
        ),
    ),
    "SentinelSandbox": SandboxScript(
        key_field="proposed",
        start={"baseline": '{"S1":"R","S2":"A"}', "proposed": '{"S1":"R","S2":"A"}'},
        start_json='{"missing":[],"changed":[],"intact":true}',
        edit=("proposed", '{"S1":"R ","S2":"A"}'),
        edit_json='{"missing":[],"changed":["S1"],"intact":false}',
        edit_line="S1 changed: R{+·+}",
        bad=(
            ("proposed", '{"S1": 5, "S2": "A"}', 'proposed["S1"] is 5, expected a string answer'),
            ("proposed", '{"S1": "R", "S1": "S"}', 'duplicate key "S1"'),
        ),
    ),
}


def _sandboxes() -> list[tuple[str, str, int]]:
    """``(notebook, sandbox class, index)`` for every sandbox the notebooks create."""
    found = {
        ("02_target_scope.ipynb", "TargetScopeSandbox", 0),
        ("03_sentinel_answer_key.ipynb", "SentinelSandbox", 0),
    }
    for path in notebook_paths():
        counts = dict.fromkeys(SANDBOX_SCRIPTS, 0)
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            for kind in re.findall(r"\b(TargetScopeSandbox|SentinelSandbox)\s*\(", "".join(cell["source"])):
                found.add((path.name, kind, counts[kind]))
                counts[kind] += 1
    return sorted(found)


@pytest.mark.parametrize(
    ("name", "kind", "index"),
    _sandboxes(),
    ids=lambda value: value.removesuffix(".ipynb") if isinstance(value, str) else str(value),
)
def test_sandbox_updates_and_shows_clear_errors(lab: Lab, name: str, kind: str, index: int) -> None:
    """Typing updates the result; bad input shows the helper's clear error, not a traceback."""
    notebook = lab.notebook(name)
    before = len(notebook.console_errors)
    page = notebook.page
    script = SANDBOX_SCRIPTS[kind]
    sandbox = (
        notebook.panel.locator(".eic-sandbox")
        .filter(has=page.locator("label.widget-label").filter(has_text=_exact(script.key_field)))
        .nth(index)
    )
    result = sandbox.locator(".eic-sandbox-result .widget-html-content")

    def area(field: str) -> Locator:
        return (
            sandbox.locator(".widget-textarea")
            .filter(has=page.locator("label.widget-label").filter(has_text=_exact(field)))
            .locator("textarea")
        )

    for field, text in script.start.items():
        area(field).fill(text)
    expect(result.locator("pre.eic-json")).to_have_text(script.start_json)

    area(script.edit[0]).fill(script.edit[1])
    expect(result.locator("pre.eic-json")).to_have_text(script.edit_json)
    expect(result).to_contain_text(script.edit_line)

    for field, text, message in script.bad:
        area(field).fill(text)
        error = result.locator(".eic-error")
        expect(error).to_contain_text("Cannot check this input:")
        expect(error).to_contain_text(message)
        expect(result.locator("pre.eic-json")).to_have_count(0)
        assert "Traceback" not in (sandbox.text_content() or "")

    area(script.edit[0]).fill(script.edit[1])
    expect(result.locator("pre.eic-json")).to_have_text(script.edit_json)
    assert not notebook.error_outputs()
    _no_new_console_errors(notebook, before)


# --- escaping ---------------------------------------------------------------

MARKUP = '<img src=x onerror="window.__pwned=1">'

_ESCAPING_SETUP = f"""\
import helpers
from helpers.trainee.cases.filled import Case
from helpers.trainee.views import case_html
from helpers.trainee.widgets import CaseExercise

MARKUP = {MARKUP!r}
scope_input = {{"original": [MARKUP, "induction"], "rewritten": ["induction"]}}
scope = Case("target-scope", "scope-" + MARKUP, "Title " + MARKUP, scope_input,
             helpers.check_target_scope(scope_input["original"], scope_input["rewritten"]).as_dict(),
             "Decision " + MARKUP, "Reason " + MARKUP)
key_input = {{"baseline": {{MARKUP: MARKUP}}, "proposed": {{MARKUP: MARKUP + "!"}}}}
key = Case("sentinels", "key-" + MARKUP, "Title " + MARKUP, key_input,
           helpers.check_sentinels(key_input["baseline"], key_input["proposed"]).as_dict(),
           "Decision " + MARKUP, "Reason " + MARKUP)
"""


def test_markup_in_case_ids_renders_as_text(lab: Lab) -> None:
    """IDs holding ``<img onerror=…>`` show as literal text in widget and reveal; no script runs."""
    write_scratch_notebook(
        lab.root / "scratch_escaping.ipynb",
        [
            _ESCAPING_SETUP,
            "CaseExercise(scope)",
            "case_html.worked_answer(scope)",
            "CaseExercise(key)",
            "case_html.worked_answer(key)",
        ],
    )
    notebook = lab.notebook("scratch_escaping.ipynb")
    page = notebook.page
    assert not notebook.error_outputs()
    expect(notebook.panel.locator(".eic-exercise")).to_have_count(2)
    expect(notebook.panel.locator("details")).to_have_count(2)
    _expect_nothing_ran(notebook)

    for prefix in ("scope-", "key-"):
        widget = notebook.panel.locator(".eic-exercise").filter(
            has=page.locator("code").filter(has_text=_exact(visible_id(prefix + MARKUP)))
        )
        expect(widget).to_have_count(1)
        expect(
            widget.locator(".widget-checkbox").filter(
                has=page.locator("label.widget-label-basic > span").filter(
                    has_text=re.compile(rf"^(missing|added|changed): {re.escape(visible_id(MARKUP))}$")
                )
            )
        ).to_have_count(2)
        widget.locator(".eic-flag").get_by_role("radio", name=re.compile(r": false$")).check()
        # Tick the markup ID where it does not belong: the feedback then names it (the trainee's mark).
        column = "added" if prefix == "scope-" else "missing"
        widget.get_by_role("checkbox", name=f"{column}: {visible_id(MARKUP)}", exact=True).check()
        check = widget.locator("button.eic-check")
        expect(check).to_have_text(_exact("Check my answer"))
        check.click()
        expect(
            widget.locator(".eic-feedback-area .eic-feedback li").filter(has_text=visible_id(MARKUP))
        ).to_have_count(1)
        reveal = widget.locator("button.eic-show-answer")
        expect(reveal).to_have_text(_exact(REVEAL_SUMMARY))
        reveal.click()
        expect(widget.locator(".eic-reveal-area .eic-reveal")).to_contain_text(f"Reason: Reason {MARKUP}")
    # The <details> fallbacks are hidden while the widgets are live; their text is still escaped.
    expect(
        notebook.panel.locator("details .eic-reveal").filter(has_text=f"Reason: Reason {MARKUP}")
    ).to_have_count(2)
    expect(notebook.panel.locator("details").first).to_be_hidden()

    _expect_nothing_ran(notebook)
    _no_new_console_errors(notebook, 0)


def _expect_nothing_ran(notebook: NotebookPage) -> None:
    """No element was made from the markup, its handler never ran, and ``x`` was never fetched."""
    assert notebook.page.locator('img[src="x"]').count() == 0, "markup became an <img> element"
    assert notebook.page.evaluate("() => window.__pwned") is None, "the onerror handler ran"
    assert not [url for url in notebook.requested if url.rstrip("/").endswith("/x")]


# --- look-alike IDs, the keyboard alone, and Notebook 7 -------------------------

_LOOKALIKE_SETUP = """\
import helpers
from helpers.trainee.practice import practice_cases
from helpers.trainee.views import case_html
from helpers.trainee.widgets import CaseExercise

zero = {case.id: case for case in practice_cases()}
"""


def test_look_alike_ids_read_distinctly_in_jupyterlab(lab: Lab) -> None:
    """Zero-width and decomposed IDs: every label, input, feedback line and answer tells them apart.

    And ``$x^2$`` is shown literally everywhere (MathJax typesets nothing).
    """
    write_scratch_notebook(
        lab.root / "scratch_lookalikes.ipynb",
        [
            _LOOKALIKE_SETUP,
            'case_html.supplied_input(zero["zero-width-target"])',
            'CaseExercise(zero["zero-width-target"])',
            'CaseExercise(zero["decomposed-sentinel-id"])',
            'case_html.worked_answer(zero["zero-width-target"])',
            'case_html.check_block("target-scope", {"original": ["$x^2$"], "rewritten": ["$y$"]})',
        ],
    )
    notebook = lab.notebook("scratch_lookalikes.ipynb")
    page = notebook.page
    assert not notebook.error_outputs()
    zero = next(case for case in practice_cases() if case.id == "zero-width-target")
    widget = ExerciseWidget(notebook, zero, lab.report)
    labels = widget.root.locator(".eic-column-missing label.widget-label-basic > span").all_text_contents()
    assert labels == ["missing: induction", "missing: payroll", "missing: pay⟨U+200B⟩roll"]
    assert len(set(labels)) == len(labels)
    # Each checkbox is named by its column and its ID, so the name makes sense alone.
    expect(widget.root.get_by_role("checkbox", name="missing: pay⟨U+200B⟩roll", exact=True)).to_have_count(1)
    expect(widget.root.get_by_role("checkbox", name="added: payroll", exact=True)).to_have_count(1)
    expect(notebook.panel.locator(".eic-block pre.eic-json").first).to_contain_text("pay⟨U+200B⟩roll")
    # Ticking the look-alike as missing: the feedback names both spellings distinctly.
    widget.give(
        Answer(
            "target-scope",
            missing=frozenset({"pay\u200broll"}),
            flag=False,
            reason=correct_answer(zero).reason,
        )
    )
    feedback = widget.check()
    expect(feedback).to_contain_text("missing has pay⟨U+200B⟩roll, which was never in the original")
    expect(feedback).to_contain_text("it only looks like an original target")
    expect(feedback).not_to_contain_text("payroll,")  # the look-alike left unmarked is never named
    decomposed = next(case for case in practice_cases() if case.id == "decomposed-sentinel-id")
    other = ExerciseWidget(notebook, decomposed, lab.report)
    names = other.root.locator(".eic-column-missing label.widget-label-basic > span").all_text_contents()
    assert "missing: café-1" in names and "missing: cafe⟨U+0301⟩-1" in names
    # IDs are never typeset as maths.
    expect(notebook.panel.locator("mjx-container, .MathJax")).to_have_count(0)
    expect(notebook.panel.locator(".eic-block").filter(has_text="$x^2$ is missing")).to_have_count(1)
    assert page.evaluate("() => window.__pwned") is None


def test_one_case_worked_with_the_keyboard_alone(lab: Lab) -> None:
    """Tab, Space and Enter only: the case in 01 (untouched by other tests), checked and revealed.

    Every stop has a name that makes sense alone, and the focus ring is clearly visible.
    """
    notebook = lab.notebook("01_start_here.ipynb")
    case = get_case("reordered-targets")
    widget = ExerciseWidget(notebook, case, lab.report, label="the example case")
    page = notebook.page
    widget.root.get_by_role("checkbox", name="missing: induction", exact=True).focus()
    name_js = """() => {
      const el = document.activeElement;
      return (el.closest('label')?.textContent || el.textContent || '').trim();
    }"""
    for index, name in enumerate(
        ["missing: induction", "missing: refresher", "added: induction", "added: refresher"]
    ):
        if index:
            page.keyboard.press("Tab")
        assert page.evaluate(name_js) == name
    page.keyboard.press("Tab")  # into the flag's radio group: its first option
    assert page.evaluate(name_js) == "preserved: true"
    page.keyboard.press("Space")
    expect(widget.root.get_by_role("radio", name="preserved: true", exact=True)).to_be_checked()
    page.keyboard.press("Tab")  # ipywidgets makes each option its own tab stop
    assert page.evaluate(name_js) == "preserved: false"
    page.keyboard.press("Tab")
    assert page.evaluate(name_js) == "Hold: needs staff labels"
    # The reason: each option is its own tab stop, named by its rule's short name and id; what each
    # rule says is the next stop, folded.
    for rule in reason_options(case):
        page.keyboard.press("Tab")
        assert page.evaluate(name_js) == rule.label
        if rule.id == "ts-order":
            page.keyboard.press("Space")
    expect(widget.root.get_by_role("radio", name=RULES["ts-order"].label, exact=True)).to_be_checked()
    page.keyboard.press("Tab")
    assert page.evaluate(name_js) == "What each reason says"
    page.keyboard.press("Tab")
    assert page.evaluate(name_js) == "Check my answer"
    outline = page.evaluate("() => parseFloat(getComputedStyle(document.activeElement).outlineWidth)")
    assert outline >= 2, f"focus outline is {outline}px"
    page.keyboard.press("Enter")
    feedback = widget.root.locator(".eic-feedback-area .eic-feedback")
    expect(feedback).to_contain_text("Fully correct")
    expect(feedback).to_have_attribute("role", "status")
    page.keyboard.press("Tab")
    assert page.evaluate(name_js) == "Show the next hint"
    page.keyboard.press("Tab")
    assert page.evaluate(name_js) == REVEAL_SUMMARY
    page.keyboard.press("Enter")
    revealed = widget.root.locator(".eic-reveal-area .eic-reveal")
    _expect_worked_answer(revealed, case)
    page.keyboard.press("Enter")  # the same button hides it again
    expect(revealed).to_have_count(0)


#: Page errors Notebook 7.6.5 itself raises on opening a notebook (its own plugins, not the project's).
NOTEBOOK7_OWN_ERRORS = {
    "Cannot read properties of undefined (reading 'schema')",
    "Command 'filebrowser:open-path' not registered.",
}


@pytest.mark.smoke
def test_notebook_7_works_a_case(lab: Lab) -> None:
    """The same notebook in Notebook 7 (``/notebooks/…``, served by the same server): run all, one case."""
    name = "nb7_02_target_scope.ipynb"
    shutil.copyfile(lab.root / CASE_NOTEBOOK["target-scope"], lab.root / name)
    page = lab.context.new_page()
    page.bring_to_front()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{lab.server.base_url}/notebooks/{name}")
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
        page.wait_for_function(
            """async (path) => {
                const r = await fetch('/api/sessions');
                const sessions = await r.json();
                const s = sessions.find(x => x.path === path);
                return !!s && s.kernel && s.kernel.execution_state === 'idle';
            }""",
            arg=name,
            timeout=120_000,
            polling=250,
        )
        page.wait_for_timeout(500)
        opened = NotebookPage(name, page)
        opened.menu("Edit", "editmenu:clear-all")
        opened.menu("Run", "runmenu:run-all")
        case = get_case("new-target")
        exercise = page.locator(".eic-exercise").filter(
            has=page.locator(".widget-html-content").filter(has_text=re.compile(r"Your answer for Case 3\b"))
        )
        exercise.wait_for(timeout=120_000)
        # Run all goes on past this cell; a widget clicked while later outputs still arrive can be drawn
        # again under the click ("Clicking the checkbox did not change its state"), so wait for every
        # cell to finish: no prompt left at [*].
        page.wait_for_function(
            """() => ![...document.querySelectorAll('.jp-InputPrompt')].some(p => p.textContent.includes('*'))""",
            timeout=180_000,
            polling=250,
        )
        _tick(exercise.get_by_role("checkbox", name="added: payroll", exact=True))
        _tick(exercise.get_by_role("radio", name="preserved: false", exact=True))
        _tick(exercise.get_by_role("radio", name=re.compile(r"\(ts-added\)$")))
        exercise.get_by_role("button", name="Check my answer").click()
        expect(exercise.locator(".eic-feedback")).to_contain_text("Fully correct")
        exercise.get_by_role("button", name=REVEAL_SUMMARY).click()
        expect(exercise.locator(".eic-reveal-area pre.eic-json")).to_have_text(display_json(case.expected))
        page.screenshot(path=str(SCREENSHOTS / "notebook7-case.png"))
        assert not [e for e in errors if e not in NOTEBOOK7_OWN_ERRORS], errors
    finally:
        page.close()


def test_a_check_out_sat_in_jupyterlab_is_graded_by_the_trainer(lab: Lab) -> None:
    """07: every case of the sample paper answered once in the widget, saved, then graded with the key."""
    from helpers.trainer.checkout import sample_paper_path
    from helpers.trainer.paper import load_paper
    from helpers.trainer.signed_result import grade_files

    paper = load_paper(sample_paper_path())
    notebook = lab.notebook("07_checkout.ipynb")
    before = len(notebook.console_errors)
    root = notebook.panel.locator(".eic-checkout")
    expect(root).to_have_count(1)
    heading = root.locator(".eic-checkout-heading")
    for number, case in enumerate(paper["cases"], 1):
        expect(heading).to_contain_text(f"{case['label']} of {len(paper['cases'])}")
        if number == 1:
            _expect_no_axe_violations(notebook)
            expect(root).not_to_contain_text("Fully correct")  # no feedback before the end
        root.locator(".eic-action").get_by_role("radio", name=case["actions"][0], exact=True).check()
        root.get_by_role("button", name="Submit this case and go on").click()
        # The reason and the flag are unset: nothing is sent until the trainee confirms.
        expect(root.locator(".eic-checkout-message")).to_contain_text("Still unset: the reason")
        expect(heading).to_contain_text(f"{case['label']} of {len(paper['cases'])}")
        root.get_by_role("button", name="Send this case with those unset").click()
    expect(heading).to_contain_text(f"All {len(paper['cases'])} cases answered")
    root.get_by_role("button", name="Save my answers").click()
    expect(root.locator(".eic-checkout-message")).to_contain_text(f"Saved {len(paper['cases'])} answers")
    result = grade_files(
        lab.root / "checkout-answers.json", sample_paper_path().with_name("sample-paper.key.json")
    )
    data = result.to_data()
    saved = json.loads((lab.root / "checkout-answers.json").read_text(encoding="utf-8"))
    assert len(saved["answers"]) == len(paper["cases"])  # every case was answered and saved
    # graded case by case in the paper's order: blank answers reach the fail boundary early
    assert data["passed"] is False and 0 < len(data["cases"]) <= len(paper["cases"])
    assert not notebook.error_outputs()
    _no_new_console_errors(notebook, before)
