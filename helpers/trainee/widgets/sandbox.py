"""Sandboxes: edit a check's input as JSON and see the result live.

Bad input shows the helper's clear error inside the widget, never a
traceback. Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as w

from helpers.core.errors import CheckInputError
from helpers.core.jsonio import dumps_compact, loads_strict
from helpers.trainee.views.case_html import check_block, error_html
from helpers.trainee.widgets.base import TextPicture, frame, html, view_markup, wrap_html

__all__ = ["TargetScopeSandbox", "SentinelSandbox"]


class _Sandbox(TextPicture):
    """Shared machinery: one JSON text area per input field, a live result below."""

    check: str = ""
    fields: tuple[str, ...] = ()

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.inputs = {
            name: w.Textarea(
                value=dumps_compact(values[name]),
                description=name,
                continuous_update=True,
                layout=w.Layout(width="95%", height="4em"),
                style={"description_width": "6.5em"},
            )
            for name in self.fields
        }
        self.result = html(css="eic-sandbox-result")
        for area in self.inputs.values():
            area.observe(lambda _change: self.update(), names="value")
        self.widget = frame([*self.inputs.values(), self.result], "eic-sandbox")
        self.update()

    def _parse(self) -> dict[str, Any]:
        return {name: loads_strict(area.value, source=name) for name, area in self.inputs.items()}

    def update(self) -> None:
        """Re-run the check on the text areas' contents and show the result or the error."""
        try:
            values = self._parse()
        except CheckInputError as exc:
            self.result.value = wrap_html(view_markup(error_html(exc)))
            return
        self.result.value = wrap_html(view_markup(check_block(self.check, values, show_input=False).html))

    def describe(self) -> str:
        """A plain-text picture: each input and the current result or error."""
        try:
            text = check_block(self.check, self._parse(), show_input=False).text
        except CheckInputError as exc:
            text = f"Cannot check this input: {exc}"
        fields = [f"  {name}: {area.value}" for name, area in self.inputs.items()]
        return "\n".join([f"Sandbox ({self.check}), edit the JSON:", *fields, "Result:", text])


class TargetScopeSandbox(_Sandbox):
    """Edit ``original``, ``rewritten`` and ``unresolved`` as JSON lists.

    Taught in ``02_target_scope.ipynb`` ("Sandbox").
    """

    check = "target-scope"
    fields = ("original", "rewritten", "unresolved")

    def __init__(
        self,
        original: Sequence[str] = ("induction", "refresher"),
        rewritten: Sequence[str] = ("refresher", "induction"),
        unresolved: Sequence[str] = (),
    ) -> None:
        super().__init__(
            {"original": list(original), "rewritten": list(rewritten), "unresolved": list(unresolved)}
        )


class SentinelSandbox(_Sandbox):
    """Edit ``baseline`` and ``proposed`` as JSON objects.

    Taught in ``03_sentinel_answer_key.ipynb`` ("Sandbox").
    """

    check = "sentinels"
    fields = ("baseline", "proposed")

    def __init__(
        self,
        baseline: Mapping[str, str] | None = None,
        proposed: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(
            {
                "baseline": dict(baseline) if baseline is not None else {"S1": "R", "S2": "A"},
                "proposed": dict(proposed) if proposed is not None else {"S1": "R", "S2": "A", "C3": "B"},
            }
        )
