"""Progress files in the offline browser edition (JupyterLite): download and upload them.

In JupyterLite (``sys.platform == "emscripten"``) **Save progress** writes to the
browser's storage for this site, which clearing site data loses; a download is
the copy that lasts. An upload goes through the strict JSON reader and the
progress loader, so a damaged file is refused with its message.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import base64
import sys
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from helpers.core.errors import JSONLoadError, ProgressFileError
from helpers.core.jsonio import loads_strict
from helpers.trainee.html import Html, esc
from helpers.trainee.html import html as markup
from helpers.trainee.widgets.base import html, wrap_html, wrap_row

__all__ = ["in_browser_edition", "LITE_SAVE_NOTE", "ProgressTransfer"]

#: Said under the Save button in the browser edition.
LITE_SAVE_NOTE = (
    "In the browser edition, Save progress writes to this browser's storage for the site: clearing the "
    "site's data loses it. Press Download progress to keep a copy as a file, and Upload progress to carry on "
    "from one."
)


def in_browser_edition() -> bool:
    """True in JupyterLite, where Python runs in the browser (``sys.platform == "emscripten"``)."""
    return sys.platform == "emscripten"


def download_link_html(name: str, text: str) -> Html:
    """A link that downloads ``text`` as the JSON file ``name``; its words make sense alone."""
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return markup(
        '<a class="eic-download" download="{}" href="data:application/json;base64,{}">Download progress ({})</a>',
        esc(name),
        payload,
        esc(name),
    )


class ProgressTransfer:
    """A **Download progress** link and an **Upload progress** button for a drill.

    ``dump()`` gives the file name and JSON text to download; ``accept(data, source)``
    takes a parsed upload and raises :class:`~helpers.core.errors.ProgressFileError`
    when it is not a good progress file; ``report(html)`` shows the outcome.
    """

    def __init__(
        self,
        dump: Callable[[], tuple[str, str]],
        accept: Callable[[Any, str], str],
        report: Callable[[Html], None],
    ) -> None:
        self._dump, self._accept, self._report = dump, accept, report
        self.download = html(css="eic-download-area")
        self.upload = w.FileUpload(
            accept=".json",
            multiple=False,
            description="Upload progress",
            layout=w.Layout(width="auto", min_width="max-content"),
        )
        self.upload.add_class("eic-upload")
        self.upload.observe(lambda _change: self.uploaded(), names="value")
        self.note = html(
            markup('<p class="eic-lite-note">{}</p>', esc(LITE_SAVE_NOTE))
            if in_browser_edition()
            else Html(""),
            css="eic-lite",
        )
        self.widget = w.VBox([wrap_row([self.download, self.upload]), self.note])
        self.refresh()

    def refresh(self) -> None:
        """Regenerate the download link from the drill's current progress."""
        name, text = self._dump()
        self.download.value = wrap_html(download_link_html(name, text))

    def uploaded(self) -> None:
        """Read the uploaded file strictly and hand it to the drill, or show why it was refused."""
        if not self.upload.value:
            return
        item = self.upload.value[0]
        name, raw = str(item["name"]), bytes(item["content"])
        try:
            try:
                data = loads_strict(raw.decode("utf-8-sig"), source=name)
            except UnicodeDecodeError as exc:
                raise ProgressFileError(f"is not UTF-8 text (byte {exc.start})", path=name) from None
            except JSONLoadError as exc:
                raise ProgressFileError(f"is not a progress file: {exc.detail}", path=name) from None
            message = self._accept(data, name)
        except ProgressFileError as exc:
            self._report(
                markup('<div class="eic-error" role="alert"><b>✘ Not loaded:</b> {}</div>', esc(exc))
            )
        else:
            self._report(markup('<span class="eic-loaded" role="status">✔ {}</span>', esc(message)))
            self.refresh()
        self.upload.value = ()
