"""Jupyter widgets for the notebooks. Only this subpackage imports ipywidgets.

* :class:`CaseExercise`: work a case yourself, check it, reveal the answer.
* :class:`TargetScopeSandbox` and :class:`SentinelSandbox`: edit an input, see the result live.
* :class:`PracticeDrill`: a scored drill over the practice cases (``04_practice.ipynb``).

Taught in ``01_start_here.ipynb``; used in ``02_…`` and ``03_…``.
"""

from .exercise import CaseExercise
from .practice import PracticeDrill
from .sandbox import SentinelSandbox, TargetScopeSandbox

__all__ = ["CaseExercise", "PracticeDrill", "SentinelSandbox", "TargetScopeSandbox"]
