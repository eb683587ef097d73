"""Is "mastered" competent? A trainee blind to one kind of look-alike never completes the drill.

The same simulated trainees as ``test_simulated_trainees.py`` (``tests/support/trainees.py``), each
reading one look-alike kind (NFD, case, outer spaces, zero-width, full-width, homoglyphs) as the
ID it imitates, over the same seeds; a file of its own so the two halves run on both workers.
"""

from __future__ import annotations

import pytest
from trainees import BLIND_SPOTS, SEEDS, blind, run


@pytest.mark.parametrize("kind", sorted(BLIND_SPOTS))
def test_a_trainee_with_one_blind_spot_never_completes_the_drill(kind: str) -> None:
    for seed in SEEDS:
        session, completed = run(blind(kind), seed)
        assert completed is None, f"blind to {kind}: completed in {completed} cases (seed {seed})"
        assert kind not in session.mastery.secured
