"""Which rule decides when several hold: the worked example of notebooks 02 and 03."""

from __future__ import annotations

import pytest

from helpers.teach.cases import deciding_rule as keyed
from helpers.teach.cases.generators import GENERATORS, generate
from helpers.teach.cases.rules import project_rules
from helpers.teach.views.case_html import deciding_rule_block


@pytest.mark.parametrize("rule_id", sorted(GENERATORS))
def test_the_block_lists_every_rule_that_holds_and_marks_only_the_keyed_one(rule_id: str) -> None:
    check = GENERATORS[rule_id].check
    for seed in range(5):
        case = generate(rule_id, seed)
        text = deciding_rule_block(check, case.input, case.context).text
        lines = [line for line in text.splitlines() if line.startswith("- ")]
        holding = [r.id for r in project_rules(check) if keyed.applies(r.id, check, case.input, case.context)]
        assert [line[2:].partition(":")[0] for line in lines] == holding
        deciding = [line for line in lines if ": decides this case." in line]
        assert deciding == [next(line for line in lines if line.startswith(f"- {rule_id}:"))]


def test_the_notebooks_examples_have_a_less_specific_rule_beside_the_deciding_one() -> None:
    text = deciding_rule_block(
        "target-scope", {"original": ["induction", "refresher"], "rewritten": ["refresher", "payroll"]}
    ).text
    assert "- ts-several: decides this case." in text
    assert "- ts-lost: holds, but does not decide." in text
    text = deciding_rule_block(
        "sentinels", {"baseline": {"S1": "R", "S2": "A"}, "proposed": {"S1": "r"}}
    ).text
    assert "- sk-several: decides this case." in text
    assert "- sk-whitespace-case: holds, but does not decide." in text
