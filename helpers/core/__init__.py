"""The checks themselves: standard library only, and nothing here imports outside ``core``.

Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
"""
