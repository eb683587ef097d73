"""Practice: rules, practice cases, coverage, seeded drills, per-rule scores and progress files."""

from __future__ import annotations

import json
import tempfile
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from version1_files import write_version1

import helpers
from helpers.core.errors import InvalidInputError, ProgressFileError
from helpers.core.paths import project_root
from helpers.trainee.cases.filled import Case
from helpers.trainee.grading import Answer, candidate_ids, correct_answer, grade
from helpers.trainee.practice import (
    DEFAULT_DRILL_SEED,
    DEFAULT_PROGRESS_FILE,
    GRADED_RULES,
    PROGRESS_FORMAT,
    Attempt,
    PracticeCase,
    Progress,
    coverage,
    coverage_table,
    drill_order,
    load_practice_cases,
    load_progress,
    load_rules,
    practice_cases,
    practice_cases_from_data,
    practice_cases_json,
    progress_from_data,
    rule_scores,
    rules_from_data,
    rules_missed,
    rules_table,
    summary,
)

RULES = load_rules()
RULE_IDS = [rule.id for rule in RULES]
CASES = practice_cases()
BY_KEY = {case.key: case for case in CASES}
CONTEXT_RULES = {"ts-query-unvalidated", "sk-nonsentinel-changed", "sk-rubric-change"}
MARKUP = ("<img src=x onerror=alert(1)>", "<b>bold</b>")


def slips(case):
    """The correct answer with one thing wrong: the flag, the hold box, or one ID in one list."""
    right = correct_answer(case)
    yield replace(right, flag=None)
    yield replace(right, flag=not right.flag)
    yield replace(right, hold=not right.hold)
    for case_id in candidate_ids(case):
        yield replace(right, missing=right.missing ^ {case_id})
        yield replace(right, second=right.second ^ {case_id})


def ids_of(case) -> set[str]:
    """Every ID in a case's input: both target lists, or both answer keys."""
    data = case.input
    if case.check == "target-scope":
        return set(data["original"]) | set(data["rewritten"]) | set(data.get("unresolved", []))
    return set(data["baseline"]) | set(data["proposed"])


def answered(cases, wrong=frozenset(), seed=DEFAULT_DRILL_SEED) -> Progress:
    """A finished drill: every case answered right except those whose ids are in ``wrong``."""
    progress = Progress.start(cases, seed)
    for case in drill_order(cases, seed):
        answer = Answer(case.check) if case.id in wrong else correct_answer(case)
        progress.record(case, grade(case, answer))
    return progress


# --- the rule list ---------------------------------------------------------------


def test_every_rule_has_a_short_plain_name_of_its_own():
    """A reason option reads name first, the id after it: the names are short, one line, none alike."""
    names = [rule.name for rule in RULES]
    assert len({name.casefold() for name in names}) == len(names) == 19
    for rule in RULES:
        assert 0 < len(rule.name) <= 40 and rule.name == " ".join(rule.name.split()), rule.id
        assert rule.id not in rule.name and rule.label == f"{rule.name} ({rule.id})"


def test_each_check_has_its_rules_in_the_fixture():
    """rules.json lists the nine rules of each check the issue names, ids unique."""
    by_check = {check: [r.id for r in RULES if r.check == check] for check in ("target-scope", "sentinels")}
    assert by_check == {
        "target-scope": [
            "ts-lost",
            "ts-added",
            "ts-order",
            "ts-duplicates",
            "ts-exact-ids",
            "ts-empty",
            "ts-several",
            "ts-unresolved",
            "ts-query-unvalidated",
        ],
        "sentinels": [
            "sk-changed",
            "sk-whitespace-case",
            "sk-invisible",
            "sk-missing",
            "sk-all-missing",
            "sk-new-case",
            "sk-nonsentinel-changed",
            "sk-empty-baseline",
            "sk-rubric-change",
            "sk-several",
        ],
    }
    assert len(set(RULE_IDS)) == len(RULE_IDS)


def test_every_rule_id_grading_can_name_is_in_the_rule_list():
    assert set(RULE_IDS) >= GRADED_RULES
    assert set(RULE_IDS) - GRADED_RULES == CONTEXT_RULES


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_each_rule_points_at_a_section_its_notebook_has(rule):
    """The pointer names a notebook of the check and a '## heading' that notebook contains."""
    expected = {"target-scope": "02_target_scope.ipynb", "sentinels": "03_sentinel_answer_key.ipynb"}
    assert rule.notebook == expected[rule.check]
    notebook = json.loads((project_root() / "notebooks" / rule.notebook).read_text(encoding="utf-8"))
    headings = {
        line[3:].strip()
        for cell in notebook["cells"]
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("## ")
    }
    assert rule.heading in headings
    assert rule.href == f"{rule.notebook}#{rule.heading.replace(' ', '-')}"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {
                "rules": {
                    "target-scope": [{"id": "a", "name": "N", "statement": "s", "section": "x.ipynb#H"}] * 2
                }
            },
            'the rule id "a" appears twice',
        ),
        (
            {
                "rules": {
                    "target-scope": [
                        {"id": "a", "name": "Same name", "statement": "s", "section": "x.ipynb#H"},
                        {"id": "b", "name": "same NAME", "statement": "s", "section": "x.ipynb#H"},
                    ]
                }
            },
            'the rule name "same NAME" appears twice',
        ),
        (
            {
                "rules": {
                    "target-scope": [{"id": "a", "name": "N", "statement": "s", "section": "no heading"}]
                }
            },
            'expected "NOTEBOOK.ipynb#Section heading"',
        ),
        (
            {"rules": {"target-scope": [{"id": "a", "name": "N", "statement": " ", "section": "x.ipynb#H"}]}},
            "statement must be a non-empty string",
        ),
        (
            {"rules": {"target-scope": [{"id": "a", "name": " ", "statement": "s", "section": "x.ipynb#H"}]}},
            "name must be a non-empty string",
        ),
        (
            {
                "rules": {
                    "target-scope": [{"id": "a", "name": "A\nB", "statement": "s", "section": "x.ipynb#H"}]
                }
            },
            'name is "A\\nB", expected one line of at most 40 characters',
        ),
        (
            {
                "rules": {
                    "target-scope": [{"id": "a", "name": "x" * 41, "statement": "s", "section": "x.ipynb#H"}]
                }
            },
            "expected one line of at most 40 characters",
        ),
        (
            {"rules": {"target-scope": [{"id": "a", "statement": "s", "section": "x.ipynb#H"}]}},
            "must have the fields",
        ),
        ({"rules": {"target-scope": [{"id": "a", "name": "N", "statement": "s"}]}}, "must have the fields"),
        ({"rules": {"other-check": []}}, 'rules key is "other-check"'),
        ({"rules": {"sentinels": []}}, "must be a non-empty list"),
        ({"cases": []}, 'expected an object {"rules"'),
    ],
)
def test_a_malformed_rule_list_is_refused(data, message):
    with pytest.raises(InvalidInputError) as caught:
        rules_from_data(data, source="rules.json")
    assert message in str(caught.value)


# --- the practice cases -------------------------------------------------------------


@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
def test_at_least_twelve_practice_cases_per_check(check):
    assert len(practice_cases(check)) >= 12


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_every_rule_has_at_least_two_cases(rule):
    """A rule that loses its coverage fails here."""
    assert len(coverage(RULES, CASES)[rule.id]) >= 2


def test_coverage_counts_each_tag_once():
    table = coverage(RULES, CASES)
    assert list(table) == RULE_IDS
    assert sum(map(len, table.values())) == sum(len(case.rules) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.key)
def test_expected_output_agrees_with_the_helpers(case):
    """Each practice case's expected output is what the helpers say, key order included."""
    actual = case.actual()
    assert actual == case.expected
    assert list(actual) == list(case.expected)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.key)
def test_each_graded_rule_a_case_lists_is_named_by_some_slip(case):
    """The rule tags are honest: a single slip on the case draws feedback naming each graded tag."""
    named = {rule for answer in slips(case) for rule in grade(case, answer).rules_missed}
    assert set(case.rules) & GRADED_RULES <= named
    assert case.rules, "every case exercises at least one rule"


def test_every_graded_rule_is_named_on_some_practice_case():
    named = {rule for case in CASES for answer in slips(case) for rule in grade(case, answer).rules_missed}
    assert named == GRADED_RULES


@given(data=st.data())
def test_grading_names_only_rules_in_the_rule_list(data):
    """Any answer to any filled or practice case draws only rule ids from rules.json."""
    case = data.draw(st.sampled_from([*helpers.filled_cases(), *CASES]))
    ids = candidate_ids(case)
    answer = Answer(
        case.check,
        missing=frozenset(data.draw(st.sets(st.sampled_from(ids))) if ids else ()),
        second=frozenset(data.draw(st.sets(st.sampled_from(ids))) if ids else ()),
        flag=data.draw(st.sampled_from([None, True, False])),
        hold=data.draw(st.booleans()),
    )
    result = grade(case, answer)
    assert set(result.rules_missed) <= GRADED_RULES
    assert result.correct == (not result.mistakes)


def test_case_ids_are_unique_across_filled_and_practice_cases():
    ids = [case.id for case in helpers.filled_cases()] + [case.id for case in CASES]
    assert [i for i, n in Counter(ids).items() if n > 1] == []


def test_a_practice_id_that_repeats_a_filled_case_is_refused(tmp_path, monkeypatch):
    data = json.loads(practice_cases_json().read_text(encoding="utf-8"))
    data["cases"][0]["id"] = "lost-comparison"
    copy = tmp_path / "practice_cases.json"
    copy.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr("helpers.trainee.cases.practice_cases.practice_cases_json", lambda: copy)
    with pytest.raises(InvalidInputError, match='"lost-comparison" is also a filled case'):
        practice_cases()


@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
def test_each_check_practises_awkward_ids(check):
    """Markup, case-only and space-only differences, emoji, a zero-width space, NFC and NFD."""
    ids = set().union(*(ids_of(case) for case in practice_cases(check)))
    assert all(any(markup in i for i in ids) for markup in MARKUP)
    assert any("\u200b" in i for i in ids)
    assert any(any(ord(c) > 0xFFFF for c in i) for i in ids), "an emoji outside the BMP"
    nfc = {i for i in ids if unicodedata.normalize("NFD", i) != i}
    assert any(unicodedata.normalize("NFD", i) in ids for i in nfc), "an NFC ID next to its NFD form"
    folded = Counter("".join(i.split()).casefold() for i in ids)
    assert any(n > 1 for n in folded.values()), "IDs differing only in case or whitespace"


def test_practice_cases_round_trip_through_their_json():
    data = json.loads(practice_cases_json().read_text(encoding="utf-8"))
    assert {"cases": [case.to_data() for case in CASES]} == data
    again = practice_cases_from_data({"cases": [case.to_data() for case in CASES]}, rules=RULES)
    assert again == CASES
    assert all(isinstance(case, Case) for case in again)


def test_filled_cases_still_round_trip_through_json_and_csv():
    """The filled-case machinery the practice loader reuses is unchanged by it."""
    from helpers.core.paths import filled_cases_json
    from helpers.trainee.cases.filled import cases_from_csv, cases_to_csv, cases_to_data

    filled = helpers.filled_cases()
    assert cases_to_data(filled) == json.loads(filled_cases_json().read_text(encoding="utf-8"))
    assert cases_from_csv(cases_to_csv(filled)) == filled


def _one_case(**changes):
    base = CASES[0].to_data()
    return {"cases": [{**base, **changes}]}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cases": [{k: v for k, v in CASES[0].to_data().items() if k != "rules"}]}, 'has no "rules" field'),
        (_one_case(rules=[]), "must be a non-empty list of rule ids"),
        (_one_case(rules=["ts-lost", "ts-lost"]), "lists a rule twice"),
        (_one_case(rules=["ts-nonsense"]), '"ts-nonsense", which is not a rule of "target-scope"'),
        (_one_case(rules=["sk-missing"]), '"sk-missing", which is not a rule of "target-scope"'),
        (_one_case(colour="red"), 'unknown field "colour"'),
        (_one_case(expected={"missing": [], "added": []}), "expected has the keys"),
        ({"cases": [CASES[0].to_data(), CASES[0].to_data()]}, "appears twice"),
        ([], 'expected an object with a "cases" list'),
    ],
)
def test_a_malformed_practice_case_is_refused(data, message):
    with pytest.raises(InvalidInputError) as caught:
        practice_cases_from_data(data, rules=RULES, source="practice.json")
    assert message in str(caught.value)


def test_load_practice_cases_reads_a_file(tmp_path):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"cases": [CASES[3].to_data()]}), encoding="utf-8")
    assert load_practice_cases(path, rules=RULES) == [CASES[3]]


# --- coverage and rule tables ----------------------------------------------------------


def test_coverage_table_marks_each_tag_and_counts_per_rule():
    block = coverage_table(RULES, CASES, "sentinels")
    cases = practice_cases("sentinels")
    assert block.html.count("●") == sum(len(case.rules) for case in cases)
    assert "sk-empty-baseline (2): empty-baseline, empty-baseline-empty-key" in block.text
    assert block.text.splitlines()[0] == f"Sentinel answer key: {len(cases)} practice cases, 10 rules"


def test_rule_tables_escape_their_text():
    rule = replace(RULES[0], statement=MARKUP[0], section="02_target_scope.ipynb#A <b> heading")
    for block in (rules_table([rule]), coverage_table([rule], CASES, "target-scope")):
        assert MARKUP[0] not in block.html
        assert "&lt;img src=x onerror=alert(1)&gt;" in block.html
    assert "<b> heading" not in rules_table([rule]).html


# --- drills ---------------------------------------------------------------------------


@given(seed=st.integers(), data=st.data())
def test_drill_order_is_a_reproducible_permutation(seed, data):
    """Any seed gives a permutation; the same seed gives the same order whatever the input order."""
    shuffled = data.draw(st.permutations(CASES))
    order = drill_order(shuffled, seed)
    assert sorted(c.key for c in order) == sorted(c.key for c in CASES)
    assert [c.key for c in order] == [c.key for c in drill_order(CASES, seed)]
    size = data.draw(st.integers(1, len(CASES)))
    assert drill_order(CASES, seed, size=size) == order[:size]


def test_the_default_drill_order_is_pinned():
    """The notebook's order; a change to the shuffle would change every trainee's drill."""
    assert [case.id for case in drill_order(CASES, DEFAULT_DRILL_SEED)[:5]] == [
        "decomposed-accent-target",
        "emoji-and-full-width",
        "decomposed-sentinel-id",
        "sentinels-replaced",
        "zero-width-target",
    ]


def test_different_seeds_give_different_orders():
    orders = {tuple(c.key for c in drill_order(CASES, seed)) for seed in range(10)}
    assert len(orders) == 10


@pytest.mark.parametrize(
    ("seed", "size"), [(True, None), ("5", None), (1.0, None), (1, 0), (1, 40), (1, True)]
)
def test_drill_order_refuses_a_bad_seed_or_size(seed, size):
    with pytest.raises(InvalidInputError):
        drill_order(CASES, seed, size=size)


def test_a_drill_cannot_hold_a_case_twice():
    with pytest.raises(InvalidInputError, match="same case twice"):
        drill_order([CASES[0], CASES[0]], 1)


# --- scoring ----------------------------------------------------------------------------


def test_right_answers_score_one_hundred_percent():
    progress = answered(CASES)
    assert progress.finished and progress.correct == progress.total == len(CASES)
    assert progress.percent() == 100
    assert (
        progress.score_line()
        == f"Score: {len(CASES)} of {len(CASES)} correct (100%) · {len(CASES)} of {len(CASES)} cases done"
    )
    for score in rule_scores(progress, CASES, RULES):
        assert score.missed == 0
        assert score.seen == len(coverage(RULES, CASES)[score.rule.id])
    assert "No rule missed." in summary(progress, CASES, RULES).text


def test_wrong_answers_are_reported_per_rule_with_the_case_and_section():
    wrong = {"capitalised-target", "empty-baseline", "nonsentinel-answer-edited"}
    progress = answered(CASES, wrong)
    assert progress.correct == len(CASES) - 3 and progress.percent() == 92
    missed = {
        s.rule.id: [BY_KEY[k].id for k in s.missed_in]
        for s in rule_scores(progress, CASES, RULES)
        if s.missed
    }
    # A blank answer (nothing ticked, no flag) to each of the three cases:
    assert missed == {
        "ts-exact-ids": ["capitalised-target"],
        "sk-empty-baseline": ["empty-baseline"],
        "sk-new-case": ["nonsentinel-answer-edited"],
        "sk-nonsentinel-changed": ["nonsentinel-answer-edited"],
    }
    text = summary(progress, CASES, RULES).text
    assert "- sk-nonsentinel-changed: " in text
    assert "    missed in nonsentinel-answer-edited: A non-sentinel answer is edited" in text
    assert "    taught in 03_sentinel_answer_key.ipynb › A sentinel is not an unseen test" in text
    assert text.startswith(f"Drill finished: {len(CASES) - 3} of {len(CASES)} correct (92%).")


def test_only_the_first_check_of_a_case_is_scored():
    case = CASES[0]
    progress = Progress.start(CASES, 1)
    first = progress.record(case, grade(case, Answer(case.check)))
    again = progress.record(case, grade(case, correct_answer(case)))
    assert again == first and not first.correct
    assert progress.done == 1 and progress.correct == 0


def test_a_case_outside_the_drill_is_not_recorded():
    progress = Progress.start(CASES[:3], 1)
    with pytest.raises(InvalidInputError, match="not in this drill"):
        progress.record(CASES[5], grade(CASES[5], correct_answer(CASES[5])))


def test_next_key_walks_the_order_and_skips_checked_cases():
    progress = Progress.start(CASES, 3, size=4)
    assert progress.next_key() == progress.order[0]
    second = BY_KEY[progress.order[1]]
    progress.record(second, grade(second, correct_answer(second)))
    assert progress.next_key() == progress.order[0]
    assert progress.score_line() == "Score: 1 of 1 correct (100%) · 1 of 4 cases done"
    assert Progress.start(CASES, 3, size=4).score_line() == "Score: nothing checked yet · 0 of 4 cases done"


def test_context_rules_are_missed_only_by_a_wrong_answer():
    case = next(c for c in CASES if c.id == "rubric-change-pending")
    assert rules_missed(case, grade(case, correct_answer(case))) == ()
    wrong = grade(case, Answer("sentinels", flag=True))
    assert rules_missed(case, wrong) == (*wrong.rules_missed, "sk-rubric-change")


@given(data=st.data())
def test_rule_scores_never_miss_more_than_they_see(data):
    cases = data.draw(st.lists(st.sampled_from(CASES), min_size=1, max_size=8, unique_by=lambda c: c.key))
    wrong = data.draw(st.sets(st.sampled_from([c.id for c in cases])))
    progress = answered(cases, wrong)
    scores = rule_scores(progress, cases, RULES)
    assert all(0 <= s.missed <= s.seen for s in scores)
    assert sum(bool(s.missed) for s in scores) >= (1 if wrong else 0)
    assert progress.correct == len(cases) - len(wrong)


# --- progress files ----------------------------------------------------------------------


def test_progress_round_trips_through_a_file(tmp_path):
    progress = answered(CASES[:10], {CASES[2].id, CASES[7].id}, seed=11)
    path = write_version1(progress, tmp_path / "mine.json")
    assert load_progress(path, cases=CASES, rules=RULES) == progress
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == PROGRESS_FORMAT


@given(data=st.data())
def test_any_progress_round_trips(data):
    seed = data.draw(st.integers())
    size = data.draw(st.integers(1, len(CASES)))
    progress = Progress.start(CASES, seed, size=size)
    for key in data.draw(st.lists(st.sampled_from(progress.order), unique=True)):
        case = BY_KEY[key]
        answer = data.draw(st.sampled_from([correct_answer(case), *slips(case)]))
        progress.record(case, grade(case, answer))
    with tempfile.TemporaryDirectory() as folder:
        path = write_version1(progress, Path(folder) / "p.json")
        assert load_progress(path, cases=CASES, rules=RULES) == progress


def test_the_default_path_is_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    progress = answered(CASES[:2])
    write_version1(progress, Path(DEFAULT_PROGRESS_FILE))
    assert load_progress(cases=CASES, rules=RULES) == progress


ODD_PATHS = {
    "null character": ("a\x00b.json", "a\\x00b.json", "it contains a null character"),
    "lone surrogate": ("\ud800.json", "\\ud800.json", "it has characters a file name cannot hold"),
    "name too long": ("x" * 300 + ".json", "x" * 300 + ".json", "File name too long"),
}


@pytest.mark.parametrize("name", list(ODD_PATHS))
def test_an_odd_path_gives_a_progress_file_error_naming_it(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    path, shown, reason = ODD_PATHS[name]
    with pytest.raises(ProgressFileError) as loading:
        load_progress(path, cases=CASES, rules=RULES)
    assert str(loading.value) == f"{shown}: cannot be read ({reason})"
    assert loading.value.path == shown and shown.isascii()
    assert list(tmp_path.iterdir()) == []


def _valid_data() -> dict:
    return answered(CASES[:3], {CASES[1].id}).to_data()


def _edited(**changes) -> bytes:
    return json.dumps({**_valid_data(), **changes}).encode("utf-8")


def _attempt_edited(**changes) -> bytes:
    data = _valid_data()
    data["attempts"][0].update(changes)
    return json.dumps(data).encode("utf-8")


BAD_FILES = {
    "empty": (b"", "is not a progress file: not valid JSON"),
    "not json": (b"my notes\n", "is not a progress file: not valid JSON"),
    "not utf-8": (b"\xff\xfe{}", "is not UTF-8 text"),
    "a list": (b"[]", "is not a practice progress file"),
    "foreign object": (b'{"name": "something else"}\n', "is not a practice progress file"),
    "duplicate key": (b'{"format": "x", "format": "y"}', "duplicate key"),
    "newer version": (_edited(version=2), "has version 2; this helper reads version 1"),
    "version true": (_edited(version=True), "has version true"),
    "extra field": (_edited(note="hi"), "expected the fields"),
    "seed text": (_edited(seed="5"), 'seed is "5", expected a whole number'),
    "empty order": (_edited(order=[]), "order must be a non-empty list"),
    "repeated case": (_edited(order=["sentinels/empty-baseline"] * 2), "order lists a case twice"),
    "unknown case": (_edited(order=["target-scope/no-such-case"]), "which is not a practice case here"),
    "attempts not a list": (_edited(attempts={}), "attempts must be a list"),
    "attempt outside order": (_attempt_edited(case="sentinels/empty-baseline"), "not in the drill's order"),
    "attempt case not text": (_attempt_edited(case=["x"]), "not in the drill's order"),
    "correct not bool": (_attempt_edited(correct=1), "expected true or false"),
    "unknown rule": (_attempt_edited(correct=False, rules_missed=["zz"]), '"zz", which is not a rule of'),
    "rule not text": (_attempt_edited(correct=False, rules_missed=[[1]]), "list of distinct rule ids"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_corrupt_or_foreign_file_is_refused_and_left_untouched(tmp_path, name):
    content, message = BAD_FILES[name]
    path = tmp_path / "progress.json"
    path.write_bytes(content)
    with pytest.raises(ProgressFileError) as loading:
        load_progress(path, cases=CASES, rules=RULES)
    assert message in str(loading.value)
    assert str(path) in str(loading.value)
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == ["progress.json"]


def test_a_correct_attempt_that_misses_a_rule_is_corrupt():
    data = _valid_data()
    first = next(a for a in data["attempts"] if a["correct"])
    first["rules_missed"] = [BY_KEY[first["case"]].rules[0]]
    with pytest.raises(ProgressFileError, match="a correct check misses no rule"):
        progress_from_data(data, cases=CASES, rules=RULES, source="p.json")


def test_a_folder_and_a_missing_file_give_clear_errors(tmp_path):
    with pytest.raises(ProgressFileError, match="is a folder, not a progress file"):
        load_progress(tmp_path, cases=CASES, rules=RULES)
    with pytest.raises(ProgressFileError, match="does not exist; save your progress there first"):
        load_progress(tmp_path / "none.json", cases=CASES, rules=RULES)
    assert list(tmp_path.iterdir()) == []


def test_a_progress_file_error_is_a_value_error_naming_the_path():
    error = ProgressFileError("is broken", path="p.json")
    assert isinstance(error, ValueError)
    assert (str(error), error.message, error.path) == ("p.json: is broken", "is broken", "p.json")


def test_attempts_serialise_as_the_file_stores_them():
    assert Attempt("sentinels/x", False, ("sk-changed",)).to_data() == {
        "case": "sentinels/x",
        "correct": False,
        "rules_missed": ["sk-changed"],
        "outcome": "missed",
        "hints": 0,
    }


# --- the worked-answer guard --------------------------------------------------------------


def test_the_worked_answer_guard_covers_the_practice_cases():
    from helpers.trainee.worked_answers import check_worked_answers, worked_answer_key, worked_cases

    keys = worked_answer_key(worked_cases())
    assert {case.key for case in CASES} <= set(keys)
    baseline = helpers.load_baseline(project_root() / "fixtures" / "worked_answers" / "baseline.json")
    assert {case.key for case in CASES} <= set(baseline.answers)
    assert check_worked_answers().intact


def test_an_edited_practice_answer_is_caught_by_the_guard(fixtures_copy):
    from helpers.trainee.worked_answers import check_worked_answers

    path = fixtures_copy / "practice_cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cases"][0]["expected"]["preserved"] = True
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert check_worked_answers(fixtures_copy).changed == (CASES[0].key,)


def test_practice_case_is_a_case_with_rules():
    case = CASES[0]
    assert isinstance(case, PracticeCase) and isinstance(case, Case)
    assert case.key == f"{case.check}/{case.id}"
    assert list(case.to_data()) == [
        "check",
        "id",
        "title",
        "input",
        "expected",
        "decision",
        "reason",
        "rules",
    ]
