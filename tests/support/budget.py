"""How much the fast loop samples; ``python3 tasks.py test --all`` (``EIC_ALL_TESTS=1``, as CI runs it) takes all.

The fast loop (``python3 tasks.py test``) runs every test, but a test that draws many
examples or walks many generated cases takes a share of them, so the loop stays within
its time. CI runs each at full strength.
"""

from __future__ import annotations

import os

#: True under ``python3 tasks.py test --all`` (CI): every test at full strength.
EVERY = os.environ.get("EIC_ALL_TESTS") == "1"


def sampled(every: int, fast: int) -> int:
    """``every`` under ``--all``; ``fast`` in the fast loop."""
    return every if EVERY else min(every, fast)


def examples(every: int) -> int:
    """A Hypothesis test's ``max_examples``: ``every`` under ``--all``, an eighth of it (at least 10) in the fast loop."""
    return sampled(every, max(10, every // 8))
