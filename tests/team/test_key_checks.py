"""Two whole answer keys compared (:mod:`helpers.team.key_checks`): from files, uploads or keys already read."""

from __future__ import annotations

from helpers.core.errors import CheckInputError
from helpers.core.paths import fixtures_dir
from helpers.team.batch import check_answer_keys, check_key_files
from helpers.team.reports import key_check_json, key_check_text
from helpers.team.sources import AnswerKey, Upload

SAMPLE = fixtures_dir() / "sample_data"


def test_sample_answer_keys():
    result = check_key_files(SAMPLE / "baseline.json", SAMPLE / "proposed.jsonl")
    assert result.result.as_dict() == {"missing": ["S4"], "changed": ["S2", "S5"], "intact": False}
    assert result.exit_code == 1 and result.new_ids == 2
    text = key_check_text(result)
    assert 'changed "S2": A{+·+}' in text and 'changed "S5": [-P-]{+p+}ayroll' in text
    data = key_check_json(result)
    assert data["changed"]["first"][0] == {"id": "S2", "baseline": "A", "proposed": "A ", "diff": "A{+·+}"}
    assert data["exit_status"] == 1


def test_answer_keys_from_uploads_in_both_forms():
    result = check_key_files(
        Upload("b.jsonl", b'{"id":"S1","answer":"R"}\n'), Upload("p.json", b'{"S1":"R","C2":"A"}')
    )
    assert result.result.intact and result.exit_code == 0


def test_a_key_with_problems_is_not_checked():
    result = check_answer_keys(
        AnswerKey("b.json", "json", {"S1": "R"}),
        AnswerKey("p.jsonl", "jsonl", {}, [CheckInputError("boom")]),
    )
    assert result.result is None and result.exit_code == 4
    empty = check_answer_keys(AnswerKey("b.json", "json"), AnswerKey("p.json", "json"))
    assert empty.exit_code == 4 and "no sentinel IDs" in str(empty.errors[0])
