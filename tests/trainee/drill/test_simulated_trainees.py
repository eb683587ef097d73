"""Is "mastered" competent? Simulated trainees (``tests/support/trainees.py``) drive the real drill engine.

Trainees who take a shortcut (constant answers, a reason picked by position,
length or shared words, copying the last revealed answer by position, taking
every hint) must not complete the drill in 300 cases, and hold at most two
mastered rules at case 300. A perfect trainee masters every rule within four
cases per rule, in one sitting. The trainees blind to one kind of look-alike
are in ``test_simulated_blind_spots.py``.
"""

from __future__ import annotations

import pytest
from trainees import (
    HORIZON,
    REASON_SHORTCUTS,
    SEEDS,
    CopyAfterReveal,
    Strategy,
    constant,
    every_hint,
    perfect,
    reason_by,
    run,
)

from helpers.trainee.cases.generators import GENERATORS

# --- the evidence ------------------------------------------------------------------------------------

SHORTCUTS: dict[str, Strategy] = {
    **{
        f"constant-{'all' if ticked else 'none'}-{flag}": constant(ticked, flag)
        for ticked in (False, True)
        for flag in (True, False, None)
    },
    **{f"reason-{name}": reason_by(pick) for name, pick in REASON_SHORTCUTS.items()},
    "every-hint": every_hint,
}


@pytest.mark.parametrize("name", sorted(SHORTCUTS))
def test_a_shortcut_never_completes_the_drill(name: str) -> None:
    for seed in SEEDS:
        session, completed = run(SHORTCUTS[name], seed)
        assert completed is None, f"{name} completed the drill in {completed} cases (seed {seed})"
        assert session.mastery.step == HORIZON
        assert len(session.mastered) <= 2, f"{name} holds {session.mastered} at case {HORIZON} (seed {seed})"


def test_copying_the_last_revealed_answer_by_position_never_completes_the_drill() -> None:
    for seed in SEEDS:
        copier = CopyAfterReveal()
        session, completed = run(copier.answer, seed, after=copier.learn)
        assert completed is None, f"completed in {completed} cases (seed {seed})"
        assert len(session.mastered) <= 2, f"holds {session.mastered} at case {HORIZON} (seed {seed})"


def test_a_perfect_trainee_masters_every_rule_within_four_cases_per_rule_in_one_sitting() -> None:
    for seed in SEEDS:
        session, completed = run(perfect, seed)
        rules = len(session.mastery.rules)
        assert completed is not None and completed <= 4 * rules, (seed, completed)
        per_rule: dict[str, int] = {}
        for attempt in session.attempts:
            per_rule[attempt.rule] = per_rule.get(attempt.rule, 0) + 1
            assert attempt.outcome == "correct", attempt
        # A rule without look-alike kinds takes at most four cases; the three rules that make look-alike
        # cases carry every kind's FACET_STREAK cases between them, within the same total.
        plain = [rule for rule in per_rule if not GENERATORS[rule].facets]
        assert plain and max(per_rule[rule] for rule in plain) <= 4, per_rule
        assert session.mastered == list(session.mastery.rules)
