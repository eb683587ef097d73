"""Every generated case is keyed to the decision a team must take, checked by an oracle of its own.

The oracle below reads a case as the seeds and issue 42 state the rules, and shares no code
with ``helpers.trainee.cases.deciding_rule``:

* a missing or changed sentinel holds the key before scoring; new non-sentinel cases are allowed;
* an approved rubric revision decides a case only when it covers the change exactly: its id, its
  ``from`` equal to the baseline's answer and its ``to`` equal to the proposed answer;
* any other fault (a sentinel missing, or changed with no such revision) decides over it: the
  decision holds the key and never calls for a new baseline for that fault;
* where both apply, the decision names both: hold for the unapproved part, a new explicit baseline
  (keeping the old one) for the approved part.

It checks the keyed rule, the decision, the check-out's next action and the reason's grading
of every case it is shown, over every generator, every look-alike kind and many seeds.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

import pytest
from budget import examples, sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.cases.generators import GENERATORS, generate, load_vocabulary
from helpers.trainee.grading import grade_reason
from helpers.trainer.next_actions import keyed_action

VOCAB = load_vocabulary()

# --- the oracle -------------------------------------------------------------------------------

#: Latin look-alikes from Cyrillic and Greek, written out here on their own.
_LATIN = str.maketrans(
    "аеорсухіјѕһԁАВЕКМНОРСТХЅІЈοικνΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijshdABEKMHOPCTXSIJoikvABEZHIKMNOPTYX",
)


def _blurred(text: str) -> str:
    """Format characters gone, compatibility forms folded, other scripts read as Latin."""
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", text).translate(_LATIN)


def _looks_same(a: str, b: str) -> bool:
    return a != b and _blurred(a).strip().casefold() == _blurred(b).strip().casefold()


def _case_or_space_only(a: str, b: str) -> bool:
    return a != b and "".join(a.split()).lower() == "".join(b.split()).lower()


def _unseen_only(a: str, b: str) -> bool:
    return a != b and not _case_or_space_only(a, b) and _blurred(a) == _blurred(b)


@dataclass(frozen=True)
class Verdict:
    """What the oracle says a case calls for."""

    rule: str
    decision: str  # "refuse", "accept", "accept-review-wording", "reject", "hold-labels", "hold", "rebaseline", "both"
    held: frozenset[str] = frozenset()  # sentinels held with no approved revision
    approved: str | None = None  # the sentinel whose change a revision covers exactly


def _scope(data: dict) -> Verdict:
    original, rewritten = data["original"], data["rewritten"]
    if data.get("unresolved"):
        return Verdict("ts-unresolved", "hold-labels")
    lost = [t for t in original if t not in rewritten]
    new = [t for t in rewritten if t not in original]
    if any(_looks_same(t, r) for t in lost for r in rewritten) or any(
        _looks_same(t, o) for t in new for o in original
    ):
        rule = "ts-exact-ids"
    elif not original or not rewritten:
        rule = "ts-empty"
    elif lost and new:
        rule = "ts-several"
    elif lost:
        rule = "ts-lost"
    elif new:
        rule = "ts-added"
    elif data.get("rewritten_query", data.get("query")) != data.get("query"):
        return Verdict("ts-query-unvalidated", "accept-review-wording")
    elif len(set(original)) < len(original) or len(set(rewritten)) < len(rewritten):
        rule = "ts-duplicates"
    else:
        rule = "ts-order"
    if lost or new:
        return Verdict(rule, "reject")
    return Verdict(rule, "accept")


def _covered(baseline: dict, proposed: dict, revision: dict | None) -> str | None:
    if not revision:
        return None
    sentinel = revision["id"]
    if sentinel not in baseline or sentinel not in proposed or baseline[sentinel] == proposed[sentinel]:
        return None
    if revision["from"] == baseline[sentinel] and revision["to"] == proposed[sentinel]:
        return sentinel
    return None


def _key(data: dict, context: dict) -> Verdict:
    baseline, proposed = data["baseline"], data["proposed"]
    if not baseline:
        return Verdict("sk-empty-baseline", "refuse")
    missing = {s for s in baseline if s not in proposed}
    changed = {s for s in baseline if s in proposed and proposed[s] != baseline[s]}
    if missing == set(baseline):
        return Verdict("sk-all-missing", "hold", frozenset(missing))
    approved = _covered(baseline, proposed, context.get("rubric_revision"))
    held = frozenset((missing | changed) - {approved})
    if approved is not None and not held:
        return Verdict("sk-rubric-change", "rebaseline", approved=approved)
    if missing and changed:
        rule = "sk-several"
    elif missing:
        rule = "sk-missing"
    elif changed and all(_case_or_space_only(baseline[s], proposed[s]) for s in changed):
        rule = "sk-whitespace-case"
    elif changed and all(_unseen_only(baseline[s], proposed[s]) for s in changed):
        rule = "sk-invisible"
    elif changed:
        rule = "sk-changed"
    elif any(
        c not in baseline and proposed.get(c, a) != a for c, a in context.get("earlier_key", {}).items()
    ):
        return Verdict("sk-nonsentinel-changed", "accept")
    else:
        return Verdict("sk-new-case", "accept")
    return Verdict(rule, "both" if approved is not None else "hold", held, approved)


def oracle(case) -> Verdict:
    if case.check == "target-scope":
        return _scope(case.input)
    return _key(case.input, case.context)


# --- what a case must show for each verdict ------------------------------------------------------

_DECISIONS = {
    "refuse": "Refuse the input: supply the sentinel baseline",
    "accept": ("Accept the rewrite: scope preserved", "Key intact: scoring may go ahead"),
    "accept-review-wording": "Accept the target scope; have the wording reviewed",
    "reject": "Reject the rewrite: scope not preserved",
    "hold-labels": "Hold the rewrite: needs staff labels",
    "hold": "Hold the key before scoring",
    "rebaseline": "Hold the key; issue a new explicit baseline, keeping the old one",
}

_ACTIONS = {
    "refuse": "hold the key before scoring",
    "accept": "accept",
    "accept-review-wording": "accept",
    "reject": "repair the target list",
    "hold-labels": "hold for staff labels",
    "hold": "hold the key before scoring",
    "rebaseline": "issue a new baseline with the old one kept",
    "both": "hold the key, and issue a new baseline with the old one kept for the approved change only",
}

_SENTINEL = re.compile(r"\bS\d+\b")


def assert_keyed_right(case) -> Verdict:
    verdict = oracle(case)
    where = (case.id, case.input, case.context)
    assert case.rules[0] == verdict.rule, where
    if verdict.decision == "both":
        hold, _, rebaseline = case.decision.partition(";")
        assert hold.startswith("Hold the key for "), case.decision
        assert "new explicit baseline, keeping the old one" in rebaseline, case.decision
        assert set(_SENTINEL.findall(hold)) == verdict.held, (case.decision, verdict)
        assert set(_SENTINEL.findall(rebaseline)) == {verdict.approved}, (case.decision, verdict)
    else:
        wanted = _DECISIONS[verdict.decision]
        assert case.decision in ((wanted,) if isinstance(wanted, str) else wanted), (case.decision, where)
    if verdict.decision not in ("rebaseline", "both"):
        assert "new" not in case.decision.lower() and "rebaseline" not in case.decision.lower(), case.decision
    assert keyed_action(case, case.rules[0]) == _ACTIONS[verdict.decision], where
    if case.check == "sentinels":
        feedback = grade_reason(case, "sk-rubric-change")
        if verdict.rule == "sk-rubric-change":
            assert feedback == []
        else:  # a trainee who accepts the revision's change is never scored right
            assert len(feedback) == 1 and feedback[0].rule == verdict.rule
            holds = "holds for this case" in feedback[0].message
            assert holds == (verdict.approved is not None), (feedback[0].message, where)
    return verdict


# --- the proof --------------------------------------------------------------------------------


@st.composite
def generated(draw):
    rule_id = draw(st.sampled_from(sorted(GENERATORS)))
    facet = draw(st.sampled_from([None, *GENERATORS[rule_id].facets]))
    seed = draw(st.integers(min_value=0, max_value=2 * 10**9))
    return generate(rule_id, seed, vocabulary=VOCAB, facet=facet)


@settings(max_examples=examples(2000), deadline=None)
@given(case=generated())
def test_the_oracle_agrees_with_every_generated_case(case):
    assert_keyed_right(case)


@pytest.mark.parametrize("rule_id", sorted(GENERATORS))
def test_the_oracle_agrees_over_many_seeds_of_each_generator(rule_id):
    seen: Counter[str] = Counter()
    for seed in range(sampled(1000, 200)):
        seen[assert_keyed_right(generate(rule_id, seed, vocabulary=VOCAB)).decision] += 1
    if rule_id == "sk-rubric-change":
        assert set(seen) == {"rebaseline"}
    if rule_id in ("sk-changed", "sk-several"):  # an approved change beside a fault it does not cover
        assert seen["both"] >= 0.03 * sum(seen.values()), seen


def test_the_issues_drill_case_is_held_and_scores_the_rubric_reason_wrong():
    """S4 R to R-2 approved, S6 B to crème brûlée with no revision: hold S6, rebaseline S4 alone."""
    from dataclasses import replace

    template = next(
        case
        for seed in range(400)
        if "rubric_revision" in (case := generate("sk-changed", seed, vocabulary=VOCAB)).context
    )
    data = {"baseline": {"S4": "R", "S6": "B"}, "proposed": {"S4": "R-2", "S6": "crème brûlée"}}
    revision = {
        "id": "S4",
        "from": "R",
        "to": "R-2",
        "approved": "by the board",
        "new_baseline_written": False,
    }
    case = replace(
        template,
        input=data,
        expected={"missing": [], "changed": ["S4", "S6"], "intact": False},
        context={"rubric_revision": revision},
        rules=("sk-changed",),
    )
    verdict = oracle(case)
    assert verdict == Verdict("sk-changed", "both", frozenset({"S6"}), "S4")
    from helpers.trainee.cases.deciding_rule import keyed_rule

    assert keyed_rule("sentinels", data, case.context) == "sk-changed"
    (feedback,) = grade_reason(case, "sk-rubric-change")
    assert "a more specific rule decides it" in feedback.message
    assert keyed_action(case, "sk-changed") == _ACTIONS["both"]


def test_a_revision_of_an_unchanged_sentinel_is_no_rule_that_holds():
    found = 0
    for seed in range(sampled(600, 300)):
        case = generate("sk-missing", seed, vocabulary=VOCAB)
        if "rubric_revision" not in case.context:
            continue
        found += 1
        (feedback,) = grade_reason(case, "sk-rubric-change")
        assert "holds for this case" not in feedback.message
        assert "doesn't apply here" in feedback.message
        assert "No rubric revision shown here covers a change in this key exactly" in feedback.message
    assert found >= 20
