"""Trainees who pick any true rule, not the one that decides, never complete the drill or pass.

They build every list, flag and action right and pick the reason among the
options true of the case: the first shown, or the least specific
(``tests/support/shortcut_trainees.py``). They drive the real
:class:`~helpers.trainee.drill.engine.DrillSession` and the real
``issue_checkout``/``grade_checkout``. Three drill seeds and 20 papers in the
fast loop; ten seeds and 200 papers with ``--all``.
"""

from __future__ import annotations

import os

import pytest
from shortcut_trainees import PICKS, checkout_answers, drill_strategy
from trainees import HORIZON, SEEDS, run

from helpers.trainer.marking import grade_checkout
from helpers.trainer.paper import issue_checkout

PAPERS = range(200) if os.environ.get("EIC_ALL_TESTS") == "1" else range(20)


@pytest.mark.parametrize("name", sorted(PICKS))
def test_picking_a_true_but_not_deciding_reason_never_completes_the_drill(name: str) -> None:
    for seed in SEEDS:
        session, completed = run(drill_strategy(PICKS[name]), seed)
        assert completed is None, f"{name} completed the drill in {completed} cases (seed {seed})"
        assert session.mastery.step == HORIZON


@pytest.mark.parametrize("name", sorted(PICKS))
def test_picking_a_true_but_not_deciding_reason_fails_the_checkout(name: str) -> None:
    passed = 0
    for seed in PAPERS:
        issued = issue_checkout("Shortcut", seed=seed, issued="2026-12-01T09:00:00Z", sequential=False)
        result = grade_checkout(checkout_answers(issued.paper, issued.key, PICKS[name]), issued.key)
        passed += result.passed
    assert passed <= 0.05 * len(PAPERS), f"{name} passed {passed} of {len(PAPERS)} papers"
