"""What the trainer's notebooks show: the cohort's tables and charts."""
