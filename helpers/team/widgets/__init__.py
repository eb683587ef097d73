"""helpers.team.widgets."""
