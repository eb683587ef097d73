"""The project under its own distinctive name: finds ``helpers`` and says in one line when another is in the way.

``helpers`` is a common name: a team's own ``helpers.py`` or ``helpers/`` beside a notebook (or
earlier on ``sys.path``) is imported instead of this project's package, and the notebooks then fail
with an error that names neither. Each notebook's first cell imports this module first; it finds the
``helpers`` that ``import helpers`` would load and, when that is not the package installed beside this
module, raises :class:`HelpersShadowedError`, one line naming the file in the way and the fix.
``python3 tasks.py lab``, ``test`` and ``notebooks`` run the same check before they start.
Standard library only. Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

__all__ = ["HelpersShadowedError", "expected_helpers", "shadowing_helpers", "check"]


class HelpersShadowedError(ImportError):
    """Another module named ``helpers`` would be imported instead of this project's package."""


def expected_helpers() -> Path:
    """This project's ``helpers/__init__.py``: installed beside this module (a wheel or an editable install)."""
    return Path(__file__).resolve().parent / "helpers" / "__init__.py"


def _resolved(origin: str | None) -> Path | None:
    return Path(origin).resolve() if origin and os.path.isabs(origin) else None


def shadowing_helpers() -> str | None:
    """The file ``import helpers`` would load when it is not this project's package, else None."""
    loaded = sys.modules.get("helpers")
    if loaded is not None:
        origin = getattr(loaded, "__file__", None)
    else:
        spec = importlib.util.find_spec("helpers")
        if spec is None:
            return "(nothing: no module named helpers can be found)"
        origin = spec.origin
    found = _resolved(origin)
    if found is None:
        return str(origin) if origin else "(a namespace folder named helpers, with no __init__.py)"
    return None if found == expected_helpers().resolve() else str(found)


def check() -> None:
    """Raise :class:`HelpersShadowedError`, in one line, when ``import helpers`` would load another module."""
    other = shadowing_helpers()
    if other is not None:
        raise HelpersShadowedError(
            f"`import helpers` loads {other}, not this project's package ({expected_helpers().parent}): "
            "rename or move that file or folder, then restart the kernel"
        )


check()  # the module's one job, on import: the notebooks' first line is `import eval_integrity_helpers`
