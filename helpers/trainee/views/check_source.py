"""The check itself, as the notebooks show it: the source of the functions that decide each check,
the seed's evaluator run over the filled cases, and the rules that hold for one input.

Re-exported by :mod:`helpers.trainee.views.case_html` (``helpers.trainee.views.case_html``). Taught in
``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("The check itself", "Which rule decides").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from helpers.core.checks import run_check
from helpers.core.jsonio import dumps_compact
from helpers.trainee.html import (
    Html,
    HtmlBlock,
    display_json,
    html,
    html_join,
    json_html,
    prose,
    scroll_region,
)

__all__ = ["DECIDING", "deciding_functions", "source_block", "evaluator_run", "deciding_rule_block"]


#: The functions that decide each check, as the notebooks show them ("The check itself").
DECIDING: dict[str, tuple[str, ...]] = {
    "target-scope": ("helpers.core.target_scope:check_target_scope", "helpers.core.target_scope:_compare"),
    "sentinels": ("helpers.core.sentinels:check_sentinels",),
}


def deciding_functions(check: str) -> list[Callable[..., Any]]:
    """The functions that decide ``check``, in the order the notebook shows them."""
    import importlib

    found = []
    for name in DECIDING[check]:
        module, _, attribute = name.partition(":")
        found.append(getattr(importlib.import_module(module), attribute))
    return found


def source_block(check: str) -> HtmlBlock:
    """The source of the functions that decide ``check``, highlighted: the code that runs.

    Read with :func:`inspect.getsource` as the notebook runs, so the page can never
    show other code than the check's own. Highlighted with Pygments' ``xcode``
    style, whose colours all reach a 4.5:1 contrast on white. Taught in
    ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb`` ("The check itself").
    """
    import inspect

    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    code = "\n\n".join(inspect.getsource(function).rstrip() for function in deciding_functions(check))
    shown = highlight(code, PythonLexer(), HtmlFormatter(style="xcode", noclasses=True, nobackground=True))
    label = f"The source of the {check} check"
    return HtmlBlock(
        # Pygments escapes the code it highlights, so its output is markup already.
        html('<div class="eic-source" role="region" aria-label="{}">{}</div>', label, Html(shown)),
        code + "\n",
    )


def evaluator_run(check: str) -> HtmlBlock:
    """Run the check over its filled cases with asserts, as the seed's evaluator does; one summary line.

    Raises ``AssertionError`` naming the case when an output differs from the
    seed's expected object, key order included. Taught in ``02_target_scope.ipynb``.
    """
    from helpers.trainee.cases.filled import filled_cases

    cases = filled_cases(check)
    for case in cases:
        got = run_check(check, case.input).as_dict()
        assert got == case.expected and list(got) == list(case.expected), f"{case.id}: {got!r}"
    summary = dumps_compact({"checked": len(cases), "caseIds": [case.id for case in cases]})
    return HtmlBlock(html('<pre class="eic-json">{}</pre>', summary), summary)


def deciding_rule_block(
    check: str, record: Mapping[str, Any], context: Mapping[str, Any] | None = None
) -> HtmlBlock:
    """Every rule that holds for one input, and the one that decides it (the reason to pick).

    Several rules can be true of one case: a lost target beside an added one makes
    ``ts-lost``, ``ts-added`` and ``ts-several`` all true. The reason is the most
    specific of them, :func:`helpers.trainee.cases.deciding_rule.keyed_rule`; the others are true
    but do not settle the output. Taught in ``02_target_scope.ipynb`` and
    ``03_sentinel_answer_key.ipynb`` ("Which rule decides").
    """
    from helpers.trainee.cases import deciding_rule as keyed
    from helpers.trainee.cases.rules import project_rules

    context = context or {}
    decides = keyed.keyed_rule(check, record, context)
    holding = [rule for rule in project_rules(check) if keyed.applies(rule.id, check, record, context)]
    rows: list[Html] = []
    text = [f"input: {display_json(dict(record))}"]
    for rule in holding:
        verdict = "decides this case" if rule.id == decides else "holds, but does not decide"
        rows.append(
            html(
                '<tr><th scope="row">{} <small><code>{}</code></small></th><td>{}</td><td>{}</td></tr>',
                rule.name,
                rule.id,
                verdict,
                prose(rule.statement, notated=True),
            )
        )
        text.append(f"- {rule.label}: {verdict}. {rule.statement}")
    table = html(
        '<table><thead><tr><th scope="col">Rule</th><th scope="col">Here</th>'
        '<th scope="col">What it says</th></tr></thead><tbody>{}</tbody></table>',
        html_join(rows),
    )
    return HtmlBlock(
        html("<p><b>Input</b></p>{}{}", json_html(dict(record)), scroll_region(table, "Rules that hold")),
        "\n".join(text),
    )
