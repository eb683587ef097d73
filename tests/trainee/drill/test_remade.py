"""Drill cases made again for the trainer: the same cases, reasons and verdicts the drill itself gives."""

from __future__ import annotations

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.cases.generators import GENERATORS, generate, load_vocabulary
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.drill.remade import RemadeCases
from helpers.trainee.grading import Answer, candidate_ids, correct_answer, grade, reason_options

RULES = tuple(load_rules())
VOCAB = load_vocabulary()


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, int, str | None]:
    rule = draw(st.sampled_from(sorted(GENERATORS)))
    facet = draw(st.sampled_from([None, *GENERATORS[rule].facets]))
    return rule, draw(st.integers(min_value=0, max_value=9 * 10**15)), facet


@settings(max_examples=examples(200), deadline=None)
@given(cases(), st.data())
def test_every_verdict_is_grades_own_and_the_right_answer_is_fully_correct(made, data):
    rule, seed, facet = made
    remade = RemadeCases(VOCAB, RULES)
    case = generate(rule, seed, vocabulary=VOCAB, facet=facet)
    right = correct_answer(case)
    assert grade(case, right, ask_reason=True, rules=RULES).correct  # what the shortcut relies on
    assert remade.graded(rule, seed, facet, right) == grade(case, right, ask_reason=True, rules=RULES)
    ids = candidate_ids(case)
    options = [r.id for r in reason_options(case, rules=RULES, salt="1:1")]
    answer = Answer(
        case.check,
        frozenset(data.draw(st.lists(st.sampled_from(ids), unique=True) if ids else st.just([]))),
        frozenset(data.draw(st.lists(st.sampled_from(ids), unique=True) if ids else st.just([]))),
        data.draw(st.sampled_from([True, False, None])),
        data.draw(st.booleans()),
        data.draw(st.sampled_from([None, *options])),
    )
    assert remade.graded(rule, seed, facet, answer) == grade(case, answer, ask_reason=True, rules=RULES)


@settings(max_examples=examples(100), deadline=None)
@given(cases())
def test_a_case_and_its_reasons_are_the_drills_own(made):
    rule, seed, facet = made
    remade = RemadeCases(VOCAB, RULES)
    case = generate(rule, seed, vocabulary=VOCAB, facet=facet)
    assert remade.case(rule, seed, facet).case == case
    offered = remade.offered(rule, seed, facet, "7:3")
    assert offered == tuple(r.id for r in reason_options(case, rules=list(RULES), salt="7:3"))
