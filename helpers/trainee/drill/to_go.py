"""How far a drill is from complete, in one line: "N of 19 rules mastered, about M cases to go".

:func:`cases_to_go` is an **estimate**: the fewest cases that could complete the drill if every one
from now on were an unaided, correct first try. It is the one place that turns the completion rule
(:attr:`helpers.trainee.drill.mastery.Mastery.complete`) into a count, so when that rule changes, this
function changes with it. A miss puts it up again; it never says 0 before the drill is complete.
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from helpers.trainee.drill import sequential
from helpers.trainee.drill.mastery import Mastery, _makes
from helpers.trainee.drill.model import MASTERY_STREAK

__all__ = ["cases_to_go", "record_to_go", "progress_line"]


def record_to_go(mastery: Mastery) -> int:
    """The fewest right cases after which the whole record clears the sequential bar
    (:func:`helpers.trainee.drill.sequential.right_answers_needed`; 0 for a model-1 drill, which has none)."""
    if mastery.model == 1:
        return 0
    return sequential.right_answers_needed(*mastery.record_so_far())


def cases_to_go(mastery: Mastery) -> int:
    """About how many cases are left: the fewest that could complete the drill, all answered right.

    Each rule not mastered needs the rest of its streak of :data:`MASTERY_STREAK`; each look-alike kind
    not secured needs the rest of its own streak, served by the rules that make it (so those cases
    count once); and the whole record must clear the sequential bar (:func:`record_to_go`). The drill's spacing of cases and its
    reviews of mastered rules can add a few more: it is an estimate, and says "about".
    """
    if mastery.complete:
        return 0
    rules_left = {
        rule: MASTERY_STREAK - mastery.states[rule].streak
        for rule in mastery.rules
        if not mastery.states[rule].mastered
    }
    open_facets = {f: s for f, s in mastery.facet_states.items() if not s.secured}
    facets_left = sum(max(state.needed - state.streak, 1) for state in open_facets.values())
    shared = sum(left for rule, left in rules_left.items() if set(_makes(rule)) & set(open_facets))
    streaks = sum(rules_left.values()) + max(facets_left - shared, 0)
    return max(streaks, record_to_go(mastery), mastery.fewest_cases_left(), 1)


def progress_line(mastery: Mastery) -> str:
    """The drill's progress in one line, and what "mastered" means, so the count reads true early on.

    >>> from helpers.trainee.drill.mastery import Mastery
    >>> progress_line(Mastery.start(["ts-lost", "ts-added"], seed=1))
    '0 of 2 rules mastered, about 6 cases to go (a rule is mastered after 3 right first tries in a row, unaided).'
    """
    mastered = len(mastery.mastered)
    total = len(mastery.rules)
    meaning = f"a rule is mastered after {MASTERY_STREAK} right first tries in a row, unaided"
    if mastery.complete:
        return f"{mastered} of {total} rules mastered: the drill is complete ({meaning})."
    under_way = sum(1 for s in mastery.states.values() if not s.mastered and s.streak > 0)
    started = f", {under_way} under way" if under_way else ""
    left = cases_to_go(mastery)
    return f"{mastered} of {total} rules mastered{started}, about {left} case{'s' if left != 1 else ''} to go ({meaning})."
