"""The keyed rule, fair reason options and hints that never pre-check, checked against independent readings.

The classifier and the "why not" predicates below are written here from the rule
statements in ``fixtures/rules.json``; they share no code with
``helpers.trainee.cases.deciding_rule``, so an error in one shows as a disagreement.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter

import pytest
from budget import examples, sampled
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.generators import GENERATORS, generate, load_vocabulary
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import (
    FILLED_CASE_RULES,
    REASON_OPTIONS,
    TRUE_DISTRACTORS,
    Answer,
    decisive_rules,
    grade,
    grade_reason,
    hints,
    reason_options,
)

RULES = load_rules()
BY_ID = {rule.id: rule for rule in RULES}
VOCAB = load_vocabulary()


@functools.cache
def many(rule_id: str) -> tuple:
    return tuple(generate(rule_id, seed, vocabulary=VOCAB) for seed in range(1000))


# --- an independent reading of what a reader may take for the same string -------------------

#: Cyrillic and Greek letters a reader takes for Latin ones, written out here on their own.
_LOOKS_LATIN = str.maketrans(
    "аеорсухіјѕһԁАВЕКМНОРСТХЅІЈοικνΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijshdABEKMHOPCTXSIJoikvABEZHIKMNOPTYX",
)


def seen_as(text: str) -> str:
    """What a careless reader sees: compatibility forms folded, format characters gone, case and ends ignored."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", text).translate(_LOOKS_LATIN).strip().casefold()


def alike(a: str, b: str) -> bool:
    return a != b and seen_as(a) == seen_as(b)


def only_case_or_space(a: str, b: str) -> bool:
    return a != b and "".join(a.split()).lower() == "".join(b.split()).lower()


def _unseen_fold(text: str) -> str:
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", text).translate(_LOOKS_LATIN)


def only_unseen(a: str, b: str) -> bool:
    """Equal once format characters go and compatibility forms fold, without touching case or spaces."""
    return a != b and not only_case_or_space(a, b) and _unseen_fold(a) == _unseen_fold(b)


# --- an independent classifier ------------------------------------------------------------------


def covered(data, context):
    """The sentinel whose change the revision shown covers exactly: same id, from and to; else None."""
    revision = context.get("rubric_revision") or {}
    sentinel = revision.get("id")
    before, after = data["baseline"].get(sentinel), data["proposed"].get(sentinel)
    if before is None or after is None or before == after:
        return None
    return sentinel if (revision.get("from"), revision.get("to")) == (before, after) else None


def classify(check: str, data, context) -> str:
    if check == "target-scope":
        original, rewritten = list(data["original"]), list(data["rewritten"])
        if data.get("unresolved"):
            return "ts-unresolved"
        gone = [t for t in original if t not in rewritten]
        new = [t for t in rewritten if t not in original]
        if any(alike(t, r) for t in gone for r in rewritten) or any(
            alike(t, o) for t in new for o in original
        ):
            return "ts-exact-ids"
        if len(original) == 0 or len(rewritten) == 0:
            return "ts-empty"
        if gone and new:
            return "ts-several"
        if gone:
            return "ts-lost"
        if new:
            return "ts-added"
        if "rewritten_query" in data and data["rewritten_query"] != data.get("query", ""):
            return "ts-query-unvalidated"
        if len(set(original)) < len(original) or len(set(rewritten)) < len(rewritten):
            return "ts-duplicates"
        return "ts-order"
    baseline, proposed = data["baseline"], data["proposed"]
    if len(baseline) == 0:
        return "sk-empty-baseline"
    if all(s not in proposed for s in baseline):
        return "sk-all-missing"
    gone = [s for s in baseline if s not in proposed]
    edited = [s for s in baseline if s in proposed and proposed[s] != baseline[s]]
    if not gone and [s for s in edited if s != covered(data, context)] == [] and edited:
        return "sk-rubric-change"  # the revision covers the key's only fault exactly
    if gone and edited:
        return "sk-several"
    if gone:
        return "sk-missing"
    if edited:
        if all(only_case_or_space(baseline[s], proposed[s]) for s in edited):
            return "sk-whitespace-case"
        if all(only_unseen(baseline[s], proposed[s]) for s in edited):
            return "sk-invisible"
        return "sk-changed"
    earlier = context.get("earlier_key", {})
    if any(c not in baseline and c in proposed and proposed[c] != a for c, a in earlier.items()):
        return "sk-nonsentinel-changed"
    return "sk-new-case"


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_an_independent_classifier_agrees_with_the_keyed_rule(rule_id):
    """Every rule is decidable from what the trainee sees: 1,000 cases each, read afresh."""
    for case in many(rule_id):
        assert classify(case.check, case.input, case.context) == case.rules[0] == rule_id, case.input


def test_the_fixture_cases_are_keyed_by_what_they_show():
    for case in practice_cases():
        assert case.rules[0] == keyed.keyed_rule(case.check, case.input, case.context), case.id
        assert classify(case.check, case.input, case.context) == case.rules[0], case.id
    for case in helpers.filled_cases():
        assert FILLED_CASE_RULES[case.id] == (keyed.keyed_rule(case.check, case.input),), case.id
        assert decisive_rules(case) == FILLED_CASE_RULES[case.id]


# --- the "why not" sentences, each read as a predicate ------------------------------------------


def not_here_is_true(rule_id: str, case) -> bool:
    """Whether the rule's ``not_here`` sentence in rules.json is a true statement about ``case``."""
    data, context = case.input, case.context
    if case.check == "target-scope":
        original, rewritten = list(data["original"]), list(data["rewritten"])
        every = list(dict.fromkeys(original + rewritten))
        return {
            "ts-lost": all(t in rewritten for t in original),
            "ts-added": all(t in original for t in rewritten),
            "ts-order": set(original) != set(rewritten) or original == rewritten,
            "ts-duplicates": len(set(original)) == len(original) and len(set(rewritten)) == len(rewritten),
            "ts-exact-ids": not any(alike(a, b) for a in every for b in every),
            "ts-empty": bool(original) and bool(rewritten),
            "ts-several": not (set(original) - set(rewritten) and set(rewritten) - set(original)),
            "ts-unresolved": not data.get("unresolved"),
            "ts-query-unvalidated": not data.get("query") and not data.get("rewritten_query"),
        }[rule_id]
    baseline, proposed = data["baseline"], data["proposed"]
    edited = [s for s in baseline if s in proposed and proposed[s] != baseline[s]]
    gone = [s for s in baseline if s not in proposed]
    earlier = context.get("earlier_key", {})
    return {
        "sk-changed": not edited,
        "sk-whitespace-case": not any(only_case_or_space(baseline[s], proposed[s]) for s in edited),
        "sk-invisible": not any(only_unseen(baseline[s], proposed[s]) for s in edited),
        "sk-missing": not gone,
        "sk-all-missing": any(s in proposed for s in baseline),
        "sk-new-case": all(i in baseline for i in proposed),
        "sk-nonsentinel-changed": not any(
            c not in baseline and c in proposed and proposed[c] != a for c, a in earlier.items()
        ),
        "sk-empty-baseline": bool(baseline),
        "sk-rubric-change": covered(data, context) is None,
        "sk-several": not (gone and edited),
    }[rule_id]


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_every_offered_wrong_option_is_truly_wrong_for_its_case(rule_id):
    """Each distractor's "why not" sentence, shown after a wrong pick, is true of the case shown."""
    for case in many(rule_id)[: sampled(1000, 200)]:
        options = reason_options(case, rules=RULES)
        assert len(options) == REASON_OPTIONS == len({o.id for o in options})
        assert all(o.check == case.check for o in options)
        assert [o.id for o in options].count(rule_id) == 1
        also_true = [r.id for r in RULES if r.check == case.check and not not_here_is_true(r.id, case)]
        for option in options:
            if option.id == rule_id:
                continue
            (feedback,) = grade_reason(case, option.id, RULES)
            assert rule_id not in feedback.message
            if not_here_is_true(option.id, case):
                assert option.not_here in feedback.message
            else:  # true of the case, but a more specific rule decides it
                assert "a more specific rule decides it" in feedback.message, (option.id, case.input)
        true_shown = [o.id for o in options if o.id != rule_id and o.id in also_true]
        assert len(true_shown) == min(TRUE_DISTRACTORS, len(also_true) - 1), (case.input, true_shown)
        assert not not_here_is_true(rule_id, case), (rule_id, case.input)


def test_where_several_rules_are_true_a_less_specific_one_is_offered():
    """The reason item asks which rule decides: "any true rule" is a wrong answer often."""
    several = 0
    for rule_id in GENERATORS:
        for case in many(rule_id)[:200]:
            options = [o.id for o in reason_options(case, rules=RULES)]
            true_shown = [o for o in options if o != rule_id and not not_here_is_true(o, case)]
            several += bool(true_shown)
    assert several >= 0.3 * 200 * len(GENERATORS), several


def test_the_fixture_cases_offer_wrong_options_true_only_where_another_rule_decides():
    for case in practice_cases():
        for option in reason_options(case, rules=RULES):
            if option.id != case.rules[0] and not not_here_is_true(option.id, case):
                (feedback,) = grade_reason(case, option.id, RULES)
                assert "a more specific rule decides it" in feedback.message, (case.id, option.id)


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_the_keyed_option_sits_in_every_position_equally(rule_id):
    positions = Counter([o.id for o in reason_options(c, rules=RULES)].index(rule_id) for c in many(rule_id))
    for place in range(REASON_OPTIONS):
        assert abs(positions[place] / 1000 - 1 / REASON_OPTIONS) <= 0.05, positions


def test_the_salt_reshuffles_the_options():
    case = many("ts-lost")[3]
    orders = {tuple(o.id for o in reason_options(case, rules=RULES, salt=str(i))) for i in range(20)}
    assert len(orders) > 5
    assert reason_options(case, rules=RULES) == reason_options(case, rules=RULES)


def _length_rank(case) -> int:
    """How many of the shown options are shorter than the keyed one."""
    shown = [len(f"{o.id}: {o.statement}") for o in reason_options(case, rules=RULES)]
    mine = len(f"{case.rules[0]}: {BY_ID[case.rules[0]].statement}")
    return sum(length < mine for length in shown)


def test_picking_the_longest_or_shortest_option_is_right_about_one_time_in_five():
    """Over every rule but the longest and shortest of each check, length gives little away."""
    extremes = set()
    for check in ("target-scope", "sentinels"):
        lengths = sorted((len(f"{r.id}: {r.statement}"), r.id) for r in RULES if r.check == check)
        extremes |= {lengths[0][1], lengths[-1][1]}
    ranks: Counter = Counter()
    for rule_id in GENERATORS:
        if rule_id in extremes:
            continue
        spread = Counter(_length_rank(c) for c in many(rule_id))
        ranks.update(spread)
        assert spread[0] <= 450 and spread[REASON_OPTIONS - 1] <= 450, (rule_id, spread)
    total = sum(ranks.values())
    assert ranks[0] / total <= 0.25, ranks  # "pick the shortest"
    assert ranks[REASON_OPTIONS - 1] / total <= 0.25, ranks  # "pick the longest"
    # No rank by length is a good bet either. The true-but-less-specific options are chosen for
    # being true, not for their length, which leaves the middle rank a little above one in three.
    assert max(ranks.values()) / total <= 0.35, ranks


# --- hints -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", list(GENERATORS))
def test_hints_come_from_the_case_alone_and_never_pre_check(rule_id):
    for case in many(rule_id)[:200]:
        ladder = hints(case, rules=RULES)
        assert len(ladder) == 3 and [r[:13] for r in ladder] == [
            "Hint 1 of 3, ",
            "Hint 2 of 3, ",
            "Hint 3 of 3, ",
        ]
        assert ladder[2].startswith(f"Hint 3 of 3, the rule that decides this case: {rule_id}. ")
        assert BY_ID[rule_id].statement in ladder[2]
        assert rule_id not in ladder[0] + ladder[1]
        for rung in ladder:
            assert "already right" not in rung and "Tick " not in rung and "Untick " not in rung
        shown = set(case.expected.get("missing", [])) | set(case.expected.get("added", []))
        shown |= set(case.expected.get("changed", [])) | set(case.expected.get("unresolved", []))
        for item in shown:
            assert all(item not in rung for rung in ladder[:2]), (item, ladder)


def test_hints_take_no_answer():
    case = many("sk-missing")[0]
    with pytest.raises(TypeError):
        hints(case, Answer(case.check))  # type: ignore[misc]
    assert hints(case) == hints(case, rules=RULES)


# --- grading names the look-alike rules -------------------------------------------------------


@pytest.mark.parametrize(
    ("rule_id", "field", "rule_named"),
    [
        ("ts-exact-ids", "missing", "ts-exact-ids"),
        ("ts-exact-ids", "added", "ts-exact-ids"),
        ("sk-whitespace-case", "changed", "sk-whitespace-case"),
        ("sk-invisible", "changed", "sk-invisible"),
        ("sk-several", "missing", "sk-several"),
        ("ts-several", "added", "ts-several"),
    ],
)
def test_a_left_out_id_names_the_rule_of_its_kind(rule_id, field, rule_named):
    """Leaving every ID of one field out draws feedback naming the rule of that kind, never the ID."""
    from dataclasses import replace

    from helpers.trainee.grading import correct_answer

    for case in many(rule_id)[:200]:
        right = correct_answer(case)
        first = field == "missing"
        wrong = replace(right, missing=frozenset()) if first else replace(right, second=frozenset())
        found = [m for m in grade(case, wrong).mistakes if m.field == field]
        assert found and {m.rule for m in found} == {rule_named}, (case.input, found)
        for m in found:
            assert all(i not in m.message for i in case.expected[field])


# --- lookalike_kind and applies, for any strings -----------------------------------------------

words = st.text(alphabet="abcdefghiklmnoprstuvxyz-", min_size=2, max_size=12).filter(lambda w: w.strip("-"))


def _make(word: str, kind: str) -> str:
    """A form of ``word`` that differs by ``kind`` alone, made here without the helpers."""
    return {
        "case": word.upper(),
        "outer-space": word + " ",
        "no-break-space": "\u00a0" + word,
        "zero-width": word[0] + "\u200b" + word[1:],
        "full-width": chr(ord(word[0]) + 0xFEE0) + word[1:] if "!" <= word[0] <= "~" else word,
        "homoglyph": word.translate(str.maketrans("aeopcxy", "аеорсху")),
    }.get(kind, word)


@settings(max_examples=examples(200))
@given(
    word=words,
    kind=st.sampled_from(["case", "outer-space", "no-break-space", "zero-width", "full-width", "homoglyph"]),
)
def test_a_form_of_one_kind_is_named_that_kind(word, kind):
    form = _make(word, kind)
    if form == word or (kind == "case" and word.upper() == word):
        return
    assert keyed.lookalike_kind(word, form) == kind
    assert keyed.lookalike_kind(form, word) == kind
    assert alike(word, form)


@given(word=st.sampled_from(["café", "crèche", "naïve", "résumé", "São"]), suffix=words)
def test_a_decomposed_form_is_named_nfd(word, suffix):
    text = word + suffix
    assert keyed.lookalike_kind(text, unicodedata.normalize("NFD", text)) == "nfd"


@settings(max_examples=examples(300))
@given(a=st.text(max_size=8), b=st.text(max_size=8))
def test_lookalike_kind_is_none_for_equal_or_unlike_strings_and_symmetric(a, b):
    kind = keyed.lookalike_kind(a, b)
    assert kind == keyed.lookalike_kind(b, a)
    assert keyed.lookalike_kind(a, a) is None
    if kind is not None:
        assert kind in keyed.FACETS and a != b
        assert keyed.reader_form(a) == keyed.reader_form(b)


ids = st.sampled_from(
    ["payroll", "Payroll", "payroll ", "pay\u200broll", "induction", "ｉnduction", "refresher"]
)


@settings(max_examples=examples(400))
@given(
    original=st.lists(ids, max_size=5),
    rewritten=st.lists(ids, max_size=5),
    unresolved=st.lists(st.sampled_from(["the old one", "spring course"]), max_size=2),
)
def test_applies_matches_each_target_scope_not_here_sentence(original, rewritten, unresolved):
    from types import SimpleNamespace

    data = {"original": original, "rewritten": rewritten, "unresolved": unresolved}
    case = SimpleNamespace(check="target-scope", input=data, context={})
    for rule in RULES:
        if rule.check == "target-scope":
            assert keyed.applies(rule.id, "target-scope", data) == (not not_here_is_true(rule.id, case)), (
                rule.id
            )
    key = keyed.keyed_rule("target-scope", data)
    if original != rewritten or key != "ts-order":
        assert keyed.applies(key, "target-scope", data), (key, data)


answers = st.sampled_from(["R", "r", "R ", "approve", "аpprove", "app\u200brove", "café", "cafe\u0301", "B"])
sentinel_ids = st.sampled_from(["S1", "S2", "S3", "C4", "s1"])


@settings(max_examples=examples(400))
@given(
    baseline=st.dictionaries(sentinel_ids, answers, max_size=4),
    proposed=st.dictionaries(sentinel_ids, answers, max_size=4),
    earlier=st.one_of(st.none(), st.dictionaries(sentinel_ids, answers, max_size=4)),
    revised=st.booleans(),
)
def test_applies_matches_each_sentinel_not_here_sentence(baseline, proposed, earlier, revised):
    from types import SimpleNamespace

    context: dict = {}
    if earlier is not None:
        context["earlier_key"] = earlier
    if revised and baseline:
        first = next(iter(baseline))
        context["rubric_revision"] = {
            "id": first,
            "from": baseline[first],
            "to": proposed.get(first, "x"),
            "approved": "by the board on 2026-01-01",
            "new_baseline_written": False,
        }
    data = {"baseline": baseline, "proposed": proposed}
    case = SimpleNamespace(check="sentinels", input=data, context=context)
    for rule in RULES:
        if rule.check == "sentinels":
            assert keyed.applies(rule.id, "sentinels", data, context) == (
                not not_here_is_true(rule.id, case)
            ), rule.id
    assert (
        keyed.keyed_rule("sentinels", data, context) == classify("sentinels", data, context)
        or baseline == proposed
    )


def test_facets_name_what_decides_a_case():
    assert keyed.facets("target-scope", {"original": ["payroll"], "rewritten": ["Payroll"]}) == ("case",)
    assert keyed.facets("target-scope", {"original": ["payroll"], "rewritten": ["payroll"]}) == ()
    same_both_sides = {"original": ["café", "payroll"], "rewritten": ["payroll", "café"]}
    assert keyed.facets("target-scope", same_both_sides) == ()
    assert keyed.facets("sentinels", {"baseline": {"S1": "approve"}, "proposed": {"S1": "аpprove"}}) == (
        "homoglyph",
    )
    assert keyed.facets("sentinels", {"baseline": {"S1": "A"}, "proposed": {"s1": "A"}}) == ("case",)
