"""helpers.team.views."""
