"""The trainee's widgets (the trainer's and the team's are in their own packages); nothing imports them.

* :class:`CaseExercise`: work a case yourself, check it, reveal the answer (``02_…``, ``03_…``).
* :class:`TargetScopeSandbox` and :class:`SentinelSandbox`: edit an input, see the result live.
* :class:`MasteryDrill`: fresh generated cases until every rule is mastered (``04_practice.ipynb``).
* :class:`PracticeDrill`: the set course, a scored drill over the practice cases (``04_practice.ipynb``).

Each widget is loaded on first use (PEP 562), so a notebook that imports one
widget loads only that widget's modules. Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

import importlib

# ``typing`` is not imported at run time, to keep the import cheap;
# mypy is told this constant is true (``always_true`` in pyproject.toml).
TYPE_CHECKING = False

#: Public name → module that defines it.
_EXPORTS: dict[str, str] = {
    "CaseExercise": "helpers.trainee.widgets.exercise",
    "MasteryDrill": "helpers.trainee.widgets.mastery",
    "PracticeDrill": "helpers.trainee.widgets.practice",
    "SentinelSandbox": "helpers.trainee.widgets.sandbox",
    "TargetScopeSandbox": "helpers.trainee.widgets.sandbox",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module_name = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'helpers.trainee.widgets' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from typing import Any

    from helpers.team.widgets.data import DataCheckPanel as DataCheckPanel
    from helpers.trainee.widgets.exercise import CaseExercise as CaseExercise
    from helpers.trainee.widgets.mastery import MasteryDrill as MasteryDrill
    from helpers.trainee.widgets.practice import PracticeDrill as PracticeDrill
    from helpers.trainee.widgets.sandbox import SentinelSandbox as SentinelSandbox
    from helpers.trainee.widgets.sandbox import TargetScopeSandbox as TargetScopeSandbox
    from helpers.trainer.widgets.checkout import CheckoutWidget as CheckoutWidget
