"""The issued files: the paper, key and baseline are never replaced without force, and a replaced baseline is kept."""

from __future__ import annotations

import json

import pytest
from checkout_papers import fixed_paper

from helpers.core.errors import CheckoutFileError
from helpers.trainer.answer_key import load_key
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.paper import Issued, issue_checkout


@pytest.fixture(scope="module")
def issued() -> Issued:
    return fixed_paper()


def test_nothing_is_overwritten_without_force(tmp_path, issued):
    paper, key, baseline = write_checkout(issued, tmp_path / "exam.json")
    before = key.read_bytes()
    other = issue_checkout("Asha", sequential=False, count=46, seed=99)
    with pytest.raises(CheckoutFileError, match="already exists"):
        write_checkout(other, paper)
    assert key.read_bytes() == before
    write_checkout(other, paper, force=True)
    assert json.loads(key.read_text())["paper_id"] == other.key["paper_id"]
    assert (baseline.parent / "retained" / "v1.json").exists()  # the earlier baseline is kept
    load_key(key)
