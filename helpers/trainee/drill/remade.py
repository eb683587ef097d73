"""Drill cases made again from their (rule, seed, look-alike kind), each once per process.

The trainer's view re-grades every attempt of every progress file
(:mod:`helpers.trainer.cohort`) and then works the drill again with the engine
(:mod:`helpers.trainee.drill.replay`). Both need the same case, the reasons the drill
offered for it and the verdict on each answer, so both take them from one
:class:`RemadeCases`: each case is made once, by the generators, each answer graded
once, by :func:`helpers.trainee.grading.grade`, and both get the same ones. Nothing
here decides a verdict of its own: the right answer is the one :func:`correct_answer`
gives, which ``grade`` marks fully correct (``tests/trainee/drill/test_remade.py`` holds it).
Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from helpers.trainee.cases.generators import Vocabulary, generate
from helpers.trainee.cases.rules import Rule
from helpers.trainee.grading import Answer, Grade, correct_answer, decisive_rules, grade, reason_options

__all__ = ["Made", "RemadeCases", "remade_cases"]

#: How many made cases (and offered reasons) a process keeps (about 3 KB each): a file's worth and
#: more, so a file's cases are made once for the re-grade and the engine's replay, and copies of a
#: few drills share theirs.
KEPT = 1 << 14


@dataclass(frozen=True)
class Made:
    """A drill case made again, with what re-grading asks of it for every answer."""

    case: Any
    right: tuple[frozenset[str], frozenset[str], bool | None, bool]  # missing, second, flag, hold
    decisive: tuple[str, ...]
    facets: tuple[str, ...]


class RemadeCases:
    """The drill cases of one course (vocabulary and rules) made again, and the reasons each offered.

    Up to :data:`KEPT` of each are kept; the course is looked up once, not per case.
    """

    def __init__(self, vocab: Vocabulary, rules: tuple[Rule, ...]) -> None:
        self.vocab, self.rules = vocab, rules
        self.case = functools.lru_cache(maxsize=KEPT)(self._case)
        self.offered = functools.lru_cache(maxsize=KEPT)(self._offered)
        self.graded = functools.lru_cache(maxsize=KEPT)(self._graded)

    def _case(self, rule: str, seed: int, facet: str | None) -> Made:
        case = generate(rule, seed, vocabulary=self.vocab, facet=facet)
        right = correct_answer(case)
        return Made(
            case,
            (right.missing, right.second, right.flag, right.hold),
            decisive_rules(case),
            tuple(case.facets),
        )

    def _offered(self, rule: str, seed: int, facet: str | None, salt: str) -> tuple[str, ...]:
        """The reasons the drill offered for that case at the place ``salt`` names in the drill."""
        case = self.case(rule, seed, facet).case
        return tuple(r.id for r in reason_options(case, rules=self.rules, salt=salt))

    def _graded(self, rule: str, seed: int, facet: str | None, answer: Answer) -> Grade:
        """The verdict on ``answer`` to that case, reason included, as :func:`grade` gives it: the right
        answer (:func:`correct_answer`) is fully correct without grading it field by field."""
        made = self.case(rule, seed, facet)
        given = (answer.missing, answer.second, answer.flag, answer.hold)
        if given == made.right and answer.reason in made.decisive:
            return _RIGHT
        return grade(made.case, answer, ask_reason=True, rules=self.rules)


#: The verdict on a right answer: fully correct, no mistakes.
_RIGHT = Grade(correct=True)


@functools.lru_cache(maxsize=4)
def remade_cases(vocab: Vocabulary, rules: tuple[Rule, ...]) -> RemadeCases:
    """The :class:`RemadeCases` of this course, one per process."""
    return RemadeCases(vocab, rules)
