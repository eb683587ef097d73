"""The check-out widget opens the trainee's own paper (an upload, or a paper in the folder) and saves
its answers where they can be handed in, never over a file unasked. Driven headless: every
callback that raises fails the test (``tests/conftest.py``)."""

from __future__ import annotations

import base64
import datetime
import html
import json
import re
from pathlib import Path

import pytest

from helpers.core.errors import CheckoutFileError
from helpers.trainer.bounded_file import MAX_CHECKOUT_BYTES
from helpers.trainer.checkout import sample_paper_path
from helpers.trainer.checkout_format import KEY_FORMAT
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.paper import issue_checkout, load_paper, paper_from_bytes
from helpers.trainer.widgets import CheckoutWidget


def upload(name: str, data: bytes) -> tuple[dict, ...]:
    """What a FileUpload's ``.value`` holds after one file is chosen."""
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    return (
        {"name": name, "type": "", "size": len(data), "content": memoryview(data), "last_modified": when},
    )


@pytest.fixture(scope="module")
def own_paper() -> dict:
    """A paper issued to a trainee, as ``checkout issue`` writes it (its key stays with the trainer)."""
    return json.loads(
        json.dumps(issue_checkout("Kai", seed=7, issued="2026-12-01T09:00:00Z", sequential=False).paper)
    )


def _sample() -> dict:
    return load_paper(sample_paper_path())


def _bytes(paper: dict) -> bytes:
    return json.dumps(paper, ensure_ascii=False).encode("utf-8")


def _message(widget: CheckoutWidget) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget.message.value))


def test_an_uploaded_paper_is_sat_from_its_first_case(own_paper, tmp_path):
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    widget.upload.value = upload("kai-exam.json", _bytes(own_paper))
    assert widget.upload.value == ()  # taken in, ready for another
    assert widget.sitting.paper["paper_id"] == own_paper["paper_id"] and widget.sitting.index == 0
    assert f"{own_paper['cases'][0]['label']} of {len(own_paper['cases'])}" in widget.heading.value
    assert widget.path.value == f"answers-{own_paper['paper_id']}.json"
    assert _message(widget) == (
        f"Opened kai-exam.json: {len(own_paper['cases'])} cases for Kai. "
        f"Your answers will be saved as answers-{own_paper['paper_id']}.json."
    )
    assert "kai-exam.json, for Kai" in widget.paper_note.value
    assert "paper: kai-exam.json [Open my paper file]" in widget.describe()


def _without_actions(paper: dict) -> bytes:
    broken = json.loads(json.dumps(paper))
    del broken["cases"][3]["actions"]
    return _bytes(broken)


def _options_not_objects(paper: dict) -> bytes:
    broken = json.loads(json.dumps(paper))
    broken["cases"][1]["reason_options"] = ["ts-lost"]
    return _bytes(broken)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda p: b"{not json", "not valid JSON"),
        (lambda p: b"\xff\xfe", "UTF-8"),
        (
            lambda p: _bytes({**p, "format": KEY_FORMAT}),
            'it has no "format": "eval-integrity-checkout-paper"',
        ),
        (lambda p: _bytes({**p, "version": 2}), "has version 2"),
        (lambda p: _bytes({**p, "cases": []}), "cases is [], expected a non-empty list"),
        (lambda p: _bytes({**p, "paper_id": 5}), "paper_id is"),
        (_without_actions, "cases[3].actions is missing"),
        (_options_not_objects, 'cases[1].reason_options[0] is "ts-lost", expected an object'),
    ],
    ids=["not-json", "not-utf8", "a-key", "version", "no-cases", "paper-id", "no-actions", "options"],
)
def test_a_bad_upload_is_refused_in_one_line_and_the_sitting_stays(own_paper, tmp_path, make, said):
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    before = widget.sitting
    widget.upload.value = upload("exam.json", make(own_paper))
    message = _message(widget)
    assert message.startswith("Not opened: exam.json") and said in message, message
    assert "\n" not in message and 'role="alert"' in widget.message.value
    assert widget.sitting is before and widget.upload.value == ()


def test_an_upload_over_the_size_limit_is_refused_unread(tmp_path):
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    widget.upload.value = upload("huge.json", b" " * (MAX_CHECKOUT_BYTES + 1))
    assert "over the 8 MB limit" in _message(widget)


def test_the_papers_in_the_folder_are_listed_and_opened(own_paper, tmp_path):
    issued = issue_checkout("Kai", seed=9, issued="2026-12-01T09:00:00Z", sequential=False)
    write_checkout(issued, tmp_path / "kai-exam.json")  # the paper, its key and baseline
    (tmp_path / "notes.json").write_text('{"a": 1}')
    (tmp_path / "broken.json").write_bytes(b"\xff")
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    assert widget.papers.options == (
        (f"kai-exam.json: Kai, {len(issued.paper['cases'])} cases", str(tmp_path / "kai-exam.json")),
    )
    widget.open_button.click()  # nothing picked yet
    assert _message(widget) == "Pick a paper in the list first." and widget.sitting.index == 0
    widget.papers.value = str(tmp_path / "kai-exam.json")
    widget.open_button.click()
    assert widget.sitting.paper["paper_id"] == issued.paper["paper_id"]
    assert "kai-exam.json: Kai" in widget.describe()


def test_a_listed_paper_changed_since_it_was_listed_is_refused(tmp_path):
    issued = issue_checkout("Kai", seed=9, issued="2026-12-01T09:00:00Z", sequential=False)
    write_checkout(issued, tmp_path / "kai-exam.json")
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    widget.papers.value = str(tmp_path / "kai-exam.json")
    (tmp_path / "kai-exam.json").write_text("[]")
    widget.open_button.click()
    assert _message(widget).startswith("Not opened: ") and "kai-exam.json" in _message(widget)
    assert widget.sitting.paper["paper_id"] == _sample()["paper_id"]


def test_a_folder_without_papers_says_so(tmp_path):
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    assert widget.papers.options == ()
    assert "No check-out paper in this folder" in str([c.value for c in widget.chooser.children[2:]])
    assert "papers in this folder: none" in widget.describe()


def test_opening_a_paper_over_unsaved_answers_asks_first(own_paper, tmp_path):
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    widget.submit_button.click()
    widget.confirm_button.click()  # one case answered, nothing saved
    first = widget.sitting
    widget.upload.value = upload("kai-exam.json", _bytes(own_paper))
    assert widget.sitting is first and len(first.answers) == 1
    assert _message(widget).startswith("Not opened yet. 1 answer to this paper is not saved.")
    assert widget.open_confirm_button.layout.display is None
    widget.open_confirm_button.click()
    assert widget.sitting is not first and widget.sitting.paper["paper_id"] == own_paper["paper_id"]
    assert widget.open_confirm_button.layout.display == "none"


def _sit_blank(widget: CheckoutWidget) -> None:
    while not widget.sitting.done:
        widget.submit_button.click()
        widget.confirm_button.click()


def test_answers_are_saved_to_a_named_file_never_over_one_and_offered_as_a_download(
    own_paper, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path)
    widget.upload.value = upload("kai-exam.json", _bytes(own_paper))
    name = f"answers-{own_paper['paper_id']}.json"
    (tmp_path / name).write_text("earlier work")
    _sit_blank(widget)
    widget.save_button.click()
    assert _message(widget).startswith(f"Not saved: {name}: already exists")
    assert (tmp_path / name).read_text() == "earlier work" and widget.download.value == ""
    widget.path.value = "kai-answers.json"
    widget.save_button.click()
    saved = (tmp_path / "kai-answers.json").read_text(encoding="utf-8")
    answers = json.loads(saved)
    assert answers["paper_id"] == own_paper["paper_id"] and len(answers["answers"]) == len(own_paper["cases"])
    assert _message(widget).startswith(f"Saved {len(own_paper['cases'])} answers to kai-answers.json.")
    link = re.fullmatch(
        r'.*<a class="eic-download" download="kai-answers.json" href="data:application/json;base64,([^"]+)">'
        r"Download my answers \(kai-answers.json\)</a>.*",
        widget.download.value,
        re.S,
    )
    assert link is not None
    downloaded = json.loads(base64.b64decode(link.group(1)))
    assert {k: v for k, v in downloaded.items() if k != "submitted"} == {
        k: v for k, v in answers.items() if k != "submitted"
    }


def test_without_choose_there_is_nothing_to_upload_or_pick(own_paper, tmp_path):
    write_checkout(issue_checkout("Kai", seed=9, sequential=False), tmp_path / "kai-exam.json")
    widget = CheckoutWidget(_sample(), papers_dir=tmp_path, choose=False)
    assert widget.chooser.children == () and widget.chooser.layout.display == "none"
    assert widget.listed == [] and "paper:" not in widget.describe()


def test_the_upload_reads_a_paper_as_the_file_reader_does(own_paper, tmp_path):
    path = tmp_path / "exam.json"
    path.write_bytes(_bytes(own_paper))
    assert paper_from_bytes(path.read_bytes(), source=str(path)) == load_paper(path)
    with pytest.raises(CheckoutFileError) as raised:
        load_paper(Path(tmp_path / "missing.json"))
    assert "missing.json" in str(raised.value)
