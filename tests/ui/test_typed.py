"""A tap right after typing acts on the text typed (issue 26's CI found an import of the
record pasted before: the browser's change and tap reached a busy server together, and the
tap's handler read the text of the component's last drawing).

Flet runs each event's handler in the order the browser sent them, and draws a component
again only later: two events taken from the socket together are both handled before the
redraw. Here the component is drawn once, then its field's change and its button's click
are handled with no redraw between them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import flet as ft
from flet.components.component import Renderer

from scorekeeper.ui.shell.typed import use_typed


def _typed_then_tapped(use_hook: bool) -> list[str]:
    acted: list[str] = []

    @ft.component
    def Form() -> ft.Control:
        if use_hook:
            field = use_typed()
            value, on_change, text = field.text, field.typed, (lambda: field.text)
        else:  # what the screens did before: the text of the last drawing
            value, set_value = ft.use_state("")
            on_change, text = (lambda e: set_value(e.control.value)), (lambda: value)
        return ft.Column(
            [
                ft.TextField(label="code", value=value, on_change=on_change),
                ft.Button(content="Join", on_click=lambda e: acted.append(text())),
            ]
        )

    component: Any = Renderer().render(Form)
    component.before_update()  # drawn once (not on a page: a state change draws nothing again)
    field, button = component._b.controls
    field.value = "482913"  # what the browser sends first: the field's new value,
    field.on_change(SimpleNamespace(control=field))  # then its change event,
    button.on_click(SimpleNamespace(control=button))  # then the tap, before any redraw
    return acted


def test_a_tap_right_after_typing_acts_on_the_text_typed():
    assert _typed_then_tapped(use_hook=True) == ["482913"]


def test_without_it_the_tap_would_act_on_the_last_drawing():
    """The failure the hook prevents, on the same events (so the test above shows the fix)."""
    assert _typed_then_tapped(use_hook=False) == [""]
