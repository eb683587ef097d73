"""Results are immutable and hashable, and long answers still get a minimal character diff."""

from __future__ import annotations

import dataclasses

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers
from helpers.core.chardiff import char_diff, diff_text
from helpers.trainee import grading
from helpers.trainee.cases.filled import get_case
from helpers.trainee.views import case_html, mistakes

RESULTS = {
    "target scope": lambda: helpers.check_target_scope(["a", "b"], ["a", "c"]),
    "held": lambda: helpers.check_target_scope_input(
        {"original": ["a"], "rewritten": ["a"], "unresolved": ["the spring course"]}
    ),
    "sentinels": lambda: helpers.check_sentinels({"S1": "R", "S2": "A"}, {"S1": "S"}),
    "diff piece": lambda: char_diff("R", "S")[0],
    "answer": lambda: grading.Answer("target-scope", missing=frozenset({"a"}), flag=False),
    "grade": lambda: grading.grade(get_case("lost-comparison"), grading.Answer("target-scope", flag=True)),
    "mistake": lambda: mistakes.typical_mistakes(get_case("lost-comparison"))[0],
    "feedback": lambda: grading.grade(
        get_case("lost-comparison"), grading.Answer("target-scope", flag=True)
    ).mistakes[0],
    "shown block": lambda: case_html.HtmlBlock("<p>x</p>", "x"),
}


@pytest.mark.parametrize("make", RESULTS.values(), ids=RESULTS.keys())
def test_a_result_cannot_be_changed(make):
    result = make()
    field = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, field, ())


@pytest.mark.parametrize("make", RESULTS.values(), ids=RESULTS.keys())
def test_equal_results_hash_alike_and_work_as_keys(make):
    first, second = make(), make()
    assert first == second and hash(first) == hash(second)
    assert {first: "seen"}[second] == "seen"
    assert len({first, second}) == 1


@settings(max_examples=examples(20))
@given(
    before=st.text("ab", min_size=150, max_size=400),
    after=st.text("ab", min_size=150, max_size=400),
)
def test_one_changed_character_in_a_long_answer_is_one_small_change(before, after):
    """200 characters or more must not switch difflib's junk heuristic on (autojunk=False)."""
    old, new = before + "x" + after, before + "y" + after
    assert diff_text(old, new) == f"{before}[-x-]{{+y+}}{after}"
    changed = [piece for piece in char_diff(old, new) if piece.kind != "equal"]
    assert [(piece.kind, piece.text) for piece in changed] == [("delete", "x"), ("insert", "y")]


PRINTABLE_WIDE = ["a", "é", "！", "～", "😀", "𝒜"]  # printable, inside and beyond the BMP


def test_the_fast_path_sorts_astral_ids_as_javascript_does():
    """U+1F600 sorts before U+FF01 in UTF-16 order, though its code point is higher."""
    from helpers.team.fastpath import fast_target_scope

    result = fast_target_scope({"original": ["！", "😀"], "rewritten": []})
    assert result.missing == ("😀", "！")


@given(
    original=st.lists(st.sampled_from(PRINTABLE_WIDE), max_size=5),
    rewritten=st.lists(st.sampled_from(PRINTABLE_WIDE), max_size=5),
)
def test_the_fast_path_agrees_with_the_exact_route_on_wide_ids(original, rewritten, js_sorted):
    from helpers.team.fastpath import fast_target_scope

    record = {"original": original, "rewritten": rewritten}
    fast = fast_target_scope(record)
    exact = helpers.check_target_scope_input(record)
    assert fast is not None and fast.as_dict() == exact.as_dict()
    assert list(fast.missing) == js_sorted(set(original) - set(rewritten))


def test_a_baseline_cannot_be_changed(tmp_path):
    baseline = helpers.revise_baseline(
        tmp_path / "b.json",
        {"S1": "café"},
        reason="First",
        retained_dir=tmp_path / "r",
        revised_on="2026-01-01",
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        baseline.version = 2  # type: ignore[misc]
    assert baseline == helpers.load_baseline(tmp_path / "b.json")
    # The file is reviewed by people: two-space indents, characters as themselves, a final newline.
    assert (tmp_path / "b.json").read_text(encoding="utf-8") == (
        '{\n  "version": 1,\n  "revised_on": "2026-01-01",\n  "reason": "First",\n'
        '  "answers": {\n    "S1": "café"\n  }\n}\n'
    )


def test_a_revision_makes_the_folders_it_needs(tmp_path):
    path, retained = tmp_path / "a" / "b" / "baseline.json", tmp_path / "c" / "d"
    helpers.revise_baseline(path, {"S1": "R"}, reason="First", retained_dir=retained, revised_on="2026-01-01")
    helpers.revise_baseline(
        path, {"S1": "S"}, reason="Second", retained_dir=retained, revised_on="2026-01-02"
    )
    assert helpers.load_baseline(path).version == 2
    assert sorted(p.name for p in retained.iterdir()) == ["v1.json"]


def test_retained_evidence_written_by_a_racing_writer_is_never_overwritten(tmp_path, monkeypatch):
    """Another writer may retain v1 between the check for it and the write: the write itself refuses."""
    from pathlib import Path

    from helpers.core.errors import BaselineError

    path, retained = tmp_path / "b.json", tmp_path / "r"
    helpers.revise_baseline(path, {"S1": "R"}, reason="First", retained_dir=retained, revised_on="2026-01-01")
    keep = retained / "v1.json"
    keep.parent.mkdir()
    keep.write_text("the other writer's copy", encoding="utf-8")
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda self: False if self == keep else real_exists(self))
    with pytest.raises(BaselineError, match="already exists; retained evidence is never overwritten"):
        helpers.revise_baseline(path, {"S1": "S"}, reason="Second", retained_dir=retained)
    assert keep.read_text(encoding="utf-8") == "the other writer's copy"
    assert helpers.load_baseline(path).version == 1
