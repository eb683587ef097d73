"""Teaching, in rooms by job: ``cases/``, ``grading``, ``drill/``, ``progress/``, ``trainer/`` and ``views/``.

``html`` (escaping and the style sheet) sits under them all. No ipywidgets here.
"""
