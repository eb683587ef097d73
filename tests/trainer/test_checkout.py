"""The check-out: issuing a paper and its guarded key, sitting it in the widget, grading it."""

from __future__ import annotations

import collections
import csv
import io
import itertools
import json
import re
from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.chardiff import visible_id
from helpers.core.errors import CheckInputError, CheckoutFileError
from helpers.core.sentinels import check_sentinels
from helpers.trainee.cases.deciding_rule import FACETS
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import Answer, answer_fields, correct_answer
from helpers.trainee.widgets import CheckoutWidget
from helpers.trainer import checkout as co

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
    return co.issue_checkout("Asha", seed=982451653, issued="2026-12-01T09:00:00Z", sequential=False)


def test_a_paper_mixes_every_rule_interleaved_from_checkout_seeds(issued):
    rules = [rec["made_for"] for rec in issued.key["cases"]]
    assert set(rules) == RULE_IDS
    assert all(a != b for a, b in itertools.pairwise(rules))
    assert all(rec["seed"] in co.CHECKOUT_SEEDS for rec in issued.key["cases"])
    assert all(rec["seed"] >= 10**9 for rec in issued.key["cases"])
    assert {rec["check"] for rec in issued.key["cases"]} == {"target-scope", "sentinels"}
    n = co.DEFAULT_COUNT
    assert [c["label"] for c in issued.paper["cases"]] == [f"Check-out case {n}" for n in range(1, n + 1)]
    assert any(rec["lookalike"] for rec in issued.key["cases"])
    assert {rec["stream"] for rec in issued.key["cases"]} == {"cover", "more"}


@settings(max_examples=examples(10))
@given(seed=st.integers(min_value=0, max_value=2**63), extra=st.integers(min_value=0, max_value=14))
def test_every_paper_covers_every_rule_once_and_lookalike_kind_twice(seed, extra):
    count = co.minimum_count() + extra
    issued = co.issue_checkout("T", count=count, seed=seed, sequential=False)
    records = issued.key["cases"]
    assert len(records) == count
    cover = [rec for rec in records if rec["stream"] == "cover"]
    assert len(cover) == co.minimum_count() and records[: len(cover)] == cover
    by_rule = collections.Counter(rec["rule"] for rec in cover)
    by_kind = collections.Counter(k for rec in cover for k in rec["lookalike_kinds"])
    assert set(by_rule) == RULE_IDS and min(by_rule.values()) >= 1
    assert set(by_kind) == set(FACETS) and min(by_kind.values()) >= co.PER_GROUP
    assert all(rec["rule"] == rec["made_for"] for rec in records)
    # Each kind is shown on both checks: a look-alike ID in a target list and a look-alike answer in a key.
    for kind in FACETS:
        assert {rec["check"] for rec in records if kind in rec["lookalike_kinds"]} == {
            "target-scope",
            "sentinels",
        }
    assert set(issued.key["verdict_rule"]["rules"]) == RULE_IDS
    assert issued.key["verdict_rule"]["lookalike_kinds"] == list(FACETS)


def test_a_paper_too_short_to_cover_every_rule_is_refused_naming_the_minimum(run_cli):
    least = co.minimum_count()
    assert least == 30
    with pytest.raises(CheckInputError, match=f"at least {least} cases to show every rule"):
        co.issue_checkout("T", count=least - 1, seed=1, sequential=False)
    short = run_cli("checkout", "issue", "--trainee", "T", "--count", "24", "-o", "exam.json")
    assert short.returncode == 2
    assert f"count is 24, expected {least} to 200".encode() in short.stderr


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
        paper = co.issue_checkout("B", seed=seed, sequential=False)
        for shown, rec in zip(paper.paper["cases"], paper.key["cases"], strict=True):
            options = [o["rule"] for o in shown["reason_options"]]
            assert rec["rule"] in options
            assert len(options) >= 2
            positions.add(options.index(rec["rule"]))
    assert len(positions) >= 3


def test_keyed_actions_follow_the_expected_output():
    class Case:
        def __init__(self, check, expected, input=None, context=None):
            self.check, self.expected, self.input, self.context = check, expected, input or {}, context or {}

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


def test_a_revision_sets_the_action_only_where_it_covers_a_change_exactly():
    """Approved S4 R to R-2, and S6 changed with no revision: hold, and rebaseline S4 alone."""

    class Case:
        def __init__(self, proposed, to="R-2"):
            self.check = "sentinels"
            self.input = {"baseline": {"S4": "R", "S6": "B"}, "proposed": proposed}
            revision = {
                "id": "S4",
                "from": "R",
                "to": to,
                "approved": "by the board",
                "new_baseline_written": False,
            }
            self.context = {"rubric_revision": revision}
            self.expected = check_sentinels(self.input["baseline"], proposed).as_dict()

    only = Case({"S4": "R-2", "S6": "B"})
    both = Case({"S4": "R-2", "S6": "crème brûlée"})
    gone = Case({"S4": "R-2"})
    elsewhere = Case({"S4": "R-3", "S6": "B"})
    assert co.keyed_action(only, "sk-rubric-change") == co.ACTIONS[4]
    assert co.keyed_action(both, "sk-changed") == co.keyed_action(gone, "sk-several") == co.ACTIONS[5]
    assert co.keyed_action(elsewhere, "sk-changed") == co.ACTIONS[2]
    assert "new baseline" not in co.ACTIONS[2]


def _one_per_rule(issued: co.Issued, how_many: int) -> set[str]:
    """Labels of ``how_many`` cases, each of another rule and no look-alike kind."""
    picked: dict[str, str] = {}
    for rec in issued.key["cases"]:
        if rec["rule"] not in picked and not rec["lookalike_kinds"] and len(picked) < how_many:
            picked[rec["rule"]] = rec["label"]
    return set(picked.values())


def test_the_pass_rests_on_the_sequential_rule_and_every_rule_and_kind(issued):
    perfect = co.grade_checkout(_answers(issued), issued.key)
    # A fixed paper is graded case by case in its order: always right, the rule passes at case 32.
    assert perfect.passed and len(perfect.cases) == perfect.fully_correct == 32
    assert perfect.statement().startswith("Passed after 32 cases (32 fully correct)")
    assert "passes someone right 85% of the time or less at most 5 times in 100" in perfect.statement()
    one = co.grade_checkout(_answers(issued, _one_per_rule(issued, 1)), issued.key)
    assert one.passed and len(one.cases) > 32  # one slip costs more cases, not the pass
    rule = issued.key["cases"][0]["rule"]
    whole = {r["label"] for r in issued.key["cases"] if r["rule"] == rule}
    whole_rule = co.grade_checkout(_answers(issued, whole), issued.key)
    assert not whole_rule.passed and rule in whole_rule.why
    assert whole_rule.never_right()["rules_never_right"] == [rule]
    kind_cases = {r["label"] for r in issued.key["cases"] if "zero-width" in r["lookalike_kinds"]}
    blind = co.grade_checkout(_answers(issued, kind_cases), issued.key)
    assert not blind.passed and "zero-width" in blind.why
    assert blind.never_right()["kinds_never_right"] == ["zero-width"]


def test_a_key_from_before_is_graded_and_cannot_pass_a_short_paper():
    old = co.issue_checkout("Old", seed=5, sequential=False)
    key = json.loads(json.dumps(old.key))
    key.pop("verdict_rule")
    key["pass_share"] = 0.9
    for rec in key["cases"]:
        rec.pop("lookalike_kinds")
    result = co.grade_checkout(_answers(co.Issued(old.paper, key)), key)
    assert result.passed and result.per_kind() == co.grade_checkout(_answers(old), old.key).per_kind()
    key["cases"] = [rec for rec in key["cases"] if rec["rule"] != "ts-order"]
    paper = {
        **old.paper,
        "cases": [c for c in old.paper["cases"] if c["label"] in {r["label"] for r in key["cases"]}],
    }
    short = co.grade_checkout(_answers(co.Issued(paper, key)), key)
    assert not short.passed and short.never_right()["not_on_paper"] == ["ts-order"]
    assert "with ts-order not cleared" in short.statement()


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
    # Unanswered cases are wrong: three misses reach the fail boundary at case 3.
    assert not result.passed and result.per_field()["reason"] == (0, len(result.cases)) == (0, 3)
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
        (lambda key: key["cases"].pop(), f"missing from the key: Check-out case {co.DEFAULT_COUNT}"),
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
    other = co.issue_checkout("Asha", sequential=False, count=46, seed=99)
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
    assert result["passed"] is True and result["fully_correct"] == result["cases_total"] == 32
    assert result["format"] == co.RESULT_FORMAT and result["trainee"] == "Asha"
    assert result["statement"].startswith("Passed after 32 cases (32 fully correct): the evidence reached")
    assert result["per_kind"]["homoglyph"][0] == result["per_kind"]["homoglyph"][1] >= 2
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out.csv").read_text())))
    assert len(rows) == 32 and {r["correct"] for r in rows} == {"true"}
    assert {r["verdict"] for r in rows} == {"passed"}
    assert all(re.fullmatch(r"(\d+) of \1", r["rule_cases_right"]) for r in rows)
    one_wrong = _answers(issued, {next(r["label"] for r in key["cases"] if r["lookalike"])})
    (tmp_path / "bad.json").write_text(json.dumps(one_wrong))
    again = run_cli("checkout", "grade", "bad.json", "--key", "exam.key.json")
    assert again.returncode == 4 and b"one sitting per paper" in again.stderr and again.stdout == b""
    assert run_cli("checkout", "issue", "--trainee", "Asha", "-o", "exam2.json").returncode == 0
    paper2 = json.loads((tmp_path / "exam2.json").read_text())
    key2 = co.load_key(tmp_path / "exam2.key.json")
    issued2 = co.Issued(paper2, key2)
    kind = next(r["lookalike_kinds"][0] for r in key2["cases"] if r["lookalike_kinds"])
    blind = {r["label"] for r in key2["cases"] if kind in r["lookalike_kinds"]}
    (tmp_path / "blind.json").write_text(json.dumps(_answers(issued2, blind)))
    failed = run_cli("checkout", "grade", "blind.json", "--key", "exam2.key.json")
    assert failed.returncode == 1
    assert b"NOT PASSED" in failed.stdout and f"  {kind}: 0 of ".encode() in failed.stdout
    # the paper is drawn fresh: three misses of the kind fail it at once, two leave it not cleared at the end
    assert re.search(
        rf"missed too often on [^\n]*{kind}|with [^\n]*{kind}[^\n]* not cleared".encode(), failed.stdout
    ), failed.stdout
    forged = json.loads((tmp_path / "exam.key.json").read_text())
    forged["cases"][0]["expected"] = {"missing": [], "added": [], "preserved": True}
    (tmp_path / "exam.key.json").write_text(json.dumps(forged))
    refused = run_cli("checkout", "grade", "good.json", "--key", "exam.key.json")
    assert refused.returncode == 4
    assert b"does not match its baseline" in refused.stderr and b"nothing was graded" in refused.stderr
    assert refused.stdout == b""


def test_the_csv_goes_through_the_formula_guard(issued):
    hostile = co.issue_checkout('=HYPERLINK("http://x")', sequential=False, count=46, seed=1)
    result = co.grade_checkout(_answers(hostile), hostile.key)
    row = next(csv.reader(io.StringIO(co.result_csv(result).splitlines()[1])))
    assert row[0] == '\'=HYPERLINK("http://x")'


@settings(max_examples=examples(15))
@given(seed=st.integers(min_value=0, max_value=2**63), count=st.integers(min_value=46, max_value=60))
def test_any_paper_verifies_against_its_own_digests_and_hides_its_seeds(seed, count):
    issued = co.issue_checkout("T", count=count, seed=seed, sequential=False)
    assert len(issued.paper["cases"]) == count
    co.verify_key(issued.key, co.key_digests(issued.key))
    text = json.dumps(issued.paper)
    numbers = {int(n) for n in re.findall(r"\d+", text)}  # every run of digits, dates' years included
    hidden = [seed, *(r["seed"] for r in issued.key["cases"])]
    # No seed shows as a number of its own; a long one shows nowhere, not even inside a string.
    assert all(s not in numbers or s < 10_000 for s in hidden), "a seed shows on the paper"
    assert all(str(s) not in text for s in hidden if s >= 10**6)
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
    assert len(paper["cases"]) == len(key["cases"]) == 56 and key["sequential"] is False


def test_the_widget_serves_each_case_once_then_saves_answers_that_grade(tmp_path):
    paper, key = _sample()
    total = len(paper["cases"])
    widget = CheckoutWidget(paper, path=str(tmp_path / "answers.json"))
    widget.save_button.click()
    assert "Answer every case" in widget.message.value
    seen = []
    for record in key["cases"]:
        assert f"{record['label']} of {total}" in widget.describe()
        shown = widget.widget
        assert record["title"] not in str(widget.shown_input.value)
        seen.append(widget.sitting.current()["label"])
        answer, action = _right(record)
        widget.set_answer(answer, action)
        widget.submit_button.click()
        assert widget.message.value == ""
    assert shown is widget.widget
    assert seen == [c["label"] for c in paper["cases"]]
    assert widget.sitting.done and f"All {total} cases answered" in widget.describe()
    assert "Hand that file to your trainer" in widget.heading.value
    widget.submit_button.click()  # nothing more to answer: nothing changes
    assert len(widget.sitting.answers) == total
    widget.save_button.click()
    assert f"Saved {total} answers" in widget.message.value
    result = co.grade_checkout(json.loads((tmp_path / "answers.json").read_text()), key)
    assert result.passed and result.fully_correct == len(result.cases) == 32


def test_the_widget_never_overwrites_without_consent(tmp_path):
    paper, key = _sample()
    target = tmp_path / "answers.json"
    target.write_text("earlier work")
    widget = CheckoutWidget(paper, path=str(target))
    for _ in key["cases"]:
        widget.submit_button.click()  # a blank answer is still an answer, once confirmed
        widget.confirm_button.click()
    widget.save_button.click()
    assert "Not saved" in widget.message.value and target.read_text() == "earlier work"
    widget.overwrite.value = True
    widget.save_button.click()
    assert "Saved" in widget.message.value
    result = co.grade_checkout(json.loads(target.read_text()), key)
    assert result.fully_correct < len(result.cases) and not result.passed


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
        widget.confirm_button.click()
    assert shown


def test_submit_names_what_is_unset_and_only_a_confirmation_sends_it(tmp_path):
    paper, key = _sample()
    widget = CheckoutWidget(paper, path=str(tmp_path / "answers.json"))
    first = key["cases"][0]
    flag = answer_fields(first["check"])[2]
    assert widget.confirm_button.layout.display == "none"
    widget.submit_button.click()
    assert widget.sitting.index == 0 and not widget.sitting.answers  # nothing sent
    for unset in ("the reason", "the next action", flag):
        assert unset in widget.message.value
    assert widget.confirm_button.layout.display is None
    assert widget.confirm_button.description in widget.describe()
    widget.submit_button.click()  # pressing Submit again is not the confirmation
    assert widget.sitting.index == 0
    answer, action = _right(first)
    widget.set_answer(answer, None)  # everything but the next action
    widget.submit_button.click()
    assert widget.sitting.index == 0 and "the next action" in widget.message.value
    assert "the reason" not in widget.message.value
    widget.reason.value = None  # more unset than the warning named: the confirmation does not send it
    widget.confirm_button.click()
    assert widget.sitting.index == 0 and "the reason" in widget.message.value
    widget.reason.value = answer.reason
    widget.confirm_button.click()  # the warning named the next action only, so this sends it
    assert widget.sitting.index == 1 and widget.message.value == ""
    assert widget.sitting.answers[first["label"]][1] is None
    assert widget.confirm_button.layout.display == "none"  # a new case starts unwarned
    second = key["cases"][1]
    widget.set_answer(*_right(second))
    widget.submit_button.click()  # nothing unset: sent at once
    assert widget.sitting.index == 2
    held = next(i for i, r in enumerate(key["cases"]) if _right(r)[0].hold)
    widget.sitting.index = held
    widget._show()
    answer, action = _right(key["cases"][held])
    widget.set_answer(answer, action)
    widget.flag.value = None
    assert widget.hold.value and widget.unset() == ()  # a hold needs no flag


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_case_turning_on_a_lookalike_kind_is_a_lookalike_case_whatever_its_keyed_rule(seed):
    """The flag is not the keyed rule's alone: a case keyed to, say, ts-lost whose missing ID has a
    look-alike on the other side is a look-alike case, and counts among the look-alike cases graded."""
    issued = co.issue_checkout("Asha", seed=seed, issued="2026-12-01T09:00:00Z", sequential=False)
    cases = issued.key["cases"]
    for record in cases:
        expected = bool(record["lookalike_kinds"]) or record["rule"] in co.LOOKALIKE_RULES
        assert record["lookalike"] is (expected or co._has_lookalikes(co._case(record))), record["label"]
    by_kind_only = [r for r in cases if r["lookalike_kinds"] and r["rule"] not in co.LOOKALIKE_RULES]
    label = by_kind_only[0]["label"] if by_kind_only else None
    result = co.grade_checkout(_answers(issued, {label} if label else set()), issued.key)
    served = {c.label for c in result.cases}
    flagged = sum(r["lookalike"] for r in cases if r["label"] in served)
    assert result.lookalikes == (flagged - (1 if label in served else 0), flagged)
