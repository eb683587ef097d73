"""A trainee who answers from which blocks a case shows never completes the drill or passes.

Query wording, an earlier key, an ``unresolved`` field and a rubric revision
appear on cases of other rules too (``helpers.trainee.cases.generators._with_decoys``),
so reading the case's shape instead of its content fails. The trainee is
otherwise perfect (``tests/support/shortcut_trainees.py``). Three drill seeds and
20 papers in the fast loop; ten seeds and 200 papers with ``--all``.
"""

from __future__ import annotations

import os

from shortcut_trainees import shape_checkout_answers, shape_drill_strategy
from trainees import HORIZON, SEEDS, run

from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainer.marking import grade_checkout
from helpers.trainer.paper import issue_checkout

PAPERS = range(200) if os.environ.get("EIC_ALL_TESTS") == "1" else range(20)
BLOCKS = {"unresolved": "ts-unresolved", "query": "ts-query-unvalidated"}
CONTEXT = {"earlier_key": "sk-nonsentinel-changed", "rubric_revision": "sk-rubric-change"}


def test_every_block_appears_on_cases_of_other_rules_too() -> None:
    seen: dict[str, set[str]] = {block: set() for block in (*BLOCKS, *CONTEXT)}
    for rule_id, generator in GENERATORS.items():
        for seed in range(60):
            case = generate(
                rule_id, seed, facet=(generator.facets or (None,))[seed % len(generator.facets or (None,))]
            )
            for block in BLOCKS:
                if block in case.input:
                    seen[block].add(rule_id)
            for block in CONTEXT:
                if block in case.context:
                    seen[block].add(rule_id)
    for block, own in {**BLOCKS, **CONTEXT}.items():
        check = GENERATORS[own].check
        others = {r for r, g in GENERATORS.items() if g.check == check and r != own}
        assert len(seen[block] & others) >= len(others) - 1, (block, sorted(others - seen[block]))


def test_reading_the_cases_shape_never_completes_the_drill() -> None:
    for seed in SEEDS:
        session, completed = run(shape_drill_strategy, seed)
        assert completed is None, f"completed the drill in {completed} cases (seed {seed})"
        assert session.mastery.step == HORIZON


def test_reading_the_cases_shape_fails_the_checkout() -> None:
    passed = 0
    for seed in PAPERS:
        issued = issue_checkout("Shape reader", seed=seed, issued="2026-12-01T09:00:00Z", sequential=False)
        passed += grade_checkout(shape_checkout_answers(issued.paper, issued.key), issued.key).passed
    assert passed <= 0.05 * len(PAPERS), f"passed {passed} of {len(PAPERS)} papers"
