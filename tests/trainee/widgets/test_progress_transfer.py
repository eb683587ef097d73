"""Download and upload of progress files (``helpers/trainee/widgets/progress_transfer.py``), no front end."""

from __future__ import annotations

import base64
import datetime
import re
import sys
from typing import Any

from helpers.core.errors import ProgressFileError
from helpers.trainee.html import Html
from helpers.trainee.widgets.progress_transfer import (
    LITE_SAVE_NOTE,
    ProgressTransfer,
    download_link_html,
    in_browser_edition,
)


class _Drill:
    """A stand-in drill: what it would save, what it was given, what it reported."""

    def __init__(self) -> None:
        self.text = '{"saved": 1}'
        self.accepted: list[tuple[Any, str]] = []
        self.reports: list[Html] = []

    def dump(self) -> tuple[str, str]:
        return "my <progress>.json", self.text

    def accept(self, data: Any, source: str) -> str:
        if data == []:
            raise ProgressFileError("is not a progress file", path=source)
        self.accepted.append((data, source))
        self.text = '{"saved": 2}'
        return "Loaded 3 cases"


def _transfer() -> tuple[ProgressTransfer, _Drill]:
    drill = _Drill()
    return ProgressTransfer(drill.dump, drill.accept, drill.reports.append), drill


def _upload(transfer: ProgressTransfer, name: str, content: bytes) -> None:
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    item = {
        "name": name,
        "type": "",
        "size": len(content),
        "content": memoryview(content),
        "last_modified": when,
    }
    transfer.upload.value = (item,)


def _payload(shown: str) -> bytes:
    return base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", shown).group(1))


def test_the_download_link_carries_the_file_and_names_it_escaped() -> None:
    link = download_link_html("a<b>.json", "é")
    assert link.startswith(
        '<a class="eic-download" download="a&lt;b&gt;.json" href="data:application/json;base64,'
    )
    assert link.endswith(">Download progress (a&lt;b&gt;.json)</a>") and _payload(link) == "é".encode()
    transfer, _drill = _transfer()
    assert _payload(transfer.download.value) == b'{"saved": 1}'


def test_a_good_upload_is_handed_over_reported_and_the_link_refreshed() -> None:
    transfer, drill = _transfer()
    _upload(transfer, "mine.json", b'\xef\xbb\xbf{"attempts": []}')
    assert drill.accepted == [({"attempts": []}, "mine.json")]
    assert drill.reports == ['<span class="eic-loaded" role="status">✔ Loaded 3 cases</span>']
    assert _payload(transfer.download.value) == b'{"saved": 2}' and transfer.upload.value == ()


def test_a_damaged_or_foreign_upload_is_refused_with_its_message() -> None:
    transfer, drill = _transfer()
    for name, content, why in [
        ("dup.json", b'{"a": 1, "a": 2}', "dup.json: is not a progress file: "),
        ("latin.json", b'{"a": "\xe9"}', "latin.json: is not UTF-8 text (byte 7)"),
        ("list.json", b"[]", "list.json: is not a progress file"),
    ]:
        _upload(transfer, name, content)
        shown = drill.reports[-1]
        assert shown.startswith('<div class="eic-error" role="alert"><b>✘ Not loaded:</b> ') and why in shown
        assert transfer.upload.value == ()
    assert drill.accepted == [] and _payload(transfer.download.value) == b'{"saved": 1}'


def test_only_the_browser_edition_shows_the_note_on_where_saves_go(monkeypatch) -> None:
    assert not in_browser_edition() and _transfer()[0].note.value == ""
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert in_browser_edition()
    assert "Press Download progress to keep a copy as a file" in _transfer()[0].note.value
    assert LITE_SAVE_NOTE.startswith("In the browser edition, Save progress writes to this browser")
