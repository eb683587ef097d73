"""The team's widget: :class:`DataCheckPanel`, check a whole file, by path or upload (``05_check_your_data.ipynb``)."""

from helpers.team.widgets.data import DataCheckPanel

__all__ = ["DataCheckPanel"]
