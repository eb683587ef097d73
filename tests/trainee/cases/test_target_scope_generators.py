"""The target-scope case makers (``helpers/trainee/cases/target_scope_generators.py``): each draws a case its rule decides."""

from __future__ import annotations

import random

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases import target_scope_generators as makers
from helpers.trainee.cases.generators import GENERATORS
from helpers.trainee.cases.vocabulary import load_vocabulary

VOCAB = load_vocabulary()
#: This module's makers, by the rule each is for.
OWN = {rule_id: g for rule_id, g in GENERATORS.items() if g.check == "target-scope"}


def test_every_rule_of_the_check_has_a_maker_from_this_module() -> None:
    assert OWN and all(rule_id.startswith("ts-") for rule_id in OWN)
    for generator in OWN.values():
        assert generator.make.__module__ == makers.__name__


@settings(max_examples=examples(160), deadline=None)
@given(st.sampled_from(sorted(OWN)), st.integers(min_value=0, max_value=2**32), st.data())
def test_a_made_case_is_keyed_to_its_rule_and_the_same_for_a_seed(rule_id: str, seed: int, data) -> None:
    generator = OWN[rule_id]
    facet = data.draw(st.sampled_from([None, *generator.facets]))
    made = generator.make(random.Random(seed), VOCAB, facet)
    assert set(("original", "rewritten")) <= set(made.input)
    assert keyed.keyed_rule("target-scope", made.input, made.context) == rule_id
    assert made.reason.strip()
    if facet is not None:
        assert facet in keyed.facets("target-scope", made.input, made.context)
    assert generator.make(random.Random(seed), VOCAB, facet) == made


@settings(max_examples=examples(160), deadline=None)
@given(st.sampled_from(sorted(OWN)), st.integers(min_value=0, max_value=2**32))
def test_decoys_add_only_context_and_never_change_the_keyed_rule(rule_id: str, seed: int) -> None:
    made = OWN[rule_id].make(random.Random(seed), VOCAB, None)
    decoyed = makers.ts_decoys(rule_id, made, random.Random(seed + 1), VOCAB)
    assert keyed.keyed_rule("target-scope", decoyed.input, decoyed.context) == rule_id
    assert decoyed.reason.startswith(made.reason)
    for name in ("original", "rewritten"):
        assert decoyed.input[name] == made.input[name]
    if decoyed is not made:
        assert len(decoyed.reason) > len(made.reason)


def test_decoys_show_up_now_and_then() -> None:
    rule_id = sorted(OWN)[0]
    decoyed = 0
    for seed in range(40):
        made = OWN[rule_id].make(random.Random(seed), VOCAB, None)
        decoyed += makers.ts_decoys(rule_id, made, random.Random(seed), VOCAB) is not made
    assert 0 < decoyed < 40
