"""Item analysis over a cohort's first attempts, as quiz statistics report it.

For each rule (an "item"), from each trainee's **first** attempt at it only
(later attempts measure something else):

* **facility**: the share of trainees right at the first attempt (0 to 1);
* **discrimination**: the facility in the top 27% of trainees by total score
  minus the facility in the bottom 27% (the classical upper–lower index), and
  the **point-biserial** correlation between the item and the rest of the
  score. An item under :data:`FLAG_BELOW` (0.2) discriminates poorly and is flagged;
* the most common **wrong reason** picked for it.

Standard library only, so it also runs in the browser edition. The total
score of a trainee is how many of their first attempts were right.
Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["FirstAttempt", "ItemStats", "GROUP_SHARE", "FLAG_BELOW", "item_analysis", "item_table_text"]

#: The share of trainees in each of the upper and lower groups.
GROUP_SHARE = 0.27
#: Items whose discrimination falls under this are flagged.
FLAG_BELOW = 0.2


@dataclass(frozen=True)
class FirstAttempt:
    """One trainee's first attempt at one rule: right or not, and the wrong reason picked, if any."""

    trainee: str
    rule: str
    correct: bool
    wrong_reason: str | None = None


@dataclass(frozen=True)
class ItemStats:
    """One rule's statistics over the cohort. ``None`` where there are too few trainees to say."""

    rule: str
    trainees: int
    facility: float
    discrimination: float | None
    point_biserial: float | None
    common_wrong_reason: str | None
    wrong_reason_count: int

    @property
    def flagged(self) -> bool:
        """True when the item discriminates under :data:`FLAG_BELOW` (upper–lower, else point-biserial)."""
        value = self.discrimination if self.discrimination is not None else self.point_biserial
        return value is not None and value < FLAG_BELOW


def _first_only(records: Iterable[FirstAttempt]) -> dict[tuple[str, str], FirstAttempt]:
    first: dict[tuple[str, str], FirstAttempt] = {}
    for record in records:
        first.setdefault((record.trainee, record.rule), record)
    return first


def _share(items: Sequence[bool]) -> float | None:
    return sum(items) / len(items) if items else None


def _point_biserial(item: Sequence[int], rest: Sequence[int]) -> float | None:
    n = len(item)
    if n < 2:
        return None
    mean_i, mean_r = sum(item) / n, sum(rest) / n
    cov = sum((a - mean_i) * (b - mean_r) for a, b in zip(item, rest, strict=True))
    var_i = sum((a - mean_i) ** 2 for a in item)
    var_r = sum((b - mean_r) ** 2 for b in rest)
    if var_i == 0 or var_r == 0:
        return None
    return cov / math.sqrt(var_i * var_r)


def item_analysis(
    records: Iterable[FirstAttempt], *, rules: Sequence[str] | None = None, group_share: float = GROUP_SHARE
) -> list[ItemStats]:
    """Facility, discrimination and the most common wrong reason for every rule attempted.

    Only the first record per (trainee, rule) counts. ``rules`` fixes the order
    (and leaves out rules not listed); by default rules come in the order first met.
    The upper and lower groups each hold ``round(group_share * trainees)`` trainees
    (at least one), ranked by total score, ties by name. Taught in ``06_trainer.ipynb``.
    """
    first = _first_only(records)
    totals: Counter[str] = Counter()
    for (trainee, _rule), record in first.items():
        totals[trainee] += record.correct
    order = list(rules) if rules is not None else list(dict.fromkeys(rule for _t, rule in first))
    ranked = sorted(totals, key=lambda t: (-totals[t], t))
    size = max(1, round(group_share * len(ranked))) if ranked else 0
    upper, lower = set(ranked[:size]), set(ranked[len(ranked) - size :])
    stats = []
    for rule in order:
        rows = sorted((record for (_t, r), record in first.items() if r == rule), key=lambda x: x.trainee)
        if not rows:
            continue
        scores = [r.correct for r in rows]
        discrimination = None
        if len(ranked) >= 2:
            top = _share([r.correct for r in rows if r.trainee in upper])
            bottom = _share([r.correct for r in rows if r.trainee in lower])
            if top is not None and bottom is not None:
                discrimination = top - bottom
        item = [int(r.correct) for r in rows]
        rest = [totals[r.trainee] - int(r.correct) for r in rows]
        wrong = Counter(r.wrong_reason for r in rows if not r.correct and r.wrong_reason)
        common = min(wrong, key=lambda reason: (-wrong[reason], reason)) if wrong else None
        stats.append(
            ItemStats(
                rule,
                len(rows),
                sum(scores) / len(scores),
                discrimination,
                _point_biserial(item, rest),
                common,
                wrong[common] if common else 0,
            )
        )
    return stats


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def item_table_text(stats: Sequence[ItemStats]) -> str:
    """The statistics as plain text, one line per rule; a flagged item is marked ``(flag)``."""
    lines = ["rule: facility; discrimination (upper-lower, point-biserial); most common wrong reason"]
    for s in stats:
        flag = " (flag: under 0.2)" if s.flagged else ""
        wrong = f"{s.common_wrong_reason} ({s.wrong_reason_count})" if s.common_wrong_reason else "-"
        lines.append(
            f"{s.rule}: {s.facility:.0%} of {s.trainees}; {_number(s.discrimination)}, "
            f"{_number(s.point_biserial)}{flag}; {wrong}"
        )
    return "\n".join(lines)
