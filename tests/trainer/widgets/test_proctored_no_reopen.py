"""A proctored sitting opens its paper once: no widget message reopens it or takes it back to case 1.

A trainee's page can send any widget message: an ``update`` of a (hidden) upload's value carrying
the paper file, a ``click`` on a (hidden) button. Here every upload and every button the sitting
made, in its tree or not, is driven as such a page would, and the sitting must stay where it was.
Driven headless: every callback that raises fails the test (``tests/conftest.py``).
"""

from __future__ import annotations

import datetime
import html
import json
import re
from collections.abc import Iterator

import ipywidgets as w
import pytest
from ipywidgets.widgets import widget as widget_module

from helpers.trainee.grading import Answer, correct_answer
from helpers.trainer.answer_key import load_key
from helpers.trainer.checkout import sample_paper_path
from helpers.trainer.marking import _case
from helpers.trainer.paper import issue_checkout, load_paper, paper_from_bytes
from helpers.trainer.proctoring import open_sitting, prepare_sitting
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.widgets import CheckoutWidget
from helpers.trainer.widgets.proctored import ProctoredCheckoutWidget

ANSWERED = 3  # cases answered before the hostile messages


@pytest.fixture
def trainer(tmp_path) -> TrainerSecret:
    return TrainerSecret.open(tmp_path / "trainer", create=True)


def _tree(root: w.Widget) -> Iterator[w.Widget]:
    """``root`` and every widget under it, through ``.children``."""
    yield root
    for child in getattr(root, "children", ()):
        yield from _tree(child)


def _upload_value(name: str, data: bytes) -> tuple[dict, ...]:
    """What a FileUpload's ``.value`` holds after one file is chosen."""
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    return (
        {"name": name, "type": "", "size": len(data), "content": memoryview(data), "last_modified": when},
    )


def _update_state(name: str, data: bytes) -> dict:
    """The state an ``update`` comm message sets on a FileUpload (before ipywidgets deserializes it)."""
    return {
        "value": [
            {
                "name": name,
                "type": "application/json",
                "size": len(data),
                "content": memoryview(data),
                "last_modified": 1767225600000,
            }
        ]
    }


def _message(widget: CheckoutWidget) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget.message.value))


def _snapshot(widget: ProctoredCheckoutWidget) -> tuple:
    sitting = widget.sitting
    return (
        sitting,
        sitting.paper,
        sitting.index,
        dict(sitting.answers),
        widget.heading.value,
        widget.source,
        widget.handed_in,
    )


def _answer(widget: ProctoredCheckoutWidget, key: dict, count: int) -> None:
    """Answer the first ``count`` cases served right, as the trainee would."""
    records = {record["label"]: record for record in key["cases"]}
    for _ in range(count):
        record = records[widget.sitting.current()["label"]]
        right = correct_answer(_case(record))
        widget.set_answer(
            Answer(right.check, right.missing, right.second, right.flag, right.hold, record["rule"]),
            record["action"],
        )
        widget.submit_button.click()
        assert _message(widget) == "", _message(widget)


@pytest.fixture
def sitting_widget(trainer):
    """A proctored sitting, opened once, with its first cases answered; the paper file's bytes."""
    folder = prepare_sitting("Asha", trainer)
    sitting = open_sitting(folder, trainer)
    key = load_key(folder / "paper.key.json", trainer=trainer)
    before = set(widget_module._instances)
    widget = ProctoredCheckoutWidget(sitting)
    _answer(widget, key, ANSWERED)
    made = [v for k, v in widget_module._instances.items() if k not in before]
    return widget, (folder / "paper.json").read_bytes(), made


def test_the_proctored_sitting_makes_no_chooser_upload_or_open_control(sitting_widget):
    widget, _paper, made = sitting_widget
    assert widget.upload is None and widget.papers is None
    assert widget.open_button is None and widget.open_confirm_button is None
    assert widget.chooser.children == () and widget.chooser.layout.display == "none"
    everything = [*_tree(widget.widget), *made]
    assert not [x for x in everything if isinstance(x, w.FileUpload | w.Dropdown)]
    labels = {x.description for x in everything if isinstance(x, w.Button)}
    assert labels == {"Submit this case and go on", "Send this case with those unset", "Hand in my answers"}
    assert "paper:" not in widget.describe() and "Open" not in widget.describe()


def test_no_widget_message_reopens_the_paper(sitting_widget):
    widget, paper, made = sitting_widget
    assert widget.sitting.index == ANSWERED and len(widget.sitting.answers) == ANSWERED
    before = _snapshot(widget)
    heading = widget.heading.value
    assert f"Case {ANSWERED + 1} (at most 90)" in html.unescape(heading)
    normal = {widget.submit_button, widget.confirm_button}
    # In the tree, and any widget the sitting made (a page can address any model by its id).
    reachable = {id(x): x for x in [*_tree(widget.widget), *made]}.values()
    uploads = [x for x in reachable if isinstance(x, w.FileUpload)]
    buttons = [x for x in reachable if isinstance(x, w.Button) and x not in normal]
    for _ in range(2):  # the page's two messages, then again in the other order
        for upload in uploads:
            upload.value = _upload_value("paper.json", paper)
            upload.set_state(_update_state("paper.json", paper))  # the comm's own update path
        for button in buttons:
            button.click()
        uploads.reverse()
        buttons.reverse()
    assert _snapshot(widget) == before  # same sitting, same case, same answers: nothing reopened
    assert widget.sitting.index == ANSWERED and widget.heading.value == heading
    assert not _message(widget).startswith("Opened")


def test_the_reopen_handlers_refuse_in_one_line(sitting_widget):
    widget, paper, _made = sitting_widget
    before = _snapshot(widget)
    fresh = paper_from_bytes(paper, source="paper.json")
    calls = [
        widget.uploaded,
        widget.open_listed,
        widget.open_pending,
        lambda: widget.open_paper(fresh, "paper.json"),
        lambda: widget.open_paper(fresh, "paper.json", confirmed=True),
    ]
    for call in calls:
        widget.message.value = ""
        call()
        said = _message(widget)
        assert said.startswith("Not opened:") and "opens once" in said and "\n" not in said
    assert _snapshot(widget) == before


def test_the_sitting_still_goes_on_and_hands_in_after_the_attempt(sitting_widget, trainer):
    widget, paper, made = sitting_widget
    for upload in [x for x in made if isinstance(x, w.FileUpload)]:
        upload.value = _upload_value("paper.json", paper)
    widget.open_pending()
    while not widget.sitting.done:  # the rest sent blank, confirmed: the sequential rule soon decides
        widget.submit_button.click()
        widget.confirm_button.click()
    total = len(widget.sitting.cases)
    assert len(widget.sitting.answers) == total > ANSWERED
    assert "There is no file to save or send" in widget.heading.value
    widget.save_button.click()
    assert _message(widget).startswith(f"Handed in: your {total} answers are graded and signed")
    handed = json.loads(widget.proctored.result_path.read_text())
    assert handed["proctored"] is True and handed["trainee"] == "Asha"


def test_the_practice_check_out_still_offers_its_chooser(tmp_path):
    own = json.loads(
        json.dumps(issue_checkout("Kai", seed=7, issued="2026-12-01T09:00:00Z", sequential=False).paper)
    )
    widget = CheckoutWidget(load_paper(sample_paper_path()), papers_dir=tmp_path)
    assert widget.choose is True and widget.chooser.layout.display != "none"
    tree = list(_tree(widget.widget))
    assert widget.upload in tree and widget.open_confirm_button in tree
    assert "paper: " in widget.describe() and "[Open my paper file]" in widget.describe()
    assert widget.upload is not None
    widget.upload.value = _upload_value("kai-exam.json", json.dumps(own).encode("utf-8"))
    assert widget.sitting.paper["paper_id"] == own["paper_id"] and widget.sitting.index == 0
    assert _message(widget).startswith("Opened kai-exam.json")
