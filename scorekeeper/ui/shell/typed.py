"""What a text field holds, as the player typed it.

Flet hands each event to its handler in the order the browser sent them, but it draws a
component again only after its handler returns. A handler that read what a field holds
from the component's last drawing (``value, set_value = ft.use_state("")``) reads the
text of that drawing: a tap that comes right after the typing, before the drawing
(a fast thumb, or a busy server that takes both at once), would act on the old text --
import the record pasted before, join with the code half typed. :func:`use_typed` keeps
the text as typed, read when the tap comes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flet as ft

__all__ = ["Typed", "use_typed"]


@dataclass(eq=False)
class Typed:
    """A text field's text: :attr:`text` is what was last typed (or set), at any moment."""

    _ref: Any
    _redraw: Any

    @property
    def text(self) -> str:
        return str(self._ref.current)

    def set(self, text: str | None) -> None:
        """The field now holds ``text`` (typed, or set by the app): drawn again."""
        self._ref.current = text or ""
        self._redraw(self._ref.current)

    def typed(self, e: Any) -> None:
        """``on_change`` of the field."""
        self.set(e.control.value)


def use_typed(initial: str = "") -> Typed:
    """A component's text field state (see the module's docstring)."""
    ref = ft.use_ref(initial)
    _, redraw = ft.use_state(initial)
    return Typed(ref, redraw)
