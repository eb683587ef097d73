"""A proctored check-out sat end to end in a real browser, and the page's kernel refusing code.

The trainer's command (``python -m helpers checkout proctor``) serves one paper on 127.0.0.1;
the trainee answers every case in Chromium and hands it in; the signed, proctored result is
then on the trainer's side and counts under ``--require-proctored``. The page offers no
editor, no text box and no download, and its kernel, sent an ``execute_request`` straight
over its own WebSocket, runs nothing (while it still answers a ``kernel_info_request``).
A reloaded page gets no second sitting. Nothing may be requested from anywhere but the app.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from offline_chromium import offline_page, require_chromium
from playwright.sync_api import expect
from proctor_server import Proctor, running_proctor

from helpers.teach.cohort import load_checkouts
from helpers.teach.trainer import TrainerSecret

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


#: The shortest paper that covers every rule and look-alike kind twice.
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
        page.goto(proctor.base_url + "/", timeout=RENDER_TIMEOUT_MS)
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
            f"Handed in: your trainer has your {CASES} answers"
        )
        expect(root).not_to_contain_text("PASSED")

        # A reloaded page is no second sitting: busy while the first page's kernel ends, then refused.
        deadline = time.monotonic() + REOPEN_SECONDS
        while True:
            page.goto(proctor.base_url + "/", timeout=RENDER_TIMEOUT_MS)
            if page.get_by_text("The app is busy").count() == 0 or time.monotonic() > deadline:
                break
            time.sleep(3)
        expect(page.locator(".eic-checkout")).to_contain_text(
            "one sitting per paper", timeout=RENDER_TIMEOUT_MS
        )
        expect(page.locator(".eic-checkout")).not_to_contain_text("Check-out case 1")
    assert watch.refused == [], f"requests that would have left the app: {watch.refused}"

    results = proctor.trainer_dir / "results"
    (result_file,) = results.glob("*.json")
    result = json.loads(result_file.read_text())
    assert result["proctored"] is True and result["trainee"] == "Asha" and len(result["cases"]) == CASES
    found, refused = load_checkouts(
        [results], trainer=TrainerSecret.open(proctor.trainer_dir), require_proctored=True
    )
    assert set(found) == {"Asha"} and refused == []
