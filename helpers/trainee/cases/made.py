"""What a case generator makes, and the draws every generator shares.

A :class:`Generator` pairs a rule with its maker; a maker draws a :class:`Made`
case (input, context, reason) from a seeded random source and the vocabulary.
The wording helpers here make sentences agree with their counts. Used by
:mod:`helpers.trainee.cases.generators`; taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import dataclass, field
from typing import Any

from helpers.core.chardiff import visible_id
from helpers.core.errors import InvalidInputError
from helpers.trainee.cases import deciding_rule as keyed
from helpers.trainee.cases.vocabulary import AnswerDomain, Vocabulary

Record = dict[str, Any]
Output = dict[str, Any]


#: :func:`~helpers.core.chardiff.visible_id`, kept per ID: cases are made of a few hundred words and their look-alikes.
visible = functools.lru_cache(maxsize=16384)(visible_id)


def careless_form(text: str) -> str:
    """What a careless comparison sees: every look-alike difference ignored."""
    return keyed.reader_form(text)


# --- wording that agrees with its count ---------------------------------------------------


def names_text(ids: Sequence[str]) -> str:
    shown = [visible(i) for i in ids]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def verb_for(ids: Sized, one: str, many: str) -> str:
    return one if len(ids) == 1 else many


def count_text(n: int, noun: str) -> str:
    return f"no {noun}s" if n == 0 else f"1 {noun}" if n == 1 else f"{n} {noun}s"


# --- the generators -------------------------------------------------------------------------


@dataclass(frozen=True)
class Made:
    """What a generator makes before the exact check runs: the input, its context and its reason.

    ``domain`` is the answer domain a sentinel case's answers come from (None for target scope).
    """

    input: Record
    reason: str
    context: Record = field(default_factory=dict)
    domain: AnswerDomain | None = None


Maker = Callable[[random.Random, Vocabulary, str | None], Made]


@dataclass(frozen=True)
class Generator:
    """A rule's case generator and the look-alike kinds it makes.

    ``facets`` lists the kinds :func:`helpers.trainee.cases.generators.generate` can be asked for with ``facet=``
    (empty for a rule that is not about look-alikes). Taught in ``04_practice.ipynb``.
    """

    rule_id: str
    check: str
    make: Maker
    facets: tuple[str, ...] = ()


def plain_words(vocab: Vocabulary) -> list[str]:
    return list(vocab.topics)


def draw_topics(rng: random.Random, vocab: Vocabulary, count: int) -> list[str]:
    return rng.sample(plain_words(vocab), count)


def maybe_shuffled(rng: random.Random, items: list[str], chance: float = 0.6) -> list[str]:
    items = list(items)
    if len(items) > 1 and rng.random() < chance:
        rng.shuffle(items)
    return items


def insert_randomly(rng: random.Random, items: list[str], extra: Iterable[str]) -> list[str]:
    items = list(items)
    for item in extra:
        items.insert(rng.randint(0, len(items)), item)
    return items


def repeat_one(rng: random.Random, items: list[str]) -> tuple[list[str], str]:
    repeated = rng.choice(items)
    return insert_randomly(rng, items, [repeated]), repeated


def facet_for(rng: random.Random, facet: str | None, allowed: tuple[str, ...], rule_id: str) -> str:
    if facet is None:
        return rng.choice(allowed)
    if facet not in allowed:
        raise InvalidInputError(
            f"the generator for {rule_id} cannot make the look-alike kind {facet!r}; "
            f"it makes {', '.join(allowed)}",
            field="facet",
        )
    return facet


# --- context on every rule: the shape of a case never decides it ----------------------------

#: How often a case of another rule carries each block that some rule turns on.
DECOY_CHANCE = 0.3
