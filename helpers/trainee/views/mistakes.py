"""Typical wrong answers to a case, graded live: what a trainee would see for each.

Each mistake is made from the case's right answer (one ID left out, one ID too
many, the flag the wrong way, a hold where the check runs or the other way
round, a reason that does not apply), plus the answer with everything left unset,
and graded by :func:`helpers.trainee.grading.grade`, so the feedback shown is the feedback the
widgets give (the unset answer excepted: Check in a widget names what is unset and grades
nothing; the grader reads it so when a check-out case is sent that way after its warning). Taught in
``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("Wrong answers,
graded").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from helpers.core.chardiff import visible_id, visible_text
from helpers.core.ordering import sorted_ids
from helpers.trainee.cases.filled import Case, filled_cases
from helpers.trainee.cases.generators import GENERATORS, generate
from helpers.trainee.cases.practice_cases import practice_cases
from helpers.trainee.cases.rules import load_rules
from helpers.trainee.grading import (
    Answer,
    answer_fields,
    candidate_ids,
    correct_answer,
    decisive_rules,
    grade,
    hints,
    reason_options,
)
from helpers.trainee.html import Html, html, html_join
from helpers.trainee.views.case_html import (
    HtmlBlock,
    display_json,
    esc_id,
    feedback_html,
    json_html,
    scroll_region,
    ticked_html,
    verdict_text,
)

__all__ = [
    "Mistake",
    "EXTRA_CASES",
    "typical_mistakes",
    "graded_mistakes",
    "graded_for",
    "feedback_for_every_rule",
]


@dataclass(frozen=True)
class Mistake:
    """One wrong answer to a case, with a short description of what went wrong."""

    label: str
    answer: Answer


def typical_mistakes(case: Case) -> list[Mistake]:
    """The usual ways to get ``case`` wrong: the blank answer, then answers that differ from the right one in one place.

    When a list holds several IDs, the one left out is the last in order, so the
    hint that names it is not simply the first ID of the list.
    """
    right = correct_answer(case)
    first, second, flag = answer_fields(case.check)
    found: list[Mistake] = [Mistake("Left everything unset", Answer(case.check))]
    hold = "holding" if case.check == "target-scope" else "refusing"
    held = "Held" if case.check == "target-scope" else "Refused"
    if right.hold:
        found.append(Mistake(f"Ran the check instead of {hold} the input", replace(right, hold=False)))
    else:
        for name, chosen in ((first, right.missing), (second, right.second)):
            if chosen:
                left_out = sorted_ids(chosen)[-1]
                fewer = chosen - {left_out}
                less = replace(right, missing=fewer) if name == first else replace(right, second=fewer)
                label = f"the last of {len(chosen)} IDs" if len(chosen) > 1 else "the only ID"
                found.append(Mistake(f"Left out {label} in `{name}`", less))
        for name, chosen in ((first, right.missing), (second, right.second)):
            for extra in _one_of_each_kind(case, [i for i in candidate_ids(case) if i not in chosen]):
                more = chosen | {extra}
                wrong = replace(right, missing=more) if name == first else replace(right, second=more)
                found.append(Mistake(f"Also ticked `{visible_id(extra)}` in `{name}`", wrong))
        found.append(Mistake(f"Set `{flag}` the wrong way", replace(right, flag=not right.flag)))
        found.append(Mistake(f"{held} the input although the check runs", replace(right, hold=True)))
    decisive = set(decisive_rules(case))
    options = reason_options(case, rules=load_rules()) if decisive else []
    distractors = sorted(rule.id for rule in options if rule.id not in decisive)
    if decisive and distractors:
        found.append(
            Mistake("Picked a reason that does not decide it", replace(right, reason=distractors[0]))
        )
    return found


def _one_of_each_kind(case: Case, ids: Sequence[str]) -> list[str]:
    """The first of ``ids`` of each kind: which of the input's two lists or keys it is in, and which output lists.

    Each kind of wrongly ticked ID gets its own feedback (in both lists, only on
    the other side, a look-alike), so one of each shows every message.
    """
    sides = ("original", "rewritten") if case.check == "target-scope" else ("baseline", "proposed")
    outputs = answer_fields(case.check)[:2]
    seen: dict[tuple[bool, ...], str] = {}
    for item in ids:
        kind = tuple(item in case.input.get(side, ()) for side in sides) + tuple(
            item in case.expected.get(name, ()) for name in outputs
        )
        seen.setdefault(kind, item)
    return list(seen.values())


def _reason_html(reason: str | None) -> Html:
    return html("<code>{}</code>", reason) if reason else html("(not picked)")


def _answer_text(case: Case, answer: Answer) -> str:
    return f"{display_json(answer.as_dict(case))} · reason {answer.reason or '(not picked)'}"


def graded_mistakes(cases: Sequence[Case], *, fold_after_first: bool = False) -> HtmlBlock:
    """Every typical mistake on ``cases``, graded: the answer, the feedback and the hint ladder.

    The feedback names the field and the rule, never the expected ID or value;
    each finding ends with the rule it counts against in the drill.
    Each case gets its own table; with ``fold_after_first`` every case after the
    first sits behind its own reveal, so the first is read in full and the rest on
    demand. Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    tables: list[Html] = []
    text: list[str] = []
    for case in cases:
        rows: list[Html] = []
        for mistake in typical_mistakes(case):
            result = grade(case, mistake.answer, ask_reason=True)
            ladder = [visible_text(rung, notated=True) for rung in hints(case)]
            verdict = verdict_text(len(result.mistakes))
            findings = [(m.field, f"{m.message.rstrip('.')} · rule {m.rule}") for m in result.mistakes]
            messages = [visible_text(message, notated=True) for _field, message in findings]
            rows.append(
                html(
                    '<tr><th scope="row"><code class="eic-id">{case_id}</code><br>{label}</th>'
                    '<td class="eic-json-cell">{answer}<p>Reason: {reason}</p></td>'
                    '<td class="eic-reason">{feedback}</td>'
                    '<td class="eic-reason"><ol><li>{hint1}</li><li>{hint2}</li></ol>'
                    "<details><summary>Hint 3, the rule, for {case_id}: {label}</summary>"
                    "<p>{hint3}</p></details></td></tr>",
                    case_id=esc_id(case.id),
                    label=ticked_html(mistake.label),
                    answer=json_html(mistake.answer.as_dict(case)),
                    reason=_reason_html(mistake.answer.reason),
                    feedback=feedback_html(result.correct, findings, live=False),
                    hint1=ticked_html(ladder[0]),
                    hint2=ticked_html(ladder[1]),
                    hint3=ticked_html(ladder[2]),
                )
            )
            text.append(
                "\n".join(
                    [
                        f"{visible_id(case.id)}: {mistake.label}",
                        f"  answer: {_answer_text(case, mistake.answer)}",
                        f"  {verdict}",
                        *(f"  - {message}" for message in messages),
                        *(f"  {rung}" for rung in ladder),
                    ]
                )
            )
        table = html(
            '<table class="eic-mistakes"><thead><tr><th scope="col">Case and mistake</th>'
            '<th scope="col">The answer given</th><th scope="col">Feedback</th>'
            '<th scope="col">Hints</th></tr></thead><tbody>{}</tbody></table>',
            html_join(rows),
        )
        label = f"Wrong answers to {visible_id(case.id)}, graded"
        region = scroll_region(table, label)
        if fold_after_first and tables:
            region = html("<details><summary>{} ({})</summary>{}</details>", label, len(rows), region)
        tables.append(region)
    return HtmlBlock(html_join(tables), "\n".join(text))


#: Practice cases shown beside a check's filled cases: each has a shape the filled cases lack
#: (two empty lists; a sentinel missing and another changed, with IDs that look like HTML).
EXTRA_CASES: dict[str, tuple[str, ...]] = {
    "target-scope": ("both-empty",),
    "sentinels": ("markup-sentinel-ids",),
}


def graded_for(check: str) -> HtmlBlock:
    """:func:`graded_mistakes` on the check's filled cases and its :data:`EXTRA_CASES`.

    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("Wrong answers, graded").
    """
    extra = {case.id: case for case in practice_cases(check)}
    cases = [*filled_cases(check), *(extra[case_id] for case_id in EXTRA_CASES[check])]
    return graded_mistakes(cases, fold_after_first=True)


def feedback_for_every_rule(seed: int = 1) -> HtmlBlock:
    """One generated case per rule (made with ``seed``), its typical mistakes graded, behind one reveal.

    Shows how the drill phrases its feedback for every rule. Taught in ``04_practice.ipynb``.
    """
    cases = [generate(rule_id, seed) for rule_id in GENERATORS]
    table = graded_mistakes(cases)
    summary = f"Show the feedback for all {len(cases)} rules (generated cases, seed {seed})"
    return HtmlBlock(
        html("<details><summary>{}</summary>{}</details>", summary, table.html),
        f"{summary}\n{table.text}",
    )
