"""The check-out: issuing a paper and its guarded key, sitting it in the widget, grading it."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.chardiff import visible_id
from helpers.core.errors import CheckoutFileError
from helpers.teach import checkout as co
from helpers.teach.grading import Answer, answer_fields, correct_answer
from helpers.teach.rules import load_rules
from helpers.widgets import CheckoutWidget

RULE_IDS = {rule.id for rule in load_rules()}


def _right(record: dict) -> tuple[Answer, str]:
    """The fully correct answer to one key record: its output, keyed rule and next action."""
    a = correct_answer(co._case(record))
    return Answer(a.check, a.missing, a.second, a.flag, a.hold, record["rule"]), record["action"]


def _wrong(record: dict) -> tuple[Answer, str]:
    """The right output and reason, but the wrong next action."""
    answer, action = _right(record)
    return answer, next(a for a in co.ACTIONS if a != action)


def _answers(issued: co.Issued, wrong_labels: set[str] = frozenset()) -> dict:
    given = {
        rec["label"]: (_wrong(rec) if rec["label"] in wrong_labels else _right(rec))
        for rec in issued.key["cases"]
    }
    return co.answers_data(issued.paper, given)


@pytest.fixture(scope="module")
def issued() -> co.Issued:
    return co.issue_checkout("Asha", count=24, seed=982451653, issued="2026-12-01T09:00:00Z")


def test_a_paper_mixes_every_rule_interleaved_from_checkout_seeds(issued):
    rules = [rec["made_for"] for rec in issued.key["cases"]]
    assert set(rules) == RULE_IDS
    assert all(a != b for a, b in itertools.pairwise(rules))
    assert all(rec["seed"] in co.CHECKOUT_SEEDS for rec in issued.key["cases"])
    assert all(rec["seed"] >= 10**9 for rec in issued.key["cases"])
    assert {rec["check"] for rec in issued.key["cases"]} == {"target-scope", "sentinels"}
    assert [c["label"] for c in issued.paper["cases"]] == [f"Check-out case {n}" for n in range(1, 25)]
    assert any(rec["lookalike"] for rec in issued.key["cases"])


def _strings_and_numbers(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key
            yield from _strings_and_numbers(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            yield from _strings_and_numbers(item, path)
    else:
        yield path, value


def test_the_paper_holds_no_rule_seed_title_or_expected_output(issued):
    text = json.dumps(issued.paper, ensure_ascii=False)
    for path, value in _strings_and_numbers(issued.paper):
        if "reason_options" in path:
            continue
        assert value not in RULE_IDS, (path, value)
        if isinstance(value, str):
            assert not any(rule in value for rule in RULE_IDS), (path, value)
        if isinstance(value, int) and not isinstance(value, bool):
            assert value < 10**9, (path, value)
    for rec in issued.key["cases"]:
        assert str(rec["seed"]) not in text
        assert rec["title"] not in text
        assert rec["case_id"] not in text
    for case in issued.paper["cases"]:
        assert set(case) <= {"label", "check", "input", "context", "reason_options", "actions"}
        assert re.fullmatch(r"Check-out case [1-9][0-9]?", case["label"])
        assert sorted(case["actions"]) == sorted(co.ACTIONS)
    assert str(issued.key["seed"]) not in text
    assert {"seed", "expected", "rule", "cases_total"}.isdisjoint(issued.paper)


def test_the_keyed_reason_is_always_offered_and_moves_around():
    positions = set()
    for seed in range(8):
        paper = co.issue_checkout("B", count=18, seed=seed)
        for shown, rec in zip(paper.paper["cases"], paper.key["cases"], strict=True):
            options = [o["rule"] for o in shown["reason_options"]]
            assert rec["rule"] in options
            assert len(options) >= 2
            positions.add(options.index(rec["rule"]))
    assert len(positions) >= 3


def test_keyed_actions_follow_the_expected_output():
    class Case:
        def __init__(self, check, expected):
            self.check, self.expected = check, expected

    assert (
        co.keyed_action(Case("sentinels", {"changed": ["S1"], "intact": False}), "sk-rubric-change")
        == co.ACTIONS[4]
    )
    assert (
        co.keyed_action(Case("target-scope", {"held": "needs staff labels"}), "ts-unresolved")
        == co.ACTIONS[1]
    )
    assert co.keyed_action(Case("sentinels", {"error": "empty"}), "sk-empty-baseline") == co.ACTIONS[2]
    assert co.keyed_action(Case("target-scope", {"preserved": True}), "ts-order") == "accept"
    assert co.keyed_action(Case("sentinels", {"intact": True}), "sk-new-case") == "accept"
    assert co.keyed_action(Case("target-scope", {"preserved": False}), "ts-lost") == co.ACTIONS[0]
    assert co.keyed_action(Case("sentinels", {"intact": False}), "sk-missing") == co.ACTIONS[2]


def test_threshold_ninety_percent_fully_correct_and_every_lookalike(issued):
    plain = [r["label"] for r in issued.key["cases"] if not r["lookalike"]]
    look = [r["label"] for r in issued.key["cases"] if r["lookalike"]]
    assert co.grade_checkout(_answers(issued), issued.key).passed
    two = co.grade_checkout(_answers(issued, set(plain[:2])), issued.key)
    assert (two.fully_correct, two.passed) == (22, True)  # 22/24 = 91.7 %
    three = co.grade_checkout(_answers(issued, set(plain[:3])), issued.key)
    assert (three.fully_correct, three.passed) == (21, False)  # 21/24 = 87.5 %
    one_look = co.grade_checkout(_answers(issued, {look[0]}), issued.key)
    assert (one_look.fully_correct, one_look.passed) == (23, False)


def test_verdicts_per_field_and_rule_name_what_was_wrong(issued):
    target = issued.key["cases"][0]
    answer, action = _right(target)
    _first, _second, _flag = answer_fields(target["check"])
    bad = Answer(
        answer.check,
        answer.missing,
        answer.second,
        not answer.flag if answer.flag is not None else True,
        answer.hold,
        None,
    )
    data = co.answers_data(issued.paper, {target["label"]: (bad, action)})
    result = co.grade_checkout(data, issued.key)
    verdict = result.cases[0]
    assert verdict.answered and not verdict.correct
    assert verdict.fields["reason"] is False and verdict.fields["action"] is True
    assert all(not c.answered and not c.correct for c in result.cases[1:])
    assert result.per_rule()[target["rule"]][0] == 0
    assert result.per_field()["reason"] == (0, 24)
    assert "not answered" in co.result_text(result)


def test_answers_for_another_paper_or_malformed_are_refused(issued):
    data = _answers(issued)
    with pytest.raises(CheckoutFileError, match="key is for paper"):
        co.grade_checkout({**data, "paper_id": "0" * 16}, issued.key)
    twice = {**data, "answers": [data["answers"][0], data["answers"][0]]}
    with pytest.raises(CheckoutFileError, match="answered twice"):
        co.grade_checkout(twice, issued.key)
    odd = {**data, "answers": [{**data["answers"][0], "hold": "yes"}]}
    with pytest.raises(CheckoutFileError, match="hold"):
        co.grade_checkout(odd, issued.key)


def _write(tmp_path: Path, issued: co.Issued) -> tuple[Path, Path, Path]:
    return co.write_checkout(issued, tmp_path / "exam.json")


@pytest.mark.parametrize(
    "forge, why",
    [
        (lambda key: key["cases"][3]["expected"].update({"x": 1}), "Check-out case 4"),
        (lambda key: key["cases"][0].update(action=key["cases"][0]["action"] + "!"), "Check-out case 1"),
        (lambda key: key.update(trainee="Mallory"), r"\(key\)"),
        (lambda key: key["cases"].pop(), "missing from the key: Check-out case 24"),
        (
            lambda key: key["cases"].append({**key["cases"][0], "label": "Check-out case 99"}),
            "not in its baseline",
        ),
    ],
)
def test_a_forged_key_is_refused_naming_the_change(tmp_path, issued, forge, why):
    _, key_path, _ = _write(tmp_path, issued)
    key = json.loads(key_path.read_text())
    forge(key)
    key_path.write_text(json.dumps(key))
    with pytest.raises(CheckoutFileError, match=why):
        co.load_key(key_path)


def test_a_key_without_its_baseline_is_refused(tmp_path, issued):
    _, key_path, baseline = _write(tmp_path, issued)
    baseline.unlink()
    with pytest.raises(CheckoutFileError, match="has no baseline"):
        co.load_key(key_path)


def test_nothing_is_overwritten_without_force(tmp_path, issued):
    paper, key, baseline = _write(tmp_path, issued)
    before = key.read_bytes()
    other = co.issue_checkout("Asha", count=3, seed=99)
    with pytest.raises(CheckoutFileError, match="already exists"):
        co.write_checkout(other, paper)
    assert key.read_bytes() == before
    co.write_checkout(other, paper, force=True)
    assert json.loads(key.read_text())["paper_id"] == other.key["paper_id"]
    assert (baseline.parent / "retained" / "v1.json").exists()  # the earlier baseline is kept
    co.load_key(key)


def test_cli_issue_answer_grade_end_to_end(run_cli, tmp_path):
    made = run_cli("checkout", "issue", "--trainee", "Asha", "--seed", "5", "-o", "exam.json")
    assert made.returncode == 0, made.stderr
    assert b"exam.key.json" in made.stderr
    again = run_cli("checkout", "issue", "--trainee", "Asha", "-o", "exam.json")
    assert again.returncode == 2 and b"--force" in again.stderr
    paper = json.loads((tmp_path / "exam.json").read_text())
    key = co.load_key(tmp_path / "exam.key.json")
    issued = co.Issued(paper, key)
    (tmp_path / "good.json").write_text(json.dumps(_answers(issued)))
    good = run_cli("checkout", "grade", "good.json", "--key", "exam.key.json", "--json", "--csv", "out.csv")
    assert good.returncode == 0, good.stderr
    result = json.loads(good.stdout)
    assert result["passed"] is True and result["fully_correct"] == 24
    assert result["format"] == co.RESULT_FORMAT and result["trainee"] == "Asha"
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out.csv").read_text())))
    assert len(rows) == 24 and {r["correct"] for r in rows} == {"true"}
    one_wrong = _answers(issued, {next(r["label"] for r in key["cases"] if r["lookalike"])})
    (tmp_path / "bad.json").write_text(json.dumps(one_wrong))
    again = run_cli("checkout", "grade", "bad.json", "--key", "exam.key.json")
    assert again.returncode == 4 and b"one sitting per paper" in again.stderr and again.stdout == b""
    assert run_cli("checkout", "issue", "--trainee", "Asha", "-o", "exam2.json").returncode == 0
    paper2 = json.loads((tmp_path / "exam2.json").read_text())
    key2 = co.load_key(tmp_path / "exam2.key.json")
    look = next(r["label"] for r in key2["cases"] if r["lookalike"])
    (tmp_path / "bad.json").write_text(json.dumps(_answers(co.Issued(paper2, key2), {look})))
    bad = run_cli("checkout", "grade", "bad.json", "--key", "exam2.key.json")
    assert bad.returncode == 1
    assert b"NOT PASSED" in bad.stdout and f"{look}: wrong in action".encode() in bad.stdout
    forged = json.loads((tmp_path / "exam.key.json").read_text())
    forged["cases"][0]["expected"] = {"missing": [], "added": [], "preserved": True}
    (tmp_path / "exam.key.json").write_text(json.dumps(forged))
    refused = run_cli("checkout", "grade", "good.json", "--key", "exam.key.json")
    assert refused.returncode == 4
    assert b"does not match its baseline" in refused.stderr and b"nothing was graded" in refused.stderr
    assert refused.stdout == b""


def test_the_csv_goes_through_the_formula_guard(issued):
    hostile = co.issue_checkout('=HYPERLINK("http://x")', count=2, seed=1)
    result = co.grade_checkout(_answers(hostile), hostile.key)
    row = next(csv.reader(io.StringIO(co.result_csv(result).splitlines()[1])))
    assert row[0] == '\'=HYPERLINK("http://x")'


@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**63), count=st.integers(min_value=1, max_value=30))
def test_any_paper_verifies_against_its_own_digests_and_hides_its_seeds(seed, count):
    issued = co.issue_checkout("T", count=count, seed=seed)
    assert len(issued.paper["cases"]) == count
    co.verify_key(issued.key, co.key_digests(issued.key))
    text = json.dumps(issued.paper)
    assert str(seed) not in text or len(str(seed)) < 4
    assert all(str(r["seed"]) not in text for r in issued.key["cases"])
    rules = [r["made_for"] for r in issued.key["cases"]]
    assert all(a != b for a, b in itertools.pairwise(rules))


# --- the widget ---------------------------------------------------------------------------


def _sample() -> tuple[dict, dict]:
    paper = co.load_paper(co.sample_paper_path())
    key = co.load_key(co.sample_paper_path().with_name("sample-paper.key.json"))
    return paper, key


def test_the_committed_sample_key_matches_its_baseline():
    paper, key = _sample()
    assert paper["paper_id"] == key["paper_id"]
    assert len(paper["cases"]) == len(key["cases"]) == 24


def test_the_widget_serves_each_case_once_then_saves_answers_that_grade(tmp_path):
    paper, key = _sample()
    widget = CheckoutWidget(paper, path=str(tmp_path / "answers.json"))
    widget.save_button.click()
    assert "Answer every case" in widget.message.value
    seen = []
    for record in key["cases"]:
        assert f"{record['label']} of 24" in widget.describe()
        shown = widget.widget
        assert record["title"] not in str(widget.shown_input.value)
        seen.append(widget.sitting.current()["label"])
        answer, action = _right(record)
        widget.set_answer(answer, action)
        widget.submit_button.click()
        assert widget.message.value == ""
    assert shown is widget.widget
    assert seen == [c["label"] for c in paper["cases"]]
    assert widget.sitting.done and "all 24 cases answered" in widget.describe()
    widget.submit_button.click()  # nothing more to answer: nothing changes
    assert len(widget.sitting.answers) == 24
    widget.save_button.click()
    assert "Saved 24 answers" in widget.message.value
    result = co.grade_checkout(json.loads((tmp_path / "answers.json").read_text()), key)
    assert result.passed and result.fully_correct == 24


def test_the_widget_never_overwrites_without_consent(tmp_path):
    paper, key = _sample()
    target = tmp_path / "answers.json"
    target.write_text("earlier work")
    widget = CheckoutWidget(paper, path=str(target))
    for _ in key["cases"]:
        widget.submit_button.click()  # a blank answer is still an answer
    widget.save_button.click()
    assert "Not saved" in widget.message.value and target.read_text() == "earlier work"
    widget.overwrite.value = True
    widget.save_button.click()
    assert "Saved" in widget.message.value
    result = co.grade_checkout(json.loads(target.read_text()), key)
    assert result.fully_correct < 24 and not result.passed


def test_the_widget_shows_lookalike_ids_in_the_visible_notation():
    paper, _key = _sample()
    widget = CheckoutWidget(paper)
    shown = 0
    for _ in range(len(paper["cases"])):
        for i, box in [*widget.first_boxes.items(), *widget.second_boxes.items()]:
            if visible_id(i) != i:
                assert visible_id(i) in box.description and i not in box.description
                shown += 1
        widget.submit_button.click()
    assert shown
