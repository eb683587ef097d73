"""The app's cap on simultaneous kernels: the rule, its busy sentence, and jupyter_server's kernel manager
holding to it with real kernels (three started at once under a cap of two). Every wait is bounded."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tornado import web

from helpers.trainer.serve.kernel_cap import CappedKernelManager, admits, busy_message

# --- the rule -----------------------------------------------------------------


@given(st.integers(min_value=0, max_value=500), st.integers(min_value=1, max_value=500))
def test_one_more_kernel_is_admitted_only_below_the_cap(open_kernels: int, cap: int) -> None:
    assert admits(open_kernels, cap) is (open_kernels + 1 <= cap)


def test_the_busy_message_counts_the_open_pages_and_says_what_to_do() -> None:
    assert busy_message(3) == (
        "The app is busy: 3 pages are open, the most it serves at once. "
        "Close a tab you no longer need, or try again in a minute."
    )
    assert busy_message(1).startswith("The app is busy: 1 page is open,")


# --- the kernel manager, with real kernels -------------------------------------------


async def _three_at_once_under_a_cap_of_two() -> None:
    manager = CappedKernelManager(max_kernels=2)
    try:
        started = await asyncio.gather(*(manager.start_kernel() for _ in range(3)), return_exceptions=True)
        refused = [result for result in started if isinstance(result, BaseException)]
        ids = [result for result in started if isinstance(result, str)]
        assert len(ids) == 2 and len(refused) == 1, started
        assert isinstance(refused[0], web.HTTPError) and refused[0].status_code == 503
        assert refused[0].reason == "The app is busy"
        assert refused[0].log_message == busy_message(2)
        assert sorted(manager.list_kernel_ids()) == sorted(ids)
        assert manager.open_kernels() == 2

        # A refusal reserves nothing, and an ended kernel frees its place.
        await manager.shutdown_kernel(ids[0], now=True)
        third = await manager.start_kernel()
        assert manager.open_kernels() == 2 and third not in ids
        with pytest.raises(web.HTTPError):
            await manager.start_kernel()
        # A kernel already running is returned, not counted again.
        assert await manager.start_kernel(kernel_id=third) == third
    finally:
        await manager.shutdown_all(now=True)
    assert manager.open_kernels() == 0


def test_kernels_started_at_once_never_pass_the_cap() -> None:
    asyncio.run(asyncio.wait_for(_three_at_once_under_a_cap_of_two(), timeout=120))
