"""Jupyter widgets for the notebooks. Only this subpackage imports ipywidgets, and nothing imports it.

* :class:`CaseExercise`: work a case yourself, check it, reveal the answer (``02_…``, ``03_…``).
* :class:`TargetScopeSandbox` and :class:`SentinelSandbox`: edit an input, see the result live.
* :class:`MasteryDrill`: fresh generated cases until every rule is mastered (``04_practice.ipynb``).
* :class:`PracticeDrill`: the set course, a scored drill over the practice cases (``04_practice.ipynb``).
* :class:`CheckoutWidget`: sit a check-out paper, one try per case (``07_checkout.ipynb``).
* :class:`DataCheckPanel`: check a whole file, by path or upload (``05_check_your_data.ipynb``).

Taught in ``01_start_here.ipynb``.
"""

from helpers.widgets.checkout import CheckoutWidget
from helpers.widgets.data import DataCheckPanel
from helpers.widgets.exercise import CaseExercise
from helpers.widgets.mastery import MasteryDrill
from helpers.widgets.practice import PracticeDrill
from helpers.widgets.sandbox import SentinelSandbox, TargetScopeSandbox

__all__ = [
    "CaseExercise",
    "CheckoutWidget",
    "DataCheckPanel",
    "MasteryDrill",
    "PracticeDrill",
    "SentinelSandbox",
    "TargetScopeSandbox",
]
