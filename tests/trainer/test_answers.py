"""A check-out's answers: the file's name and object, writing it once, and reading one row back."""

from __future__ import annotations

import json
import math
import os
import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import CheckoutFileError
from helpers.trainee.grading import Answer
from helpers.trainer.answers import answers_data, answers_file_name, parse_answer, write_answers
from helpers.trainer.checkout_format import ANSWERS_FORMAT, VERSION

PAPER = {
    "paper_id": "p-1",
    "trainee": "Asha",
    "cases": [
        {"label": "Case 1", "check": "sentinels"},
        {"label": "Case 2", "check": "target-scope"},
        {"label": "Case 3", "check": "sentinels"},
    ],
}


def test_the_default_name_keeps_only_safe_characters_of_the_paper_id() -> None:
    assert answers_file_name({"paper_id": "ab12-x_y"}) == "answers-ab12-x_y.json"
    assert answers_file_name({"paper_id": "../é/evil id"}) == "answers-evilid.json"
    assert answers_file_name({}) == "answers-paper.json"
    assert answers_file_name({"paper_id": "x" * 60}) == f"answers-{'x' * 40}.json"


@given(st.text(max_size=80))
def test_any_paper_id_gives_a_plain_file_name(paper_id) -> None:
    name = answers_file_name({"paper_id": paper_id})
    assert name.startswith("answers-") and name.endswith(".json") and len(name) <= 53
    assert all(c.isascii() and (c.isalnum() or c in "-_.") for c in name)


def test_the_object_holds_each_answered_case_in_the_papers_order_with_its_checks_fields() -> None:
    given_answers = {
        "Case 3": (
            Answer("sentinels", frozenset({"S2", "S1"}), frozenset(), True, False, "sk-changed"),
            "accept",
        ),
        "Case 2": (Answer("target-scope", frozenset(), frozenset({"t9"}), False, True, None), None),
    }
    data = answers_data(PAPER, given_answers)
    assert {k: data[k] for k in ("format", "version", "paper_id", "trainee")} == {
        "format": ANSWERS_FORMAT,
        "version": VERSION,
        "paper_id": "p-1",
        "trainee": "Asha",
    }
    assert data["answers"] == [
        {
            "label": "Case 2",
            "missing": [],
            "added": ["t9"],
            "preserved": False,
            "hold": True,
            "reason": None,
            "action": None,
        },
        {
            "label": "Case 3",
            "missing": ["S1", "S2"],
            "changed": [],
            "intact": True,
            "hold": False,
            "reason": "sk-changed",
            "action": "accept",
        },
    ]
    row = data["answers"][1]
    assert parse_answer(row, "sentinels", "answers[1]", "a.json") == given_answers["Case 3"]


def test_a_row_with_the_wrong_fields_or_no_finite_seconds_is_refused() -> None:
    row = answers_data(PAPER, {"Case 1": (Answer("sentinels"), None)})["answers"][0]
    assert parse_answer({**row, "seconds": 12.5}, "sentinels", "answers[0]", "a.json") == (
        Answer("sentinels"),
        None,
    )
    with pytest.raises(CheckoutFileError, match=r"answers\[0\] must have the fields \['action', 'added'"):
        parse_answer(row, "target-scope", "answers[0]", "a.json")
    with pytest.raises(CheckoutFileError, match=r"must have the fields"):
        parse_answer({**row, "extra": 1}, "sentinels", "answers[0]", "a.json")
    with pytest.raises(
        CheckoutFileError, match=r"answers\[0\]\.seconds is NaN, expected a number of seconds"
    ):
        parse_answer({**row, "seconds": math.nan}, "sentinels", "answers[0]", "a.json")


def test_the_file_is_written_once_unless_overwritten_and_with_the_mode_asked(tmp_path) -> None:
    path = tmp_path / "answers.json"
    assert write_answers({"a": "é"}, path, mode=0o600) == path
    assert path.read_text(encoding="utf-8") == '{\n "a": "é"\n}\n'
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(CheckoutFileError, match="already exists; nothing was written") as refused:
        write_answers({"a": 2}, path)
    assert refused.value.path == str(path) and json.loads(path.read_text(encoding="utf-8")) == {"a": "é"}
    write_answers({"a": 2}, path, overwrite=True)
    assert json.loads(path.read_text(encoding="utf-8")) == {"a": 2}
    with pytest.raises(CheckoutFileError, match="cannot be written"):
        write_answers({}, tmp_path / "no-folder" / "answers.json")
