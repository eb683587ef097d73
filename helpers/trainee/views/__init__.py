"""What the notebooks show: case HTML, galleries, typical mistakes, tables, charts, and the rule walks."""
