"""The hint ladder (``helpers/trainee/hints.py``): the method, where to look, then the deciding rule."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.answers import candidate_ids
from helpers.trainee.cases.filled import get_case
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.hints import hints

RULES = {rule.id: rule for rule in load_rules()}


def test_three_rungs_the_third_naming_the_rule_and_its_statement() -> None:
    ladder = hints(get_case("sentinel-mutated"))
    assert [rung.split(",")[0] for rung in ladder] == ["Hint 1 of 3", "Hint 2 of 3", "Hint 3 of 3"]
    assert ladder[0].startswith("Hint 1 of 3, the method: first count the baseline's sentinels;")
    assert ladder[1] == (
        "Hint 2 of 3, where to look: compare each sentinel's answer in the baseline with its answer in "
        "the proposed key."
    )
    assert (
        ladder[2]
        == f"Hint 3 of 3, the rule that decides this case: sk-changed. {RULES['sk-changed'].statement}"
    )


def test_a_rule_not_among_those_given_is_named_without_a_statement() -> None:
    ladder = hints(get_case("lost-comparison"), rules=[])
    assert ladder[2] == "Hint 3 of 3, the rule that decides this case: ts-lost."


def test_a_case_with_no_deciding_rule_falls_back_to_the_rule_its_input_shows() -> None:
    stranger = replace(get_case("new-target"), id="someone-elses-case")
    assert hints(stranger)[2].startswith("Hint 3 of 3, the rule that decides this case: ts-added.")


@given(st.sampled_from(sorted(GENERATORS)), st.integers(min_value=0, max_value=2**20))
def test_no_rung_names_an_id_of_the_case(rule: str, seed: int) -> None:
    case = generate(rule, seed)
    ladder = hints(case)
    assert len(ladder) == 3 and f"decides this case: {rule}." in ladder[2]
    # the first two rungs come from the check and the rule alone, never the case's IDs
    assert hints(replace(case, input={}, expected=case.expected))[:1] == ladder[:1]
    for case_id in candidate_ids(case):
        if len(case_id) > 3:
            assert all(f" {case_id} " not in rung and f"`{case_id}`" not in rung for rung in ladder)
