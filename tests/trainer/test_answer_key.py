"""The answer key: refused unless it matches its baseline, and the committed sample key matches its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from checkout_papers import fixed_paper, sample_paper_and_key

from helpers.core.errors import CheckoutFileError
from helpers.trainer.answer_key import load_key
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.paper import DEFAULT_COUNT, Issued


@pytest.fixture(scope="module")
def issued() -> Issued:
    return fixed_paper()


def _write(tmp_path: Path, issued: Issued) -> tuple[Path, Path, Path]:
    return write_checkout(issued, tmp_path / "exam.json")


@pytest.mark.parametrize(
    "forge, why",
    [
        (lambda key: key["cases"][3]["expected"].update({"x": 1}), "Check-out case 4"),
        (lambda key: key["cases"][0].update(action=key["cases"][0]["action"] + "!"), "Check-out case 1"),
        (lambda key: key.update(trainee="Mallory"), r"\(key\)"),
        (lambda key: key["cases"].pop(), f"missing from the key: Check-out case {DEFAULT_COUNT}"),
        (
            lambda key: key["cases"].append({**key["cases"][0], "label": "Check-out case 99"}),
            "not in its baseline",
        ),
    ],
)
def test_a_forged_key_is_refused_naming_the_change(tmp_path, issued, forge, why):
    _, key_path, _ = _write(tmp_path, issued)
    key = json.loads(key_path.read_text())
    forge(key)
    key_path.write_text(json.dumps(key))
    with pytest.raises(CheckoutFileError, match=why):
        load_key(key_path)


def test_a_key_without_its_baseline_is_refused(tmp_path, issued):
    _, key_path, baseline = _write(tmp_path, issued)
    baseline.unlink()
    with pytest.raises(CheckoutFileError, match="has no baseline"):
        load_key(key_path)


def test_the_committed_sample_key_matches_its_baseline():
    paper, key = sample_paper_and_key()
    assert paper["paper_id"] == key["paper_id"]
    assert len(paper["cases"]) == len(key["cases"]) == 56 and key["sequential"] is False
