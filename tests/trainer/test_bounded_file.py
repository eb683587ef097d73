"""System files are refused by device, but only where /proc and /sys are file systems of their own."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from helpers.core.errors import CheckoutFileError
from helpers.trainer import bounded_file


def test_a_pseudo_file_system_on_the_roots_device_refuses_nothing(monkeypatch, tmp_path) -> None:
    """In the browser edition every path shares one device: a file there is still read."""
    real_stat = os.stat

    def one_device(path, *args, **kwargs):
        if str(path) in ("/", "/proc", "/sys"):
            return SimpleNamespace(st_dev=real_stat(tmp_path).st_dev)
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(bounded_file.os, "stat", one_device)
    assert bounded_file._pseudo_devices() == set()
    paper = tmp_path / "paper.json"
    paper.write_text("{}", encoding="utf-8")
    assert bounded_file.read_bounded(paper, limit=100) == b"{}"


@pytest.mark.skipif(not os.path.exists("/proc/self"), reason="needs Linux's /proc")
def test_a_real_proc_is_its_own_device_and_refused(tmp_path) -> None:
    assert os.stat("/proc").st_dev in bounded_file._pseudo_devices()
    with pytest.raises(CheckoutFileError, match="system file"):
        bounded_file.read_bounded("/proc/self/status", limit=1 << 20)
