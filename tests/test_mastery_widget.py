"""Feedback that doesn't hand over the answer, the hint ladder, the reason, and the mastery drill.

Driven with no front end, through ``.value`` and ``.click()``.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import html
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import helpers
from helpers.core.chardiff import visible_id
from helpers.teach.cases import Case
from helpers.teach.generators import GENERATORS, generate
from helpers.teach.grading import (
    DISTRACTORS,
    Answer,
    answer_fields,
    candidate_ids,
    correct_answer,
    decisive_rules,
    grade,
    hints,
    reason_choices,
)
from helpers.teach.practice_cases import practice_cases
from helpers.teach.progress_v2 import load_trainee_progress
from helpers.teach.rules import load_rules
from helpers.widgets import CaseExercise, DataCheckPanel, MasteryDrill, PracticeDrill
from helpers.widgets.lite import LITE_SAVE_NOTE

RULES = load_rules()
RULE_BY_ID = {rule.id: rule for rule in RULES}
GENERATED = [generate(rule, seed) for rule in GENERATORS for seed in (0, 1, 7)]
CASES: list[Case] = [*helpers.filled_cases(), *practice_cases(), *GENERATED]


def _unmarked(case: Case, answer: Answer) -> list[str]:
    marked = answer.missing | answer.second
    return [i for i in candidate_ids(case) if i not in marked]


def _without_quotes(text: str) -> str:
    """Feedback text without its backticked fields and IDs (the trainee's own marks)."""
    return re.sub(r"`[^`]*`", "", text)


def _assert_leak_free(case: Case, answer: Answer, messages: list[str], shown: str) -> None:
    marked_shown = [visible_id(i) for i in answer.missing | answer.second]
    for case_id in _unmarked(case, answer):
        seen = visible_id(case_id)
        for message in messages:
            assert f"`{seen}`" not in message, (case.id, case_id, message)
            bare = _without_quotes(message)
            if len(seen) >= 4 and not any(seen in m for m in marked_shown):
                assert seen not in bare, (case.id, case_id, message)
        assert f'<code class="eic-id">{html.escape(seen, quote=True)}</code>' not in shown, (case.id, case_id)
    for message in messages:
        # No expected flag value: never "true"/"false", never "should be".
        assert not re.search(r"\b(true|false|should be)\b", _without_quotes(message), re.IGNORECASE), message


@st.composite
def case_and_answer(draw: st.DrawFn) -> tuple[Case, Answer]:
    case = draw(st.sampled_from(CASES))
    ids = candidate_ids(case)
    pick = st.frozensets(st.sampled_from(ids), max_size=len(ids)) if ids else st.just(frozenset())
    choices = [rule.id for rule in reason_choices(case, RULES)]
    return case, Answer(
        case.check,
        missing=draw(pick),
        second=draw(pick),
        flag=draw(st.sampled_from([True, False, None])),
        hold=draw(st.booleans()),
        reason=draw(st.sampled_from([None, *choices])),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case_and_answer())
def test_feedback_before_any_hint_names_no_unmarked_id_and_no_expected_flag(drawn) -> None:
    case, answer = drawn
    exercise = CaseExercise(case, rules=RULES)
    exercise.set_answer(answer)
    result = exercise.check()
    assert exercise.hints_used == 0 and not exercise.revealed
    _assert_leak_free(case, answer, [m.message for m in result.mistakes], exercise.feedback.value)
    if not result.correct:
        assert "✘" in exercise.feedback.value and "Not yet" in exercise.feedback.value
        for mistake in result.mistakes:
            assert mistake.message.startswith(f"`{mistake.field}`"), mistake.message  # names the field
            assert mistake.rule in RULE_BY_ID  # and the rule to apply


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.check}/{c.id}")
def test_every_case_blank_and_right_answers(case: Case) -> None:
    blank = Answer(case.check)
    result = grade(case, blank, ask_reason=True, rules=RULES)
    assert not result.correct
    _assert_leak_free(case, blank, [m.message for m in result.mistakes], "")
    assert grade(case, correct_answer(case), ask_reason=True, rules=RULES).correct


@pytest.mark.parametrize("case", CASES[:6] + GENERATED[::5], ids=lambda c: f"{c.check}/{c.id}")
def test_the_hint_ladder_goes_rule_then_where_then_the_specific_fix(case: Case) -> None:
    answer = Answer(case.check)
    ladder = hints(case, answer, ask_reason=True, rules=RULES)
    assert [rung.split(",")[0] for rung in ladder] == ["Hint 1 of 3", "Hint 2 of 3", "Hint 3 of 3"]
    first = grade(case, answer, ask_reason=True, rules=RULES).mistakes[0]
    assert first.rule in ladder[0] and RULE_BY_ID[first.rule].statement in ladder[0]
    assert "where to look" in ladder[1] and f"`{first.field}`" in ladder[1]
    _assert_leak_free(case, answer, ladder[:2], "")
    assert "specific fix" in ladder[2]


def test_hint_three_names_the_id_and_the_widget_then_points_to_the_worked_answer() -> None:
    case = helpers.get_case("lost-comparison")
    exercise = CaseExercise(case)
    exercise.flag.value = False
    shown = [exercise.hint() for _ in range(3)]
    assert shown[0].startswith("Hint 1 of 3, the rule: ts-lost")
    assert "refresher" not in shown[0] + shown[1]
    assert "`refresher`" in shown[2]
    assert exercise.hints_used == 3 and exercise.hint_button.disabled
    assert "Next comes the worked answer" in exercise.hint_view.value
    assert 'role="status"' in exercise.hint_view.value
    # The reveal stays free in notebooks 02 and 03.
    exercise.reveal_button.click()
    assert exercise.revealed and exercise.reveal.value


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.check}/{c.id}")
def test_the_reason_offers_the_right_rules_and_distractors_from_the_same_check(case: Case) -> None:
    choices = reason_choices(case, RULES)
    right = set(decisive_rules(case))
    assert right and right <= {rule.id for rule in choices}
    assert all(rule.check == case.check for rule in choices)
    assert len([r for r in choices if r.id not in right]) == DISTRACTORS
    assert reason_choices(case, RULES) == choices  # deterministic


def test_a_wrong_reason_gets_one_sentence_on_why_that_rule_does_not_apply() -> None:
    case = helpers.get_case("reordered-targets")
    exercise = CaseExercise(case)
    wrong = next(r for r in exercise.choices if r.id != "ts-order")
    exercise.set_answer(Answer(case.check, flag=True, reason=wrong.id))
    result = exercise.check()
    assert not result.correct
    (mistake,) = result.mistakes
    assert mistake.field == "reason" and mistake.rule == "ts-order"
    assert wrong.not_here and wrong.not_here in mistake.message
    assert "ts-order" not in mistake.message
    exercise.reason.value = "ts-order"
    assert exercise.check().correct
    assert "✔ Fully correct" in exercise.feedback.value


def test_every_rule_has_a_not_here_sentence() -> None:
    for rule in RULES:
        assert rule.not_here.endswith(".") and rule.not_here.count(". ") == 0, rule.id


# --- the mastery drill ---------------------------------------------------------------


def _right(drill: MasteryDrill) -> None:
    assert drill.exercise is not None and drill.current is not None
    drill.exercise.set_answer(correct_answer(drill.current))
    drill.exercise.check_button.click()
    drill.next_button.click()


def test_the_drill_runs_to_mastery_and_shows_a_completion_summary() -> None:
    drill = MasteryDrill(check="sentinels")
    assert "sk-changed □□□ 0/3" in drill.describe()
    while not drill.mastery.complete:
        _right(drill)
    assert drill.mastery.step == 3 * len(drill.rules)
    assert drill.exercise is None
    summary = drill.summary_view.value
    assert "✔ Every rule mastered." in summary
    for words in ("Completed on", "Cases worked: 27", "Hints used: 0", "Reveals: 0"):
        assert words in summary
    assert "sk-changed ■■■ ✔ mastered" in drill.describe()
    assert "27 cases worked, 0 hints used, 0 reveals" in drill.describe()


def test_a_wrong_first_try_then_a_right_one_is_a_miss_and_the_bar_moves_on_the_next() -> None:
    drill = MasteryDrill()
    rule = drill.current_rule
    assert drill.exercise is not None and drill.current is not None
    drill.exercise.check_button.click()  # blank: wrong
    assert drill.mastery.states[rule].streak == 0 and drill.mastery.attempts[-1].correct is False
    assert "✘ Scored: missed." in drill.scored_view.value
    drill.exercise.set_answer(correct_answer(drill.current))
    drill.exercise.check_button.click()
    assert drill.mastery.step == 1  # only the first check counts
    assert "already scored" in drill.scored_view.value
    before = drill.bar_lines()
    drill.next_button.click()
    _right(drill)
    assert drill.bar_lines() != before
    assert f"{drill.mastery.attempts[-1].rule} ■□□ 1/3" in drill.describe()


def test_a_reveal_before_a_correct_check_scores_a_miss_and_hints_are_recorded() -> None:
    drill = MasteryDrill()
    assert drill.exercise is not None and drill.current is not None
    drill.exercise.hint_button.click()
    drill.exercise.hint_button.click()
    drill.exercise.reveal_button.click()
    attempt = drill.mastery.attempts[-1]
    assert attempt.revealed and not attempt.correct and attempt.hints == 2
    assert "revealed the worked answer before a correct check" in drill.scored_view.value
    drill.exercise.set_answer(correct_answer(drill.current))
    drill.exercise.check_button.click()
    assert drill.mastery.step == 1 and not drill.mastery.attempts[-1].correct
    drill.next_button.click()
    drill.exercise.hint_button.click()
    drill.exercise.set_answer(correct_answer(drill.current))
    drill.exercise.check_button.click()
    assert drill.mastery.attempts[-1].correct and drill.mastery.attempts[-1].hints == 1


def test_save_load_start_again_overwrite_and_new_attempt(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    drill = MasteryDrill(path=path, trainee="Ada")
    _right(drill)
    _right(drill)
    assert drill.save() == path
    assert "✔ Saved 2 cases worked" in drill.file_status.value
    assert load_trainee_progress(path).mastery.step == 2

    other = MasteryDrill(path=path)
    assert other.load() is not None
    assert other.mastery.step == 2 and other.trainee.value == "Ada"
    assert "✔ Loaded 2 cases worked" in other.file_status.value

    drill.restart_button.click()
    assert drill.mastery.step == 0
    assert drill.save() is None
    assert (
        "✘ Not saved" in drill.file_status.value
        and "another drill&#x27;s progress" in drill.file_status.value
    )
    assert "press Save as a new attempt" in drill.file_status.value
    assert load_trainee_progress(path).mastery.step == 2  # left as it was
    drill.new_attempt_button.click()
    assert Path(drill.path.value) == tmp_path / "p-2.json"
    assert load_trainee_progress(tmp_path / "p-2.json").mastery.step == 0
    drill.path.value = str(path)
    drill.overwrite.value = True
    assert drill.save() == path
    assert load_trainee_progress(path).mastery.step == 0
    assert drill.overwrite.value is False  # consent is for one save only


def test_a_missing_or_damaged_file_is_refused_with_its_message(tmp_path: Path) -> None:
    drill = MasteryDrill(path=tmp_path / "none.json")
    assert drill.load() is None and "does not exist" in drill.file_status.value
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1, "a": 2}', encoding="utf-8")
    drill.path.value = str(bad)
    assert drill.load() is None and 'role="alert"' in drill.file_status.value


def _upload(transfer, name: str, content: bytes) -> None:
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    item = {
        "name": name,
        "type": "",
        "size": len(content),
        "content": memoryview(content),
        "last_modified": when,
    }
    transfer.upload.value = (item,)


@pytest.mark.parametrize("make", [MasteryDrill, PracticeDrill])
def test_download_and_upload_progress(make) -> None:
    drill = make()
    if isinstance(drill, MasteryDrill):
        _right(drill)
    else:
        assert drill.exercise is not None and drill.current is not None
        drill.exercise.set_answer(correct_answer(drill.current))
        drill.exercise.check_button.click()
    link = drill.transfer.download.value
    assert 'download="' in link and "Download progress (" in link
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1)
    data = json.loads(base64.b64decode(payload))
    fresh = make()
    _upload(fresh.transfer, "mine.json", json.dumps(data).encode())
    assert "✔ Loaded 1" in fresh.file_status.value
    assert fresh.transfer.upload.value == ()
    _upload(fresh.transfer, "broken.json", b'{"format": 1, "format": 2}')
    assert "✘ Not loaded" in fresh.file_status.value and "broken.json" in fresh.file_status.value
    _upload(fresh.transfer, "other.json", b"[]")
    assert "✘ Not loaded" in fresh.file_status.value


def test_the_browser_edition_says_where_save_goes_and_to_upload_data(monkeypatch) -> None:
    assert MasteryDrill().transfer.note.value == ""
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert "clearing the site&#x27;s data loses it" in MasteryDrill().transfer.note.value
    assert html.escape(LITE_SAVE_NOTE, quote=True) in PracticeDrill().transfer.note.value
    panel = DataCheckPanel(run=False)
    assert "use the Upload buttons, not the path box" in panel.lite_note.value


def test_the_mastery_drill_text_picture_is_deterministic() -> None:
    assert MasteryDrill().describe() == MasteryDrill().describe()
    assert set(answer_fields("target-scope")) <= set(MasteryDrill().describe().replace(":", " ").split())


def test_a_reason_no_rule_has_gets_the_plain_sentence() -> None:
    from helpers.teach.grading import grade_reason

    case = helpers.get_case("lost-comparison")
    (unknown,) = grade_reason(case, "ts-retired", RULES)
    assert (
        unknown.message
        == "`reason` is wrong: ts-retired doesn't apply here. That rule does not decide this case."
    )
    silent = [dataclasses.replace(rule, not_here="") for rule in RULES]
    (plain,) = grade_reason(case, "ts-added", silent)
    assert plain.message.endswith("doesn't apply here. That rule does not decide this case.")
