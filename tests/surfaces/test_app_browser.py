"""The code-free app in a real browser: Voilà on 127.0.0.1, one case clicked through.

Voilà serves a temporary copy of ``notebooks/`` exactly as ``python3 tasks.py app``
does (same command line, same offline template), on a free port, and is stopped
by its PID when the tests finish, pass or fail. Nothing may be requested from
anywhere but that server.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from app_server import App, running_app
from axe_check import axe_violations, describe
from offline_chromium import Watch, offline_page, require_chromium
from playwright.sync_api import Page, expect

import helpers
from helpers.core.paths import project_root
from helpers.trainee.cases.filled import get_case
from helpers.trainer.serve.app import CULL_IDLE_SECONDS, CULL_INTERVAL_SECONDS
from tools.publish.downloads import downloads_dir

pytestmark = pytest.mark.browser

#: Starting a kernel and running every cell of a notebook, on a slow 2-core runner.
RENDER_TIMEOUT_MS = 180_000


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[App]:
    """The app serving a scratch copy of the notebooks; stopped by PID afterwards."""
    require_chromium()
    with running_app(tmp_path_factory.mktemp("app")) as running:
        yield running


def _on_the_app(app: App):
    prefixes = (app.base_url + "/", app.base_url.replace("http://", "ws://", 1) + "/")
    return lambda url: url.startswith(prefixes)


@contextmanager
def app_page(app: App) -> Iterator[tuple[Page, Watch]]:
    """A browser page that may reach only the app; the test fails on any console or page error."""
    with offline_page(_on_the_app(app)) as (page, watch):
        yield page, watch
    assert not watch.console_errors, "browser console errors in the app:\n" + "\n".join(watch.console_errors)


def _exercise(page: Page, case_id: str):
    """The exercise of a filled case, found by its neutral label ("Case N", numbered as in its notebook)."""
    case = get_case(case_id)
    number = [c.id for c in helpers.filled_cases(case.check)].index(case_id) + 1
    return page.locator(".eic-exercise").filter(has_text=re.compile(rf"Your answer for Case {number}(?!\d)"))


@pytest.mark.smoke
def test_a_case_is_worked_through_in_the_app(app: App) -> None:
    case = get_case("lost-comparison")
    allowed = _on_the_app(app)
    with app_page(app) as (page, watch):
        page.goto(f"{app.base_url}/voila/render/02_target_scope.ipynb", timeout=RENDER_TIMEOUT_MS)
        exercise = _exercise(page, case.id)
        exercise.wait_for(timeout=RENDER_TIMEOUT_MS)

        # Code is hidden: no editor, and no cell source anywhere on the page.
        assert page.locator(".jp-InputArea-editor").count() == 0
        assert page.get_by_text("CaseExercise(case)").count() == 0

        # Tick the right box, set the flag.
        exercise.get_by_role("checkbox", name="missing: refresher", exact=True).check()
        exercise.get_by_role("radio", name="preserved: false", exact=True).check()
        exercise.get_by_role("radio", name=re.compile(r"\(ts-lost\)$")).check()
        expect(exercise.locator("pre.eic-json").first).to_have_text(case.expected_json)

        # Check it.
        exercise.get_by_role("button", name="Check my answer").click()
        expect(exercise).to_contain_text("Fully correct")
        expect(exercise).not_to_contain_text("Not yet")

        # Reveal the worked answer.
        reveal = exercise.locator(".eic-reveal")
        assert reveal.count() == 0
        exercise.get_by_role("button", name="Show the worked answer").click()
        expect(reveal.locator("pre.eic-json")).to_be_visible()
        expect(reveal.locator("pre.eic-json")).to_have_text(case.expected_json)
        expect(reveal).to_contain_text(case.reason)
    assert watch.refused == [], f"requests that would have left the app: {watch.refused}"
    assert watch.requested and all(allowed(url) for url in watch.requested), watch.requested


def test_a_wrong_answer_is_not_marked_correct(app: App) -> None:
    """The feedback comes from the kernel: a wrong answer gets the rule, not a pass."""
    with app_page(app) as (page, _watch):
        page.goto(f"{app.base_url}/voila/render/02_target_scope.ipynb", timeout=RENDER_TIMEOUT_MS)
        exercise = _exercise(page, "new-target")
        exercise.wait_for(timeout=RENDER_TIMEOUT_MS)
        exercise.get_by_role("radio", name="preserved: true", exact=True).check()
        exercise.get_by_role("radio", name=re.compile(r"\(ts-lost\)$")).check()  # every part set: graded
        exercise.get_by_role("button", name="Check my answer").click()
        expect(exercise).to_contain_text("Not yet")
        expect(exercise).to_contain_text("added is incomplete: one rewrite target is not in the original.")
        expect(exercise.locator(".eic-feedback")).not_to_contain_text("payroll")
        expect(exercise).not_to_contain_text("Fully correct")


def test_the_app_serves_the_downloads_but_not_the_notebooks(app: App) -> None:
    with app_page(app) as (page, _watch):
        for name in ("target_scope_cases.csv", "target_scope_example.py"):
            # The notebook's relative link, followed from its page in the app.
            response = page.request.get(f"{app.base_url}/voila/render/downloads/{name}")
            assert response.status == 200, name
            assert response.body() == (downloads_dir() / name).read_bytes()
        assert page.request.get(f"{app.base_url}/voila/files/02_target_scope.ipynb").status == 403


#: Every numbered notebook: the banner links each one.
NOTEBOOK_NAMES = sorted(p.name for p in (project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _shows_widgets(name: str) -> bool:
    """Whether the stored notebook displays a widget (so its app page must show one too)."""
    notebook = json.loads((project_root() / "notebooks" / name).read_text(encoding="utf-8"))
    return any(
        "application/vnd.jupyter.widget-view+json" in output.get("data", {})
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
    )


#: Text written for JupyterLab that the app must not show.
NOTEBOOK_ONLY = ("Run ▸ Run All Cells", "No kernel?", "PracticeDrill(seed=7)")


def test_the_app_opens_on_the_start_page_reads_as_an_app_and_passes_axe(app: App) -> None:
    """/ opens 01_start_here; every page has the app's banner linking every numbered notebook,
    no notebook-only guidance, no axe violation and no console error."""
    found = {}
    with app_page(app) as (page, _watch):
        page.goto(app.base_url + "/", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_url("**/voila/render/01_start_here.ipynb", timeout=RENDER_TIMEOUT_MS)
        for index, name in enumerate(NOTEBOOK_NAMES):
            if index:
                # Follow the banner's link to the next notebook.
                page.locator(f'.eic-app-banner a[href="{name}"]').click()
                page.wait_for_url(f"**/voila/render/{name}", timeout=RENDER_TIMEOUT_MS)
            page.locator(".eic-app-banner").wait_for(timeout=RENDER_TIMEOUT_MS)
            links = page.locator(".eic-app-banner a").evaluate_all(
                "links => links.map(a => a.getAttribute('href'))"
            )
            assert links == NOTEBOOK_NAMES, f"{name}'s banner links {links}"
            page.locator("#rendered_cells").wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
            if _shows_widgets(name):
                page.locator(".jupyter-widgets").first.wait_for(timeout=RENDER_TIMEOUT_MS)
            # The page's text, less the check's own source that 02 and 03 show on purpose.
            shown = page.evaluate(
                """() => {
                  const shown = [...document.querySelectorAll('.eic-source')];
                  shown.forEach(e => { e.dataset.display = e.style.display; e.style.display = 'none'; });
                  const text = document.body.innerText;
                  shown.forEach(e => { e.style.display = e.dataset.display; });
                  return text;
                }"""
            )
            for text in NOTEBOOK_ONLY:
                assert text not in shown, f"{name} shows notebook-only text {text!r}"
            assert not re.search(r"\b(True|False)\b", shown), f"{name} shows a Python repr"
            violations = axe_violations(page)
            if violations:
                found[name] = describe(violations)
        # Outputs whose code is hidden show their input beside them.
        page.goto(f"{app.base_url}/voila/render/02_target_scope.ipynb", timeout=RENDER_TIMEOUT_MS)
        order = page.locator(".eic-block").filter(has_text='"original":["refresher","induction","induction"]')
        expect(order).to_contain_text("Input")
        expect(order).to_contain_text('{"missing":[],"added":[],"preserved":true}')
    assert not found, "axe-core violations in the app:\n" + "\n".join(f"{n}:\n{t}" for n, t in found.items())


def test_the_console_check_sees_an_error(app: App) -> None:
    """The console check above can fail: an error logged on an app page fails it."""
    with pytest.raises(AssertionError, match="probe console error"), app_page(app) as (page, _watch):
        page.goto(f"{app.base_url}/voila/render/01_start_here.ipynb", timeout=RENDER_TIMEOUT_MS)
        page.locator(".eic-app-banner").wait_for(timeout=RENDER_TIMEOUT_MS)
        with page.expect_console_message(lambda message: message.type == "error"):
            page.evaluate("() => console.error('probe console error')")


def test_a_closed_pages_kernel_ends_within_a_minute(app: App) -> None:
    """Open two pages, close them: their kernels are culled (idle, nothing connected) in under a minute."""
    with app_page(app) as (page, _watch):
        for name in ("02_target_scope.ipynb", "03_sentinel_answer_key.ipynb"):
            page.goto(f"{app.base_url}/voila/render/{name}", timeout=RENDER_TIMEOUT_MS)
            page.locator(".eic-exercise").first.wait_for(timeout=RENDER_TIMEOUT_MS)
            assert app.kernels(), "an open page has a kernel"
    limit = CULL_IDLE_SECONDS + CULL_INTERVAL_SECONDS + 20
    deadline = time.monotonic() + limit
    while app.kernels() and time.monotonic() < deadline:
        time.sleep(1)
    left = app.kernels()
    assert not left, (
        f"{len(left)} kernels still running {limit} s after their pages closed:\n{app.log_tail()}"
    )


def test_the_check_out_opens_an_uploaded_paper_and_saves_its_answers(app: App, tmp_path) -> None:
    """07 in the app: a file that is no paper is refused in one line; the trainee's own paper, uploaded,
    is sat to the end and its answers saved under the paper's name, with a download to hand in."""
    from helpers.trainer.issued_files import write_checkout
    from helpers.trainer.paper import issue_checkout, minimum_count
    from helpers.trainer.signed_result import grade_files

    issued = issue_checkout("Kai", count=minimum_count(), sequential=False)
    paper_file, key_file, _ = write_checkout(issued, tmp_path / "kai-exam.json")
    total = len(issued.paper["cases"])
    notes = tmp_path / "notes.json"
    notes.write_text('{"format": "something else"}', encoding="utf-8")
    with app_page(app) as (page, _watch):
        page.goto(f"{app.base_url}/voila/render/07_checkout.ipynb", timeout=RENDER_TIMEOUT_MS)
        root = page.locator(".eic-checkout")
        heading = root.locator(".eic-checkout-heading")
        message = root.locator(".eic-checkout-message")
        expect(heading).to_contain_text("Check-out case 1 of 56", timeout=RENDER_TIMEOUT_MS)
        expect(root.locator(".eic-paper-note")).to_contain_text("for Sample trainee (56 cases)")
        for chosen in (notes, paper_file):
            with page.expect_file_chooser() as chooser:
                root.get_by_role("button", name=re.compile(r"^Open my paper file \(\d+\)$")).click()
            chooser.value.set_files(str(chosen))
            if chosen == notes:
                expect(message.get_by_role("alert")).to_have_text(
                    'Not opened: notes.json: is not a check-out file of this kind (it has no "format": '
                    '"eval-integrity-checkout-paper")'
                )
                expect(heading).to_contain_text("Check-out case 1 of 56")
        expect(message).to_contain_text(f"Opened kai-exam.json: {total} cases for Kai.")
        expect(heading).to_contain_text(f"Check-out case 1 of {total}")
        expect(root.locator(".eic-paper-note")).to_contain_text(f"kai-exam.json, for Kai ({total} cases)")
        violations = axe_violations(page, ".eic-checkout")
        assert not violations, "axe-core violations in the opened paper:\n" + describe(violations)

        for number in range(1, total + 1):
            expect(heading).to_contain_text(f"Check-out case {number} of {total}")
            root.locator(".eic-action").get_by_role("radio").first.check()
            root.get_by_role("button", name="Submit this case and go on").click()
            root.get_by_role("button", name="Send this case with those unset").click()
        expect(heading).to_contain_text(f"All {total} cases answered")
        name = f"answers-{issued.paper['paper_id']}.json"
        expect(root.get_by_role("textbox", name="Answers file")).to_have_value(name)
        root.get_by_role("button", name="Save my answers").click()
        expect(message).to_contain_text(f"Saved {total} answers to {name}.")
        link = root.locator(f'a.eic-download[download="{name}"]')
        expect(link).to_have_text(f"Download my answers ({name})")
        with page.expect_download() as download:
            link.click()
        downloaded = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert app.notebooks is not None
    saved = json.loads((app.notebooks / name).read_text(encoding="utf-8"))
    assert downloaded == saved and saved["paper_id"] == issued.paper["paper_id"]
    assert len(saved["answers"]) == total  # every case the page served was saved
    result = grade_files(app.notebooks / name, key_file)
    # graded case by case in the paper's order: blank answers reach the fail boundary early
    assert not result.passed and 0 < len(result.cases) <= total and all(c.answered for c in result.cases)
