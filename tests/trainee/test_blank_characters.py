"""Every invisible, blank-looking or look-alike character is shown as ``⟨U+XXXX⟩`` on every surface.

The set of characters the notation codes (:func:`helpers.core.chardiff.shows_blank`) is checked
against Unicode's Default_Ignorable_Code_Point ranges (written out here from the Unicode Character
Database, ``DerivedCoreProperties.txt``, since the standard library has no such property) and its
White_Space characters; then Hypothesis draws IDs from the project's confusables table and these
characters and runs them through every output that shows an ID or a name: the trainer's text table,
CSV and HTML, a case's HTML and text, the data reports the command line prints, and the widgets' labels.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import unicodedata
from dataclasses import replace
from pathlib import Path

from budget import examples
from forgers import at_rate, drill
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.core.chardiff import BLANK_LOOKING, shows_blank, visible, visible_id, visible_text
from helpers.core.checks import run_check
from helpers.team.answer_keys import AnswerKey
from helpers.team.batch import BatchSummary, check_answer_keys, check_records
from helpers.team.id_display import id_text
from helpers.team.reports import key_check_text, summary_text
from helpers.trainee.cases.deciding_rule import CONFUSABLES
from helpers.trainee.cases.filled import get_case
from helpers.trainee.views import case_html
from helpers.trainer.cohort import load_cohort
from helpers.trainer.views.cohort_views import cohort_csv, cohort_table, cohort_text

#: Unicode 15.1's Default_Ignorable_Code_Point, range by range (DerivedCoreProperties.txt).
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
]
#: Characters that print as a blank though Unicode calls them neither: the braille blank, the null notehead.
BLANK_SYMBOLS = ("\u2800", "\U0001d159")

DEFAULT_IGNORABLE_CHARS = [chr(p) for low, high in DEFAULT_IGNORABLE for p in range(low, high + 1)]
WHITE_SPACE = [chr(p) for p in range(0x110000) if chr(p).isspace()]

#: The blank-looking characters the issue names, and a few of each kind beside them.
BLANKS = (
    "\u3164\u115f\u1160\uffa0\u2800\u3000\u2000\u2005\u200a\u205f\u180e\u034f\u061c\ufe0f\ufe00"
    "\U000e0041\U000e0001\U000e0100\u200b\u200d\u2060\ufeff\u00a0\u00ad\u17b4\U0001d173\u0301\u2028\U0001d159"
)
#: What no output may hold raw: the blanks, and the look-alike letters of the confusables table.
NEVER_RAW = frozenset(BLANKS) | frozenset(CONFUSABLES)
ID_CHARS = st.sampled_from(sorted(NEVER_RAW | set("Tpayrol04-")))
IDS = st.text(ID_CHARS, min_size=1, max_size=6).filter(lambda i: any(c in NEVER_RAW for c in i))


def _raw(output: str) -> set[str]:
    return {c for c in output if c in NEVER_RAW}


def _coded(ident: str) -> set[str]:
    return {f"⟨U+{ord(c):04X}⟩" for c in ident if c in NEVER_RAW}


def test_every_default_ignorable_and_white_space_character_is_coded():
    for char in [*DEFAULT_IGNORABLE_CHARS, *WHITE_SPACE, *BLANK_SYMBOLS]:
        assert shows_blank(char), f"U+{ord(char):04X}"
        shown = "·" if char == " " else f"⟨U+{ord(char):04X}⟩"
        assert visible_id(f"a{char}b") == f"a{shown}b", f"U+{ord(char):04X}"
        if char != " ":
            assert visible_text(f"a{char}b") == f"a⟨U+{ord(char):04X}⟩b", f"U+{ord(char):04X}"
        if char not in " \t\n\r":
            assert visible(f"a{char}b") == f"a⟨U+{ord(char):04X}⟩b", f"U+{ord(char):04X}"


def test_the_hand_written_list_is_exactly_what_categories_miss():
    """BLANK_LOOKING holds the default-ignorable letters no category catches, and the blank symbols."""
    missed = {c for c in DEFAULT_IGNORABLE_CHARS if unicodedata.category(c)[0] not in "ZCM"}
    assert missed == {"\u115f", "\u1160", "\u3164", "\uffa0"}
    assert frozenset(missed | set(BLANK_SYMBOLS)) == BLANK_LOOKING


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(IDS, min_size=2, max_size=4, unique=True))
def test_distinct_ids_render_distinct_and_never_raw_in_case_outputs(ids):
    shown = [visible_id(i) for i in ids]
    assert len(set(shown)) == len(ids)
    original, rewritten = ids[: len(ids) // 2 + 1], ids[len(ids) // 2 :]
    scope = {"original": original, "rewritten": rewritten}
    key = {"baseline": {i: "A" for i in original}, "proposed": {i: i for i in rewritten}}
    base = get_case("new-target")
    for check, record in (("target-scope", scope), ("sentinels", key)):
        case = replace(
            base if check == "target-scope" else get_case("sentinel-missing"),
            id=ids[0],
            input=record,
            expected=run_check(check, record).as_dict(),
        )
        blocks = {
            "supplied_input": case_html.supplied_input(case),
            "cases_table": case_html.cases_table([case]),
            "inputs_table": case_html.inputs_table([case]),
            "worked_answer": case_html.worked_answer(case),
            "check_block": case_html.check_block(check, record),
        }
        for name, block in blocks.items():
            for output in (block.text, block._repr_html_()):
                assert not _raw(output), (name, _raw(output))
            if name in ("supplied_input", "inputs_table", "check_block"):  # these show every ID
                for ident in ids:
                    assert all(code in block.text for code in _coded(ident)), (name, ident)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(IDS, min_size=2, max_size=4, unique=True))
def test_the_reports_the_command_line_prints_show_ids_coded(ids):
    lines = b"".join(json.dumps({"original": ids, "rewritten": ids[1:]}).encode() + b"\n" for _ in range(2))
    summary = check_records(io.BytesIO(lines), BatchSummary(check="target-scope", source="rewrites.jsonl"))
    baseline = AnswerKey("old.json", "json", {i: "A" for i in ids})
    proposed = AnswerKey("new.json", "json", {i: "B" for i in ids[1:]})
    for output in (summary_text(summary), key_check_text(check_answer_keys(baseline, proposed))):
        assert not _raw(output), _raw(output)
        assert all(code in output for code in _coded(ids[0]))
    assert len({id_text(i) for i in ids}) == len(ids)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(IDS, min_size=2, max_size=2, unique=True))
def test_the_trainers_text_csv_and_html_show_names_coded(tmp_path_factory, names):
    folder = tmp_path_factory.mktemp("cohort")
    for n, name in enumerate(names):
        data = drill(120 + n, 6, at_rate(0.9, n), name=name)
        (folder / f"t{n}.json").write_text(json.dumps(data), encoding="utf-8")
    cohort = load_cohort([folder])
    text, table, sheet = cohort_text(cohort), cohort_table(cohort).html, cohort_csv(cohort)
    for output in (text, table, sheet):
        assert not _raw(output), _raw(output)
    header = text.splitlines()[1]
    for name in names:
        shown = visible_text(name)
        assert (shown if len(shown) <= 40 else shown[:30]) in header
    from helpers.trainee.cases.filled import spreadsheet_safe  # the formula guard: a leading "-" gets a "'"

    assert {row["trainee"] for row in csv.DictReader(io.StringIO(sheet))} == {
        spreadsheet_safe(visible_text(n)) for n in names
    }


def test_the_hangul_filler_no_longer_prints_as_a_blank_in_the_trainers_table(tmp_path: Path, run_cli):
    """The issue's case, end to end through ``python -m helpers cohort``."""
    data = drill(120, 6, at_rate(0.9, 0), name="Asha\u3164")
    (tmp_path / "asha.json").write_text(json.dumps(data), encoding="utf-8")
    done = run_cli("cohort", str(tmp_path))
    out = done.stdout.decode("utf-8")
    assert "\u3164" not in out and "Asha⟨U+3164⟩" in out


@functools.cache
def _graded_result():
    from helpers.trainer.answers import answers_data
    from helpers.trainer.marking import grade_checkout
    from helpers.trainer.paper import issue_checkout

    issued = issue_checkout("Asha", count=46, seed=5, issued="2026-12-01T09:00:00Z", sequential=False)
    return grade_checkout(answers_data(issued.paper, {}), issued.key)


@settings(max_examples=examples(100), deadline=None)
@given(IDS)
def test_a_graded_check_outs_text_and_csv_show_the_name_coded(name):
    from helpers.trainer.result_report import result_csv, result_text

    result = replace(_graded_result(), trainee=name)
    for output in (result_text(result), result_csv(result)):
        assert not _raw(output), _raw(output)
        assert all(code in output for code in _coded(name))
