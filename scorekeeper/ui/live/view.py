"""Every phone on a match shows the same truth at once: the Flet side of
:mod:`scorekeeper.ui.live.hub`, for any screen that keeps in step (a :class:`Live`: the
table view-models of :mod:`scorekeeper.ui.shell.base` are).

A table screen calls :func:`use_live` once. While it is shown it is subscribed to its
match; a change published by another session reaches it as a task of *its own* session
(``page.run_task`` in a fresh context, so nothing of the sender's session leaks into
it), which reloads the view-model and redraws. Then the screen asks its browser for a
round trip (``page.get_device_info()``): the browser answers only after it has applied
the redraw sent before, so once the answer is in, the browser shows the change and
entries from it are taken again (:meth:`Live.seen`). A tap that reaches the app
before that answer was made on the old screen: it is refused with
:data:`~scorekeeper.ui.shell.base.STALE` and nothing is applied.
"""

from __future__ import annotations

import asyncio
import contextvars
import weakref
from typing import Any, Protocol

import flet as ft

from scorekeeper.ui.live.hub import Hub

__all__ = ["HasHub", "Live", "in_session", "use_changes", "use_live"]


class Live(Protocol):
    """A screen's view-model kept in step with the other phones of its match."""

    mid: str
    revision: int

    @property
    def hub(self) -> Hub: ...

    @property
    def visitor(self) -> object:
        """The browser it is shown in (whose subscriptions go when its session closes)."""

    @property
    def unseen(self) -> bool:
        """Another phone's change is not shown by the browser yet."""

    def remote(self, origin: Any) -> None:
        """Another phone (``origin``) changed the match."""

    def seen(self) -> None:
        """The browser shows the match as it is now."""


class HasHub(Protocol):
    """What :func:`use_changes` needs of the app's shared state."""

    @property
    def hub(self) -> Hub: ...

    @property
    def visitor(self) -> object: ...


_acking: set[int] = set()  # tables waiting for their browser's answer


async def _remote(table: Live, origin: Any) -> None:
    table.remote(origin)


async def _acknowledge(page: ft.Page, table: Live) -> None:
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


def use_live(table: Live) -> None:
    """Keep ``table`` in step with the other phones of its match (call it once in the
    table screen's component)."""
    page = ft.context.page
    owner = table.visitor

    def subscribe() -> Any:
        def deliver(origin: Any) -> None:
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


@ft.observable
class _Ticker:
    revision = 0

    async def tick(self) -> None:
        self.revision = self.revision + 1


def use_changes(shared: HasHub, mid: str) -> None:
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
