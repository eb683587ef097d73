"""The checks on the page: 02 and 03 show the source of the functions that decide, and it is the code that runs."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

from helpers.trainee.views.case_html import DECIDING, deciding_functions, evaluator_run, source_block

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
SHOWN_IN = {"target-scope": "02_target_scope.ipynb", "sentinels": "03_sentinel_answer_key.ipynb"}


@pytest.mark.parametrize("check", sorted(DECIDING))
def test_each_deciding_function_is_short_enough_to_read(check: str) -> None:
    for function in deciding_functions(check):
        assert len(inspect.getsource(function).splitlines()) <= 30, function.__name__


@pytest.mark.parametrize("check", sorted(DECIDING))
def test_the_notebook_shows_the_source_that_runs(check: str) -> None:
    running = "\n\n".join(inspect.getsource(f).rstrip() for f in deciding_functions(check)) + "\n"
    assert source_block(check).text == running
    nb = json.loads((NOTEBOOKS / SHOWN_IN[check]).read_text(encoding="utf-8"))
    (cell,) = [c for c in nb["cells"] if "".join(c["source"]) == f'case_html.source_block("{check}")']
    (stored,) = [o["data"]["text/plain"] for o in cell["outputs"] if "data" in o]
    assert "".join(stored).rstrip("\n") == running.rstrip("\n"), (
        "re-execute the notebook: its shown source is not the code that runs"
    )
    # nbval leaves this cell's output to this test, so mutation testing measures what the
    # notebook's behaviour catches, not a changed line of shown source.
    assert "nbval-ignore-output" in cell["metadata"].get("tags", [])


@pytest.mark.parametrize("check", sorted(DECIDING))
def test_the_evaluator_asserts_every_filled_case(check: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert json.loads(evaluator_run(check).text)["checked"] == 3
    import helpers.trainee.views.check_source as render

    real = render.run_check

    class Wrong:
        def __init__(self, result):
            self.result = result

        def as_dict(self):
            return {**self.result.as_dict(), "missing": ["?"]}

    monkeypatch.setattr(render, "run_check", lambda name, record: Wrong(real(name, record)))
    with pytest.raises(AssertionError):
        evaluator_run(check)
