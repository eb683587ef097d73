"""Shape checks for check inputs; each failure names the field and the item.

Taught in ``01_start_here.ipynb`` ("When the input is wrong").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from helpers.core.errors import InvalidInputError, describe_value

__all__ = ["require_id_list", "require_answer_key", "require_record"]


def _kind(value: Any) -> str:
    return describe_value(value)


def require_id_list(value: Any, field: str) -> list[str]:
    """Return ``value`` if it is a list of non-empty strings, else raise.

    >>> require_id_list(["a", 7], "rewritten")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InvalidInputError: rewritten[1] is 7, expected a string ID
    """
    if not isinstance(value, (list, tuple)):
        raise InvalidInputError(f"{field} is {_kind(value)}, expected a list of string IDs", field=field)
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidInputError(
                f"{field}[{index}] is {_kind(item)}, expected a string ID",
                field=f"{field}[{index}]",
            )
        if not item:
            raise InvalidInputError(
                f"{field}[{index}] is an empty string, expected a non-empty ID",
                field=f"{field}[{index}]",
            )
    return list(value)


def require_answer_key(value: Any, field: str) -> dict[str, str]:
    """Return ``value`` if it maps non-empty string IDs to string answers, else raise."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            f"{field} is {_kind(value)}, expected an object mapping IDs to answers",
            field=field,
        )
    for key, answer in value.items():
        if not isinstance(key, str):
            raise InvalidInputError(f"{field} has the key {_kind(key)}, expected a string ID", field=field)
        if not key:
            raise InvalidInputError(f"{field} has an empty ID, expected a non-empty ID", field=f'{field}[""]')
        if not isinstance(answer, str):
            where = f"{field}[{describe_value(key)}]"
            raise InvalidInputError(f"{where} is {_kind(answer)}, expected a string answer", field=where)
    return dict(value)


def require_record(
    value: Any,
    *,
    required: tuple[str, ...],
    optional: tuple[str, ...] = (),
    field: str = "input",
) -> Mapping[str, Any]:
    """Check that ``value`` is an object with exactly the allowed fields."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            f"{field} is {_kind(value)}, expected an object with the fields "
            + ", ".join(f'"{name}"' for name in required),
            field=field,
        )
    for name in required:
        if name not in value:
            raise InvalidInputError(f'{field} has no "{name}" field', field=name)
    allowed = set(required) | set(optional)
    for name in value:
        if name not in allowed:
            raise InvalidInputError(
                f"{field} has an unknown field {describe_value(name)} (allowed: "
                + ", ".join(f'"{n}"' for n in (*required, *optional))
                + ")",
                field=str(name),
            )
    return value
