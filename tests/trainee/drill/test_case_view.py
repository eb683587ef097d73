"""What a trainee sees of a drill case: nothing of the answer key, and nothing that can change the case."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import pytest
from trainees import Clock, _blind_answer

from helpers.trainee.drill.case_view import CaseView, frozen
from helpers.trainee.drill.engine import DrillSession


def test_a_view_exposes_nothing_of_the_answer_key() -> None:
    s = DrillSession.start(seed=7, clock=Clock())
    for _ in range(40):
        view = s.next_case()
        assert view.label == f"Drill case {view.number}"
        fields = {f.name for f in dataclasses.fields(CaseView)}
        assert fields == {
            "number",
            "label",
            "check",
            "input",
            "fields",
            "ids",
            "reason_options",
            "hold_label",
        }
        text = json.dumps(_plain(view.input)) + view.label
        assert "expected" not in text and "seed" not in text
        # The rule ids appear only as options, and every option is offered.
        assert len(view.reason_options) == 5
        with pytest.raises(TypeError):
            view.input["original" if view.check == "target-scope" else "baseline"] = []  # type: ignore[index]
        s.check(_blind_answer(view, None))


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def test_a_view_copies_as_itself_and_its_plain_input_is_an_editable_copy() -> None:
    view = DrillSession.start(seed=7, clock=Clock()).next_case()
    assert copy.deepcopy(view) is view
    plain = view.plain_input()
    assert plain == _plain(view.input)
    key = next(iter(plain))
    plain[key] = "changed"
    assert view.plain_input()[key] != "changed"
    assert view.text().startswith(f"{view.label} ({view.check})\n")


def test_frozen_makes_every_level_read_only_and_keeps_the_values() -> None:
    value = {"ids": ["a", "b"], "answers": {"S1": "A"}, "nested": [{"x": [1, 2]}], "n": 3}
    made = frozen(value)
    assert _plain(made) == value
    with pytest.raises(TypeError):
        made["n"] = 4  # type: ignore[index]
    with pytest.raises(TypeError):
        made["nested"][0]["x"] = ()  # type: ignore[index]
    assert isinstance(made["ids"], tuple) and isinstance(made["nested"][0]["x"], tuple)
