"""What the exact route makes of a gallery line, and how a raw line is shown."""

from __future__ import annotations

import pytest

from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError, JSONLoadError
from helpers.core.jsonio import loads_strict
from helpers.trainee.views.edge_cases import edge_cases
from helpers.trainee.views.shown import LONG_LINE, exact_output, raw_text

CHECKS = ("target-scope", "sentinels")


@pytest.mark.parametrize("check", CHECKS)
def test_every_edge_case_shows_what_the_check_itself_says(check: str) -> None:
    for case in edge_cases(check):
        shown = exact_output(check, case.line)
        try:
            expected = run_check(check, loads_strict(case.line.decode("utf-8")))
        except CheckInputError as exc:
            assert shown.refused, case.title
            message = exc.detail if isinstance(exc, JSONLoadError) else exc.message
            assert shown.output == {"refused": message, "field": exc.field}
        else:
            assert not shown.refused, case.title
            assert shown.output == expected.as_dict()
            assert list(shown.output) == list(expected.as_dict())


def test_long_lines_are_shown_by_their_ends() -> None:
    assert raw_text(b"[" * 300).endswith("(300 characters in all)")
    assert raw_text(b"[" * LONG_LINE) == "[" * LONG_LINE
    assert raw_text(b"[" * (LONG_LINE + 1)).endswith(f"({LONG_LINE + 1} characters in all)")
