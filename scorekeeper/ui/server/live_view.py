"""Every phone on a match shows the same truth at once: the Flet side of
:mod:`scorekeeper.ui.server.live`.

A table screen calls :func:`use_live` once. While it is shown it is subscribed to its
match; a change published by another session reaches it as a task of *its own* session
(``page.run_task`` in a fresh context, so nothing of the sender's session leaks into
it), which reloads the view-model and redraws. Then the screen asks its browser for a
round trip (``page.get_device_info()``): the browser answers only after it has applied
the redraw sent before, so once the answer is in, the browser shows the change and
entries from it are taken again (:meth:`TableModel.seen`). A tap that reaches the app
before that answer was made on the old screen: it is refused with
:data:`~scorekeeper.ui.shell.base.STALE` and nothing is applied.
"""

from __future__ import annotations

import asyncio
import contextvars
import weakref
from typing import Any

import flet as ft

from scorekeeper.ui.shell.base import Model, Shared, TableModel
from scorekeeper.ui.shell.widgets import on

__all__ = [
    "asked_part",
    "catch_up",
    "in_session",
    "seat_question",
    "use_changes",
    "use_live",
    "watching",
    "your_turn",
]

_acking: set[int] = set()  # tables waiting for their browser's answer


async def _remote(table: TableModel, origin: TableModel) -> None:
    table.remote(origin)


async def _acknowledge(page: ft.Page, table: TableModel) -> None:
    key = id(table)
    if not table.unseen or key in _acking:
        return
    _acking.add(key)
    try:
        await page.get_device_info()  # answered after the redraws sent before it
    except Exception:  # no answer (the phone went away): the next tap asks again
        return
    finally:
        _acking.discard(key)
    table.seen()


def in_session(page: ft.Page, handler: Any, *args: Any) -> None:
    """Run ``handler(*args)`` as a task of ``page``'s own session (a fresh context: nothing
    of the publishing session leaks in); not while it is disconnected (it catches up when
    it is back)."""
    if page.session.connection is not None:
        contextvars.Context().run(page.run_task, handler, *args)


def use_live(table: TableModel) -> None:
    """Keep ``table`` in step with the other phones of its match (call it once in the
    table screen's component)."""
    page = ft.context.page
    owner = table.visitor

    def subscribe() -> Any:
        def deliver(origin: TableModel) -> None:
            in_session(page, _remote, table, origin)

        return table.hub.subscribe(table.mid, table, deliver, owner=owner)

    async def acknowledge() -> None:
        await _acknowledge(page, table)

    async def awake() -> None:
        await _keep_awake(page, True)

    async def asleep() -> None:
        await _keep_awake(page, False)

    ft.use_effect(subscribe, [])
    ft.use_effect(acknowledge, [table.revision])
    ft.use_effect(awake, [], cleanup=asleep)  # the screen stays on while the table is shown


_locks: dict[int, tuple[weakref.ref[ft.Page], ft.Wakelock]] = {}  # by page (pages are not hashable)


async def _keep_awake(page: ft.Page, on: bool) -> None:
    """Keep ``page``'s screen awake (the browser's wake lock), or let it sleep again. Where the
    browser has none (or refuses it: a page served over plain http to a phone), nothing."""
    for key in [k for k, (ref, _) in _locks.items() if ref() is None]:
        del _locks[key]  # pages gone
    try:
        held = _locks.get(id(page))
        lock = held[1] if held is not None and held[0]() is page else None
        if lock is None:
            if not on:
                return
            lock = ft.Wakelock()
            _locks[id(page)] = (weakref.ref(page), lock)
        await asyncio.wait_for(lock.enable() if on else lock.disable(), 5)
    except Exception:  # no wake lock here: the phone's own setting decides
        pass


def catch_up(hub_screens: list[object]) -> None:
    """A session connected again: its table screens show what changed meanwhile."""
    for screen in hub_screens:
        if isinstance(screen, TableModel):
            screen.catch_up()


def seat_question(table: TableModel) -> ft.Control:
    """ "This phone is: [Ann] [Ben] ... [nobody]": asked once of a phone that joined by the
    table code; its player's turn then lights it up (it can be changed by tapping a name
    in the players' row)."""
    players: list[str] = list(table.match.setup.players)
    buttons: list[ft.Control] = [ft.Text("This phone is:", weight=ft.FontWeight.BOLD)]
    buttons += [ft.OutlinedButton(content=f"I'm {p}", on_click=on(table.take_seat, p)) for p in players]
    buttons.append(ft.TextButton(content="Nobody's", on_click=on(table.take_seat, None), tooltip="It only scores"))
    # Wrapped, never scrolled: every name in sight, and nothing slides under the thumb.
    return ft.Row(buttons, spacing=6, run_spacing=4, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def asked_part(table: TableModel) -> list[ft.Control]:
    """A change of this finished match that one side asked for (see
    :mod:`scorekeeper.ui.shell.asks`): on a phone of a side it waits for (and the host's),
    Agree and Refuse; on the asking phone, Take back; on the others, what is asked."""
    asking = table.asks
    question = asking.question()
    if question is None:
        return []
    buttons: list[ft.Control] = []
    if asking.can_answer:
        buttons = [
            ft.FilledButton(content="Agree", icon=ft.Icons.CHECK, on_click=on(asking.agree), height=48),
            ft.OutlinedButton(content="Refuse", on_click=on(asking.decline), height=48),
        ]
    elif asking.is_mine:
        buttons = [ft.OutlinedButton(content="Take it back", on_click=on(asking.decline), height=48)]
    return [
        ft.Container(
            content=ft.Column([ft.Text(question, weight=ft.FontWeight.BOLD), ft.Row(buttons, wrap=True)], spacing=8),
            bgcolor=ft.Colors.TERTIARY_CONTAINER,
            padding=12,
            border_radius=12,
            key="asked",
        )
    ]


def your_turn(table: TableModel, text: str | None) -> str | None:
    """``text`` with "Your turn, Ann." before it when it is this phone's player's turn."""
    if not table.my_turn:
        return text
    return f"Your turn, {table.seat}." + (f" {text}" if text else "")


def watching() -> ft.Control:
    """What a watcher's phone shows in the place of the entries."""
    return ft.Text("Watching: this phone sees the table; it cannot change it.", italic=True)


@ft.observable
class _Ticker(Model):
    async def tick(self) -> None:
        self._changed()


def use_changes(shared: Shared, mid: str) -> None:
    """Draw the calling component again whenever match ``mid`` changes on any phone (a
    screen that reads the store as it draws, e.g. Score)."""
    page = ft.context.page
    made: tuple[_Ticker, object] = ft.use_state(lambda: _Ticker())
    ticker = made[0]

    def subscribe() -> Any:
        def deliver(origin: object) -> None:
            in_session(page, ticker.tick)

        return shared.hub.subscribe(mid, ticker, deliver, owner=shared.visitor)

    ft.use_effect(subscribe, [])
