"""What every case maker of a check must do, asked of one check's makers at a time.

Used by ``tests/trainee/cases/test_target_scope_generators.py`` and ``test_sentinel_generators.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.generators import GENERATORS
from helpers.trainee.cases.vocabulary import load_vocabulary

VOCAB = load_vocabulary()


@dataclass(frozen=True)
class Makers:
    """One check's case makers: the module, its rules' prefix, the input's two fields, its decoys."""

    check: str
    module: Any
    prefix: str
    fields: tuple[str, str]
    decoys: Callable[..., Any]

    @property
    def own(self) -> dict[str, Any]:
        """The makers of this check, by the rule each is for."""
        return {rule_id: g for rule_id, g in GENERATORS.items() if g.check == self.check}


def every_rule_has_a_maker_from_the_module(m: Makers) -> None:
    assert m.own and all(rule_id.startswith(m.prefix) for rule_id in m.own)
    for generator in m.own.values():
        assert generator.make.__module__ == m.module.__name__


def made_case_is_keyed_to_its_rule(m: Makers, rule_id: str, seed: int, facet: str | None) -> None:
    generator = m.own[rule_id]
    made = generator.make(random.Random(seed), VOCAB, facet)
    assert set(m.fields) <= set(made.input)
    assert keyed.keyed_rule(m.check, made.input, made.context) == rule_id
    assert made.reason.strip()
    if facet is not None:
        assert facet in keyed.facets(m.check, made.input, made.context)
    assert generator.make(random.Random(seed), VOCAB, facet) == made


def decoys_add_only_context(m: Makers, rule_id: str, seed: int) -> None:
    made = m.own[rule_id].make(random.Random(seed), VOCAB, None)
    decoyed = m.decoys(rule_id, made, random.Random(seed + 1), VOCAB)
    assert keyed.keyed_rule(m.check, decoyed.input, decoyed.context) == rule_id
    assert decoyed.reason.startswith(made.reason)
    for name in m.fields:
        assert decoyed.input[name] == made.input[name]
    if decoyed is not made:
        assert len(decoyed.reason) > len(made.reason)


def decoys_show_up_now_and_then(m: Makers) -> None:
    rule_id = sorted(m.own)[0]
    decoyed = 0
    for seed in range(40):
        made = m.own[rule_id].make(random.Random(seed), VOCAB, None)
        decoyed += m.decoys(rule_id, made, random.Random(seed), VOCAB) is not made
    assert 0 < decoyed < 40
