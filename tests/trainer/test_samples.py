"""The committed samples are what the simulated trainees make on the current course.

When the rules, the vocabulary or the generators change, remake them with
``.venv/bin/python tests/support/sample_progress.py``.
"""

from __future__ import annotations

import json

import pytest
from sample_progress import FOLDER, sample_checkout, samples, text

from helpers.trainer.checkout import sample_paper_path

HINT = "the course changed: remake the samples with .venv/bin/python tests/support/sample_progress.py"


@pytest.mark.parametrize("name", sorted(samples()))
def test_each_sample_progress_file_is_current(name: str) -> None:
    assert (FOLDER / name).read_text(encoding="utf-8") == text(samples()[name]), HINT


def test_the_sample_check_out_paper_and_key_are_current() -> None:
    issued = sample_checkout()
    paper = sample_paper_path()
    assert json.loads(paper.read_text(encoding="utf-8")) == issued.paper, HINT
    assert json.loads(paper.with_name("sample-paper.key.json").read_text(encoding="utf-8")) == issued.key, (
        HINT
    )
