"""Check your own data: a file path or an upload, a progress bar, the summary, a chart, the failures.

The panel only calls the helpers (:mod:`helpers.team.batch`, :mod:`helpers.team.reports`);
every result is written into HTML and image widgets by setting ``.value``, so
it works the same with or without a front end. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

import ipywidgets as w

from helpers.core.errors import CheckInputError
from helpers.team.batch import BatchSummary, KeyCheck, check_file, check_key_files
from helpers.team.sources import InputFile, Upload
from helpers.team.views.batch_chart import chart_img_html, outcome_chart
from helpers.team.views.batch_html import failures_table, key_check_table, summary_table
from helpers.trainee.html import Html
from helpers.trainee.html import html as markup
from helpers.trainee.views.case_html import error_html, esc
from helpers.trainee.widgets.base import (
    TextPicture,
    button,
    frame,
    html,
    view_markup,
    wide_style,
    wrap_html,
    wrap_row,
)
from helpers.trainee.widgets.progress_transfer import in_browser_edition

__all__ = ["DataCheckPanel", "LITE_DATA_NOTE"]

#: Said at the top of the panel in the browser edition (JupyterLite).
LITE_DATA_NOTE = (
    "In the browser edition, use the Upload buttons, not the path box or the file browser: JupyterLite "
    'rewrites files whose name contains "json" when they are opened or saved from its file browser, so a '
    "path may not give the bytes you meant. An upload reaches the check unchanged."
)

_KINDS = [("Target scope (JSON Lines or CSV)", "target-scope"), ("Sentinel answer keys", "sentinels")]


class _FileChoice:
    """A path box and an upload button; an upload, when there is one, wins."""

    def __init__(self, label: str, path: str, accept: str) -> None:
        self.path = w.Text(
            value=path,
            description=label,
            style=wide_style(),
            layout=w.Layout(flex="1 1 28em", min_width="24em", max_width="44em"),
        )
        self.upload = w.FileUpload(
            accept=accept,
            multiple=False,
            description=f"Upload {label.lower()}",
            layout=w.Layout(width="auto", min_width="max-content"),
        )
        self.widget = wrap_row([self.path, self.upload])

    def item(self) -> InputFile:
        """The chosen input: the uploaded file, else the path typed in."""
        if self.upload.value:
            upload = self.upload.value[0]
            return Upload(str(upload["name"]), bytes(upload["content"]))
        if not self.path.value.strip():
            raise CheckInputError(f"{self.path.description}: type a file path or upload a file")
        return self.path.value

    def describe(self) -> str:
        if self.upload.value:
            return f"{self.path.description}: upload {self.upload.value[0]['name']}"
        return f"{self.path.description}: {self.path.value}"


class DataCheckPanel(TextPicture):
    """Check a whole file of rewrites, or two answer keys, and show what the run found.

    Starts on the shipped sample data and, with ``run=True``, checks it straight away.
    Drive it without a front end: set :attr:`kind`'s ``.value`` (``"target-scope"`` or
    ``"sentinels"``), the ``.value`` of a path box or an upload, call
    ``check_button.click()``, then read :attr:`summary`, :attr:`failures` and
    :attr:`status` (HTML ``.value``) and :attr:`chart` (PNG ``.value``).
    Taught in ``05_check_your_data.ipynb``.
    """

    def __init__(self, *, run: bool = True, max_failures: int = 20) -> None:
        self.max_failures = max_failures
        self.kind = w.RadioButtons(
            options=_KINDS, value="target-scope", description="Which check", style=wide_style()
        )
        self.records = _FileChoice("Records", "fixtures/sample_data/rewrites.jsonl", ".jsonl,.ndjson,.csv")
        self.separator = w.Text(
            value="",
            description="CSV lists",
            placeholder="JSON arrays; or a separator such as ;",
            style=wide_style(),
            layout=w.Layout(flex="0 0 auto", width="27em"),
        )
        self.records.widget.children = (*self.records.widget.children, self.separator)
        self.baseline = _FileChoice("Baseline", "fixtures/sample_data/baseline.json", ".json,.jsonl,.ndjson")
        self.proposed = _FileChoice("Proposed", "fixtures/sample_data/proposed.jsonl", ".json,.jsonl,.ndjson")
        self.keys = w.VBox([self.baseline.widget, self.proposed.widget])
        self.check_button = button("Check the files", "eic-run-check", button_style="primary")
        self.progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, description="Read", style=wide_style())
        self.status = html(css="eic-data-status")
        self.summary = html(css="eic-data-summary")
        self.chart = html(css="eic-data-chart")
        #: The last chart as PNG bytes (empty before a run); :attr:`chart` shows it with its alt text.
        self.chart_png = b""
        self.failures = html(css="eic-data-failures")
        self.last: BatchSummary | KeyCheck | None = None
        self.kind.observe(lambda _change: self._mode_changed(), names="value")
        self.check_button.on_click(lambda _button: self.run())
        #: In the browser edition (JupyterLite), a note to upload rather than type a path.
        self.lite_note = html(
            markup('<p class="eic-lite-note" role="note">{}</p>', esc(LITE_DATA_NOTE))
            if in_browser_edition()
            else Html(""),
            css="eic-lite",
        )
        self.widget = frame(
            [
                self.lite_note,
                self.kind,
                self.records.widget,
                self.keys,
                wrap_row([self.check_button, self.progress]),
                self.status,
                self.summary,
                self.chart,
                self.failures,
            ],
            "eic-data-check",
        )
        self._show_inputs()
        if run:
            self.run()

    def _mode_changed(self) -> None:
        """A new mode: the other mode's results and any stale error go."""
        self._clear()
        self._show_inputs()

    def _show_inputs(self) -> None:
        scope = self.kind.value == "target-scope"
        self.records.widget.layout.display = "" if scope else "none"
        self.keys.layout.display = "none" if scope else ""

    def _set_progress(self, fraction: float) -> None:
        self.progress.value = fraction

    def _clear(self) -> None:
        self.progress.value = 0.0
        for box in (self.status, self.summary, self.failures):
            box.value = ""
        self.chart.value = ""
        self.chart_png = b""
        self.chart.layout.display = "none"
        self.last = None

    def run(self) -> None:
        """Check the chosen input and show the results (or the reason it could not be read)."""
        self._clear()
        try:
            if self.kind.value == "target-scope":
                self._show_records(self._check_records())
            else:
                self._show_keys(check_key_files(self.baseline.item(), self.proposed.item()))
        except CheckInputError as exc:
            self.status.value = wrap_html(view_markup(error_html(exc)))

    def _check_records(self) -> BatchSummary:
        item = self.records.item()
        name = item.name if isinstance(item, Upload) else str(item)
        separator = self.separator.value or None
        if separator is not None and not name.lower().endswith(".csv"):
            raise CheckInputError("a list separator applies only to a .csv file; clear it for JSON Lines")
        return check_file(
            item,
            list_separator=separator,
            max_failures=self.max_failures,
            progress=self._set_progress,
        )

    def _show_records(self, summary: BatchSummary) -> None:
        # Build every part first, then show them together: the panel is never left half drawn.
        table, chart, failures = summary_table(summary), outcome_chart(summary), failures_table(summary)
        self.last = summary
        self.status.value = wrap_html(
            markup('<p role="status">Checked <code>{}</code>.</p>', esc(summary.source))
        )
        self.summary.value = wrap_html(view_markup(table.html))
        self.chart_png = chart.png
        self.chart.value = wrap_html(view_markup(chart_img_html(chart)))
        self.chart.layout.display = ""
        self.failures.value = wrap_html(view_markup(failures.html))

    def _show_keys(self, check: KeyCheck) -> None:
        self.last = check
        self.progress.value = 1.0
        self.status.value = wrap_html(
            markup(
                '<p role="status">Checked <code>{}</code> against <code>{}</code>.</p>',
                esc(check.proposed.source),
                esc(check.baseline.source),
            )
        )
        self.summary.value = wrap_html(view_markup(key_check_table(check, limit=self.max_failures).html))

    def describe(self) -> str:
        """A plain-text view of the panel: its inputs and the last run's outcome."""
        scope = self.kind.value == "target-scope"
        inputs = [self.records.describe()] if scope else [self.baseline.describe(), self.proposed.describe()]
        if scope and self.separator.value:
            inputs.append(f"CSV list separator: {self.separator.value!r}")
        lines = [f"Check your data: {dict((v, k) for k, v in _KINDS)[self.kind.value]}"]
        lines += [f"  {line}" for line in inputs]
        lines.append(f"  buttons: [{self.check_button.description}]  progress bar")
        last = self.last
        if isinstance(last, BatchSummary):
            counts = ", ".join(f"{label} {count}" for label, count in last.counts.items())
            lines.append(f"  last run: {last.records} records ({counts}); exit status {last.exit_code}")
        elif isinstance(last, KeyCheck):
            outcome = last.result.outcome if last.result is not None else "bad input"
            lines.append(f"  last run: {outcome}; exit status {last.exit_code}")
        return "\n".join(lines)
