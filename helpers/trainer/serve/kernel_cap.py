"""The app's cap on simultaneous kernels: a full app answers with a "busy" page, not a new kernel.

Every page the app opens starts its own kernel (about 50 MB), and a closed page's kernel
ends only when culled, so without a cap thirty quick requests start thirty kernels.
Neither Voilà 0.5 nor jupyter_server has such a setting, so the app runs Voilà with
:class:`CappedKernelManager` (``--VoilaConfiguration.multi_kernel_manager_class``), which
refuses a new kernel once ``max_kernels`` are running or starting. Voilà starts a page's
kernel before it sends any of the page, so the refusal reaches the browser as an HTTP 503
whose page (``503.html`` in the app's template) says what to do. Not check logic; the app
is described in ``01_start_here.ipynb``.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

from helpers.trainer.serve.app import DEFAULT_MAX_KERNELS

__all__ = ["CappedKernelManager", "busy_message", "admits"]


def admits(open_kernels: int, max_kernels: int) -> bool:
    """Whether one more kernel may start while ``open_kernels`` are running or starting."""
    return open_kernels < max_kernels


def busy_message(open_kernels: int) -> str:
    """The sentence the busy page shows: how many pages are open, and what to do."""
    pages = "1 page is" if open_kernels == 1 else f"{open_kernels} pages are"
    return (
        f"The app is busy: {pages} open, the most it serves at once. "
        "Close a tab you no longer need, or try again in a minute."
    )


class CappedKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, refusing (HTTP 503) a kernel beyond ``max_kernels``."""

    max_kernels = Integer(
        DEFAULT_MAX_KERNELS,
        min=1,
        config=True,
        help="The most kernels running or starting at once; a page asking for one more gets the busy page.",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Kernels being started: counted at once, so simultaneous requests cannot pass the cap together.
        self._reserved: set[str] = set()

    def open_kernels(self) -> int:
        """Kernels running or starting (each id counted once)."""
        return len(set(self.list_kernel_ids()) | self._reserved)

    async def start_kernel(  # type: ignore[override]
        self, *, kernel_id: str | None = None, path: Any = None, **kwargs: Any
    ) -> str:
        """Start a kernel as jupyter_server does, unless ``max_kernels`` are already open."""
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        open_now = self.open_kernels()
        if not admits(open_now, self.max_kernels):
            raise web.HTTPError(503, busy_message(open_now).replace("%", "%%"), reason="The app is busy")
        # The id is chosen here so the kernel is counted once, from now until it has started.
        new_id = kernel_id or self.new_kernel_id(**kwargs)
        self._reserved.add(new_id)
        try:
            return await super().start_kernel(kernel_id=new_id, path=path, **kwargs)
        finally:
            self._reserved.discard(new_id)
