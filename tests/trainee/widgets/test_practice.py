"""The practice drill widget, driven with no front end: whole drills, scores, summaries, files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import ipywidgets as w
import pytest

from helpers.core.errors import InvalidInputError
from helpers.trainee.grading import Answer, correct_answer
from helpers.trainee.practice import (
    DEFAULT_DRILL_SEED,
    DEFAULT_PROGRESS_FILE,
    PracticeCase,
    drill_order,
    load_rules,
    practice_cases,
    rule_scores,
)
from helpers.trainee.progress.files import load_trainee_progress
from helpers.trainee.widgets.practice import PracticeDrill

CASES = practice_cases()
RULES = load_rules()
MARKUP = ("<img src=x onerror=alert(1)>", "<b>bold</b>")


@pytest.fixture(autouse=True)
def _scratch_folder(tmp_path, monkeypatch):
    """Every test runs in its own empty folder, so a default-path save can't touch the project."""
    monkeypatch.chdir(tmp_path)


def _text(shown: str) -> str:
    """The text of an HTML value, tags dropped."""
    return re.sub(r"<[^>]+>", "", shown)


def work(drill: PracticeDrill, answer: Answer) -> None:
    """Answer the case on show through its controls and press Check."""
    assert drill.exercise is not None
    drill.exercise.set_answer(answer)
    drill.exercise.check_button.click()


def blank(case: PracticeCase) -> Answer:
    """A wrong answer with every part set (Check grades only those): no IDs, `false`, the right reason."""
    return Answer(case.check, flag=False, reason=correct_answer(case).reason)


def run_drill(drill: PracticeDrill, wrong: frozenset[str] = frozenset()) -> list[str]:
    """Work the whole drill: right answers except blank ones for ids in ``wrong``; returns ids seen."""
    seen = []
    while drill.current is not None:
        case = drill.current
        seen.append(case.id)
        work(drill, blank(case) if case.id in wrong else correct_answer(case))
        drill.next_button.click()
    return seen


def all_widgets(widget: w.Widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from all_widgets(child)


def all_html(drill: PracticeDrill) -> list[str]:
    return [x.value for x in all_widgets(drill.widget) if isinstance(x, w.HTML)]


def test_a_full_drill_of_right_answers_scores_one_hundred_percent():
    drill = PracticeDrill()
    seen = run_drill(drill)
    assert seen == [case.id for case in drill_order(CASES, DEFAULT_DRILL_SEED)]
    assert drill.progress.finished and drill.progress.percent() == 100
    assert drill.bar.value == drill.bar.max == len(CASES)
    assert f"{len(CASES)} of {len(CASES)} correct (100%)" in drill.score.value
    assert "No rule missed." in drill.summary_view.value
    assert "Drill finished" in drill.case_view.value
    assert drill.exercise is None and drill.slot.children == ()
    assert drill.next_button.disabled


def test_wrong_answers_are_reported_per_rule_with_case_and_section():
    drill = PracticeDrill()
    run_drill(drill, frozenset({"query-gains-a-condition", "lookalike-ids-all-missing"}))
    summary = drill.summary_view.value
    assert f"{len(CASES) - 2} of {len(CASES)} correct (95%)" in summary
    for rule_id in ("ts-order", "ts-query-unvalidated", "sk-all-missing"):
        assert f"<code class='eic-id'>{rule_id}</code><br>" in summary
    assert "<code>query-gains-a-condition</code> Same targets, but the query gains a condition" in summary
    assert 'href="02_target_scope.ipynb#A-pass-covers-only-the-declared-targets"' in summary
    assert "03_sentinel_answer_key.ipynb › A failing check holds the key" in summary
    missed = {s.rule.id for s in rule_scores(drill.progress, CASES, RULES) if s.missed}
    # A blank answer to a key that keeps no sentinel counts against sk-all-missing, its keyed rule, alone.
    assert missed == {"ts-order", "ts-query-unvalidated", "sk-all-missing"}


def test_the_score_and_bar_follow_each_check():
    drill = PracticeDrill(size=3)
    assert _text(drill.score.value) == "Score: nothing checked yet · 0 of 3 cases done"
    assert drill.next_button.disabled, "no moving on before the case is checked"
    work(drill, Answer(drill.current.check))  # nothing set: it says what is unset and scores nothing
    assert drill.bar.value == 0 and "Still unset" in drill.exercise.feedback.value
    assert drill.next_button.disabled and drill.scored.value == ""
    work(drill, blank(drill.current))
    assert drill.bar.value == 1
    assert _text(drill.score.value) == "Score: 0 of 1 correct (0%) · 1 of 3 cases done"
    assert "✘ Scored: missed." in drill.scored.value
    assert not drill.next_button.disabled
    drill.next_button.click()
    work(drill, correct_answer(drill.current))
    assert _text(drill.score.value) == "Score: 1 of 2 correct (50%) · 2 of 3 cases done"
    assert "✔ Scored: correct first try, unaided." in drill.scored.value


def test_a_hinted_right_answer_is_kept_but_does_not_score_correct():
    drill = PracticeDrill(size=2)
    drill.exercise.hint_button.click()
    assert "Hint 1 of 3" in drill.exercise.hint_view.value
    work(drill, correct_answer(drill.current))
    assert "Fully correct" in drill.exercise.feedback.value
    assert "helped by a hint" in drill.scored.value
    (attempt,) = drill.progress.attempts.values()
    assert attempt.outcome == "helped" and attempt.hints == 1 and not attempt.correct
    assert drill.progress.correct == 0


def test_the_case_is_shown_by_number_and_its_rule_named_after_the_check():
    drill = PracticeDrill(size=2)
    case = drill.current
    shown = drill.case_view.value + drill.describe()
    assert "Case 1 of 2" in shown and case.id not in shown and case.title not in shown
    work(drill, correct_answer(case))
    assert f"<code>{case.rules[0]}</code>" in drill.scored.value


def test_only_the_first_check_counts_but_feedback_keeps_coming():
    drill = PracticeDrill(size=2)
    case = drill.current
    work(drill, blank(case))
    work(drill, correct_answer(case))
    assert "Fully correct" in drill.exercise.feedback.value
    assert "does not change your score" in drill.scored.value
    assert drill.progress.correct == 0 and drill.progress.done == 1


def test_the_controls_of_a_case_no_longer_shown_cannot_answer_the_next_one():
    drill = PracticeDrill(size=2)
    old = drill.area.inputs
    work(drill, correct_answer(drill.current))
    drill.next_button.click()
    old.set_answer(correct_answer(drill.current))  # the old case's controls, no longer on show
    drill.area.check_button.click()  # the case on show has nothing set: nothing is scored
    assert drill.progress.done == 1 and "Still unset" in drill.area.feedback.value


def test_progress_saved_and_loaded_through_the_buttons(tmp_path):
    drill = PracticeDrill()
    for _ in range(4):
        work(drill, correct_answer(drill.current) if drill.progress.done % 2 else blank(drill.current))
        drill.next_button.click()
    drill.path.value = str(tmp_path / "mine.json")
    drill.save_button.click()
    assert "Saved 4 checked cases" in drill.file_status.value
    resumed = PracticeDrill()
    resumed.path.value = str(tmp_path / "mine.json")
    resumed.load_button.click()
    assert "Loaded 4 checked cases" in resumed.file_status.value
    assert resumed.progress == drill.progress
    assert resumed.current.key == drill.current.key
    assert resumed.score.value == drill.score.value and resumed.bar.value == 4


def test_save_uses_the_default_path_in_the_working_folder(tmp_path):
    drill = PracticeDrill(size=2)
    assert drill.path.value == DEFAULT_PROGRESS_FILE
    drill.save_button.click()
    assert load_trainee_progress(tmp_path / DEFAULT_PROGRESS_FILE).course == drill.progress


def test_nothing_is_written_until_save_is_pressed(tmp_path):
    drill = PracticeDrill()
    run_drill(drill, frozenset({CASES[0].id}))
    drill.restart_button.click()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content", [b"not json", b'{"format": "something else"}', b"\xff"])
def test_a_corrupt_or_foreign_file_is_refused_by_both_buttons_and_left_untouched(tmp_path, content):
    path = tmp_path / "progress.json"
    path.write_bytes(content)
    drill = PracticeDrill()
    work(drill, correct_answer(drill.current))
    before = drill.progress.to_data()
    drill.path.value = str(path)
    drill.load_button.click()
    assert "Not loaded:" in drill.file_status.value and "eic-error" in drill.file_status.value
    assert drill.progress.to_data() == before
    drill.save_button.click()
    assert "Not saved:" in drill.file_status.value
    assert "it was not overwritten, so choose another path" in drill.file_status.value
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")] == ["progress.json"]


def test_a_full_drill_file_does_not_load_into_a_one_check_drill(tmp_path):
    full = PracticeDrill()
    full.path.value = str(tmp_path / "full.json")
    full.save_button.click()
    one = PracticeDrill(check="sentinels")
    one.path.value = full.path.value
    one.load_button.click()
    assert "which is not a practice case here" in one.file_status.value


def test_a_one_check_drill_holds_only_that_check():
    drill = PracticeDrill(check="target-scope", seed=7)
    seen = run_drill(drill)
    assert sorted(seen) == sorted(case.id for case in practice_cases("target-scope"))
    assert "sk-" not in drill.summary_view.value


def test_an_unknown_check_or_an_empty_drill_is_refused():
    with pytest.raises(InvalidInputError, match='check is "target_scope"'):
        PracticeDrill(check="target_scope")
    with pytest.raises(InvalidInputError, match="at least one practice case"):
        PracticeDrill(cases=[])


def test_start_again_clears_the_score_and_returns_to_the_first_case():
    drill = PracticeDrill(size=3)
    first = drill.current.key
    run_drill(drill)
    drill.restart_button.click()
    assert drill.current.key == first and drill.progress.done == 0
    assert drill.summary_view.value == "" and drill.bar.value == 0


@pytest.mark.parametrize("case_id", ["markup-target-ids", "markup-sentinel-ids"])
def test_markup_in_ids_is_shown_as_text(case_id):
    case = next(c for c in CASES if c.id == case_id)
    drill = PracticeDrill(cases=[case])
    work(drill, Answer(case.check, flag=True))
    drill.exercise.reveal_button.click()
    page = "".join(all_html(drill))
    for markup in MARKUP:
        assert markup not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    drill.next_button.click()
    assert MARKUP[0] not in drill.summary_view.value


def test_markup_in_a_file_error_is_escaped(tmp_path):
    folder = tmp_path / "<b>bold</b>"
    drill = PracticeDrill(size=1)
    drill.path.value = str(folder / "p.json")
    drill.save_button.click()
    assert "<b>bold</b>" not in drill.file_status.value
    assert "&lt;b&gt;bold&lt;/b&gt;" in drill.file_status.value


def test_css_classes_for_browser_tests():
    drill = PracticeDrill(size=1)
    classes = {c for x in all_widgets(drill.widget) for c in x._dom_classes}
    assert {
        "eic-practice",
        "eic-next",
        "eic-summary",
        "eic-score",
        "eic-progress-bar",
        "eic-save",
        "eic-load",
        "eic-progress-path",
        "eic-file-status",
        "eic-check",
        "eic-hint",
        "eic-show-answer",
        "eic-restart",
    } <= classes
    buttons = [x for x in all_widgets(drill.widget) if isinstance(x, w.Button)]
    assert all(b.layout.width == "auto" for b in buttons)


def test_the_text_picture_describes_the_live_drill():
    drill = PracticeDrill(size=2)
    first = drill.describe()
    assert first.splitlines()[:3] == [
        f"Practice drill: seed {DEFAULT_DRILL_SEED}, 2 cases",
        "  Score: nothing checked yet · 0 of 2 cases done",
        f"  Case 1 of 2 ({drill.current.check})",
    ]
    assert drill._repr_mimebundle_()["text/plain"] == first
    run_drill(drill)
    assert "  Drill finished." in drill.describe()


def test_drill_takes_its_own_cases_and_rules():
    cases = [c for c in CASES if c.check == "sentinels"][:2]
    drill = PracticeDrill(cases=cases, rules=RULES, seed=1)
    assert sorted(drill.progress.order) == sorted(c.key for c in cases)
    assert all(isinstance(c, PracticeCase) for c in drill.cases)


def test_a_saved_file_is_plain_local_json(tmp_path):
    drill = PracticeDrill(size=2)
    work(drill, correct_answer(drill.current))
    drill.path.value = str(tmp_path / "p.json")
    drill.save_button.click()
    data = json.loads(Path(drill.path.value).read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == ("eval-integrity-practice-progress", 3)
    assert list(data["course"]) == ["seed", "order", "attempts"]
    assert data["course"]["attempts"] == [
        {"case": drill.current.key, "correct": True, "rules_missed": [], "outcome": "correct", "hints": 0}
    ]


@pytest.mark.parametrize(
    "other", [{"seed": 2}, {"seed": 1}], ids=["another seed", "a fresh drill, same seed"]
)
def test_save_never_overwrites_other_progress(tmp_path, other):
    path = tmp_path / "prog.json"
    scored = PracticeDrill(seed=1, path=path)
    for _ in range(5):
        work(scored, correct_answer(scored.current))
        scored.next_button.click()
    scored.save_button.click()
    assert "Saved 5 checked cases" in scored.file_status.value
    before = path.read_bytes()
    fresh = PracticeDrill(**other, path=path)
    assert fresh.save() is None
    assert "Not saved:" in fresh.file_status.value and "Saved 0" not in fresh.file_status.value
    assert "holds your earlier progress (5 set-course cases checked (seed 1), from another drill)" in (
        fresh.file_status.value
    )
    assert "Load it to carry on" in fresh.file_status.value
    assert path.read_bytes() == before, "file left untouched"
    fresh.load_button.click()
    assert "Loaded 5 checked cases" in fresh.file_status.value
    work(fresh, correct_answer(fresh.current))
    fresh.save_button.click()
    assert "Saved 6 checked cases" in fresh.file_status.value
    assert load_trainee_progress(path).course.done == 6


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("a\x00b.json", "a\\x00b.json"),
        ("\ud800.json", "\\ud800.json"),
        ("x" * 300 + ".json", "x" * 300 + ".json"),
    ],
    ids=["null character", "lone surrogate", "name too long"],
)
def test_an_odd_path_is_refused_with_a_message_not_a_traceback(tmp_path, path, shown):
    drill = PracticeDrill(size=2, path=path)
    assert drill.save() is None
    assert (
        "Not saved:" in drill.file_status.value and f"{shown}: cannot be written" in drill.file_status.value
    )
    assert drill.load() is None
    assert "Not loaded:" in drill.file_status.value and f"{shown}: cannot be read" in drill.file_status.value
    assert drill.file_status.value.isascii()
    assert list(tmp_path.iterdir()) == []


def test_scores_are_rounded_not_truncated():
    """2 of 3 is 67%, 1 of 3 is 33%, 1 of 8 is 13% (half up)."""
    from helpers.trainee.drill.course import Attempt, Progress

    def progress(right: int, done: int) -> Progress:
        keys = tuple(f"k{i}" for i in range(done))
        return Progress(1, keys, {k: Attempt(k, i < right) for i, k in enumerate(keys)})

    assert [progress(r, d).percent() for r, d in ((2, 3), (1, 3), (1, 8), (0, 1), (3, 3))] == [
        67,
        33,
        13,
        0,
        100,
    ]
