"""A mastery drill as a progress file keeps it: plain data, with no engine inside.

The trainer reads every file into these records and never builds a drill to do
so; the engine resumes a record (:meth:`helpers.trainee.drill.engine.DrillSession.resume`)
and writes itself back as one (:meth:`helpers.trainee.drill.engine.DrillSession.record`).
Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from helpers.trainee.drill.mastery import Mastery, drill_facets
from helpers.trainee.drill.times import now_text

__all__ = ["DrillRecord"]


@dataclass
class DrillRecord:
    """One trainee's mastery drill: its attempts (and the states rebuilt from them) and how it began.

    ``seed_kind`` says how the seed was chosen (``fresh``, ``fixed`` or ``unrecorded``), and
    ``model_since`` is the first case the current mastery model served.
    """

    mastery: Mastery
    trainee: str = ""
    started: str = ""
    check: str | None = None
    seed_kind: str = "fixed"
    model_since: int = 1

    @classmethod
    def begun(cls, rules: Sequence[str], *, seed: int, trainee: str = "", seed_kind: str) -> DrillRecord:
        """A drill over ``rules`` with nothing worked yet, begun now (an old file's migration)."""
        mastery = Mastery.start(list(rules), seed=seed, facets=drill_facets(rules))
        return cls(mastery, trainee=trainee, started=now_text(), seed_kind=seed_kind)
