"""Two answer keys walked side by side: :func:`first_difference` skips the windows where both keys
hold the same IDs with the same answers and finds the first place they part. The sentinel fast
path (:func:`helpers.team.fast_checks.fast_sentinels`) and the key-list comparison
(:func:`helpers.team.key_lists.compare_key_lists`) each decide what a parting means. Taught in
``05_check_your_data.ipynb`` ("How it stays fast and small").
"""

from __future__ import annotations

import operator
from itertools import compress, count

#: How many IDs are compared at a time.
WINDOW = 1024


def first_difference(
    ids: list[str],
    answers: list[str],
    their_ids: list[str],
    their_answers: list[str],
    i: int,
    j: int,
    window: int = WINDOW,
) -> tuple[int, int]:
    """From ``ids[i]`` and ``their_ids[j]`` on, the first ``(i, j)`` where the IDs or the answers
    differ, walking both in step; where one side ends first, the ``(i, j)`` it ended at.

    ``window`` IDs and answers are compared at a time as lists: comparing neighbours in memory
    costs a fraction of a hash lookup per ID. Taught in ``05_check_your_data.ipynb``.
    """
    ours_left, theirs_left = len(ids), len(their_ids)
    while i < ours_left and j < theirs_left:
        size = min(window, ours_left - i, theirs_left - j)
        mine, other = ids[i : i + size], their_ids[j : j + size]
        said, told = answers[i : i + size], their_answers[j : j + size]
        if mine == other and said == told:
            i += size
            j += size
            continue
        # The first place in this window where the IDs or the answers differ.
        first = next(
            compress(count(), map(operator.or_, map(operator.ne, mine, other), map(operator.ne, said, told)))
        )
        return i + first, j + first
    return i, j
