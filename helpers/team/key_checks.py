"""Two whole answer keys compared: :class:`KeyCheck` and :func:`check_answer_keys`, and
:func:`check_key_files` for two files or uploads. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from helpers.core.errors import CheckInputError, JSONLoadError
from helpers.core.outcomes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_PASS
from helpers.core.sentinels import SentinelResult, check_sentinels
from helpers.team.fastpath import fast_sentinels

if TYPE_CHECKING:  # read lazily, so a command-line run of JSON Lines never loads them
    from helpers.team.sources import AnswerKey, InputFile, KeyFormat


@dataclass
class KeyCheck:
    """A proposed answer key checked against a baseline, read from two files.

    ``result`` is ``None`` when either key had problems (listed in ``errors``,
    baseline first) or the baseline was empty. ``pairs`` is true when every ID is a
    (query, document) judgement, which reports show as ``q1 d7``
    (:mod:`helpers.team.id_display`). Taught in ``05_check_your_data.ipynb``.
    """

    baseline: AnswerKey
    proposed: AnswerKey
    result: SentinelResult | None
    errors: list[CheckInputError]
    pairs: bool = False
    #: (baseline IDs, proposed IDs, new IDs) when an engine compared the keys without reading them here.
    sizes: tuple[int, int, int] | None = None
    #: The (baseline, proposed) answers of each changed sentinel, when an engine compared the keys.
    changed_answers: Mapping[str, tuple[str, str]] | None = None

    @property
    def exit_code(self) -> int:
        """0 intact, 1 hold before scoring, 4 bad input."""
        if self.result is None:
            return EXIT_BAD_INPUT
        return EXIT_PASS if self.result.intact else EXIT_FAILED

    @property
    def baseline_ids(self) -> int:
        """How many IDs the baseline holds."""
        return self.sizes[0] if self.sizes is not None else len(self.baseline.answers)

    @property
    def proposed_ids(self) -> int:
        """How many IDs the proposed key holds."""
        return self.sizes[1] if self.sizes is not None else len(self.proposed.answers)

    @property
    def new_ids(self) -> int:
        """How many proposed IDs are not sentinels (allowed, and not checked)."""
        if self.sizes is not None:
            return self.sizes[2]
        return len(self.proposed.answers.keys() - self.baseline.answers.keys())

    def answers(self, sentinel: str) -> tuple[str, str]:
        """The baseline and the proposed answer of a changed ``sentinel``."""
        if self.changed_answers is not None:
            return self.changed_answers[sentinel]
        return self.baseline.answers[sentinel], self.proposed.answers[sentinel]


def check_answer_keys(baseline: AnswerKey, proposed: AnswerKey, *, pairs: bool | None = None) -> KeyCheck:
    """Run the sentinel check on two answer keys read by :mod:`helpers.team.sources`.

    ``pairs`` (whether the IDs are qrels judgements) defaults to what the baseline's
    format says; a Parquet key read with two ID columns is one. Taught in
    ``05_check_your_data.ipynb``.
    """
    if pairs is None:
        from helpers.team.id_display import PAIR_FORMATS

        pairs = baseline.format in PAIR_FORMATS
    errors = [*baseline.errors, *proposed.errors]
    if errors:
        return KeyCheck(baseline, proposed, None, errors, pairs)
    result = fast_sentinels(baseline.answers, proposed.answers)
    if result is None:
        try:
            result = check_sentinels(baseline.answers, proposed.answers)
        except CheckInputError as exc:
            return KeyCheck(
                baseline,
                proposed,
                None,
                [JSONLoadError(exc.message, source=baseline.source, field=exc.field)],
                pairs,
            )
    return KeyCheck(baseline, proposed, result, [], pairs)


def check_key_files(
    baseline: InputFile,
    proposed: InputFile,
    *,
    format: KeyFormat | None = None,
    id_columns: Sequence[str] = (),
    answer_column: str | None = None,
    max_bytes: int | None = None,
) -> KeyCheck:
    """Read two answer keys (paths or uploads) and check the sentinels.

    The format defaults to the one each name gives (``.json`` or ``.jsonl``); the
    others are read by :mod:`helpers.team.key_formats` (a Parquet key needs its
    columns named). A key is held in memory whole, so one over ``max_bytes``
    (default :data:`~helpers.team.inputs.MAX_KEY_BYTES`) is refused unread, as is
    anything but a regular file (:class:`~helpers.core.errors.JSONLoadError`).
    Taught in ``05_check_your_data.ipynb``.
    """
    from helpers.team.inputs import MAX_KEY_BYTES
    from helpers.team.key_formats import read_key
    from helpers.team.sources import key_format_for, open_input

    keys = []
    for item in (baseline, proposed):
        stream, name, _size = open_input(item, max_bytes=MAX_KEY_BYTES if max_bytes is None else max_bytes)
        with stream:
            fmt = format or key_format_for(name)
            keys.append(
                read_key(stream, source=name, format=fmt, id_columns=id_columns, answer_column=answer_column)
            )
    return check_answer_keys(keys[0], keys[1], pairs=True if len(id_columns) == 2 else None)
