"""Each trainee's certified bound: worked out from the signed result's counts, shown on every cohort view."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import replace

import pytest

from helpers.core.paths import fixtures_dir
from helpers.trainee.confidence import accuracy_lower_bound
from helpers.trainer.cohort import Cohort, load_cohort
from helpers.trainer.sample_checkouts import SAMPLE_CHECKOUTS, sample_checkouts
from helpers.trainer.views.cohort_views import cohort_csv, cohort_json_lines, cohort_table, cohort_text

ASHA = "accuracy ≥ 0.88 at 95% confidence, 61 of 64"
BEN = "accuracy ≥ 0.69 at 95% confidence, 30 of 36"


@pytest.fixture(scope="module")
def cohort(tmp_path_factory) -> Cohort:
    """The sample cohort with the sample sequential check-outs: Asha 61 of 64, Ben 30 of 36, the rest none
    (sat on their own machines, so accepted here with ``require_proctored=False``)."""
    made = sample_checkouts(tmp_path_factory.mktemp("checkouts"))
    return load_cohort(
        [fixtures_dir() / "sample_progress"],
        checkouts=[made.results],
        trainer_dir=made.trainer_dir,
        require_proctored=False,
    )


def test_the_sample_check_outs_certify_what_their_counts_prove(cohort):
    assert SAMPLE_CHECKOUTS == {"Asha": 3, "Ben": 6}
    by_name = {t.name: t for t in cohort.trainees}
    assert by_name["Asha"].ready and by_name["Asha"].checkout["fully_correct"] == 61
    assert "the check-out did not pass" in by_name["Ben"].not_ready
    assert math.floor(accuracy_lower_bound(61, 64) * 100) == 88
    assert math.floor(accuracy_lower_bound(30, 36) * 100) == 69


def test_the_text_view_shows_each_verified_bound_under_its_trainee(cohort):
    lines = cohort_text(cohort).splitlines()
    certified = [
        (lines[i - 1], line) for i, line in enumerate(lines) if line.startswith("  check-out certifies:")
    ]
    assert [line for _, line in certified] == [
        f"  check-out certifies: {ASHA}",
        f"  check-out certifies: {BEN}",
    ]
    at = lines.index(f"  check-out certifies: {ASHA}")
    assert lines[at - 1] == "  check-out: passed, own machine" and lines[at - 2].startswith("Asha: ready;")


def test_the_csv_has_the_bound_on_each_of_the_trainees_rows(cohort):
    rows = list(csv.DictReader(io.StringIO(cohort_csv(cohort))))
    shown = {(r["trainee"], r["certified_bound"], r["certified_lower_bound"]) for r in rows}
    assert shown == {
        ("Asha", ASHA, str(math.floor(accuracy_lower_bound(61, 64) * 1e6) / 1e6)),
        ("Ben", BEN, str(math.floor(accuracy_lower_bound(30, 36) * 1e6) / 1e6)),
        *((name, "", "") for name in ("Chen", "dana-v1", "Erin", "Fran")),
    }


def test_the_json_lines_carry_the_bound_and_its_counts(cohort):
    lines = {line["trainee"]: line for line in map(json.loads, cohort_json_lines(cohort).splitlines())}
    assert lines["Asha"]["certified"] == {
        "lower_bound": math.floor(accuracy_lower_bound(61, 64) * 1e6) / 1e6,
        "confidence": 0.95,
        "correct": 61,
        "total": 64,
        "statement": ASHA,
    }
    assert lines["Ben"]["certified"]["statement"] == BEN
    assert lines["Chen"]["certified"] is None


def test_the_html_table_has_a_row_of_bounds(cohort):
    html = cohort_table(cohort).html
    row = html[html.index('<th scope="row">Check-out certifies</th>') :].split("</tr>")[0]
    cells = row.split("<td>")[1:]
    assert len(cells) == len(cohort.trainees)
    assert cells[0].startswith(ASHA) and cells[1].startswith(BEN)
    assert all("no verified check-out" in cell for cell in cells[2:])


def test_every_view_works_the_bound_out_again_from_the_counts(cohort):
    """A checkout whose stated bound and statement say more than its counts shows only what the counts prove."""
    edited = Cohort(
        tuple(
            replace(t, checkout={**t.checkout, "accuracy_lower_bound": 0.99, "statement": "0.99"})
            if t.checkout
            else t
            for t in cohort.trainees
        ),
        cohort.rules,
        cohort.unreadable,
    )

    def json_text(c: Cohort) -> str:
        return "".join(
            json.dumps(json.loads(line), ensure_ascii=False) for line in cohort_json_lines(c).splitlines()
        )

    for view in (cohort_text, cohort_csv, json_text, lambda c: cohort_table(c).html):
        text = view(edited)
        assert ASHA in text and BEN in text and "0.99" not in text
