"""helpers.trainer.widgets."""
