"""Which rule decides when several hold: the worked example of notebooks 02 and 03."""

from __future__ import annotations

import re

import pytest

from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.rules import project_rules
from helpers.trainee.views.case_html import deciding_rule_block


@pytest.mark.parametrize("rule_id", sorted(GENERATORS))
def test_the_block_lists_every_rule_that_holds_and_marks_only_the_keyed_one(rule_id: str) -> None:
    check = GENERATORS[rule_id].check
    for seed in range(5):
        case = generate(rule_id, seed)
        text = deciding_rule_block(check, case.input, case.context).text
        lines = [line for line in text.splitlines() if line.startswith("- ")]
        holding = [r.id for r in project_rules(check) if keyed.applies(r.id, check, case.input, case.context)]
        assert [re.match(r"- .+ \((\S+)\): ", line).group(1) for line in lines] == holding  # type: ignore[union-attr]
        deciding = [line for line in lines if ": decides this case." in line]
        assert deciding == [next(line for line in lines if f"({rule_id}): " in line)]


def test_the_notebooks_examples_have_a_less_specific_rule_beside_the_deciding_one() -> None:
    text = deciding_rule_block(
        "target-scope", {"original": ["induction", "refresher"], "rewritten": ["refresher", "payroll"]}
    ).text
    assert "(ts-several): decides this case." in text
    assert "(ts-lost): holds, but does not decide." in text
    text = deciding_rule_block(
        "sentinels", {"baseline": {"S1": "R", "S2": "A"}, "proposed": {"S1": "r"}}
    ).text
    assert "(sk-several): decides this case." in text
    assert "(sk-whitespace-case): holds, but does not decide." in text


def test_a_revision_holds_only_where_it_covers_a_change_exactly() -> None:
    """Approved S4 R to R-2 beside S6 changed with no revision: the fault decides, the revision holds."""
    data = {"baseline": {"S4": "R", "S6": "B"}, "proposed": {"S4": "R-2", "S6": "crème brûlée"}}
    revision = {
        "id": "S4",
        "from": "R",
        "to": "R-2",
        "approved": "by the board",
        "new_baseline_written": False,
    }
    text = deciding_rule_block("sentinels", data, {"rubric_revision": revision}).text
    assert "(sk-changed): decides this case." in text
    assert "(sk-rubric-change): holds, but does not decide." in text
    assert keyed.approved_change(data, {"rubric_revision": revision}) == "S4"
    assert keyed.unapproved_faults(data, {"rubric_revision": revision}) == ([], ["S6"])
    alone = {"baseline": data["baseline"], "proposed": {"S4": "R-2", "S6": "B"}}
    assert keyed.keyed_rule("sentinels", alone, {"rubric_revision": revision}) == "sk-rubric-change"
    for other in (
        {**revision, "id": "S6", "from": "B"},
        {**revision, "to": "R-3"},
        {**revision, "from": "r"},
    ):
        context = {"rubric_revision": other}  # of an unchanged sentinel, or not the change made
        assert keyed.approved_change(alone, context) is None
        assert keyed.keyed_rule("sentinels", alone, context) == "sk-changed"
        assert "sk-rubric-change" not in deciding_rule_block("sentinels", alone, context).text
