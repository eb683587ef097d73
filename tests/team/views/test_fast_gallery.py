"""The fast path on each gallery line beside the exact route."""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.jsonio import dumps_compact
from helpers.team.views.fast_gallery import fast_beside_exact, fast_run
from helpers.trainee.views.edge_cases import edge_cases
from helpers.trainee.views.shown import Shown, exact_output

CHECKS = ("target-scope", "sentinels")


@pytest.mark.parametrize("check", CHECKS)
def test_the_fast_path_agrees_with_the_exact_route_on_every_edge_case(check: str) -> None:
    cases = edge_cases(check)
    for case in cases:
        run = fast_run(check, case.line, exact_output(check, case.line))
        assert run.agrees, case.title
    assert repr(fast_beside_exact(check)).startswith(f"{len(cases)} of {len(cases)} inputs")


def test_a_fast_path_that_differs_is_shown_as_differing() -> None:
    line = b'{"original":["b","a"],"rewritten":[]}'
    exact = exact_output("target-scope", line)
    wrong = Shown(exact.record, {"missing": ["b", "a"], "added": [], "preserved": False}, False, ())
    assert not fast_run("target-scope", line, wrong).agrees


ids = st.lists(st.text(st.characters(codec="utf-8"), min_size=1, max_size=3), max_size=4)


@settings(max_examples=examples(200), deadline=None)
@given(original=ids, rewritten=ids, unresolved=st.none() | ids)
def test_the_fast_path_agrees_on_any_target_scope_record(original, rewritten, unresolved) -> None:
    record = {"original": original, "rewritten": rewritten}
    if unresolved is not None:
        record["unresolved"] = unresolved
    line = dumps_compact(record).encode("utf-8", "surrogatepass")
    assert fast_run("target-scope", line, exact_output("target-scope", line)).agrees
