"""The mastery drill's progress panel as markup: the progress line, each rule's bar, the look-alike kinds.

Built from the drill's :class:`~helpers.trainee.drill.mastery.Mastery` alone, through
:func:`helpers.trainee.html.html`, so every value in it is escaped. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Sequence

from helpers.trainee.drill import sequential
from helpers.trainee.drill.mastery import Mastery
from helpers.trainee.drill.model import FACET_STREAK, FACET_STREAKS, MASTERY_STREAK
from helpers.trainee.drill.to_go import progress_line
from helpers.trainee.html import Html, esc, html_join
from helpers.trainee.html import html as markup

__all__ = ["bars_html", "bar_lines", "cases_worded", "rule_bar", "FACET_NAMES"]

#: How each look-alike kind is named on the bars.
FACET_NAMES = {
    "case": "a change of case",
    "outer-space": "a leading or trailing space",
    "no-break-space": "a no-break space",
    "nfd": "decomposed Unicode form (NFD)",
    "zero-width": "a zero-width character",
    "full-width": "full-width letters",
    "homoglyph": "a Cyrillic or Greek look-alike letter",
}


def rule_bar(rule: str, streak: int, mastered: bool) -> str:
    """One rule's bar as text: ``ts-lost ■■□ 2/3``, or ``… ■■■ ✔ mastered``."""
    filled = MASTERY_STREAK if mastered else min(streak, MASTERY_STREAK)
    blocks = "■" * filled + "□" * (MASTERY_STREAK - filled)
    return f"{rule} {blocks} " + ("✔ mastered" if mastered else f"{filled}/{MASTERY_STREAK}")


def bar_lines(m: Mastery) -> list[str]:
    """Each rule's bar as text, then each look-alike kind, in rule and facet order."""
    lines = [rule_bar(r, m.states[r].streak, m.states[r].mastered) for r in m.rules]
    for facet in m.facets:
        mark = "✔ mastered" if m.facet_states[facet].secured else "not yet mastered"
        lines.append(f"look-alike: {FACET_NAMES.get(facet, facet)} — {mark}")
    return lines


def cases_worded(count: int) -> str:
    """``1 case`` or ``N cases``."""
    return f"{count} case{'' if count == 1 else 's'}"


def bars_html(m: Mastery, lines: Sequence[str], due: Sequence[str], *, demo: bool) -> Html:
    """The panel for ``m``: ``lines`` are the bars as text (rules, then look-alike kinds), ``due`` the rules due today."""
    items = html_join(
        markup(
            '<li class="{}"><code>{}</code></li>',
            "eic-mastered" if m.states[r].mastered else "eic-learning",
            esc(line),
        )
        for r, line in zip(m.rules, lines, strict=False)
    )
    facets = html_join(markup("<li><code>{}</code></li>", esc(line)) for line in lines[len(m.rules) :])
    empty = Html("")
    due_line = (
        markup("<p><b>Due for review today:</b> {}. They come first.</p>", esc(", ".join(due)))
        if due
        else empty
    )
    complete = (
        Html(
            "<p><b>✔ Complete:</b> every rule mastered and every look-alike kind mastered, with a whole "
            "record that clears the bar.</p>"
        )
        if (m.complete)
        else empty
    )
    right, wrong = m.record_so_far()
    more = sequential.right_answers_needed(right, wrong)
    recent = (
        markup(
            "<p><b>Whole record:</b> {} of your {} cases right unaided{}. "
            "The bar is one that someone right {:.0%} of the time or less reaches at most "
            "{:.0%} of the time, however long they practise: with no miss it takes "
            "{} cases, and each miss about ten more right ones. "
            "A look-alike kind is mastered by {} right case of it "
            "({}), "
            "one more in a row for each one missed.</p>",
            right,
            right + wrong,
            " (clears the bar)" if m.overall_met else f"; at least {more} more right to clear the bar",
            float(sequential.P0),
            float(sequential.ALPHA),
            sequential.right_answers_needed(0, 0),
            FACET_STREAK,
            ", ".join(f"{n} in a row for {k}" for k, n in FACET_STREAKS.items()),
        )
        if right + wrong
        else empty
    )
    demo_line = (
        markup(
            '<p class="eic-demo-seed"><b>Demo drill</b> (fixed seed {}): the same cases for everyone, '
            "for trying the drill out, and marked as a demo in its file. Press <b>Start again</b> for your own "
            "drill with fresh cases: only a fresh drill counts as practice evidence.</p>",
            m.seed,
        )
        if demo
        else empty
    )
    facet_list = (
        markup('<ul class="eic-bars" aria-label="Look-alike kinds">{}</ul>', facets) if facets else empty
    )
    return markup(
        '{}<div role="status" aria-live="polite" class="eic-progress-line"><b>{}</b>'
        "</div>{}{}"
        '<details class="eic-progress-details"><summary>Each rule, and the look-alike kinds ({} '
        "of {} mastered); {} worked</summary><p>A miss, a skip, a reveal or a hint "
        "before the check takes a rule's mastery away again.</p>{}"
        '<ul class="eic-bars" aria-label="Progress per rule">{}</ul>{}'
        "</details>",
        demo_line,
        esc(progress_line(m)),
        complete,
        due_line,
        len(m.secured),
        len(m.facets),
        cases_worded(m.step),
        recent,
        items,
        facet_list,
    )
