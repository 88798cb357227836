"""Every phone on a match shows the same truth at once: the Flet side of
:mod:`scorekeeper.ui.live.hub`, for any screen that keeps in step (a :class:`Live`: the
table view-models of :mod:`scorekeeper.ui.shell.base` are).

A table screen calls :func:`use_live` once. While it is shown it is subscribed to its
match; a change published by another session reaches it as a task of *its own* session
(``page.run_task`` in a fresh context, so nothing of the sender's session leaks into
it), which reloads the view-model and redraws. Then the screen asks its browser for a
round trip (:func:`round_trip`: Flet's ``get_device_info`` call, its answer not read): the
browser answers only after it has applied the redraw sent before, so once the answer is
in, the browser shows the change and entries from it are taken again (:meth:`Live.seen`). A tap that reaches the app
before that answer was made on the old screen: it is refused with
:data:`~scorekeeper.ui.shell.base.STALE` and nothing is applied.
"""

from __future__ import annotations

import asyncio
import contextvars
import weakref
from typing import Any, Protocol, cast

import flet as ft
from flet.controls.context import _context_page

from scorekeeper.ui.live.hub import Hub

__all__ = ["HasHub", "Live", "ROUND_TRIP", "in_session", "round_trip", "use_changes", "use_live"]


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


#: The call each round trip makes of the page: Flet's client answers it after every message
#: sent before it (its messages are handled in turn), as ``page.get_device_info()`` does.
ROUND_TRIP = "get_device_info"


async def round_trip(page: ft.Page) -> None:
    """Wait until ``page``'s browser has applied every message sent to it before: the call
    of ``page.get_device_info()`` without reading its answer (Flet makes a ``WebDeviceInfo``
    of it with ``from_dict``: about 0.2 ms of the server's CPU a phone an entry, for
    nothing). Raises as Flet's call does when no answer comes (the phone went away)."""
    await page.session.invoke_method(page._i, ROUND_TRIP, None)


async def _acknowledge(page: ft.Page, table: Live) -> None:
    key = id(table)
    if not table.unseen or key in _acking:
        return
    _acking.add(key)
    try:
        await round_trip(page)  # answered after the redraws sent before it
    except Exception:  # no answer (the phone went away): the next tap asks again
        return
    finally:
        _acking.discard(key)
    table.seen()


_tasks: set[asyncio.Task[Any]] = set()  # deliveries running (a task is only weakly held by its loop)


def _delivered(task: asyncio.Task[Any]) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        task.get_loop().call_exception_handler(
            {"message": "a delivery to a session failed", "exception": task.exception(), "task": task}
        )


def in_session(page: ft.Page, handler: Any, *args: Any) -> None:
    """Run ``handler(*args)`` as a task of ``page``'s own session (a fresh context: nothing
    of the publishing session leaks in); not while it is disconnected (it catches up when
    it is back).

    Called on the session's own loop (an entry is handled there: every delivery of it is),
    the task is made there at once: what ``page.run_task`` does from another thread (a
    concurrent future chained to the task, the loop woken through its self-pipe) would be
    spent on every phone of every entry for nothing."""
    connection = page.session.connection
    if connection is None:
        return
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    if here is None or here is not connection.loop:
        contextvars.Context().run(page.run_task, handler, *args)
        return
    context = contextvars.Context()
    context.run(cast(Any, _context_page).set, page)  # ft.context.page in the task, as run_task sets it
    task = here.create_task(handler(*args), context=context)
    _tasks.add(task)
    task.add_done_callback(_delivered)


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
