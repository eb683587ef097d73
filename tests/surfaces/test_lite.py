"""The offline in-browser edition: the JupyterLite site, built, served on loopback, used in Chromium.

One module-scoped fixture builds the site once (``tools.publish.lite.build_lite`` into a
temporary folder, with the shared download cache, so a second run downloads nothing and, its
inputs unchanged, copies the site built before; ``--all`` builds afresh), or
uses ``$EIC_LITE_SITE`` when a site was built earlier in the same run; serves it on
127.0.0.1; and opens it in Debian's Chromium with **every request that does not go to
that server aborted**, the kernel's web worker included. Each test asserts that no such
request was attempted, and the last one proves that the watch sees the worker's requests.

* the built site holds every numbered notebook and a Pyodide folder whose lock names
  exactly the wheels beside it, and its configuration allows no CDN and no PyPI;
* ``02_target_scope`` runs clean, ``lost-comparison`` is worked to "Fully correct", and the
  worked answer shows;
* ``04_practice`` runs clean, one drill case is worked, and progress is saved (in Lite, into
  browser storage) and read back by the kernel.
* every other numbered notebook runs clean, and its kernel is still alive afterwards.

Pyodide takes 20-30 s to start on 2 cores, so each notebook gets one page, opened once.
Locally a missing Chromium or npm skips with the install command; under ``CI=true`` they
and any build failure fail. Timings go to ``artifacts/lite-timings.json``.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lab_session import ARTIFACTS, WIDGET_TIMEOUT_MS, chromium_executable, on_ci
from lite_session import Built, LiteBrowser, LitePage, Watch, _env_site, built_site, disk_size, new_page
from playwright.sync_api import Locator, Playwright, expect, sync_playwright

import helpers
from helpers.core.errors import BuildError
from helpers.trainee.cases.filled import Case
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import Answer, answer_fields, candidate_ids, correct_answer
from helpers.trainee.practice import (
    DEFAULT_DRILL_SEED,
    DEFAULT_PROGRESS_FILE,
    PROGRESS_FORMAT,
    drill_order,
    practice_cases,
)
from helpers.trainee.views.case_html import REVEAL_SUMMARY, display_json
from tools.publish.lite import KERNEL_PLUGIN, LiteServer

pytestmark = pytest.mark.browser
expect.set_options(timeout=WIDGET_TIMEOUT_MS)

TIMINGS_FILE = ARTIFACTS / "lite-timings.json"
SCOPE_NOTEBOOK = "02_target_scope.ipynb"
PRACTICE_NOTEBOOK = "04_practice.ipynb"
CASE_ID = "lost-comparison"


@dataclass
class LiteRun:
    """The built site, its server and the watched browser, shared by this module's tests.

    Each notebook gets its own fresh browser profile: Lite restores the tabs of an earlier
    visit, and a second notebook would otherwise start a second Pyodide beside it.
    """

    built: Built
    server: LiteServer
    playwright: Playwright
    executable: Path
    scratch: Path
    timings: dict[str, object] = field(default_factory=dict)
    watch: Watch = field(default_factory=Watch)
    browser: LiteBrowser | None = None
    pages: dict[str, LitePage] = field(default_factory=dict)

    @property
    def refused(self) -> list[str]:
        return self.watch.refused

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None

    def notebook(self, name: str) -> LitePage:
        """The page for ``name``: opened in a fresh profile (the last one closed first) and run once."""
        if name not in self.pages:
            self.close()  # one Pyodide at a time: 2 cores
            profile = self.scratch / f"profile-{len(self.pages)}"
            self.browser = LiteBrowser(
                self.playwright, self.executable, profile, self.server.base_url + "/", self.watch
            )
            page = new_page(self.browser, name)
            self.pages[name] = page
            page.open(self.server)
            page.run_all()
            self.timings[name] = {
                "page_load_to_kernel_ready_s": round(page.ready_seconds or 0, 1),
                "bytes_to_kernel_ready": page.ready_bytes,
                "run_all_s": round(page.run_seconds or 0, 1),
            }
        return self.pages[name]


def _require_npm() -> None:
    if _env_site() is not None or shutil.which("npm") is not None:
        return
    message = "the Lite build needs npm (Pyodide comes from the npm registry): `apt-get install -y npm`"
    if on_ci():
        pytest.fail(f"CI=true and no npm: {message}; `.ci/run` installs it", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def lite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiteRun]:
    """Build (or reuse), serve and open the site; everything stopped even on failure."""
    executable = chromium_executable()  # skips locally, fails under CI=true, when missing
    _require_npm()
    scratch = tmp_path_factory.mktemp("lite")
    started = time.perf_counter()
    try:
        built = built_site(scratch)
    except BuildError as exc:
        pytest.fail(f"the JupyterLite site did not build: {exc}", pytrace=False)
    timings: dict[str, object] = {
        "build_s": round(built.build_seconds, 1) if built.build_seconds is not None else None,
        "site_bytes": disk_size(built.folder)[0],
    }
    server = LiteServer(built.folder).start()
    try:
        with sync_playwright() as playwright:
            run = LiteRun(built, server, playwright, executable, scratch, timings)
            try:
                yield run
            finally:
                run.close()
    finally:
        server.stop()
        timings["module_wall_s"] = round(time.perf_counter() - started, 1)
        TIMINGS_FILE.parent.mkdir(parents=True, exist_ok=True)
        TIMINGS_FILE.write_text(json.dumps(timings, indent=2) + "\n")


def _no_request_left_loopback(lite: LiteRun) -> None:
    assert not lite.refused, "requests that tried to leave 127.0.0.1:\n" + "\n".join(lite.refused)


def _normalized(name: str) -> str:
    """A project name as the lock's keys spell it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _exact(text: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def _visible(case_id: str) -> str:
    """The ID as the widgets show it, where they use :func:`helpers.core.chardiff.visible_id`."""
    try:
        from helpers.core.chardiff import visible_id
    except ImportError:
        return case_id
    return visible_id(case_id)


def _verbatim(text: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(text)}$")


#: Every rule by id, to pick the reason by its accessible name.
RULES = {rule.id: rule for rule in load_rules()}


class Exercise:
    """A work-it-yourself widget, found by its classes and its case ID, driven by clicks."""

    def __init__(self, page: LitePage, case: Case, within: Locator, *, label: str | None = None) -> None:
        self.page = page.page
        self.case = case
        if label is None:
            marker = self.page.locator("code").filter(has_text=_exact(case.id))
        else:
            heading = re.compile(rf"Your answer for {re.escape(label)}(?![0-9])")
            marker = self.page.locator(".widget-html-content").filter(has_text=heading)
        self.root = within.locator(".eic-exercise").filter(has=marker)
        expect(self.root).to_have_count(1)

    def _tick(self, checkbox: Locator, wanted: bool) -> None:
        expect(checkbox).to_have_count(1)
        box = checkbox.locator('input[type="checkbox"]')
        if box.is_checked() != wanted:
            box.click()
        expect(box).to_be_checked(checked=wanted)

    def _box(self, column: str, case_id: str) -> Locator:
        """The ID's checkbox in ``column``, by its label: the ID, or "column: ID" as shown."""
        shown = "|".join(re.escape(text) for text in dict.fromkeys((case_id, _visible(case_id))))
        label = re.compile(rf"^\s*(?:{re.escape(column)}: )?(?:{shown})\s*$")
        return self.root.locator(f".eic-column-{column} .widget-checkbox.eic-{column}").filter(
            has=self.page.locator("label").filter(has_text=label)
        )

    def give(self, answer: Answer) -> None:
        first, second, _ = answer_fields(self.case.check)
        for case_id in candidate_ids(self.case):
            self._tick(self._box(first, case_id), case_id in answer.missing)
            self._tick(self._box(second, case_id), case_id in answer.second)
        if answer.flag is not None:
            self._set_flag("true" if answer.flag else "false")
        self._tick(self.root.locator(".widget-checkbox.eic-hold"), answer.hold)
        if answer.reason is not None and self.root.locator(".eic-reason").count():
            rule = RULES[answer.reason]
            radio = self.root.locator(".eic-reason").get_by_role("radio", name=rule.label, exact=True)
            radio.check()
            expect(radio).to_be_checked()
        expect(self.root.locator(".eic-live pre.eic-json")).to_have_text(
            _verbatim(display_json(answer.as_dict(self.case)))
        )

    def _set_flag(self, value: str) -> None:
        """Choose the flag: a radio button labelled "flag: value", or a toggle button "value"."""
        label = re.compile(rf"^\s*(?:[\w-]+: )?{value}\s*$")
        flag = self.root.locator(".eic-flag")
        radio = flag.locator("label").filter(has_text=label).locator('input[type="radio"]')
        if radio.count():
            radio.click()
            expect(radio).to_be_checked()
            return
        toggle = flag.locator("button").filter(has_text=label)
        toggle.click()
        expect(toggle).to_have_class(re.compile(r"\bmod-active\b"))

    def check(self) -> Locator:
        self.root.locator("button.eic-check").filter(has_text="Check my answer").click()
        feedback = self.root.locator(".eic-feedback-area .eic-feedback")
        expect(feedback).to_be_visible()
        return feedback

    def reveal(self) -> Locator:
        self.root.locator("button.eic-show-answer").filter(has_text=REVEAL_SUMMARY).click()
        revealed = self.root.locator(".eic-reveal-area .eic-reveal")
        expect(revealed).to_be_visible()
        return revealed


def _assert_ran_clean(page: LitePage) -> None:
    errors = page.error_outputs()
    assert not errors, f"{page.name} shows error outputs in Lite:\n" + "\n---\n".join(errors)
    assert not page.unnumbered_prompts(), f"cells that did not run: {page.unnumbered_prompts()}"
    assert "Error displaying widget" not in (page.panel.text_content() or "")
    pageerrors = [e for e in page.console_errors if e.startswith("pageerror")]
    assert not pageerrors, pageerrors


# --- the built site ---------------------------------------------------------------


def test_site_is_complete_and_configured_offline(lite: LiteRun) -> None:
    """Every numbered notebook; Pyodide local, no PyPI fallback; the lock names exactly its files."""
    site = lite.built.folder
    notebooks = sorted(
        p.name for p in (helpers.core.paths.project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb")
    )
    assert sorted(p.name for p in (site / "files").glob("*.ipynb")) == notebooks
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    assert all(not url.startswith(("http:", "https:", "//")) for url in kernel.get("pipliteUrls", []))

    pyodide = site / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock["info"]["python"].startswith("3.14.")
    wheels = {p.name for p in pyodide.glob("*.whl")}
    assert wheels == {entry["file_name"] for entry in lock["packages"].values()}
    for key, entry in lock["packages"].items():
        data = (pyodide / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], key
        assert {_normalized(name) for name in entry["depends"]} <= set(lock["packages"]), key
    assert lock["packages"]["eval-integrity-helpers"]["imports"] == ["helpers", "eval_integrity_helpers"]
    assert {"ipywidgets", "comm", "micropip", "ipython"} <= set(lock["packages"])


# --- the notebooks, in the browser ---------------------------------------------------------


@pytest.mark.smoke
def test_target_scope_notebook_works_offline(lite: LiteRun) -> None:
    """02 runs clean; lost-comparison is worked to "Fully correct"; the worked answer shows."""
    page = lite.notebook(SCOPE_NOTEBOOK)
    _assert_ran_clean(page)
    assert page.execute("import sys; print(sys.version_info[:2])").strip() == "(3, 14)"
    case = next(c for c in helpers.filled_cases() if c.id == CASE_ID)
    number = [c.id for c in helpers.filled_cases(case.check)].index(case.id) + 1
    widget = Exercise(page, case, page.panel, label=f"Case {number}")
    widget.give(correct_answer(case))
    feedback = widget.check()
    expect(feedback).to_have_class(re.compile(r"\beic-correct\b"))
    expect(feedback).to_contain_text("Fully correct")
    revealed = widget.reveal()
    expect(revealed.locator("pre.eic-json")).to_have_text(case.expected_json)
    expect(revealed).to_contain_text(f"Reason: {case.reason}")
    _no_request_left_loopback(lite)


#: Third-party packages some modules need that the Lite site does not ship (no WebAssembly
#: builds on PyPI, or not needed in a browser). A module may fail to import only for these.
OPTIONAL_ABSENT = {
    "matplotlib",
    "nbconvert",
    "nbformat",
    "jinja2",
    "orjson",
    "voila",
    "bs4",
    "jupyter_server",
    "tornado",
}

_PY314_SMOKE = """
import doctest, importlib, pkgutil, helpers, helpers.core
bad, absent, attempted, failed = [], set(), 0, 0
for info in pkgutil.walk_packages(helpers.__path__, "helpers."):
    try:
        module = importlib.import_module(info.name)
    except ModuleNotFoundError as exc:
        top = (exc.name or "").split(".")[0]
        if top in OPTIONAL:
            absent.add(top)
        else:
            bad.append(f"{info.name}: {exc!r}")
        continue
    except Exception as exc:
        bad.append(f"{info.name}: {exc!r}")
        continue
    if info.name.startswith("helpers.core."):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
        attempted += result.attempted
        failed += result.failed
print(json.dumps({"bad": bad, "absent": sorted(absent), "attempted": attempted, "failed": failed}))
"""


def test_helpers_import_and_core_doctests_pass_on_pyodide(lite: LiteRun) -> None:
    """The gap to 3.11: every module imports on Pyodide's Python 3.14 and the core doctests pass.

    The rest of the suite runs on CPython 3.11 (the floor); this runs the same code in the
    browser's 3.14, in the page already open. Only missing optional packages may stop an import.
    """
    page = lite.notebook(SCOPE_NOTEBOOK)
    out = page.execute(f"import json\nOPTIONAL = {sorted(OPTIONAL_ABSENT)!r}\n" + _PY314_SMOKE, 120_000)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    assert last.startswith("{"), out
    report = json.loads(last)
    assert report["failed"] == 0, f"core doctests failing on Pyodide 3.14:\n{out}"
    assert not report["bad"], "modules that do not import on Pyodide 3.14:\n" + "\n".join(report["bad"])
    assert report["attempted"] >= 10 and report["failed"] == 0, report
    _no_request_left_loopback(lite)


def test_practice_drill_saves_progress_offline(lite: LiteRun) -> None:
    """04 runs clean; the first drill case is worked right and Save keeps it in browser storage."""
    first = drill_order(practice_cases(), seed=DEFAULT_DRILL_SEED)[0]
    page = lite.notebook(PRACTICE_NOTEBOOK)
    _assert_ran_clean(page)
    drill = page.panel.locator(".eic-practice")
    expect(drill).to_have_count(1)
    total = len(drill_order(practice_cases(), seed=DEFAULT_DRILL_SEED))
    widget = Exercise(page, first, drill, label=f"Case 1 of {total}")
    widget.give(correct_answer(first))
    feedback = widget.check()
    expect(feedback).to_contain_text("Fully correct")
    expect(drill.locator(".eic-scored")).to_contain_text("✔ Scored: correct first try, unaided.")

    drill.locator("button.eic-save").filter(has_text="Save progress").click()
    status = drill.locator(".eic-file-status")
    expect(status).to_contain_text("Saved 1 checked cases")
    # The kernel reads it back: the file lives in the browser's storage, not on a server.
    stored = page.execute(
        "import json, pathlib\n"
        f"data = json.loads(pathlib.Path({DEFAULT_PROGRESS_FILE!r}).read_text(encoding='utf-8'))\n"
        "print(data['format'], data['version'], len(data['course']['attempts']))"
    ).strip()
    assert stored == f"{PROGRESS_FORMAT} 3 1", stored
    _no_request_left_loopback(lite)


#: The notebooks no other test here opens. Each runs in the browser's Python too, so a step
#: that needs more stack than Pyodide has (it stops the whole kernel) fails here, not for a reader.
OTHER_NOTEBOOKS = sorted(
    p.name
    for p in (Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]_*.ipynb")
    if p.name not in {SCOPE_NOTEBOOK, PRACTICE_NOTEBOOK}
)


@pytest.mark.parametrize("name", OTHER_NOTEBOOKS)
def test_every_other_notebook_runs_clean_offline(lite: LiteRun, name: str) -> None:
    """Run All finishes with no error output and the kernel still answers."""
    page = lite.notebook(name)
    _assert_ran_clean(page)
    assert page.kernel_crash() is None
    assert page.execute("print(6 * 7)").strip() == "42"
    _no_request_left_loopback(lite)


def test_the_watch_sees_the_kernel_workers_requests(lite: LiteRun) -> None:
    """The offline proof can fail: a fetch from inside the kernel's worker is seen and aborted."""
    # The page still open: each notebook's browser is closed when the next one opens.
    page = next(reversed(lite.pages.values())) if lite.pages else lite.notebook(PRACTICE_NOTEBOOK)
    _no_request_left_loopback(lite)
    probe = "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/eic-offline-probe.txt"
    out = page.execute(
        "from js import fetch\n"
        "try:\n"
        f"    await fetch({probe!r})\n"
        "    print('fetched')\n"
        "except Exception as exc:\n"
        "    print('refused', type(exc).__name__)\n"
    ).strip()
    assert out.startswith("refused"), out
    assert probe in lite.refused, lite.refused
