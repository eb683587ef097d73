"""The edge-case galleries, the fast path beside the exact route, and the graded wrong answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import helpers
from helpers.core import chardiff
from helpers.core.errors import CheckInputError
from helpers.core.ordering import sorted_ids
from helpers.team.views import batch_html, fast_gallery
from helpers.trainee import grading
from helpers.trainee.cases import generators
from helpers.trainee.cases.filled import Case, get_case, load_cases
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import grade
from helpers.trainee.views import case_html, gallery, mistakes
from helpers.trainee.views import edge_cases as fixture
from helpers.trainee.views.edge_cases import (
    baseline_documents,
    case_files,
    edge_cases,
    notation_examples,
    read_case_text,
    sources,
)

CHECKS = ("target-scope", "sentinels")


def test_the_astral_order_is_javascripts_not_pythons() -> None:
    shown = gallery.gallery("target-scope", ["Order"])
    assert '"missing":["a","😀","⟨U+FF01⟩"]' in repr(shown)
    assert sorted(["a", "😀", "！"]) == ["a", "！", "😀"]  # what a plain sort would have shown


def test_invisible_characters_show_in_the_visible_notation_everywhere() -> None:
    text = repr(gallery.gallery("target-scope", ["Exact IDs"]))
    assert "\u200b" not in text and "induc⟨U+200B⟩tion was added" in text
    html = gallery.gallery("target-scope", ["Exact IDs"])._repr_html_()
    assert "\u200b" not in html and "\u0456" not in html


def test_a_long_answer_diff_points_at_the_changed_word() -> None:
    text = repr(gallery.gallery("sentinels", ["Literal answers"]))
    assert "[-spri-]{+autum+}n[-g-]" in text


def test_reading_gives_one_output_line_per_input_line() -> None:
    text = repr(fast_gallery.reading_gallery())
    for source in sources():
        assert source.title in text
    assert text.count("-> ") == sum(len(s.lines) for s in sources())
    assert '-> {"line":2,"field":null,"error":"blank line, expected a JSON object"}' in text
    assert "caf⟨byte E9⟩" in text and '"error":"not UTF-8 text (byte 22)"' in text
    # The mark is dropped on line 1 only.
    assert '-> {"line":1,"missing":[],"added":[],"preserved":true}' in text


def _fixture(tmp_path: Path, entry: dict, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "edge_cases.json"
    path.write_text(json.dumps({"edge_cases": [entry], "sources": []}), encoding="utf-8")
    monkeypatch.setattr(fixture, "edge_cases_json", lambda: path)
    return path


def test_everything_put_into_html_is_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = {
        "check": "sentinels",
        "group": "<i>g</i>",
        "title": "<b>t</b>",
        "why": "<script>w</script>",
        "input": {"baseline": {"<S1>": "<a>"}, "proposed": {"<S1>": "<b>"}},
    }
    _fixture(tmp_path, entry, monkeypatch)
    html = (
        gallery.gallery("sentinels")._repr_html_() + fast_gallery.fast_beside_exact("sentinels")._repr_html_()
    )
    for raw in ("<i>g", "<b>t", "<script>", "<S1>", "<a>"):
        assert raw not in html
    assert "&lt;script&gt;w&lt;/script&gt;" in html


def _all_cases() -> list[Case]:
    return [*helpers.filled_cases(), *practice_cases()]


@pytest.mark.parametrize("case", _all_cases(), ids=lambda case: case.id)
def test_every_typical_mistake_is_graded_wrong_without_leaking_the_answer(case: Case) -> None:
    found = mistakes.typical_mistakes(case)
    assert found
    expected_ids = {i for name in ("missing", "added", "changed") for i in case.expected.get(name, [])}
    for mistake in found:
        result = grade(case, mistake.answer, ask_reason=True)
        assert not result.correct, mistake.label
        ticked = mistake.answer.missing | mistake.answer.second
        for finding in result.mistakes:
            for unticked in expected_ids - ticked:
                assert f"`{helpers.core.chardiff.visible_id(unticked)}`" not in finding.message


def test_the_mistakes_table_shows_feedback_and_first_hint() -> None:
    text = repr(mistakes.graded_mistakes(helpers.filled_cases("target-scope")))
    assert "lost-comparison: Left out the only ID in `missing`" in text
    assert "- `missing` is incomplete: one original target is not in the rewrite · rule ts-lost" in text
    assert "Hint 1 of 3, the method: first read the input for mentions nobody has resolved" in text
    assert "Hint 3 of 3, the rule that decides this case: ts-lost." in text
    assert "✔ Fully correct." not in text


def test_a_fixed_result_is_shown_as_fixed_and_an_editable_one_is_not() -> None:
    import dataclasses

    for result in (
        helpers.check_target_scope(["a", "b"], ["a"]),
        helpers.check_target_scope(["a"], ["a"], unresolved=["x"]),
        helpers.check_sentinels({"S1": "A"}, {}),
    ):
        text = repr(case_html.fixed_result(result))
        assert "✔ Changing" in text and "✔ Two equal copies count as one" in text and "✘" not in text
        assert text.startswith(f"{type(result).__name__} ({result.outcome}, ")

    @dataclasses.dataclass
    class Editable:
        missing: tuple[str, ...]
        passed = False
        outcome = "loose"

        def as_dict(self) -> dict[str, list[str]]:
            return {"missing": list(self.missing)}

    loose = Editable(("a",))
    text = repr(case_html.fixed_result(loose))
    assert "✘ `missing` could be changed afterwards." in text and "✘ It cannot go in a set at all" in text
    assert loose.missing == ("a",)  # the attempt is undone


def test_the_mistakes_table_climbs_the_whole_ladder() -> None:
    block = mistakes.graded_mistakes(helpers.filled_cases("sentinels"))
    text = repr(block)
    assert (
        "Hint 2 of 3, where to look: compare each sentinel's answer in the baseline with its answer in "
        "the proposed key." in text
    )
    assert "Hint 3 of 3, the rule that decides this case: sk-changed." in text
    assert "Tick " not in text and "already right" not in text
    # The rule sits behind its own reveal, named for its case and mistake.
    assert (
        '<summary>Hint 3, the rule, for sentinel-mutated: Left out the only ID in <code class="eic-id">changed</code></summary>'
        in block.html
    )


def test_baseline_files_are_read_or_refused_with_the_field_named() -> None:
    text = repr(gallery.baseline_gallery())
    assert "✔ Read: version 2 of 2026-02-10, 2 sentinels" in text
    for message in (
        "version is 0, expected a whole number from 1",
        'version is "2", expected a whole number from 1',
        "version is true, expected a whole number from 1",
        "reason must be a non-empty string",
        'answers["S1"] is 7, expected a string answer',
        "expected the fields ['version', 'revised_on', 'reason', 'answers'], found list",
    ):
        assert f"✘ Refused: baseline.json: {message}" in text
    assert text.count("✘ Refused") == len(baseline_documents()) - 1


def test_load_baseline_and_baseline_from_data_agree(tmp_path: Path) -> None:
    from helpers.core.baselines import baseline_from_data
    from helpers.core.errors import BaselineError

    for item in baseline_documents():
        path = tmp_path / "baseline.json"
        path.write_text(json.dumps(item.document), encoding="utf-8")
        try:
            expected = baseline_from_data(item.document, where=str(path))
        except BaselineError as exc:
            with pytest.raises(BaselineError) as raised:
                helpers.load_baseline(path)
            assert str(raised.value) == str(exc)
        else:
            assert helpers.load_baseline(path) == expected


def test_attempt_shows_a_refusal_or_the_result(tmp_path: Path) -> None:
    refused = case_html.attempt(
        helpers.revise_baseline, tmp_path / "b.json", {"S1": "A"}, reason=" ", retained_dir=tmp_path / "r"
    )
    assert repr(refused) == "Refused: a baseline revision needs a non-empty reason"
    assert not (tmp_path / "b.json").exists()
    done = case_html.attempt(
        helpers.revise_baseline,
        tmp_path / "b.json",
        {"S1": "A"},
        reason="First",
        retained_dir=tmp_path / "r",
        revised_on="2026-01-01",
    )
    assert repr(done) == '{"version":1,"revised_on":"2026-01-01","reason":"First","answers":{"S1":"A"}}'


def test_the_notation_table_shows_each_string_unambiguously() -> None:
    examples = notation_examples()
    shown = [chardiff.visible_id(text) for text, _why in examples]
    assert len(set(shown)) == len(shown)
    text = repr(gallery.notation_table())
    assert "co⟨U+2010⟩op  |  co‐op  |  U+2010 HYPHEN" in text
    assert "a⟨U+0009⟩b  |  a⟨U+0009⟩b  |  U+0009 a control character" in text
    assert "⟨U+D83D⟩  |  ⟨U+D83D⟩  |  U+D83D a lone surrogate" in text
    assert "refresher·  |  refresher   |  printable ASCII only" in text


def test_whitespace_in_a_changed_answer_shows_in_the_diff() -> None:
    text = repr(gallery.gallery("sentinels", ["Literal answers"]))
    assert (
        "S1 changed: line·one[-↵-]{+·+}line·two (U+000A a control character removed; U+0020 SPACE added)."
        in text
    )
    assert "S2 changed: a[-→-]{+·+}b (U+0009 a control character removed; U+0020 SPACE added)." in text


def test_feedback_for_every_rule_grades_one_generated_case_per_rule() -> None:
    from helpers.trainee.cases.generators import GENERATORS

    block = mistakes.feedback_for_every_rule(seed=1)
    assert block.html.startswith("<details><summary>Show the feedback for all")
    for rule_id in GENERATORS:
        assert f"\n{rule_id}-1: " in repr(block)


def test_whole_files_are_read_or_refused_naming_file_and_line() -> None:
    text = repr(gallery.document_gallery())
    assert 'A well-formed key\n  ✔ Read: {"S1":"R","S2":"S"}' in text
    assert "✘ Refused: key.json, line 4: not valid JSON: Expecting property name" in text
    assert "✘ Refused: key.json, line 2: not UTF-8 text (byte 12)" in text
    assert "✘ Refused: key.json, line 2: not valid JSON: Extra data (column 1)" in text
    assert text.count("✔ Read") == 2


def test_the_exit_status_table_gives_each_status_from_a_real_result() -> None:
    text = repr(batch_html.exit_status_table())
    assert text.splitlines()[:3] == [
        "0: every record passed (e.g. a preserved rewrite)",
        "1: a check failed (e.g. a key with a sentinel missing)",
        "3: held: a rewrite needs staff labels (e.g. a rewrite held for staff labels)",
    ]
    assert "0 with 1 gives 1" in text and "3 with 4 gives 4" in text and "1 with 3 gives 3" in text
    assert text.splitlines()[-1].startswith("Status 2 is not a verdict: the command itself could not run")


def test_the_first_typical_mistake_is_the_blank_answer_and_its_hint_is_for_the_first_finding() -> None:
    case = generators.generate("ts-lost", 1)
    found = mistakes.typical_mistakes(case)
    assert found[0].label == "Left everything unset"
    assert found[0].answer == grading.Answer(case.check)
    result = grade(case, found[0].answer, ask_reason=True)
    assert [m.field for m in result.mistakes] == ["missing", "preserved", "reason"]
    ladder = grading.hints(case)
    statement = {rule.id: rule.statement for rule in load_rules()}["ts-lost"]
    assert ladder[2] == f"Hint 3 of 3, the rule that decides this case: ts-lost. {statement}"
    for target in case.expected["missing"]:
        assert all(target not in rung for rung in ladder), (target, ladder)


def test_the_id_left_out_is_the_last_in_order_so_the_hint_names_that_one() -> None:
    case = generators.generate("ts-lost", 1)
    expected = sorted_ids(case.expected["missing"])
    assert len(expected) > 1
    (mistake,) = [m for m in mistakes.typical_mistakes(case) if m.label.startswith("Left out")]
    assert mistake.label == f"Left out the last of {len(expected)} IDs in `missing`"
    assert mistake.answer.missing == frozenset(expected[:-1])
    # The ladder is the case's, whatever the answer: it never names the ID left out.
    ladder = grading.hints(case)
    assert all(expected[-1] not in rung for rung in ladder)


def test_one_wrongly_ticked_id_of_each_kind_gets_its_own_message() -> None:
    case = get_case("new-target")
    labels = [m.label for m in mistakes.typical_mistakes(case) if m.label.startswith("Also ticked")]
    # `induction` is in both lists; `payroll` only in the rewrite: two kinds for `missing`.
    assert labels == [
        "Also ticked `induction` in `missing`",
        "Also ticked `payroll` in `missing`",
        "Also ticked `induction` in `added`",
    ]
    text = repr(mistakes.graded_mistakes([case]))
    assert "`missing` has `induction`, which is in both lists" in text
    assert "`missing` has `payroll`, which was never in the original" in text


def test_fixed_records_shows_each_record_as_it_behaves() -> None:
    import dataclasses

    @dataclasses.dataclass
    class Loose:
        name: str

    @dataclasses.dataclass(frozen=True)
    class Holds:
        data: dict[str, str]

    block = gallery.fixed_records([("loose", Loose("a")), ("holds a dict", Holds({}))], "Records")
    text = repr(block)
    assert "Loose: loose\n  ✘ `name` could be changed afterwards.\n  ✘ It cannot go in a set at all" in text
    assert "Holds: holds a dict\n  ✔ Changing `data` afterwards is refused.\n  ℹ It holds a table" in text
    assert 'aria-label="Records"' in block.html


@pytest.mark.parametrize("block", [gallery.fixed_results, gallery.fixed_answers])
def test_every_record_the_notebooks_list_is_fixed(block) -> None:
    text = repr(block())
    rows = text.count("\n") // 3 + 1
    assert rows >= 4 and text.count("✔ Changing") == rows
    assert "✘" not in text


def test_each_case_file_reads_as_load_cases_reads_it(tmp_path: Path) -> None:
    files = case_files()
    assert {name.rsplit(".", 1)[1] for _t, _w, name, _x in files} == {"csv", "json"}
    block = gallery.case_file_gallery()
    for title, _why, name, text in files:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8", newline="")
        try:
            read = load_cases(path)
        except CheckInputError as exc:
            message = str(exc).replace(str(path), name)
            assert f"{title} ({name})\n  ✘ Refused: {message}" in block.text
        else:
            assert f"{title} ({name})\n  Read {len(read)} case" in block.text
            assert read == read_case_text(name, text)
            entry = block.text.split(f"{title} ({name})\n", 1)[1].split("\n", 1)[0]
            agrees = all(case.agrees_with(case.actual()) for case in read)
            assert entry.endswith("✔ the check agrees") == agrees, title
    refused = block.text.count("✘ Refused")
    assert 0 < refused < len(files)


def test_a_refused_case_file_names_the_first_missing_and_unknown_field() -> None:
    text = gallery.case_file_gallery().text
    assert 'cases[0] has no "decision" field (field: cases.json: cases[0].decision)' in text
    assert 'cases[0] has an unknown field "notes" (field: cases.json: cases[0].notes)' in text


def test_the_csv_round_trip_marks_formulas_and_quotes_carriage_returns() -> None:
    text = gallery.case_csv_round_trip().text
    assert '"\'=HYPERLINK(""x"") is text here"' in text
    assert "two lines:⟨U+000D⟩the second" in text
    assert text.endswith("✔ Read back as the same case.")


def test_a_case_whose_worked_answer_is_wrong_shows_what_the_check_gives() -> None:
    text = gallery.case_file_gallery().text
    assert (
        'expects {"missing":[],"added":[],"preserved":true}: '
        '✘ the check gives {"missing":["b"],"added":[],"preserved":false}'
    ) in text
    case = get_case("lost-comparison")
    reordered = dict(reversed(list(case.expected.items())))
    assert not case.agrees_with(reordered) and case.agrees_with(dict(case.expected))


def test_the_graded_tables_add_the_shapes_the_filled_cases_lack() -> None:
    for check, (extra,) in mistakes.EXTRA_CASES.items():
        block = mistakes.graded_for(check)
        assert f"{extra}: Left everything unset" in block.text
        assert 'role="status"' not in block.html  # a static table announces nothing
    sentinels = mistakes.graded_for("sentinels").text
    assert "- `intact` is not set: choose it once the two lists are built · rule sk-changed" in sentinels
    scope = mistakes.graded_for("target-scope").text
    assert "- `preserved` is not set: choose it once the two lists are built · rule ts-empty" in scope


def test_the_check_notebooks_fold_every_case_after_the_first() -> None:
    block = mistakes.graded_for("target-scope")
    cases = [*helpers.filled_cases("target-scope"), *practice_cases("target-scope")]
    first, *rest = [case.id for case in cases if f"{case.id}: Left everything unset" in block.text]
    assert first == "lost-comparison" and rest
    assert block.html.count("<details><summary>Wrong answers to ") == len(rest)
    assert f'aria-label="Wrong answers to {first}, graded"' in block.html.split("<details>", 1)[0]
    unfolded = mistakes.graded_mistakes(helpers.filled_cases("target-scope"))
    assert "<details><summary>Wrong answers to " not in unfolded.html


def test_without_orjson_the_fast_path_says_so_and_still_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    from helpers.team import fast_json, fastpath

    assert (
        fastpath.FAST_JSON and "orjson is installed here" in fast_gallery.fast_beside_exact("sentinels").text
    )
    monkeypatch.setattr(fast_json, "_orjson", None)
    monkeypatch.setattr(fast_gallery, "FAST_JSON", False)
    first = fast_gallery.fast_beside_exact("sentinels").text.splitlines()[0]
    count = len(edge_cases("sentinels"))
    assert first.startswith(f"{count} of {count} inputs: the fast path agrees with the exact route.")
    assert "orjson is not installed here, so the fast reader always declines" in first
