"""The next action a check-out case calls for, from its expected output and keyed rule."""

from __future__ import annotations

from helpers.core.sentinels import check_sentinels
from helpers.trainer.next_actions import ACTIONS, keyed_action


def test_keyed_actions_follow_the_expected_output():
    class Case:
        def __init__(self, check, expected, input=None, context=None):
            self.check, self.expected, self.input, self.context = check, expected, input or {}, context or {}

    assert (
        keyed_action(Case("sentinels", {"changed": ["S1"], "intact": False}), "sk-rubric-change")
        == ACTIONS[4]
    )
    assert keyed_action(Case("target-scope", {"held": "needs staff labels"}), "ts-unresolved") == ACTIONS[1]
    assert keyed_action(Case("sentinels", {"error": "empty"}), "sk-empty-baseline") == ACTIONS[2]
    assert keyed_action(Case("target-scope", {"preserved": True}), "ts-order") == "accept"
    assert keyed_action(Case("sentinels", {"intact": True}), "sk-new-case") == "accept"
    assert keyed_action(Case("target-scope", {"preserved": False}), "ts-lost") == ACTIONS[0]
    assert keyed_action(Case("sentinels", {"intact": False}), "sk-missing") == ACTIONS[2]


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
    assert keyed_action(only, "sk-rubric-change") == ACTIONS[4]
    assert keyed_action(both, "sk-changed") == keyed_action(gone, "sk-several") == ACTIONS[5]
    assert keyed_action(elsewhere, "sk-changed") == ACTIONS[2]
    assert "new baseline" not in ACTIONS[2]
