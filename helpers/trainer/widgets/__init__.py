"""The trainer's widgets: :class:`CheckoutWidget`, sit a check-out paper, one try per case (``07_checkout.ipynb``)."""

from helpers.trainer.widgets.checkout import CheckoutWidget

__all__ = ["CheckoutWidget"]
