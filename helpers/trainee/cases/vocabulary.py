"""The words generated cases are made of, read strictly from ``fixtures/vocabulary.json``.

Training topics and query wording for target-scope cases; sentinel and case
IDs, approvers and answer domains for sentinel cases. An answer domain is one
task's answers (the letters of a multiple-choice test, a fact-check's verdict
labels, sentiment labels, support actions, the cities of a geography quiz) with
the rubric changes a team may approve for it. A generated key draws every
answer from one domain, and a revision's new answer from its old answer's
domain: no evaluation team has a key that mixes tasks.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.errors import InvalidInputError
from helpers.core.jsonio import load_json_file
from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.deciding_rule import (
    differs_only_in_case_or_space,
    differs_only_invisibly,
    lookalike_kind,
)

__all__ = ["AnswerDomain", "Vocabulary", "vocabulary_json", "load_vocabulary"]


def vocabulary_json() -> Path:
    """``fixtures/vocabulary.json``: the words generated cases are made of."""
    return fixtures_dir() / "vocabulary.json"


@dataclass(frozen=True)
class AnswerDomain:
    """One task's answers: what a key of that task holds, and the rubric changes approved for it.

    ``rubric_changes`` are ``(old, new)`` pairs: ``old`` is one of ``answers``,
    ``new`` a plain change of it (no look-alike) that belongs to this domain too.
    Taught in ``04_practice.ipynb``.
    """

    name: str
    task: str
    answers: tuple[str, ...]
    rubric_changes: tuple[tuple[str, str], ...]

    @property
    def words(self) -> frozenset[str]:
        """Every answer of the domain: its answers and the new answers of its rubric changes."""
        return frozenset([*self.answers, *(new for _old, new in self.rubric_changes)])


@dataclass(frozen=True)
class Vocabulary:
    """Training topics, query wording, unresolved mentions, IDs, approvers and answer domains.

    Taught in ``04_practice.ipynb``.
    """

    topics: tuple[str, ...]
    query_templates: tuple[str, ...]
    single_target_queries: tuple[str, ...]
    query_conditions: tuple[str, ...]
    unresolved_mentions: tuple[str, ...]
    sentinel_ids: tuple[str, ...]
    case_ids: tuple[str, ...]
    approvers: tuple[str, ...]
    domains: tuple[AnswerDomain, ...]

    @property
    def answers(self) -> tuple[str, ...]:
        """Every domain's answers, domain by domain (rubric changes' new answers not included)."""
        return tuple(a for domain in self.domains for a in domain.answers)

    @property
    def rubric_changes(self) -> tuple[tuple[str, str], ...]:
        """Every domain's rubric changes, domain by domain."""
        return tuple(pair for domain in self.domains for pair in domain.rubric_changes)

    def domain_of(self, answer: str) -> AnswerDomain | None:
        """The domain whose words include ``answer`` exactly, else None."""
        return next((domain for domain in self.domains if answer in domain.words), None)


_VOCAB_LISTS = (
    "topics",
    "query_templates",
    "single_target_queries",
    "query_conditions",
    "unresolved_mentions",
    "sentinel_ids",
    "case_ids",
    "approvers",
)
#: Lists that must hold at least this many words, so a case of 8 IDs can be made.
_AT_LEAST = {"topics": 12, "sentinel_ids": 8, "case_ids": 8}
#: The fields of one answer domain, in this order.
_DOMAIN_FIELDS = ("task", "answers", "rubric_changes")
#: A domain needs at least this many answers: a changed answer has others to become.
_DOMAIN_ANSWERS = 4


@functools.lru_cache(maxsize=1)
def _default_vocabulary_path() -> Path:
    """:func:`vocabulary_json`, found once per process (finding the fixtures is not free)."""
    return vocabulary_json()


def load_vocabulary(path: str | Path | None = None) -> Vocabulary:
    """Read the vocabulary strictly; a missing or malformed list or domain is an error naming it.

    The file is read and checked once per process for as long as it is unchanged (same
    modification time and size): every generated case uses it, and the trainer's view makes
    millions of them.
    """
    source = Path(path) if path is not None else _default_vocabulary_path()
    try:
        info = os.stat(source)
    except OSError:
        return _read_vocabulary(source)  # the reader names the file and why it cannot be read
    return _vocabulary_as_of(str(source), info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=8)
def _vocabulary_as_of(source: str, _mtime_ns: int, _size: int) -> Vocabulary:
    return _read_vocabulary(Path(source))


def _strings(value: Any, least: int) -> bool:
    return isinstance(value, list) and len(value) >= least and all(isinstance(v, str) and v for v in value)


def _read_list(source: Path, data: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = data.get(name)
    least = _AT_LEAST.get(name, 4)
    if not isinstance(value, list) or not _strings(value, least):
        raise InvalidInputError(
            f"{source}: {name} must be a list of at least {least} non-empty strings", field=name
        )
    if len(set(value)) != len(value):
        raise InvalidInputError(f"{source}: {name} lists a word twice", field=name)
    return tuple(value)


def _read_domain(source: Path, name: str, raw: Any) -> AnswerDomain:
    where = f"answer_domains.{name}"
    if not isinstance(raw, Mapping) or list(raw) != list(_DOMAIN_FIELDS):
        raise InvalidInputError(
            f"{source}: {where} must be an object with the fields {list(_DOMAIN_FIELDS)}, in that order",
            field=where,
        )
    if not isinstance(raw["task"], str) or not raw["task"].strip():
        raise InvalidInputError(
            f"{source}: {where}.task must say which task the answers are for", field=where
        )
    answers = raw["answers"]
    if not _strings(answers, _DOMAIN_ANSWERS) or len(set(answers)) != len(answers):
        raise InvalidInputError(
            f"{source}: {where}.answers must be a list of at least {_DOMAIN_ANSWERS} different "
            "non-empty strings",
            field=f"{where}.answers",
        )
    alike = [(a, b) for a in answers for b in answers if a < b and lookalike_kind(a, b)]
    if alike:
        raise InvalidInputError(
            f"{source}: {where}.answers has look-alikes {alike[0][0]!r} and {alike[0][1]!r}",
            field=f"{where}.answers",
        )
    changes = raw["rubric_changes"]
    if not isinstance(changes, list) or not changes:
        raise InvalidInputError(
            f"{source}: {where}.rubric_changes must be a non-empty list of [old, new] answer pairs",
            field=f"{where}.rubric_changes",
        )
    for number, pair in enumerate(changes, start=1):
        if not (_strings(pair, 2) and len(pair) == 2 and pair[0] in answers):
            raise InvalidInputError(
                f"{source}: {where}.rubric_changes item {number} must be an [old, new] pair of non-empty "
                "strings whose old answer is one of the domain's answers",
                field=f"{where}.rubric_changes",
            )
        old, new = pair
        if old == new or differs_only_in_case_or_space(old, new) or differs_only_invisibly(old, new):
            raise InvalidInputError(
                f"{source}: {where}.rubric_changes item {number} changes {old!r} into a look-alike or "
                "into itself; a rubric change gives another answer",
                field=f"{where}.rubric_changes",
            )
    return AnswerDomain(name, raw["task"], tuple(answers), tuple((old, new) for old, new in changes))


def _read_domains(source: Path, data: Mapping[str, Any]) -> tuple[AnswerDomain, ...]:
    raw = data.get("answer_domains")
    if not isinstance(raw, Mapping) or len(raw) < 2:
        raise InvalidInputError(
            f"{source}: answer_domains must be an object of at least 2 named answer domains",
            field="answer_domains",
        )
    domains = tuple(_read_domain(source, name, value) for name, value in raw.items())
    owner: dict[str, str] = {}
    for domain in domains:
        for word in sorted(domain.words):
            if word in owner:
                raise InvalidInputError(
                    f"{source}: the answer {word!r} is in both answer_domains.{owner[word]} and "
                    f"answer_domains.{domain.name}; each answer belongs to one domain",
                    field=f"answer_domains.{domain.name}",
                )
            owner[word] = domain.name
    return domains


def _read_vocabulary(source: Path) -> Vocabulary:
    data = load_json_file(source)
    if not isinstance(data, Mapping):
        raise InvalidInputError(f"{source}: expected a JSON object", field="vocabulary")
    known = {*_VOCAB_LISTS, "answer_domains"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidInputError(
            f"{source}: unknown field {unknown[0]!r}; the fields are {', '.join(sorted(known))}",
            field=unknown[0],
        )
    lists = {name: _read_list(source, data, name) for name in _VOCAB_LISTS}
    for name, places in (("query_templates", ("{a}", "{b}")), ("single_target_queries", ("{a}",))):
        for template in lists[name]:
            named = tuple(p for p in ("{a}", "{b}") if p in template)
            if named != places:
                raise InvalidInputError(
                    f"{source}: {name} item {template!r} must name the targets as {' and '.join(places)}",
                    field=name,
                )
    return Vocabulary(**lists, domains=_read_domains(source, data))
