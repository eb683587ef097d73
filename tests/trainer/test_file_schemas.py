"""The check-out side's files against their JSON Schemas (``fixtures/schemas/``).

Every file the project writes follows its schema; each schema refuses a wrong type, a missing field
and an unknown field with a line naming the field; and the readers refuse a mutated file exactly when
its schema does, or for a rule no schema states, with a line naming the field.
"""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.core.errors import CheckoutFileError
from helpers.core.paths import fixtures_dir
from helpers.trainee.grading import answer_fields
from helpers.trainer.checkout_format import ANSWERS_FORMAT, PAPER_FORMAT, RESULT_FORMAT
from helpers.trainer.file_schemas import SCHEMAS, schema_path, schema_problem
from helpers.trainer.issued_files import write_checkout
from helpers.trainer.ledger import HEAD_NAME, Ledger
from helpers.trainer.marking import grade_checkout
from helpers.trainer.paper import issue_checkout, minimum_count, paper_from_bytes
from helpers.trainer.secret import TrainerSecret
from helpers.trainer.signed_result import grade_files, load_result
from helpers.trainer.verdict_cache import CACHE_NAME, VerdictCache

SAMPLES = fixtures_dir() / "checkout"


def _sample(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    return data


def _answers(paper: dict[str, Any]) -> dict[str, Any]:
    rows = []
    for number, case in enumerate(paper["cases"]):
        first, second, flag = answer_fields(case["check"])
        rows.append(
            {"label": case["label"], first: ["S1"], second: [], flag: True, "hold": False}
            | {
                "reason": case["reason_options"][0]["rule"],
                "action": case["actions"][0],
                "seconds": 4 + number,
            }
        )
    return {"format": ANSWERS_FORMAT, "version": 1, "paper_id": paper["paper_id"], "answers": rows}


def _result() -> dict[str, Any]:
    return grade_checkout(_answers(_sample("sample-paper.json")), _sample("sample-paper.key.json")).to_data()


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Any]:
    """Files as the project writes them: a paper issued and graded under a trainer, its ledger, a cache."""
    folder = tmp_path_factory.mktemp("schemas")
    secret = TrainerSecret.open(folder / "trainer", create=True)
    issued = issue_checkout("Asha", count=minimum_count(), sequential=False)
    paper_path, key_path, _baseline = write_checkout(issued, folder / "exam.json", trainer=secret)
    answers_path = folder / "answers.json"
    answers_path.write_text(json.dumps(_answers(issued.paper)), encoding="utf-8")
    result = grade_files(answers_path, key_path, trainer=secret)
    ledger = Ledger(secret)
    with ledger.locked():
        ledger.append(
            {"event": "sitting", "paper_id": issued.paper["paper_id"], "started": "2026-12-07T01:00:00Z"}
        )
    cache = VerdictCache(secret, course="course")
    cache.put("a" * 64, {"state": "ready"})
    cache.save()
    return {
        "paper": json.loads(paper_path.read_text()),
        "key": json.loads(key_path.read_text()),
        "answers": json.loads(answers_path.read_text()),
        "result": result.to_data(),
        "ledger line": [json.loads(line) for line in ledger.path.read_text().splitlines()],
        "ledger head": json.loads((secret.folder / HEAD_NAME).read_text()),
        "verdict cache": json.loads((secret.folder / CACHE_NAME).read_text()),
    }


# --- what the project writes follows its schema ----------------------------------------------------


@pytest.mark.parametrize(("name", "kind"), [("sample-paper.json", "paper"), ("sample-paper.key.json", "key")])
def test_every_committed_sample_follows_its_schema(name, kind):
    assert schema_problem(kind, _sample(name)) is None
    assert {path.name for path in SAMPLES.glob("*.json")} == {
        "sample-paper.json",
        "sample-paper.key.json",
        "sample-paper.key.baseline.json",  # a sentinel baseline: core.baselines reads it
    }


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_every_file_written_follows_its_schema(written, kind):
    documents = written[kind] if kind == "ledger line" else [written[kind]]
    assert documents
    for document in documents:
        assert schema_problem(kind, document) is None, document
    if kind == "ledger line":
        assert {line["event"] for line in documents} == {"issued", "graded", "sitting"}


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_each_schema_is_published_and_listed(kind):
    schema = json.loads(Path(schema_path(kind)).read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    formats = (Path(__file__).parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    assert f"fixtures/schemas/{SCHEMAS[kind]}.schema.json" in formats


# --- each schema refuses, naming the field -----------------------------------------------------------


def _valid(kind: str, written: dict[str, Any]) -> dict[str, Any]:
    if kind == "ledger line":
        return copy.deepcopy(written[kind][0])
    return copy.deepcopy(written[kind])


#: For each schema: a field made the wrong type, a field taken away, a field added (and its name).
EDITS: dict[str, list[tuple[str, Any, str]]] = {
    "paper": [
        ("cases.0.label", 5, "cases[0].label"),
        ("-trainee", None, "trainee"),
        ("+cases.0.hint", 1, "cases[0].hint"),
    ],
    "key": [
        ("cases.0.seed", "7", "cases[0].seed"),
        ("-cases", None, "cases"),
        ("+pass_mark", 0, "pass_mark"),
    ],
    "answers": [
        ("answers.0.hold", "yes", "answers[0].hold"),
        ("-paper_id", None, "paper_id"),
        ("+answers.0.note", "", "answers[0].note"),
    ],
    "result": [
        ("passed", "yes", "passed"),
        ("-trainee", None, "trainee"),
        ("+cases.0.extra", 1, "cases[0].extra"),
    ],
    "ledger line": [("paper_id", 5, "paper_id"), ("-trainee", None, "trainee"), ("+why", "", "why")],
    "ledger head": [("lines", -1, "lines"), ("-last", None, "last"), ("+first", "", "first")],
    "verdict cache": [("entries", [], "entries"), ("-entries", None, "entries"), ("+note", "", "note")],
}


def _edit(document: dict[str, Any], edit: str, value: Any) -> dict[str, Any]:
    op, path = (edit[0], edit[1:]) if edit[0] in "+-" else ("=", edit)
    *parents, last = path.split(".")
    node: Any = document
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if op == "-":
        del node[last]
    else:
        node[int(last) if isinstance(node, list) else last] = value
    return document


@pytest.mark.parametrize(
    ("kind", "edit", "value", "field"),
    [(kind, *edit) for kind, edits in EDITS.items() for edit in edits],
    ids=[f"{kind}:{edit[0]}" for kind, edits in EDITS.items() for edit in edits],
)
def test_each_schema_refuses_a_wrong_type_a_missing_and_an_extra_field_by_name(
    written, kind, edit, value, field
):
    problem = schema_problem(kind, _edit(_valid(kind, written), edit, value))
    assert problem is not None and problem.startswith(f"{field} "), problem
    assert "expected" in problem


def test_a_key_and_a_result_from_an_earlier_release_still_follow_their_schemas():
    key = _sample("sample-paper.key.json")
    for name in ("sequential", "verdict_rule", "seed", "content_hash"):
        del key[name]
    key["pass_share"] = 0.9  # the pass rule before the sequential test
    for case in key["cases"]:
        for name in ("lookalike_kinds", "stream", "made_for", "facet", "seed", "case_id", "title", "context"):
            del case[name]
    assert schema_problem("key", key) is None
    result = {
        k: v for k, v in _result().items() if k not in ("decision", "why", "design", "per_kind", "evidence")
    }
    assert schema_problem("result", result) is None


def test_the_readers_name_the_field_in_one_line(tmp_path):
    paper = _sample("sample-paper.json")
    paper["cases"][1]["reason_options"][2]["statement"] = None
    with pytest.raises(CheckoutFileError) as caught:
        paper_from_bytes(json.dumps(paper).encode(), source="paper.json")
    assert str(caught.value) == "paper.json: cases[1].reason_options[2].statement is null, expected text"
    answers = _answers(_sample("sample-paper.json"))
    answers["answers"][0]["seconds"] = 10**8
    with pytest.raises(
        CheckoutFileError, match=r"^answers: answers\[0\]\.seconds is 100000000, expected a number below"
    ):
        grade_checkout(answers, _sample("sample-paper.key.json"))
    result = _result()
    del result["paper_id"]
    (tmp_path / "result.json").write_text(json.dumps(result))
    with pytest.raises(
        CheckoutFileError, match=r"result\.json: paper_id is missing, expected a required field$"
    ):
        load_result(tmp_path / "result.json")


def test_a_signed_ledger_line_the_schema_refuses_is_refused_by_line_and_field(tmp_path):
    secret = TrainerSecret.open(tmp_path / "trainer", create=True)
    ledger = Ledger(secret)
    with ledger.locked():
        ledger.append({"event": "sitting", "paper_id": 5, "started": "2026-12-07T01:00:00Z"})
    with pytest.raises(Exception, match=r"line 1: paper_id is 5, expected text"):
        ledger.read()


def test_the_schemas_are_compiled_on_first_use_not_at_import():
    code = (
        "import sys, helpers.trainer.checkout, helpers.trainer.ledger, "
        "helpers.trainer.verdict_cache\n"
        "from helpers.trainer.file_schemas import validator\n"
        "assert validator.cache_info().currsize == 0 and 'fastjsonschema' not in sys.modules\n"
        "validator('paper'); validator('paper')\n"
        "assert validator.cache_info().currsize == 1 and validator.cache_info().hits == 1\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


# --- a file the old checks refused is still refused ------------------------------------------------

_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=3),
    st.lists(st.text(max_size=2), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(0, 2), max_size=2),
)


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _places(value, (*path, index))
    return found


def _mutations(document: dict[str, Any]) -> Any:
    """One edit of ``document``: a value replaced, a field taken away, or a field added, anywhere in it."""
    return st.tuples(
        st.sampled_from(_places(document)[1:]),
        st.sampled_from(["replace", "remove", "add"]),
        st.text(max_size=4),
        _VALUES,
    )


def _mutated(document: dict[str, Any], mutation: tuple[Any, ...]) -> dict[str, Any]:
    path, how, name, value = mutation
    document = copy.deepcopy(document)
    *parents, last = path
    node: Any = document
    for part in parents:
        node = node[part]
    if how == "remove" and isinstance(node, dict):
        del node[last]
    elif how == "add" and isinstance(node[last], dict):
        node[last][name] = value
    else:
        node[last] = value
    return document


def _refusal(read: Any) -> str | None:
    try:
        read()
    except CheckoutFileError as exc:
        return exc.message
    return None


def _version_one(document: dict[str, Any]) -> bool:
    version = document.get("version")
    return version == 1 and not isinstance(version, bool)


PAPER = _sample("sample-paper.json")
KEY = _sample("sample-paper.key.json")
ANSWERS = _answers(PAPER)
RESULT = _result()


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation=_mutations(PAPER))
def test_a_mutated_paper_is_refused_exactly_when_its_schema_or_a_rule_refuses_it(mutation):
    paper = _mutated(PAPER, mutation)
    refused = _refusal(lambda: paper_from_bytes(json.dumps(paper).encode(), source="paper"))
    problem = schema_problem("paper", paper)
    if problem is not None or isinstance(paper.get("version"), bool) or paper.get("format") != PAPER_FORMAT:
        assert refused is not None
        if problem is not None and paper.get("format") == PAPER_FORMAT and _version_one(paper):
            assert refused == problem
    else:
        labels = [case["label"] for case in paper["cases"]]
        assert (refused is not None) == (len(set(labels)) < len(labels)), refused


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation=_mutations(ANSWERS))
def test_mutated_answers_are_refused_when_their_schema_refuses_them_else_by_a_named_field(mutation):
    answers = _mutated(ANSWERS, mutation)
    refused = _refusal(lambda: grade_checkout(answers, KEY))
    problem = schema_problem("answers", answers)
    if answers.get("format") != ANSWERS_FORMAT:
        assert refused is not None and "format" in refused
    elif problem is not None:
        assert refused == problem
    elif refused is not None:  # a rule no schema states: the key's labels, a check's fields, the paper
        assert refused.startswith(("answers[", "answers paper")), refused
        if refused.startswith("answers paper"):
            assert answers["paper_id"] != KEY["paper_id"]
    else:
        seconds = [row.get("seconds", 0) for row in answers["answers"]]
        assert all(math.isfinite(s) and 0 <= s < 10**7 for s in seconds)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation=_mutations(RESULT))
def test_a_mutated_result_is_refused_exactly_when_its_schema_refuses_it(tmp_path_factory, mutation):
    result = _mutated(RESULT, mutation)
    path = tmp_path_factory.mktemp("result") / "result.json"
    path.write_text(json.dumps(result), encoding="utf-8")
    refused = _refusal(lambda: load_result(path))
    problem = schema_problem("result", result)
    if result.get("format") != RESULT_FORMAT or not _version_one(result):
        assert refused is not None
    else:
        assert refused == problem
