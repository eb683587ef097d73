"""What every drill shares (:class:`CaseEngine`): one case open at a time, its hints, its one scored
check and its reveal. :class:`helpers.trainee.drill.engine.DrillSession` and
:class:`helpers.trainee.drill.course_session.CourseSession` serve the cases. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from helpers.core.chardiff import visible_text
from helpers.core.errors import InvalidInputError
from helpers.trainee.cases.practice_cases import PracticeCase
from helpers.trainee.cases.rules import Rule
from helpers.trainee.drill.case_view import HOLD_LABELS, CaseView, frozen
from helpers.trainee.drill.check_result import CheckResult
from helpers.trainee.drill.times import now_text
from helpers.trainee.grading import (
    Answer,
    Grade,
    answer_fields,
    candidate_ids,
    grade,
    hints,
    outcome_of,
    reason_options,
)
from helpers.trainee.html import display_json

__all__ = ["CaseEngine", "OpenCase"]


@dataclass
class OpenCase:
    """The case being worked: the private half that the view leaves out, and the view once drawn."""

    case: PracticeCase
    rule: str
    seed: int
    facet: str | None
    served: str
    number: int
    label: str
    options: tuple[Rule, ...]  # the reasons offered, in the order shown
    view: CaseView | None = None  # drawn when first asked for (the trainer's replay never asks)
    hints_used: int = 0
    revealed: bool = False
    scored: Any = None  # the scored attempt, once there is one


class CaseEngine:
    """What every drill shares: one case open at a time, its hints, its one scored check, its reveal.

    A subclass serves the cases (:meth:`next_case`) and keeps the score (:meth:`_score`).
    """

    rules: list[Rule]
    _clock: Callable[[], _dt.datetime] | None
    _open: OpenCase | None

    # --- time -----------------------------------------------------------------------------

    def now(self) -> str:
        """The current time as progress files write it (as the clock's ``text`` when it keeps one)."""
        clock = self._clock
        if clock is None:
            return now_text()
        text = getattr(clock, "text", None)  # the trainer's replay: a recorded time, as the file wrote it
        return text if type(text) is str else now_text(clock())

    @property
    def current(self) -> CaseView | None:
        """The case being worked, if any."""
        current = self._open
        if current is None:
            return None
        if current.view is None:
            current.view = self._view(current.case, current.number, current.label, current.options)
        return current.view

    @property
    def current_check(self) -> str | None:
        """The check of the case being worked (``target-scope`` or ``sentinels``), if any."""
        return self._open.case.check if self._open is not None else None

    @property
    def current_scored(self) -> Any:
        """The current case's scored attempt, once it has one."""
        return self._open.scored if self._open is not None else None

    @property
    def scored_rule(self) -> str | None:
        """The rule the current case was about, once it is scored (never before: that would give it away)."""
        if self._open is None or self._open.scored is None:
            return None
        return self._open.rule

    @property
    def hints_used(self) -> int:
        """Hints shown on the current case."""
        return self._open.hints_used if self._open is not None else 0

    # --- working a case ---------------------------------------------------------------------

    def _need_open(self) -> OpenCase:
        if self._open is None:
            raise InvalidInputError("no case is open: call next_case() first", field="case")
        return self._open

    def hint(self) -> str:
        """The next rung of the hint ladder; a hinted answer no longer counts as unaided."""
        current = self._need_open()
        ladder = hints(current.case, rules=self.rules)
        if current.hints_used < len(ladder):
            current.hints_used += 1
        return ladder[current.hints_used - 1]

    def shown_hints(self) -> list[str]:
        """The rungs of the hint ladder shown so far on the current case."""
        if self._open is None:
            return []
        return hints(self._open.case, rules=self.rules)[: self._open.hints_used]

    @property
    def hints_left(self) -> int:
        """How many rungs of the ladder are still unseen on the current case."""
        if self._open is None:
            return 0
        return max(len(hints(self._open.case, rules=self.rules)) - self._open.hints_used, 0)

    def check(self, answer: Answer) -> CheckResult:
        """Grade ``answer``; the first check of a case is scored, later ones only give feedback."""
        current = self._need_open()
        result, scored, outcome = self._checked(current, answer)
        return CheckResult(
            correct=result.correct,
            text=self._feedback_text(result, outcome, scored),
            scored=scored,
            outcome=outcome,
            mistakes=tuple((m.field, m.message) for m in result.mistakes),
            rule=current.rule if current.scored is not None else None,
        )

    def score(self, answer: Answer) -> None:
        """:meth:`check`, scored the same, without the feedback a trainee reads: the trainer's
        replay (:mod:`helpers.trainee.drill.replay`) checks every recorded answer and reads none."""
        self._checked(self._need_open(), answer)

    def _checked(self, current: OpenCase, answer: Answer) -> tuple[Grade, bool, str | None]:
        """The verdict on ``answer``, whether this check was scored (the first is) and its outcome."""
        if answer.check != current.case.check:
            raise InvalidInputError(
                f"the answer is for {answer.check!r}, the case is {current.case.check!r}", field="check"
            )
        result = self._grade(current, answer)
        scored = current.scored is None
        outcome: str | None = None
        if scored:
            outcome = outcome_of(result.correct, hints=current.hints_used, revealed=current.revealed)
            self._score(outcome, answer, result)
        return result, scored, outcome

    def reveal(self) -> str:
        """The worked answer as text; before a check, the case is scored as revealed (a miss)."""
        current = self._need_open()
        current.revealed = True
        if current.scored is None:
            self._score(outcome_of(None, unanswered="revealed"), None, None)
        case = current.case
        return (
            f"Expected output: {visible_text(display_json(case.expected), notated=True)}\n"
            f"Decision: {visible_text(case.decision, notated=True)}.\nReason: {visible_text(case.reason, notated=True)}\n"
            f"The rule: {self._statement(current.rule)}"
        )

    def worked_case(self) -> PracticeCase | None:
        """The current case with its expected output, once it has been scored (for showing the answer)."""
        if self._open is None or self._open.scored is None:
            return None
        return self._open.case

    # --- feedback ----------------------------------------------------------------------------

    def _known(self) -> dict[str, Rule]:
        """The rules by id, made once for this engine's list of rules."""
        made: tuple[list[Rule], dict[str, Rule]] | None = self.__dict__.get("_rules_by_id")
        if made is None or made[0] is not self.rules:
            made = (self.rules, {rule.id: rule for rule in self.rules})
            self.__dict__["_rules_by_id"] = made
        return made[1]

    def _statement(self, rule_id: str) -> str:
        known = self._known()
        return f"{rule_id}: {known[rule_id].statement}" if rule_id in known else rule_id

    def _grade(self, current: OpenCase, answer: Answer) -> Grade:
        """The verdict on ``answer`` to the open case, reason included."""
        return grade(current.case, answer, ask_reason=True, rules=self.rules)

    def _feedback_text(self, result: Grade, outcome: str | None, scored: bool) -> str:
        lines = ["Fully correct." if result.correct else "Not yet right:"]
        lines += [f"- {m.field}: {m.message}" for m in result.mistakes]
        current = self._open
        assert current is not None
        if scored:
            lines.append(_OUTCOME_TEXT[outcome or "missed"])
            lines.append(f"This case was about {self._statement(current.rule)}")
        else:
            lines.append("This case was already scored; checking again gives feedback only.")
        return "\n".join(lines)

    def _options(
        self, case: PracticeCase, salt: str, offered: Sequence[str] | None = None
    ) -> tuple[Rule, ...]:
        """The reasons offered for ``case`` at the place ``salt`` names, shuffled for it
        (:func:`reason_options`); ``offered`` names them when they were already worked out."""
        if offered is None:
            return tuple(reason_options(case, rules=self.rules, salt=salt))
        known = self._known()
        return tuple(known[rule_id] for rule_id in offered)

    def _view(self, case: PracticeCase, number: int, label: str, options: Sequence[Rule]) -> CaseView:
        """What the trainee sees of ``case``: the label, the input and context, IDs and the reasons offered."""
        first, second, flag = answer_fields(case.check)
        return CaseView(
            number=number,
            label=label,
            check=case.check,
            input=frozen({**case.input, **getattr(case, "context", {})}),
            fields=(first, second, flag),
            ids=tuple(candidate_ids(case)),
            reason_options=tuple((r.label, r.id) for r in options),
            hold_label=HOLD_LABELS[case.check],
        )

    def next_case(self) -> CaseView | None:  # pragma: no cover - each drill serves its own
        raise NotImplementedError

    def _score(self, outcome: str, answer: Answer | None, result: Grade | None) -> Any:  # pragma: no cover
        raise NotImplementedError


_OUTCOME_TEXT = {
    "correct": "Scored: correct first try, unaided.",
    "helped": "Scored: right, but helped by a hint, so it does not count towards mastery.",
    "missed": "Scored: missed. This rule comes round again soon.",
    "revealed": "Scored: missed, because the worked answer was shown before a check.",
    "skipped": "Scored: missed, because the case was skipped.",
}
