"""helpers.trainer.views."""
