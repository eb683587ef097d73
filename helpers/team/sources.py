"""Reading real data files, gathered as ``helpers.team.sources``: JSON Lines, CSV and answer keys.

* :mod:`~helpers.team.inputs`: paths, uploads, the shipped sample, and each file's format.
* :mod:`~helpers.team.scope_csv`: target-scope rewrites from CSV.
* :mod:`~helpers.team.answer_keys`: sentinel answer keys as a JSON object or JSON Lines.
* JSON Lines records are parsed by :func:`helpers.core.jsonio.parse_json_line`.

Records are read one at a time, never whole; an answer key is held in memory,
because the check needs all of it. Every problem is reported with its source
and line, and reading goes on past it. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from helpers.team import answer_keys, inputs, scope_csv
from helpers.team.answer_keys import *  # noqa: F403 - the names are answer_keys.__all__
from helpers.team.inputs import *  # noqa: F403 - the names are inputs.__all__
from helpers.team.scope_csv import *  # noqa: F403 - the names are scope_csv.__all__

__all__: list[str] = []
__all__ += inputs.__all__
__all__ += answer_keys.__all__
__all__ += scope_csv.__all__
