"""The answer's stored form and the one scoring rule (helpers/trainee/grading.py)."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.grading import Answer, outcome_of

ids = st.frozensets(st.text(max_size=6), max_size=5)
answers = st.builds(
    Answer,
    check=st.sampled_from(["target-scope", "sentinels"]),
    missing=ids,
    second=ids,
    flag=st.sampled_from([None, True, False]),
    hold=st.booleans(),
    reason=st.one_of(st.none(), st.text(max_size=12)),
)


@given(answer=answers)
def test_an_answer_round_trips_through_its_stored_form(answer):
    data = answer.to_data()
    assert list(data) == ["check", "missing", "second", "flag", "hold", "reason"]
    assert data["missing"] == sorted(answer.missing) and data["second"] == sorted(answer.second)
    assert Answer.from_data(json.loads(json.dumps(data))) == answer


@pytest.mark.parametrize(
    ("correct", "hints", "revealed", "expected"),
    [
        (True, 0, False, "correct"),
        (True, 1, False, "helped"),
        (True, 0, True, "helped"),
        (True, 3, True, "helped"),
        (False, 0, False, "missed"),
        (False, 2, True, "missed"),
    ],
)
def test_only_a_right_unaided_check_scores_correct(correct, hints, revealed, expected):
    assert outcome_of(correct, hints=hints, revealed=revealed) == expected


def test_no_check_scores_what_happened_instead():
    assert outcome_of(None) == "skipped"
    assert outcome_of(None, unanswered="revealed") == "revealed"
    for hints, revealed in itertools.product([0, 2], [False, True]):
        assert outcome_of(None, hints=hints, revealed=revealed) == "skipped"
