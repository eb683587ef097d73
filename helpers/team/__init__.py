"""The team's package: reading real data (files, uploads, JSON Lines, CSV, Parquet, qrels), the fast path,
the batch runner and its reports, the DuckDB and Spark engines, their views and the data widget.

Taught in ``05_check_your_data.ipynb``. Imports the trainee's package only for HTML and the shared chart.
"""
