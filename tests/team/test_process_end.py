"""Whether the run is the process's last act (:mod:`helpers.team.process_end`)."""

from __future__ import annotations

from helpers.team import fast_checks, process_end


def test_a_run_lingers_only_once_told_the_process_ends_with_it(monkeypatch):
    monkeypatch.setattr(process_end, "_linger", False)
    process_end.end_with_process()
    assert process_end._linger is True
    process_end.end_with_process()
    assert process_end._linger is True


def test_a_walk_leaves_its_lists_to_the_process_s_end_only_when_told(monkeypatch):
    baseline, proposed = {"S1": "R", "S2": "A"}, {"S1": "R", "S2": "B"}
    monkeypatch.setattr(process_end, "_lingering", {})
    monkeypatch.setattr(process_end, "_linger", False)
    assert fast_checks._differing_in_order(baseline, proposed) == ["S2"]
    assert process_end._lingering == {}
    process_end.end_with_process()
    assert fast_checks._differing_in_order(baseline, proposed) == ["S2"]
    assert process_end._lingering["walk"] == (["S1", "S2"], ["R", "A"], ["S1", "S2"], ["R", "B"])


def test_the_module_needs_no_typing_import_at_run_time():
    assert process_end.TYPE_CHECKING is False and "Any" not in vars(process_end)
