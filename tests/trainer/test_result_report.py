"""A graded check-out as CSV: every cell goes through the spreadsheet formula guard."""

from __future__ import annotations

import csv
import io

import pytest
from checkout_papers import answers_for, fixed_paper

from helpers.trainer.marking import grade_checkout
from helpers.trainer.paper import Issued, issue_checkout
from helpers.trainer.result_report import result_csv


@pytest.fixture(scope="module")
def issued() -> Issued:
    return fixed_paper()


def test_the_csv_goes_through_the_formula_guard(issued):
    hostile = issue_checkout('=HYPERLINK("http://x")', sequential=False, count=46, seed=1)
    result = grade_checkout(answers_for(hostile), hostile.key)
    row = next(csv.reader(io.StringIO(result_csv(result).splitlines()[1])))
    assert row[0] == '\'=HYPERLINK("http://x")'
