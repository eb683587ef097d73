"""A trainee's name and file cannot break or bend any surface of the trainer's view: the text grid,
the CSV and the HTML show every character as itself or escaped, and every column lines up."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from forgers import at_rate, drill
from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.cases.rules import load_rules
from helpers.trainer.cohort import load_cohort
from helpers.trainer.views.cohort_views import (
    _shown,
    cohort_csv,
    cohort_table,
    cohort_text,
    display_width,
    mastery_numbers,
)


def _cohort(folder: Path, names: list[str]):
    for n, name in enumerate(names):
        data = drill(120 + n, 12, at_rate(0.9, n), name=name)
        (folder / f"t{n}.json").write_text(json.dumps(data), encoding="utf-8")
    return load_cohort([folder])


def test_a_lone_surrogate_in_a_name_is_escaped_in_the_csv_and_the_rest_are_written(tmp_path):
    text = cohort_csv(_cohort(tmp_path, ["Zoe\ud800", "Ben"]))
    text.encode("utf-8")  # writable: it used to stop the whole run
    names = {row["trainee"] for row in csv.DictReader(io.StringIO(text))}
    assert names == {"Zoe⟨U+D800⟩", "Ben"}


def test_format_characters_are_shown_as_code_points_in_the_csv_and_the_html(tmp_path):
    cohort = _cohort(tmp_path, ["A\u202eB", "C\u200bD"])
    for surface in (cohort_csv(cohort), cohort_table(cohort).html):
        assert "\u202e" not in surface and "\u200b" not in surface
        assert "A⟨U+202E⟩B" in surface and "C⟨U+200B⟩D" in surface


def test_a_name_that_spells_an_escape_is_told_apart_from_the_character_on_every_surface(tmp_path):
    cohort = _cohort(tmp_path, ["\u27e8U+200B\u27e9Zoe", "\u200bZoe"])
    rows = list(csv.DictReader(io.StringIO(cohort_csv(cohort))))
    assert {row["trainee"] for row in rows} == {"⟨U+27E8⟩U+200B⟩Zoe", "⟨U+200B⟩Zoe"}
    for surface in (cohort_text(cohort), cohort_table(cohort).html):
        assert "⟨U+27E8⟩U+200B⟩Zoe" in surface and "⟨U+200B⟩Zoe" in surface
    # cut never inside the escape of the "⟨", and what follows it is not an escape to keep whole
    assert (_shown("\u27e8U+200B\u27e9Zoe", 5), _shown("\u27e8U+200B\u27e9Zoe", 12)) == ("…", "⟨U+27E8⟩U+2…")
    assert _shown("a \u27e8U+200B\u27e9 b", notated=True) == "a ⟨U+200B⟩ b"  # a reason's names keep theirs


def test_a_wide_name_keeps_the_grid_columns_in_line(tmp_path):
    wide = (
        "\uff2d\uff41\uff4c\uff4c\uff4f\uff52\uff59\uff22\uff41\uff4b\uff45\uff52\uff53"  # full-width letters
    )
    text = cohort_text(_cohort(tmp_path, [wide, "Bob", "Carol"]))
    grid = text.splitlines()[1 : 1 + 10]
    header, rows = grid[0], grid[1:]
    start = display_width(header[: header.index("Bob")])  # where Bob's column starts, in columns
    for row in rows:
        cells = [match.start() for match in re.finditer(r"\S+", row)]  # the rule, then one mark each
        assert len(cells) == 4, row
        assert display_width(row[: cells[2]]) == start, row  # Bob's mark sits right under his name
    assert display_width(wide) == 2 * len(wide)


@pytest.mark.parametrize(
    ("text", "columns"), [("", 0), ("abc", 3), ("Ｍａ", 4), ("中文", 4), ("e\u0301", 1), ("⟨U+200B⟩", 8)]
)
def test_a_wide_character_takes_two_columns_and_a_combining_mark_none(text, columns):
    assert display_width(text) == columns


@given(st.text(st.characters(exclude_characters="⟩"), max_size=40), st.integers(2, 30))
def test_a_shown_name_is_cut_with_an_ellipsis_never_inside_a_code_point(text, limit):
    safe = _shown(text, limit)
    assert len(safe) <= limit
    body = safe.removesuffix("…")
    assert body.count("⟨") == body.count("⟩")
    if safe.endswith("…"):
        assert _shown(text).startswith(body)
    else:
        assert safe == _shown(text)


def test_the_mastery_numbers_count_each_rules_trainees(tmp_path):
    from helpers.trainee.drill.state import RuleState
    from helpers.trainer.cohort_trainee import Cohort, Trainee

    rules = tuple(load_rules()[:2])
    a, b = (rule.id for rule in rules)

    def trainee(name: str, mastered: set[str]) -> Trainee:
        states = {
            r: RuleState(r, attempts=3, mastered_on="2026-11-30" if r in mastered else None) for r in (a, b)
        }
        return Trainee(name, f"{name}.json", 3, "h", name, (a, b), states, step=6, hints=0, reveals=0)

    cohort = Cohort((trainee("Asha", {a, b}), trainee("Ben", {a})), rules)
    assert mastery_numbers(cohort) == [(a, 2, 0), (b, 1, 1)]
