"""Cases: the rules of both checks, the filled and practice cases, the rule that decides each, and the generators."""
