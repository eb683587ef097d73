"""tools.publish."""
