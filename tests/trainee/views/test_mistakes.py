"""Typical wrong answers, graded live (``helpers/trainee/views/mistakes.py``): each differs in one place and is wrong."""

from __future__ import annotations

from dataclasses import replace

import pytest

from helpers.trainee.answers import Answer, correct_answer
from helpers.trainee.cases.filled import filled_cases, get_case
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.grading import grade
from helpers.trainee.views.mistakes import EXTRA_CASES, graded_for, graded_mistakes, typical_mistakes


def test_the_mistakes_on_a_sentinel_case_each_change_one_thing() -> None:
    case = get_case("sentinel-missing")
    right = correct_answer(case)
    found = typical_mistakes(case)
    assert [m.label for m in found] == [
        "Left everything unset",
        "Left out the only ID in `missing`",
        "Also ticked `S1` in `missing`",
        "Also ticked `S1` in `changed`",
        "Also ticked `S2` in `changed`",
        "Set `intact` the wrong way",
        "Refused the input although the check runs",
        "Picked a reason that does not decide it",
    ]
    assert found[0].answer == Answer("sentinels")
    assert found[1].answer == replace(right, missing=frozenset())
    assert found[5].answer == replace(right, flag=True) and found[6].answer == replace(right, hold=True)


@pytest.mark.parametrize(
    "case",
    [*filled_cases(), *(generate(rule, 3) for rule in sorted(GENERATORS))],
    ids=lambda case: case.id,
)
def test_every_typical_mistake_is_graded_wrong(case) -> None:
    for mistake in typical_mistakes(case):
        assert mistake.answer != correct_answer(case), mistake.label
        assert not grade(case, mistake.answer, ask_reason=True).correct, mistake.label


def test_a_held_case_has_running_the_check_as_its_mistake() -> None:
    held = next(generate(rule, 0) for rule in GENERATORS if correct_answer(generate(rule, 0)).hold)
    labels = [m.label for m in typical_mistakes(held)]
    assert labels[1] in (
        "Ran the check instead of holding the input",
        "Ran the check instead of refusing the input",
    )
    assert not any(label.startswith("Also ticked") for label in labels)


def test_the_graded_table_shows_each_answer_its_feedback_and_its_hints() -> None:
    block = graded_mistakes([get_case("lost-comparison")])
    first = block.text.split("\nlost-comparison: ")[0].splitlines()
    assert first[:4] == [
        "lost-comparison: Left everything unset",
        '  answer: {"missing":[],"added":[],"preserved":null} · reason (not picked)',
        "  ✘ Not yet: 3 things to fix.",
        "  - `missing` is incomplete: one original target is not in the rewrite · rule ts-lost",
    ]
    assert first[-1].startswith("  Hint 3 of 3, the rule that decides this case: ts-lost.")
    assert block.html.count('<tr><th scope="row">') == len(typical_mistakes(get_case("lost-comparison")))


def test_a_checks_tables_fold_every_case_after_the_first() -> None:
    block = graded_for("sentinels")
    shown = [case.id for case in filled_cases("sentinels")] + list(EXTRA_CASES["sentinels"])
    assert block.html.count('role="region"') == len(shown)
    assert block.html.count("<details><summary>Wrong answers to ") == len(shown) - 1
    assert f"<summary>Wrong answers to {shown[0]}" not in block.html
