"""The trainee's widgets (the trainer's and the team's are in their own packages); nothing imports them.

* :class:`CaseExercise`: work a case yourself, check it, reveal the answer (``02_…``, ``03_…``).
* :class:`TargetScopeSandbox` and :class:`SentinelSandbox`: edit an input, see the result live.
* :class:`MasteryDrill`: fresh generated cases until every rule is mastered (``04_practice.ipynb``).
* :class:`PracticeDrill`: the set course, a scored drill over the practice cases (``04_practice.ipynb``).

Taught in ``01_start_here.ipynb``.
"""

from helpers.trainee.widgets.exercise import CaseExercise
from helpers.trainee.widgets.mastery import MasteryDrill
from helpers.trainee.widgets.practice import PracticeDrill
from helpers.trainee.widgets.sandbox import SentinelSandbox, TargetScopeSandbox

__all__ = [
    "CaseExercise",
    "MasteryDrill",
    "PracticeDrill",
    "SentinelSandbox",
    "TargetScopeSandbox",
]
