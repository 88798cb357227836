"""What the events' screens share: drawn again when any match or event changes, telling the
other screens of a change, the way back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.live.hub import ANY
from scorekeeper.ui.live.view import in_session
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import go

__all__ = ["back", "told", "use_any_change"]


def use_any_change(shared: Shared, redraw: Callable[[object], Any]) -> None:
    """Draw the calling screen again whenever any match changes on any phone, or an event
    does (a round opened, a sheet confirmed): ``redraw(origin)``, ``origin`` the screen that
    made the change (this one's own, after what it did itself)."""
    page = ft.context.page

    async def tick(origin: object) -> None:
        redraw(origin)

    def subscribe() -> Any:
        def deliver(origin: object) -> None:
            in_session(page, tick, origin)

        return shared.hub.subscribe(ANY, redraw, deliver, owner=shared.visitor)

    ft.use_effect(subscribe, [])


def told(shared: Shared, origin: object) -> None:
    """Tell every other screen that an event changed."""
    shared.hub.deliver(ANY, origin)


def back(route: str, text: str) -> ft.Control:
    return ft.TextButton(content=text, icon=ft.Icons.ARROW_BACK, on_click=go(route))
