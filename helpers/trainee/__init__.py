"""The trainee's package: what notebooks 01 to 04 use, and nothing of the trainer's or the team's.

Rooms by job: ``cases/`` (filled and generated cases), ``grading``, ``drill/`` (mastery and the
spaced drill), ``progress/`` (progress files), ``views/`` (the HTML the notebooks show) and
``widgets/`` (the only ipywidgets code here). ``html`` (escaping by construction) sits under them all.
"""
