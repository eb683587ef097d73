"""What the trainee's notebooks show: case HTML, galleries, typical mistakes, tables and the shared chart."""
