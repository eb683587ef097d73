"""The mastery model's numbers (``helpers/trainee/drill/model.py``): streaks, gaps, outcomes, kinds' runs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.drill.model import (
    FACET_STREAK,
    FACET_STREAK_MAX,
    FACET_STREAKS,
    MASTERY_MODEL,
    MODELS,
    OUTCOMES,
    facet_streak,
)


def test_the_current_model_is_the_last_one_replayable_and_correct_is_the_one_unaided_outcome() -> None:
    assert MODELS == (1, 2, 3) and MODELS[-1] == MASTERY_MODEL
    assert OUTCOMES[0] == "correct" and set(OUTCOMES) == {
        "correct",
        "helped",
        "missed",
        "revealed",
        "skipped",
    }
    with pytest.raises(TypeError):
        FACET_STREAKS["case"] = 2  # type: ignore[index]  # read-only


def test_a_kind_needs_one_right_case_or_three_for_homoglyphs_then_one_more_per_miss() -> None:
    assert facet_streak("case", 0) == FACET_STREAK == 1
    assert [facet_streak("case", missed) for missed in range(8)] == [1, 2, 3, 4, 5, 6, 6, 6]
    assert [facet_streak("homoglyph", missed) for missed in range(5)] == [3, 4, 5, 6, 6]


def test_older_models_are_replayed_with_their_own_runs() -> None:
    assert facet_streak("homoglyph", 4, model=1) == 1
    assert [facet_streak("case", missed, model=2) for missed in range(5)] == [3, 4, 5, 6, 6]


@given(
    st.sampled_from(["case", "nfd", "homoglyph", "zero-width"]), st.integers(0, 50), st.sampled_from(MODELS)
)
def test_the_run_never_shrinks_with_a_miss_and_never_passes_the_cap(
    facet: str, missed: int, model: int
) -> None:
    run = facet_streak(facet, missed, model)
    assert 1 <= run <= FACET_STREAK_MAX
    assert facet_streak(facet, missed + 1, model) >= run
