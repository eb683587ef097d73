"""Publishing: the static site, the Voilà app, the downloads and the runnable examples.

Taught in ``01_start_here.ipynb``.
"""
