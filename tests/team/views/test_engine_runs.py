"""05's engines side by side: both routes really run, and a difference between them shows."""

from __future__ import annotations

import pytest

from helpers.core.errors import CheckInputError
from helpers.trainee.views import engine_runs


@pytest.mark.parametrize("check, status", [("target-scope", 3), ("sentinels", 1)])
def test_both_routes_run_and_write_the_same_bytes(check: str, status: int) -> None:
    shown = engine_runs.engines_beside(check)
    assert f"exit status {status}; ✔ the same bytes" in shown.text
    assert "--engine duckdb" in shown.text and "<pre>" in shown.html


def test_a_route_that_differs_is_shown_as_differing(monkeypatch) -> None:
    answers = iter([(1, "{}\n", ""), (1, "{} \n", "")])
    monkeypatch.setattr(engine_runs, "_run", lambda _args: next(answers))
    assert "✘ differs from --engine python" in engine_runs.engines_beside("sentinels").text


def test_the_browser_edition_says_what_it_cannot_run(monkeypatch) -> None:
    monkeypatch.setattr(engine_runs.sys, "platform", "emscripten")
    monkeypatch.setattr(engine_runs, "_run", lambda _args: pytest.fail("no process in the browser"))
    assert "starts no processes" in engine_runs.engines_beside("target-scope").text


def test_an_unknown_check_is_refused_naming_the_field() -> None:
    with pytest.raises(CheckInputError, match="check must be one of"):
        engine_runs.engines_beside("scope")
