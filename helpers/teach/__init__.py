"""Teaching: cases, rules, practice, grading, progress files, and all HTML rendering. No ipywidgets.

Taught in ``02_…`` to ``04_practice.ipynb``.
"""
