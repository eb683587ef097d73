"""Reading text fields of fixture records, with errors naming the field.

Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from helpers.core.errors import InvalidInputError

__all__ = ["text_field"]


def text_field(raw: Mapping[str, Any], name: str, where: str) -> str:
    """``raw[name]`` as a non-empty string; else an error naming ``where.name``."""
    value = raw[name]
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{where}.{name} must be a non-empty string", field=f"{where}.{name}")
    return value
