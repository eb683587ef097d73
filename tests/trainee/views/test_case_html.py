"""Case tables, inputs, results and refusals as the notebooks show them (``helpers/trainee/views/case_html.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from helpers.core.errors import CheckInputError
from helpers.trainee.cases.filled import get_case
from helpers.trainee.views.case_html import (
    attempt,
    cases_table,
    counts_once,
    edit_refused,
    error_html,
    fixed_result,
    parse_block,
    queries_block,
    result_block,
    supplied_input,
)


@dataclass(frozen=True)
class _Fixed:
    ids: tuple[str, ...]


@dataclass
class _Loose:
    ids: list[str]


@dataclass(frozen=True)
class _Table:
    rows: dict[str, str] = field(default_factory=dict)


def test_the_cases_table_shows_each_case_in_full_and_in_plain_text() -> None:
    case = get_case("lost-comparison")
    block = cases_table([case])
    assert block.text == (
        f"lost-comparison: {case.title}\n"
        '  input:    {"original":["induction","refresher"],"rewritten":["induction"]}\n'
        '  expected: {"missing":["refresher"],"added":[],"preserved":false}\n'
        f"  {case.decision}. {case.reason}"
    )
    assert 'aria-label="The cases"' in block.html and block.html.count("<tr>") == 2


def test_a_labelled_input_hides_the_case_id() -> None:
    block = supplied_input(get_case("lost-comparison"), label="Case <1>")
    assert block.text.splitlines()[0] == "Supplied input for Case <1>:"
    assert "lost-comparison" not in block.html + block.text and "Case &lt;1&gt;" in block.html


def test_text_read_as_json_or_the_error_naming_its_source() -> None:
    assert (
        parse_block('{"a": [1, true]}', source="cell").text
        == 'input:  {"a": [1, true]}\nread as: {"a":[1,true]}'
    )
    bad = parse_block('{"a": 1,}', source="cell")
    assert bad.text.splitlines()[1].startswith("Cannot check this input: cell, line 1: not valid JSON")
    assert 'role="alert"' in bad.html


def test_a_result_is_json_with_its_input_and_a_refusal_is_words() -> None:
    assert result_block(_Fixed(("a",)), given={"x": None}).text == 'input:  {"x":null}\noutput: {"ids":["a"]}'
    assert result_block(True).text == "true"

    def refuse() -> None:
        raise CheckInputError("no <b>sentinels</b>", field="baseline")

    refused = attempt(refuse)
    assert refused.text == "Refused: no <b>sentinels</b>"
    assert refused.html == '<p class="eic-error"><b>✘ Refused:</b> no &lt;b&gt;sentinels&lt;/b&gt;</p>'
    assert attempt(lambda n: [n, n], 2).text == "[2,2]"
    assert error_html(CheckInputError("x\u200b", field="y")) == (
        '<div class="eic-error" role="alert"><b>Cannot check this input:</b> x⟨U+200B⟩</div>'
    )


def test_a_record_is_said_to_be_fixed_or_not_and_an_edit_is_undone() -> None:
    assert edit_refused(_Fixed(("a",))) == "✔ Changing `ids` afterwards is refused."
    loose = _Loose(["a"])
    assert edit_refused(loose) == "✘ `ids` could be changed afterwards." and loose.ids == ["a"]
    assert (
        counts_once(_Fixed(("a",))) == "✔ Two equal copies count as one, so these can be grouped and counted."
    )
    assert counts_once(loose).startswith("✘ It cannot go in a set at all")
    assert counts_once(_Table()).startswith("ℹ It holds a table, so it is not grouped with others")


def test_a_checks_result_is_shown_fixed() -> None:
    assert fixed_result(get_case("lost-comparison").run()).text.splitlines() == [
        'TargetScopeResult (not preserved, did not pass): {"missing":["refresher"],"added":[],"preserved":false}',
        "✔ Changing `missing` afterwards is refused.",
        "✔ Two equal copies count as one, so these can be grouped and counted.",
    ]


def test_the_two_wordings_of_a_query_show_side_by_side_invisibles_shown() -> None:
    block = queries_block(original="a\u200bb", rewritten="<c>")
    assert block.text == "Original query:  a⟨U+200B⟩b\nRewritten query: <c>"
    assert '<th scope="row">Rewritten query</th><td>&lt;c&gt;</td>' in block.html
