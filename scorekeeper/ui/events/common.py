"""What the events' screens share: drawn again when any match or event changes, telling the
other screens of a change, the way back."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.live.hub import ANY
from scorekeeper.ui.live.view import in_session
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import go

__all__ = ["SUMMARY_EVERY", "back", "told", "use_any_change"]


#: A screen that sums up every table (a wall, the standings, the night) is drawn again at
#: most this often (seconds): with thirty tables entering every few seconds, drawing it at
#: every entry made it the server's biggest single cost (tools/loadtest/capacity.py
#: --profile); a second late is nothing on a wall.
SUMMARY_EVERY = 1.0


def use_any_change(shared: Shared, redraw: Callable[[object], Any], every: float = 0.0) -> None:
    """Draw the calling screen again whenever any match changes on any phone, or an event
    does (a round opened, a sheet confirmed): ``redraw(origin)``, ``origin`` the screen that
    made the change (this one's own, after what it did itself). ``every``: at most once in
    that many seconds -- a change after a quiet spell is drawn at once, the changes that
    follow it within ``every`` together, once, when it has passed (``origin``: the first)."""
    page = ft.context.page
    gate: Any = ft.use_ref(None)
    if gate.current is None:
        gate.current = {"last": float("-inf"), "waiting": False}

    async def tick(origin: object) -> None:
        state = gate.current
        if every > 0:
            if state["waiting"]:
                return  # drawn with the change already waiting
            wait = state["last"] + every - time.monotonic()
            if wait > 0:
                state["waiting"] = True
                try:
                    await asyncio.sleep(wait)
                finally:
                    state["waiting"] = False
            state["last"] = time.monotonic()
        redraw(origin)

    def subscribe() -> Any:
        def deliver(origin: object) -> None:
            in_session(page, tick, origin)

        return shared.hub.subscribe(ANY, redraw, deliver, owner=shared.visitor)

    ft.use_effect(subscribe, [])


def use_every(seconds: float, step: Callable[[], Any]) -> None:
    """Call ``step`` every ``seconds`` while the screen is shown: a loop of this session's,
    started when the screen is shown and cancelled the moment another replaces it. While
    its browser is away nothing is called; once the session is over (the browser not back
    in time) the loop ends by itself."""
    page = ft.context.page

    async def looping() -> None:
        session = page.session
        while True:
            await asyncio.sleep(seconds)
            if session.connection is None:
                ends = session.expires_at
                if ends is None or ends <= dt.datetime.now(dt.UTC):
                    return  # the session is over: nobody will see this screen again
                continue  # away for now: it is drawn whole when it is back
            step()

    def stop() -> None:
        """(Flet cancels the loop when this, the effect's cleanup, is given.)"""

    ft.use_effect(looping, [], cleanup=stop)


def told(shared: Shared, origin: object) -> None:
    """Tell every other screen that an event changed."""
    shared.hub.deliver(ANY, origin)


def back(route: str, text: str) -> ft.Control:
    return ft.TextButton(content=text, icon=ft.Icons.ARROW_BACK, on_click=go(route))
