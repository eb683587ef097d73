"""What every widget of the project shares: the text picture, and the layout of its controls.

ipywidgets' own text repr is cut at 110 characters, so each widget shows a full
plain-text picture of its controls instead (:meth:`TextPicture.describe`); strict
nbval compares it, and a static page shows it. Taught in ``01_start_here.ipynb``.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

__all__ = ["TextPicture", "auto_layout", "button"]


def auto_layout() -> w.Layout:
    """A layout as wide as its content, so no label is cut short."""
    return w.Layout(width="auto")


def button(description: str, css: str, **kwargs: Any) -> w.Button:
    """A button whose label is never cut short, with a CSS class for sturdy selectors."""
    made = w.Button(description=description, layout=auto_layout(), **kwargs)
    made.add_class(css)
    return made


class TextPicture:
    """A widget of the project: ``self.widget`` is what shows, :meth:`describe` its text picture."""

    widget: w.Widget

    def describe(self) -> str:
        """A plain-text picture of the controls, read from the live widgets."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.describe()
        return bundle
