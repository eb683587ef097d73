"""The registry of checks (:mod:`helpers.core.checks`) and the plain reference run over JSON lines."""

from __future__ import annotations

import pytest

from helpers.core.checks import CHECK_TITLES, CHECKS, check_lines, require_check_name, run_check
from helpers.core.errors import InvalidInputError
from helpers.core.jsonio import JsonLine


def test_every_check_has_a_title():
    assert list(CHECKS) == ["target-scope", "sentinels"]
    assert set(CHECK_TITLES) == set(CHECKS)


@pytest.mark.parametrize(
    ("name", "shown"), [("scope", '"scope"'), (None, "null"), (3, "3"), ("Sentinels", '"Sentinels"')]
)
def test_an_unknown_check_name_is_refused_naming_the_field(name, shown):
    with pytest.raises(InvalidInputError) as caught:
        require_check_name(name, field="case.check")
    assert caught.value.message == f'case.check is {shown}, expected one of "target-scope", "sentinels"'
    assert caught.value.field == "case.check"


def test_a_list_as_the_check_name_is_refused_as_bad_input():
    with pytest.raises(InvalidInputError, match=r'^case.check is \["sentinels"\], expected one of'):
        require_check_name(["sentinels"], field="case.check")


def test_run_check_runs_the_named_check():
    assert run_check("target-scope", {"original": ["a"], "rewritten": []}).missing == ("a",)
    assert run_check("sentinels", {"baseline": {"S1": "R"}, "proposed": {}}).missing == ("S1",)


def test_check_lines_gives_each_line_its_output_and_exit_code():
    bad_read = InvalidInputError("not JSON", field=None)
    lines = [
        JsonLine(1, {"original": ["a"], "rewritten": ["a"]}),
        JsonLine(2, {"original": ["a"], "rewritten": []}),
        JsonLine(3, {"original": ["a"], "rewritten": ["a"], "unresolved": ["x"]}),
        JsonLine(4, {"original": "a", "rewritten": []}),
        JsonLine(5, error=bad_read),
    ]
    got = list(check_lines("target-scope", lines))
    assert [code for _, code in got] == [0, 1, 3, 4, 4]
    assert got[1][0]["missing"] == ["a"]
    assert got[3][0]["line"] == 4 and got[3][0]["field"] == "original"
    assert got[4][0] == {"line": 5, "field": None, "error": "not JSON"}
