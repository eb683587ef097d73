"""Reading real data files, gathered as ``helpers.sources``: JSON Lines, CSV and answer keys.

* :mod:`~helpers.data.inputs`: paths, uploads, the shipped sample, and each file's format.
* :mod:`~helpers.data.scope_csv`: target-scope rewrites from CSV.
* :mod:`~helpers.data.answer_keys`: sentinel answer keys as a JSON object or JSON Lines.
* JSON Lines records are parsed by :func:`helpers.core.jsonio.parse_json_line`.

Records are read one at a time, never whole; an answer key is held in memory,
because the check needs all of it. Every problem is reported with its source
and line, and reading goes on past it. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from .answer_keys import (
    AnswerKey,
    load_answer_key,
    read_answer_key_lines,
    read_answer_key_object,
)
from .inputs import (
    SCOPE_CSV_OPTIONAL,
    SCOPE_CSV_REQUIRED,
    DuplicateIDError,
    InputFile,
    KeyFormat,
    ScopeFormat,
    SourceFormatError,
    Upload,
    display_name,
    key_format_for,
    open_input,
    resolve_input,
    sample_data,
    scope_format_for,
)
from .scope_csv import (
    iter_scope_csv,
)

__all__ = [
    "Upload",
    "InputFile",
    "sample_data",
    "resolve_input",
    "display_name",
    "open_input",
    "KeyFormat",
    "ScopeFormat",
    "DuplicateIDError",
    "SourceFormatError",
    "AnswerKey",
    "scope_format_for",
    "key_format_for",
    "iter_scope_csv",
    "SCOPE_CSV_REQUIRED",
    "SCOPE_CSV_OPTIONAL",
    "load_answer_key",
    "read_answer_key_object",
    "read_answer_key_lines",
]
