"""The trainer's package: the secret and ledger, the check-out and its sitting, proctoring (``serve/``),
the re-grade, the cohort, item analysis, and their views and widgets.

Taught in ``06_trainer.ipynb`` and ``07_checkout.ipynb``. Imports the trainee's package, never the team's.
"""
