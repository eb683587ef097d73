"""The reasons offered are drawn exactly as the plain six-try draw gives them, shortcuts and all.

:func:`helpers.trainee.reason_question.reason_options` skips draws of no rules (they take nothing from the
random stream); the cases, the reasons each drill offered and so every progress file depend on the
draw, so it is held here to the plain draw it replaced, over generated cases of every rule.
"""

from __future__ import annotations

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee import answers, grading, reason_question
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.rules import load_rules

RULES = tuple(load_rules())


def _plain_draw(case, rules, salt):
    """The draw as written before the shortcuts: six tries, every sample drawn, even of none."""
    right = grading.decisive_rules(case)
    offer = reason_question._offer(rules, case.check)
    keyed_rule, lengths = offer.known[right[0]], offer.length
    true_of = keyed.rules_that_apply(offer.ids, case.check, case.input, answers.case_context(case))
    rng = reason_question._case_rng(case, salt)
    also_true = [rule for rule in offer.every if rule.id != keyed_rule.id and rule.id in true_of]
    eligible = [rule for rule in offer.every if rule.id != keyed_rule.id and rule.id not in true_of]
    length = lengths[keyed_rule.id]
    shorter = [rule for rule in eligible if lengths[rule.id] < length]
    longer = [rule for rule in eligible if lengths[rule.id] >= length]
    rank = rng.randint(0, grading.REASON_OPTIONS - 1)
    count = min(grading.TRUE_DISTRACTORS, len(also_true))
    wanted = grading.REASON_OPTIONS - 1 - count
    low, high = max(0, wanted - len(longer)), min(wanted, len(shorter))
    best = None
    for _try in range(6):
        distractors = rng.sample(also_true, count)
        below_true = sum(1 for rule in distractors if lengths[rule.id] < length)
        below = min(max(rank - below_true, low), high)
        miss = abs(below + below_true - rank)
        if best is None or miss < best[0]:
            best = (miss, distractors, below)
        if miss == 0:
            break
    assert best is not None
    _miss, distractors, below = best
    chosen = [keyed_rule, *distractors, *rng.sample(shorter, below), *rng.sample(longer, wanted - below)]
    rng.shuffle(chosen)
    return [rule.id for rule in chosen]


@settings(max_examples=examples(600), deadline=None)
@given(
    st.sampled_from(sorted(GENERATORS)),
    st.integers(min_value=0, max_value=2**40),
    st.text(max_size=12),
)
def test_the_reasons_offered_are_the_plain_draws(rule, seed, salt):
    case = generate(rule, seed)
    offered = [r.id for r in grading.reason_options(case, rules=RULES, salt=salt)]
    assert offered == _plain_draw(case, RULES, salt)


def test_cases_whose_draw_has_no_true_distractor_are_among_those_compared():
    # the shortcut is taken: some cases have no other true rule, so the draw of true ones is of none
    none_true = 0
    for rule in sorted(GENERATORS):
        for seed in range(8):
            case = generate(rule, seed)
            offer = reason_question._offer(RULES, case.check)
            true_of = keyed.rules_that_apply(offer.ids, case.check, case.input, answers.case_context(case))
            none_true += true_of <= set(grading.decisive_rules(case))
            assert [r.id for r in grading.reason_options(case, rules=RULES, salt="7:1")] == _plain_draw(
                case, RULES, "7:1"
            )
    assert none_true > 0
