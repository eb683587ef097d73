"""The trainer's side: the secret and ledger, the check-out, the re-grade, the cohort, and item analysis."""
