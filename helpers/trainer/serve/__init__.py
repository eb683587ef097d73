"""helpers.trainer.serve."""
