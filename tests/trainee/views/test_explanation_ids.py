"""The explanation renderer writes IDs in the visible notation and changes no other word.

The oracle is metamorphic: rename every ID of an input to a plain stand-in
(``Q000Z``, ``Q001Z``, … in the check's sorted order, so the explanation lists
them in the same order), let :func:`helpers.core.explain.explain` write the
sentences over the stand-ins, then put each ID's visible form where its
stand-in stands. The renderer must give exactly those lines, for inputs built
from the words the explanations themselves use ("induction is missing" beside
an ID ``induction ``), for every rule's generated cases, the edge-case
galleries, and the inputs the notebooks run.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from helpers.core.chardiff import visible_id
from helpers.core.checks import run_check
from helpers.core.errors import CheckInputError
from helpers.core.explain import explain
from helpers.core.ordering import sorted_ids
from helpers.core.paths import project_root
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.views.case_html import check_block, explanation_lines
from helpers.trainee.views.edge_cases import edge_cases
from helpers.trainee.views.shown import exact_output

_ALIAS = re.compile(r"Q([0-9]{3})Z")


def _ids(check: str, record: Mapping[str, Any]) -> list[str]:
    if check == "target-scope":
        return sorted_ids({*record["original"], *record["rewritten"]})
    return sorted_ids({*record["baseline"], *record["proposed"]})


def oracle(check: str, record: Mapping[str, Any]) -> list[str]:
    """The explanation with each ID, and nothing else, written in the visible notation."""
    ids = _ids(check, record)
    alias = {item: f"Q{place:03d}Z" for place, item in enumerate(ids)}
    if check == "target-scope":
        renamed: dict[str, Any] = {
            **record,
            "original": [alias[i] for i in record["original"]],
            "rewritten": [alias[i] for i in record["rewritten"]],
        }
    else:
        renamed = {
            "baseline": {alias[k]: v for k, v in record["baseline"].items()},
            "proposed": {alias[k]: v for k, v in record["proposed"].items()},
        }
    lines = explain(check, renamed, run_check(check, renamed))
    return [_ALIAS.sub(lambda m: visible_id(ids[int(m.group(1))]), line) for line in lines]


def assert_ids_only(check: str, record: Mapping[str, Any], where: str) -> None:
    rendered = explanation_lines(check, record, run_check(check, record))
    assert rendered == oracle(check, record), where


# IDs made of the explanations' own words, with the look-alike changes the notebooks teach.
_WORDS = ["induction", "is", "was", "missing", "changed", "S1", "the", "added", "a", "Scope"]
_MARKS = ["", " ", "  ", "\u00a0", "\u200b", "\u0301", "·"]


@st.composite
def ids(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(_WORDS))
    before, after = draw(st.sampled_from(_MARKS)), draw(st.sampled_from(_MARKS))
    if draw(st.booleans()):
        word = word.capitalize()
    return (before.strip(" ") + word + after) or word


_LISTS = st.lists(ids(), max_size=6)
_ANSWERS = st.sampled_from(["R", "S", "R ", "is missing", "induction is", "a\u200b"])


@given(original=_LISTS, rewritten=_LISTS)
@example(original=["induction"], rewritten=["Induction", "induction "])
def test_a_target_scope_explanation_changes_only_its_ids(original: list[str], rewritten: list[str]) -> None:
    assert_ids_only("target-scope", {"original": original, "rewritten": rewritten}, "hypothesis")


@given(
    baseline=st.dictionaries(ids(), _ANSWERS, min_size=1, max_size=5),
    proposed=st.dictionaries(ids(), _ANSWERS, max_size=6),
)
@example(baseline={"S1": "R", "S1 ": "A"}, proposed={"S1 ": "B"})
def test_a_sentinel_explanation_changes_only_its_ids(
    baseline: dict[str, str], proposed: dict[str, str]
) -> None:
    assert_ids_only("sentinels", {"baseline": baseline, "proposed": proposed}, "hypothesis")


def test_the_exact_ids_lesson_reads_induction_is_missing() -> None:
    record = {"original": ["induction"], "rewritten": ["Induction", "induction "]}
    lines = explanation_lines("target-scope", record, run_check("target-scope", record))
    assert lines[0] == "induction is missing: the original asks about it and the rewrite does not."
    assert "induction· was added: the rewrite asks about it and the original did not." in lines
    text = check_block("target-scope", record).text
    assert "induction·is" not in text and "- induction is missing:" in text


def test_a_sentinel_beside_its_spaced_twin_reads_s1_is_missing() -> None:
    record = {"baseline": {"S1": "R", "S1 ": "A"}, "proposed": {"S1 ": "B"}}
    lines = explanation_lines("sentinels", record, run_check("sentinels", record))
    assert lines[0] == "S1 is missing: the baseline has it and the proposed key does not."
    assert lines[1].startswith("S1· changed: ")


def _explained_record(check: str, record: Mapping[str, Any]) -> bool:
    try:
        run_check(check, record)
    except CheckInputError:
        return False
    return True


@pytest.mark.parametrize("rule_id", sorted(GENERATORS))
def test_every_rules_generated_explanations_change_only_ids(rule_id: str) -> None:
    check = GENERATORS[rule_id].check
    facets = GENERATORS[rule_id].facets or (None,)
    for seed in range(12):
        case = generate(rule_id, seed, facet=facets[seed % len(facets)])
        if _explained_record(check, case.input):
            assert_ids_only(check, case.input, case.id)


@pytest.mark.parametrize("check", ["target-scope", "sentinels"])
def test_every_gallery_explanation_changes_only_ids(check: str) -> None:
    explained = 0
    for case in edge_cases(check):
        shown = exact_output(check, case.line)
        if shown.refused:
            continue
        assert list(shown.notes) == oracle(check, shown.record), case.title
        explained += 1
    assert explained >= 10


def _notebook_inputs(name: str) -> list[tuple[str, dict[str, Any]]]:
    """The literal inputs a notebook's code cells pass to ``check_block``."""
    cells = json.loads((project_root() / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    found = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if source.lstrip().startswith(("%", "!")):
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "check_block":
                try:
                    found.append((ast.literal_eval(node.args[0]), ast.literal_eval(node.args[1])))
                except ValueError:
                    continue  # built at run time (a loaded baseline, a normalised string)
    return found


@pytest.mark.parametrize("name", ["02_target_scope.ipynb", "03_sentinel_answer_key.ipynb"])
def test_the_notebooks_worked_inputs_change_only_ids(name: str) -> None:
    inputs = _notebook_inputs(name)
    assert len(inputs) >= 2, inputs
    for check, record in inputs:
        if _explained_record(check, record):
            assert_ids_only(check, record, f"{name}: {record}")


@pytest.mark.parametrize("name", ["02_target_scope.ipynb", "03_sentinel_answer_key.ipynb"])
def test_no_committed_output_glues_an_id_to_the_next_word(name: str) -> None:
    text = (project_root() / "notebooks" / name).read_text(encoding="utf-8")
    glued = re.findall(r"\S·(?:is|was|changed)\b", text)
    assert not glued, glued


def test_the_filled_cases_explanations_change_only_ids(filled) -> None:
    for case in filled:
        assert_ids_only(case.check, case.input, case.id)
