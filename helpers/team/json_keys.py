"""Two ``.json`` answer keys checked from their bytes: as lists when they allow
(:mod:`helpers.team.key_lists`), else the exact way. Used by ``python -m helpers sentinels
--baseline FILE --proposed FILE``.

Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from helpers.team.answer_keys import AnswerKey, read_answer_key_object
from helpers.team.key_checks import KeyCheck, check_answer_keys
from helpers.team.key_lists import KEY_LISTS_MIN, compare_key_lists, flat_key_lists

__all__ = ["check_json_key_texts"]


def check_json_key_texts(
    baseline: bytes, proposed: bytes, *, sources: tuple[str, str], min_bytes: int = KEY_LISTS_MIN
) -> KeyCheck:
    """The sentinel check of two ``.json`` answer keys given as their bytes: as lists when both
    prove flat (:func:`~helpers.team.key_lists.flat_key_lists`) and the walk vouches for them
    (:func:`~helpers.team.key_lists.compare_key_lists`), else read the exact way (:func:`~helpers.team.answer_keys.read_answer_key_object` and
    :func:`~helpers.team.batch.check_answer_keys`); the same result either way. Keys shorter
    than ``min_bytes`` are read the exact way at once.

    Taught in ``05_check_your_data.ipynb``.
    """
    if min(len(baseline), len(proposed)) >= min_bytes:
        ours = flat_key_lists(baseline)
        theirs = flat_key_lists(proposed) if ours is not None else None
        if ours is not None and theirs is not None:
            compared = compare_key_lists(*ours, *theirs)
            if compared is not None:
                return KeyCheck(
                    AnswerKey(source=sources[0], format="json"),
                    AnswerKey(source=sources[1], format="json"),
                    compared.result,
                    [],
                    sizes=(len(ours[0]), len(theirs[0]), compared.new_ids),
                    changed_answers=compared.changed_answers,
                )
        del ours, theirs
    return check_answer_keys(
        read_answer_key_object(baseline, source=sources[0]),
        read_answer_key_object(proposed, source=sources[1]),
    )
