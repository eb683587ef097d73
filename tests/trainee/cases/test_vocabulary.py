"""The words generated cases are made of (``helpers/trainee/cases/vocabulary.py``): read strictly, once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.vocabulary import AnswerDomain, load_vocabulary, vocabulary_json

STORED = json.loads(vocabulary_json().read_text(encoding="utf-8"))


def _written(tmp_path: Path, change) -> Path:
    data = json.loads(json.dumps(STORED))
    change(data)
    path = tmp_path / "vocabulary.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_projects_vocabulary_reads_every_list_and_domain() -> None:
    vocab = load_vocabulary()
    assert vocab.topics == tuple(STORED["topics"]) and vocab.case_ids == tuple(STORED["case_ids"])
    assert [domain.name for domain in vocab.domains] == list(STORED["answer_domains"])
    assert vocab.answers == tuple(a for d in STORED["answer_domains"].values() for a in d["answers"])
    assert len(vocab.rubric_changes) == sum(
        len(d["rubric_changes"]) for d in STORED["answer_domains"].values()
    )
    assert load_vocabulary() is vocab  # read once while the file is unchanged


def test_each_answer_belongs_to_one_domain() -> None:
    vocab = load_vocabulary()
    for domain in vocab.domains:
        for word in domain.words:
            assert vocab.domain_of(word) is domain
    assert vocab.domain_of("no such answer at all") is None
    domain = AnswerDomain("letters", "a test", ("A", "B"), (("A", "A or B"),))
    assert domain.words == frozenset({"A", "B", "A or B"})


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = _written(tmp_path, lambda d: None)
    first = load_vocabulary(path)
    path.write_text(json.dumps({**STORED, "approvers": [*STORED["approvers"], "Zed"]}), encoding="utf-8")
    os.utime(path, ns=(1, 1))
    assert load_vocabulary(path).approvers == (*first.approvers, "Zed")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(colours=["red"]), "unknown field 'colours'; the fields are "),
        (
            lambda d: d.update(topics=d["topics"][:11]),
            "topics must be a list of at least 12 non-empty strings",
        ),
        (lambda d: d["case_ids"].append(d["case_ids"][0]), "case_ids lists a word twice"),
        (
            lambda d: d["single_target_queries"].__setitem__(0, "about {a} and {b}"),
            "single_target_queries item 'about {a} and {b}' must name the targets as {a}",
        ),
        (
            lambda d: d["answer_domains"].update(extra={"task": "t", "answers": ["a", "b", "c", "d"]}),
            "answer_domains.extra must be an object with the fields ['task', 'answers', 'rubric_changes']",
        ),
        (
            lambda d: d["answer_domains"].update(
                letters={"task": "t", "answers": ["x", "y", "z", "X"], "rubric_changes": [["x", "x or y"]]}
            ),
            "answer_domains.letters.answers has look-alikes",
        ),
        (
            lambda d: d.update(answer_domains=dict(list(d["answer_domains"].items())[:1])),
            "answer_domains must be an object of at least 2 named answer domains",
        ),
    ],
)
def test_a_malformed_vocabulary_is_refused_naming_the_list(tmp_path: Path, change, message) -> None:
    with pytest.raises(InvalidInputError) as caught:
        load_vocabulary(_written(tmp_path, change))
    assert message in str(caught.value)
