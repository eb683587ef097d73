"""The work-it-yourself widget, driven with no front end (the sandboxes are in test_sandbox.py)."""

from __future__ import annotations

import html
import re

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers
from helpers.core.chardiff import visible_id
from helpers.trainee.cases.filled import Case, get_case
from helpers.trainee.grading import Answer, candidate_ids, correct_answer, grade
from helpers.trainee.views import case_html
from helpers.trainee.views.case_html import (
    HIDE_SUMMARY,
    REVEAL_SUMMARY,
    details_html,
    display_json,
    reveal_html,
)
from helpers.trainee.widgets import CaseExercise
from helpers.trainee.widgets.base import view_markup, wrap_html

FILLED = helpers.filled_cases()


def _plain(shown: str) -> str:
    """HTML without the ``<wbr>`` break hints that JSON carries between items."""
    return shown.replace("<wbr>", "")


MARKUP = "<img src=x onerror=alert(1)>"


def _work(exercise: CaseExercise, answer: Answer) -> str:
    """Put ``answer`` into the controls one by one, click Check, return the feedback HTML."""
    for case_id, box in exercise.first_boxes.items():
        box.value = case_id in answer.missing
    for case_id, box in exercise.second_boxes.items():
        box.value = case_id in answer.second
    exercise.flag.value = answer.flag
    exercise.hold.value = answer.hold
    if exercise.asks_reason:
        exercise.reason.value = answer.reason
    exercise.check_button.click()
    return exercise.feedback.value


@pytest.mark.parametrize("case", FILLED, ids=lambda c: c.id)
def test_right_answer_is_graded_fully_correct(case: Case) -> None:
    exercise = CaseExercise(case)
    feedback = _work(exercise, correct_answer(case))
    assert "Fully correct" in feedback
    assert "Not yet" not in feedback


@pytest.mark.parametrize("case", FILLED, ids=lambda c: c.id)
def test_live_json_shows_the_answer_being_built(case: Case) -> None:
    exercise = CaseExercise(case)
    exercise.set_answer(correct_answer(case))
    assert html.escape(display_json(case.expected)) in _plain(exercise.live.value)


#: Each wrong answer's feedback: the field and the rule, never an ID left unmarked or a flag value.
WRONG_ANSWERS = [
    (
        "lost-comparison",
        {"flag": False},
        "missing",
        "ts-lost",
        "`missing` is incomplete: one original target is not in the rewrite.",
    ),
    (
        "lost-comparison",
        {"missing": {"refresher"}, "flag": True},
        "preserved",
        "ts-lost",
        "`preserved` is wrong: the scope is preserved exactly when nothing is missing and nothing was added",
    ),
    (
        "lost-comparison",
        {"second": {"refresher"}, "flag": False},
        "added",
        "ts-lost",
        "`added` has `refresher`, which is not in the rewrite, so it cannot be added",
    ),
    (
        "reordered-targets",
        {"missing": {"induction"}, "flag": False},
        "missing",
        "ts-order",
        "`missing` has `induction`, which is in both lists: order doesn't matter",
    ),
    (
        "reordered-targets",
        {"flag": False},
        "preserved",
        "ts-order",
        "`preserved` is wrong: the scope is preserved exactly when nothing is missing and nothing was added, and order doesn't matter",
    ),
    (
        "new-target",
        {"flag": False},
        "added",
        "ts-added",
        "`added` is incomplete: one rewrite target is not in the original.",
    ),
    (
        "new-target",
        {"missing": {"payroll"}, "second": {"payroll"}, "flag": False},
        "missing",
        "ts-added",
        "`missing` has `payroll`, which was never in the original, so it cannot be missing",
    ),
    (
        "new-target",
        {"second": {"payroll"}, "hold": True},
        "held",
        "ts-unresolved",
        "`held` is wrong: every target here is a canonical ID and nothing is unresolved, so the check can run",
    ),
    (
        "new-target",
        {"second": {"payroll"}},
        "preserved",
        "ts-added",
        "`preserved` is not set: choose it once the two lists are built",
    ),
    (
        "sentinel-mutated",
        {"flag": False},
        "changed",
        "sk-changed",
        "`changed` is incomplete: one sentinel answer is a different string in the proposed key.",
    ),
    (
        "sentinel-mutated",
        {"missing": {"S1"}, "second": {"S1"}, "flag": False},
        "missing",
        "sk-changed",
        "`missing` has `S1`, which is still in the proposed key: a sentinel that is still there is not missing",
    ),
    (
        "new-case-only",
        {"missing": {"C2"}, "flag": False},
        "missing",
        "sk-new-case",
        "`missing` has `C2`, which is not in the baseline: a non-sentinel case is allowed and is never missing",
    ),
    (
        "new-case-only",
        {"flag": False},
        "intact",
        "sk-new-case",
        "`intact` is wrong: the key is intact exactly when no sentinel is missing or changed, and an extra non-sentinel case is allowed",
    ),
    (
        "new-case-only",
        {"second": {"S1"}, "flag": True},
        "changed",
        "sk-changed",
        "`changed` has `S1`, which is present with the same answer as in the baseline",
    ),
    (
        "sentinel-missing",
        {"flag": False},
        "missing",
        "sk-missing",
        "`missing` is incomplete: one baseline sentinel is absent from the proposed key.",
    ),
    (
        "sentinel-missing",
        {"second": {"S2"}, "missing": {"S2"}, "flag": False},
        "changed",
        "sk-missing",
        "`changed` has `S2`, which is absent from the proposed key: an absent sentinel has no answer to change",
    ),
    (
        "sentinel-missing",
        {"missing": {"S2"}, "flag": True},
        "intact",
        "sk-missing",
        "`intact` is wrong: the key is intact exactly when no sentinel is missing or changed, and a key that is not intact is held before scoring",
    ),
    (
        "sentinel-missing",
        {"hold": True},
        "refused",
        "sk-empty-baseline",
        "`refused` is wrong: the baseline holds sentinels, so the check can run",
    ),
]


@pytest.mark.parametrize(("case_id", "answer", "field", "rule", "message"), WRONG_ANSWERS)
def test_each_wrong_answer_gets_its_own_feedback(case_id, answer, field, rule, message) -> None:
    case = get_case(case_id)
    built = Answer(
        case.check,
        missing=frozenset(answer.get("missing", ())),
        second=frozenset(answer.get("second", ())),
        flag=answer.get("flag"),
        hold=answer.get("hold", False),
        reason=correct_answer(case).reason,
    )
    exercise = CaseExercise(case)
    feedback = _work(exercise, built)
    found = [m for m in grade(case, built).mistakes if m.field == field]
    assert (found[0].rule, found[0].message) == (rule, message)
    if built.flag is None and not built.hold:  # the widget grades nothing while the flag is unset
        assert f"Still unset: {field} (true or false" in feedback and "Not yet" not in feedback
        return
    assert "Not yet" in feedback
    ticked = re.sub(r"`([^`]+)`", r'<code class="eic-id">\1</code>', html.escape(message))
    assert f"<li>{ticked}</li>" in feedback, feedback


@pytest.mark.parametrize("case", FILLED, ids=lambda c: c.id)
def test_reveal_works_before_any_answer_and_matches_the_details_block(case: Case) -> None:
    exercise = CaseExercise(case)
    assert exercise.reveal.value == ""
    exercise.reveal_button.click()
    shown = exercise.reveal.value
    assert html.escape(display_json(case.expected)) in _plain(shown)
    assert html.escape(case.reason) in shown
    assert html.escape(case.decision) in shown
    assert shown == wrap_html(view_markup(reveal_html(case)))
    assert reveal_html(case) in details_html(case)
    assert "<details><summary>Show the worked answer</summary>" in details_html(case)
    assert details_html(case).startswith('<div class="eic-static-reveal">')
    # One control: the same button hides the answer again, and shows it once more.
    assert exercise.reveal_button.description == HIDE_SUMMARY
    exercise.reveal_button.click()
    assert exercise.reveal.value == "" and exercise.reveal_button.description == REVEAL_SUMMARY
    exercise.reveal_button.click()
    assert exercise.reveal.value == shown


def test_changing_the_answer_clears_stale_feedback() -> None:
    case = get_case("new-target")
    exercise = CaseExercise(case)
    _work(exercise, correct_answer(case))
    assert "Fully correct" in exercise.feedback.value
    exercise.second_boxes["payroll"].value = False
    assert exercise.feedback.value == ""
    exercise.check_button.click()
    assert "one rewrite target is not in the original" in exercise.feedback.value
    assert "payroll" not in exercise.feedback.value


def test_the_widget_announces_its_feedback_and_a_table_does_not() -> None:
    case = get_case("new-target")
    exercise = CaseExercise(case)
    exercise.check_button.click()
    assert 'role="alert"' in exercise.feedback.value and "Still unset" in exercise.feedback.value
    _work(exercise, Answer(case.check, flag=False, reason=correct_answer(case).reason))
    assert 'role="status" aria-live="polite"' in exercise.feedback.value
    _work(exercise, correct_answer(case))
    assert 'role="status" aria-live="polite"' in exercise.feedback.value
    assert "role=" not in case_html.feedback_html(False, [("added", "x")], live=False)


def test_on_graded_callback_receives_each_grade() -> None:
    case = get_case("sentinel-missing")
    seen = []
    exercise = CaseExercise(case, on_graded=seen.append)
    exercise.check_button.click()  # nothing set: nothing graded
    assert seen == []
    _work(exercise, Answer(case.check, flag=False, reason=correct_answer(case).reason))
    _work(exercise, correct_answer(case))
    assert [g.correct for g in seen] == [False, True]
    assert seen[0].rules_missed == ["sk-missing"]


def test_text_repr_reflects_the_controls() -> None:
    exercise = CaseExercise(get_case("new-target"))
    exercise.second_boxes["payroll"].value = True
    exercise.flag.value = False
    text = exercise._repr_mimebundle_()["text/plain"]
    assert "added: [ ] induction  [x] payroll" in text
    assert "preserved: ( ) true  (*) false" in text
    assert "  reason:\n    ( ) " in text and "A target added (ts-added)" in text
    assert "[Check my answer] [Show the next hint] [Show the worked answer]" in text


def _markup_case(check: str) -> Case:
    if check == "target-scope":
        data = {"original": [MARKUP, "<b>x</b>"], "rewritten": ["<b>x</b>", "a&b"]}
        expected = helpers.check_target_scope(data["original"], data["rewritten"]).as_dict()
    else:
        data = {"baseline": {MARKUP: "<script>alert(2)</script>"}, "proposed": {MARKUP: "<i>", "a&b": "x"}}
        expected = helpers.check_sentinels(data["baseline"], data["proposed"]).as_dict()
    return Case(
        check,
        "markup-<case>",
        "Markup <title>",
        data,
        expected,
        "Decide <now>",
        "Because <em>reason</em> & more",
    )


@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
def test_markup_in_ids_and_text_comes_out_escaped(check: str) -> None:
    case = _markup_case(check)
    exercise = CaseExercise(case)
    exercise.set_answer(Answer(check, flag=True))
    # Mark the markup ID where it does not belong, so the feedback names it (an ID the trainee marked).
    boxes = exercise.second_boxes if check == "target-scope" else exercise.first_boxes
    assert MARKUP in candidate_ids(case)
    boxes[MARKUP].value = True
    exercise.check_button.click()
    exercise.reveal_button.click()
    for shown in (exercise.live.value, exercise.feedback.value, exercise.reveal.value, details_html(case)):
        assert "<img" not in shown
        assert "<script" not in shown
        assert "<em>" not in shown
    assert html.escape(visible_id(MARKUP)) in exercise.feedback.value
    for box in exercise.first_boxes.values():
        assert not box.description_allow_html  # shown as text, never parsed as HTML
    assert "<case>" not in exercise.widget.children[1].value


_ids = st.sampled_from(["a", "b", "c", "A", "a ", "😀", "<i>"])


@settings(max_examples=examples(150), deadline=None)
@given(
    original=st.lists(_ids, max_size=5),
    rewritten=st.lists(_ids, max_size=5),
    missing=st.frozensets(_ids, max_size=3),
    second=st.frozensets(_ids, max_size=3),
    flag=st.sampled_from([True, False, None]),
)
def test_grading_is_correct_exactly_when_the_answer_matches(
    original, rewritten, missing, second, flag
) -> None:
    data = {"original": original, "rewritten": rewritten}
    expected = helpers.check_target_scope(original, rewritten).as_dict()
    case = Case("target-scope", "generated", "Generated", data, expected, "Decide", "Reason")
    assert grade(case, correct_answer(case)).correct
    answer = Answer("target-scope", missing=missing, second=second, flag=flag)
    result = grade(case, answer)
    matches = (
        set(missing) == set(expected["missing"])
        and set(second) == set(expected["added"])
        and flag is expected["preserved"]
    )
    assert result.correct is matches
    if not matches:
        assert all(m.rule.startswith("ts-") and m.message for m in result.mistakes)


@settings(max_examples=examples(150), deadline=None)
@given(
    baseline=st.dictionaries(_ids, st.sampled_from(["R", "r", "R ", "R\u200b"]), min_size=1, max_size=4),
    proposed=st.dictionaries(_ids, st.sampled_from(["R", "r", "R ", "R\u200b"]), max_size=4),
    missing=st.frozensets(_ids, max_size=3),
    second=st.frozensets(_ids, max_size=3),
    flag=st.sampled_from([True, False, None]),
)
def test_sentinel_grading_is_correct_exactly_when_the_answer_matches(
    baseline, proposed, missing, second, flag
) -> None:
    data = {"baseline": baseline, "proposed": proposed}
    expected = helpers.check_sentinels(baseline, proposed).as_dict()
    case = Case("sentinels", "generated", "Generated", data, expected, "Decide", "Reason")
    assert grade(case, correct_answer(case)).correct
    result = grade(case, Answer("sentinels", missing=missing, second=second, flag=flag))
    matches = (
        set(missing) == set(expected["missing"])
        and set(second) == set(expected["changed"])
        and flag is expected["intact"]
    )
    assert result.correct is matches
    if not matches:
        assert all(m.rule.startswith("sk-") and m.message for m in result.mistakes)


def test_reason_options_read_name_first_and_fold_what_each_rule_says() -> None:
    """Each reason is a radio button first, then the rule's short name, then its id; what each rule
    says is folded away under the options, in the order shown (which is shuffled per case)."""
    from helpers.trainee.cases.rules import load_rules
    from helpers.trainee.html import STYLE

    by_id = {rule.id: rule for rule in load_rules()}
    exercise = CaseExercise(get_case("new-target"))
    ids = [rule_id for _text, rule_id in exercise.reason.options]
    assert [text for text, _id in exercise.reason.options] == [f"{by_id[i].name} ({i})" for i in ids]
    notes = exercise.inputs.reason_notes.value
    assert "<details" in notes and "<summary>What each reason says</summary>" in notes
    places = [notes.index(f'<code class="eic-id">{i}</code>') for i in ids]
    assert places == sorted(places)
    for rule_id in ids:
        assert html.escape(by_id[rule_id].statement, quote=True) in notes
    assert "order:-1" in STYLE  # ipywidgets puts each radio after its label's text; the style puts it first
