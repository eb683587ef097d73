"""Reading real data: files, uploads, the fast path, the batch runner, text and JSON reports. No HTML.

Taught in ``05_check_your_data.ipynb``.
"""
