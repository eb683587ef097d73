"""The sentinels case makers (``helpers/trainee/cases/sentinel_generators.py``): each draws a case its rule decides."""

from __future__ import annotations

import generator_checks as checks
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.cases import sentinel_generators as makers

MAKERS = checks.Makers("sentinels", makers, "sk-", ("baseline", "proposed"), makers.sk_decoys)
OWN = MAKERS.own


def test_every_rule_of_the_check_has_a_maker_from_this_module() -> None:
    checks.every_rule_has_a_maker_from_the_module(MAKERS)


@settings(max_examples=examples(160), deadline=None)
@given(st.sampled_from(sorted(OWN)), st.integers(min_value=0, max_value=2**32), st.data())
def test_a_made_case_is_keyed_to_its_rule_and_the_same_for_a_seed(rule_id: str, seed: int, data) -> None:
    facet = data.draw(st.sampled_from([None, *OWN[rule_id].facets]))
    checks.made_case_is_keyed_to_its_rule(MAKERS, rule_id, seed, facet)


@settings(max_examples=examples(160), deadline=None)
@given(st.sampled_from(sorted(OWN)), st.integers(min_value=0, max_value=2**32))
def test_decoys_add_only_context_and_never_change_the_keyed_rule(rule_id: str, seed: int) -> None:
    checks.decoys_add_only_context(MAKERS, rule_id, seed)


def test_decoys_show_up_now_and_then() -> None:
    checks.decoys_show_up_now_and_then(MAKERS)
