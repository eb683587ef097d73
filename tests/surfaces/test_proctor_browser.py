"""A proctored check-out sat end to end in a real browser, and the page's kernel refusing code.

The trainer's command (``python -m helpers checkout proctor``) serves one paper on 127.0.0.1;
the trainee answers every case in Chromium and hands it in; the signed, proctored result is
then on the trainer's side and counts under ``--require-proctored``. The page offers no
editor, no text box and no download, and its kernel, sent an ``execute_request`` straight
over its own WebSocket, runs nothing (while it still answers a ``kernel_info_request``).
A page reloaded after the hand-in is told the sitting is over. Nothing may be requested from anywhere but the app.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest
from axe_check import axe_violations, describe
from offline_chromium import offline_page, require_chromium
from playwright.sync_api import expect
from proctor_server import Proctor, running_proctor

from helpers.trainer.cohort import load_checkouts
from helpers.trainer.next_actions import ACTIONS
from helpers.trainer.secret import TrainerSecret

pytestmark = pytest.mark.browser

#: Starting the kernel and rendering the page, on a slow 2-core runner.
RENDER_TIMEOUT_MS = 180_000
#: A closed page's kernel ends within the app's culling time (15 s); the page may be busy until then.
REOPEN_SECONDS = 60

_TRY_TO_RUN_CODE = """
async ({kernelId, marker}) => {
  const ws = new WebSocket(`ws://${location.host}/api/kernels/${kernelId}/channels?session_id=eic-probe`);
  await new Promise((ok, no) => { ws.onopen = ok; ws.onerror = () => no(new Error("no websocket")); });
  const seen = [];
  ws.onmessage = (event) => {
    try { const m = JSON.parse(event.data); seen.push(m.msg_type || m.header.msg_type); }
    catch (err) { seen.push("unreadable"); }
  };
  const message = (type, content) => JSON.stringify({
    header: {msg_id: type + "-" + Math.random(), msg_type: type, username: "trainee", session: "eic-probe",
             version: "5.3", date: new Date().toISOString()},
    parent_header: {}, metadata: {}, content, channel: "shell", buffers: []});
  ws.send(message("execute_request", {code: `open(${JSON.stringify(marker)}, "w").write("ran")`,
    silent: false, store_history: false, user_expressions: {}, allow_stdin: false, stop_on_error: true}));
  ws.send(message("kernel_info_request", {}));
  await new Promise((done) => setTimeout(done, 5000));
  ws.close();
  return seen;
}
"""


#: A fixed paper (``--count``) served in order: long enough to cover every rule once and every kind twice.
CASES = 46


@pytest.fixture(scope="module")
def proctor(tmp_path_factory) -> Iterator[Proctor]:
    require_chromium()
    with running_proctor(tmp_path_factory.mktemp("proctor"), "Asha", count=CASES) as running:
        yield running


def test_a_proctored_paper_is_sat_end_to_end_and_the_page_runs_no_code(proctor: Proctor, tmp_path) -> None:
    prefixes = (proctor.base_url + "/", proctor.base_url.replace("http://", "ws://", 1) + "/")
    marker = tmp_path / "code-ran.txt"
    with offline_page(lambda url: url.startswith(prefixes)) as (page, watch):
        page.goto(proctor.page_url, timeout=RENDER_TIMEOUT_MS)
        root = page.locator(".eic-checkout")
        heading = root.locator(".eic-checkout-heading")
        expect(heading).to_contain_text(f"Check-out case 1 of {CASES}", timeout=RENDER_TIMEOUT_MS)

        # No way to run code, type a file name or take a file away.
        for selector in (
            ".jp-InputArea-editor",
            ".cm-editor",
            ".CodeMirror",
            "textarea",
            "[contenteditable=true]",
        ):
            assert page.locator(selector).count() == 0, selector
        assert page.locator("input[type=text], input:not([type])").count() == 0
        assert page.locator("a[download]").count() == 0
        assert page.get_by_text("proctored_page").count() == 0
        kernel = page.evaluate(
            "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
        seen = page.evaluate(_TRY_TO_RUN_CODE, {"kernelId": kernel, "marker": str(marker)})
        assert "kernel_info_reply" in seen, seen  # the kernel's channel is open ...
        assert "execute_reply" not in seen and "execute_result" not in seen, seen  # ... and runs no code
        assert not marker.exists()

        for number in range(1, CASES + 1):
            expect(heading).to_contain_text(f"Check-out case {number} of {CASES}")
            root.locator(".eic-action").get_by_role("radio").first.check()
            root.get_by_role("button", name="Submit this case and go on").click()
            root.get_by_role("button", name="Send this case with those unset").click()
        expect(heading).to_contain_text(f"All {CASES} cases answered")
        root.get_by_role("button", name="Hand in my answers").click()
        expect(root.locator(".eic-checkout-message")).to_contain_text(
            f"Handed in: your {CASES} answers are graded and signed"
        )
        expect(root).not_to_contain_text("PASSED")

        # A reloaded page after the hand-in: busy while the first page's kernel ends, then the sitting is over.
        deadline = time.monotonic() + REOPEN_SECONDS
        while True:
            page.goto(proctor.page_url, timeout=RENDER_TIMEOUT_MS)
            if page.get_by_text("The app is busy").count() == 0 or time.monotonic() > deadline:
                break
            time.sleep(3)
        expect(page.locator(".eic-checkout")).to_contain_text(
            "its sitting is over", timeout=RENDER_TIMEOUT_MS
        )
        expect(page.locator(".eic-checkout")).not_to_contain_text("Check-out case 1")
    assert watch.refused == [], f"requests that would have left the app: {watch.refused}"

    results = proctor.trainer_dir / "results"
    (result_file,) = results.glob("*.json")
    result = json.loads(result_file.read_text())
    assert result["proctored"] is True and result["trainee"] == "Asha" and result["sequential"] is False
    # Blank answers: the sequential rule, graded in the fixed paper's order, fails at the third miss.
    assert result["decision"] == "failed" and len(result["cases"]) == 3
    found, refused = load_checkouts(
        [results], trainer=TrainerSecret.open(proctor.trainer_dir), require_proctored=True
    )
    assert set(found) == {"Asha"} and refused == []


# --- axe-core and the keyboard alone ---------------------------------------------------------


@pytest.fixture
def own_proctor(tmp_path) -> Iterator[Proctor]:
    """A proctored app of its own: each paper has one sitting, so each test needs its own paper."""
    require_chromium()
    with running_proctor(tmp_path, "Ben", count=CASES) as running:
        yield running


def _proctored_page(proctor: Proctor):
    prefixes = (proctor.base_url + "/", proctor.base_url.replace("http://", "ws://", 1) + "/")
    return offline_page(lambda url: url.startswith(prefixes))


def test_the_proctored_page_passes_axe_before_and_after_a_case_is_answered(own_proctor: Proctor) -> None:
    found = {}
    with _proctored_page(own_proctor) as (page, watch):
        page.goto(own_proctor.page_url, timeout=RENDER_TIMEOUT_MS)
        root = page.locator(".eic-checkout")
        heading = root.locator(".eic-checkout-heading")
        expect(heading).to_contain_text(f"Check-out case 1 of {CASES}", timeout=RENDER_TIMEOUT_MS)
        found["case 1, nothing answered"] = axe_violations(page)
        root.locator(".eic-action").get_by_role("radio").first.check()
        root.get_by_role("button", name="Submit this case and go on").click()
        expect(root.get_by_role("alert")).to_contain_text("Still unset")
        found["case 1, warned of what is unset"] = axe_violations(page)
        root.get_by_role("button", name="Send this case with those unset").click()
        expect(heading).to_contain_text(f"Check-out case 2 of {CASES}")
        found["case 2, after case 1 was sent"] = axe_violations(page)
    assert watch.refused == [], f"requests that would have left the app: {watch.refused}"
    shown = {when: describe(v) for when, v in found.items() if v}
    assert not shown, "axe-core violations on the proctored page:\n" + "\n".join(
        f"{when}:\n{text}" for when, text in shown.items()
    )


def test_a_dropped_connection_mid_sitting_resumes_with_every_answer_kept(own_proctor: Proctor) -> None:
    answered = 3
    with _proctored_page(own_proctor) as (page, watch):
        page.goto(own_proctor.page_url, timeout=RENDER_TIMEOUT_MS)
        root = page.locator(".eic-checkout")
        heading = root.locator(".eic-checkout-heading")
        expect(heading).to_contain_text(f"Check-out case 1 of {CASES}", timeout=RENDER_TIMEOUT_MS)
        for number in range(1, answered + 1):
            expect(heading).to_contain_text(f"Check-out case {number} of {CASES}")
            root.locator(".eic-action").get_by_role("radio").first.check()
            root.get_by_role("button", name="Submit this case and go on").click()
            root.get_by_role("button", name="Send this case with those unset").click()
        expect(heading).to_contain_text(f"Check-out case {answered + 1} of {CASES}")
        # The connection drops (the page reloads): busy while the first kernel ends, then resumed.
        deadline = time.monotonic() + REOPEN_SECONDS
        while True:
            page.goto(own_proctor.page_url, timeout=RENDER_TIMEOUT_MS)
            if page.get_by_text("The app is busy").count() == 0 or time.monotonic() > deadline:
                break
            time.sleep(3)
        root = page.locator(".eic-checkout")
        heading = root.locator(".eic-checkout-heading")
        expect(heading).to_contain_text(
            f"Check-out case {answered + 1} of {CASES}", timeout=RENDER_TIMEOUT_MS
        )
        expect(root.locator(".eic-checkout-message")).to_contain_text(f"Resumed: your {answered} answers")
        for number in range(answered + 1, CASES + 1):
            expect(heading).to_contain_text(f"Check-out case {number} of {CASES}")
            root.locator(".eic-action").get_by_role("radio").first.check()
            root.get_by_role("button", name="Submit this case and go on").click()
            root.get_by_role("button", name="Send this case with those unset").click()
        root.get_by_role("button", name="Hand in my answers").click()
        expect(root.locator(".eic-checkout-message")).to_contain_text(
            f"Handed in: your {CASES} answers are graded and signed"
        )
    assert watch.refused == [], f"requests that would have left the app: {watch.refused}"
    (sitting,) = (own_proctor.trainer_dir / "proctored").iterdir()
    saved = json.loads((sitting / "answers.json").read_text())["answers"]
    assert [row["label"] for row in saved] == [f"Check-out case {n}" for n in range(1, CASES + 1)]
    (result_file,) = (own_proctor.trainer_dir / "results").glob("*.json")
    resumes = json.loads(result_file.read_text())["resumes"]
    assert resumes and {r["answered"] for r in resumes} == {answered}
    assert all(isinstance(r["gap_seconds"], int) and r["gap_seconds"] >= 0 for r in resumes)


_FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {name: '', kind: '', group: -1};
  const box = el.closest('.widget-radio-box');
  return {
    name: (el.closest('label')?.textContent || el.textContent || '').trim(),
    kind: el.getAttribute('type') || el.tagName.toLowerCase(),
    group: box ? [...document.querySelectorAll('.widget-radio-box')].indexOf(box) : -1,
  };
}"""


def _focused(page) -> dict:
    """The focused element: its name (its label's text, or its own), its kind, and its radio group's index."""
    return page.evaluate(_FOCUSED)


def _tab_to(page, name: str, *, key: str = "Tab", limit: int = 60) -> None:
    """Press ``key`` until the control named ``name`` has the focus (at most ``limit`` times)."""
    seen = []
    for _ in range(limit):
        page.keyboard.press(key)
        seen.append(_focused(page)["name"])
        if seen[-1] == name:
            return
    raise AssertionError(f"{key} never reached {name!r}; the stops were {seen}")


def _outline(page) -> float:
    return page.evaluate("() => parseFloat(getComputedStyle(document.activeElement).outlineWidth)")


def test_one_case_answered_and_the_paper_handed_in_with_the_keyboard_alone(own_proctor: Proctor) -> None:
    """Tab, Space and Enter only: the first case answered in full, every other sent as it is, then handed in.

    Every stop of the first case has a name that makes sense alone: each ID box names its field and
    ID, each option its flag value, rule or action. The focus ring is clearly visible.
    """
    with _proctored_page(own_proctor) as (page, watch):
        page.goto(own_proctor.page_url, timeout=RENDER_TIMEOUT_MS)
        root = page.locator(".eic-checkout")
        heading = root.locator(".eic-checkout-heading")
        expect(heading).to_contain_text(f"Check-out case 1 of {CASES}", timeout=RENDER_TIMEOUT_MS)

        # Case 1: Tab through every control; Space picks the first option of the flag, the reason
        # and the next action, so nothing is left unset; Enter on the button sends it.
        stops, picked = [], []
        for _ in range(80):
            page.keyboard.press("Tab")
            stop = _focused(page)
            stops.append(stop)
            if stop["kind"] == "radio" and stop["group"] not in {s["group"] for s in picked}:
                page.keyboard.press("Space")
                picked.append(stop)
            if stop["name"] == "Submit this case and go on":
                break
        kinds = {s["kind"] for s in stops}
        assert stops[-1]["name"] == "Submit this case and go on", stops
        assert kinds <= {"checkbox", "radio", "button", "summary"}, (
            kinds
        )  # summary: folded JSON, reasons' statements
        assert all(s["name"] for s in stops), stops
        boxes = [s["name"] for s in stops if s["kind"] == "checkbox"]
        assert all(re.fullmatch(r"(missing|changed|added): \S.*|Hold: .+|Refuse: .+", b) for b in boxes), (
            boxes
        )
        assert len(picked) == 3, picked  # the flag, the reason, the next action
        assert re.fullmatch(r"(preserved|intact): true", picked[0]["name"]), picked
        assert picked[2]["name"] in ACTIONS, picked
        for stop in picked:
            expect(root.get_by_role("radio", name=stop["name"], exact=True)).to_be_checked()
        assert _outline(page) >= 2, f"focus outline is {_outline(page)}px"
        page.keyboard.press("Enter")
        expect(heading).to_contain_text(f"Check-out case 2 of {CASES}")
        assert _focused(page)["name"] == "Submit this case and go on"  # the focus stays on the button

        # Every other case: Enter warns of what is unset, Tab reaches the confirmation, Enter sends it;
        # the focus is then back on the button with Shift+Tab.
        for number in range(2, CASES + 1):
            expect(heading).to_contain_text(f"Check-out case {number} of {CASES}")
            page.keyboard.press("Enter")
            expect(root.get_by_role("alert")).to_contain_text("Still unset")
            _tab_to(page, "Send this case with those unset", limit=1)
            page.keyboard.press("Enter")
            if number < CASES:
                expect(heading).to_contain_text(f"Check-out case {number + 1} of {CASES}")
                _tab_to(page, "Submit this case and go on", key="Shift+Tab", limit=3)
        expect(heading).to_contain_text(f"All {CASES} cases answered")
        _tab_to(page, "Hand in my answers")
        assert _outline(page) >= 2, f"focus outline is {_outline(page)}px"
        page.keyboard.press("Enter")
        expect(root.locator(".eic-checkout-message")).to_contain_text(
            f"Handed in: your {CASES} answers are graded and signed"
        )
    assert watch.refused == [], f"requests that would have left the app: {watch.refused}"

    # The first case was handed in as the keyboard set it.
    (answers_file,) = (own_proctor.trainer_dir / "proctored").glob("*/answers.json")
    first = json.loads(answers_file.read_text())["answers"][0]
    assert picked[1]["name"].endswith(f"({first['reason']})") and first["action"] == picked[2]["name"]
    flag = next(k for k in ("preserved", "intact") if k in first)
    assert first[flag] is True and first["hold"] is False
    (result_file,) = (own_proctor.trainer_dir / "results").glob("*.json")
    assert json.loads(result_file.read_text())["proctored"] is True
