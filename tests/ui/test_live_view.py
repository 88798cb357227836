"""The Flet side of a live table (:mod:`scorekeeper.ui.live.view`) on a Flet session with no
browser behind it: the round trip that says a phone shows the last redraw, and how another
phone's change is handed to a session's own loop (issue 49: what each phone costs the server
an entry, beside its redraw)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any

import flet as ft
from flet.messaging.connection import Connection
from flet.messaging.protocol import MessageAction
from flet.messaging.session import Session

from scorekeeper.ui.live import view

_caller = contextvars.ContextVar("caller", default="none")


class Browser(Connection):
    """A connection that keeps every message; the test answers the method calls."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self.loop = loop
        self.pubsubhub = ft.PubSubHub(loop=loop)
        self.sent: list[Any] = []

    def send_message(self, message: Any) -> None:
        self.sent.append(message)

    def calls(self) -> list[Any]:
        return [m.body for m in self.sent if m.action == MessageAction.INVOKE_METHOD]

    def dispose(self) -> None:
        pass


class Table:
    """What :func:`view._acknowledge` needs of a table's view-model."""

    def __init__(self) -> None:
        self.unseen = True
        self.seen_calls = 0

    def seen(self) -> None:
        self.unseen = False
        self.seen_calls += 1


def _session() -> tuple[Browser, Session]:
    browser = Browser(asyncio.get_running_loop())
    session = Session(browser)
    return browser, session


def test_the_round_trip_asks_the_page_and_waits_for_its_answer_without_reading_it(monkeypatch):
    def no_device_info(*a: Any) -> Any:
        raise AssertionError("the answer was read")

    monkeypatch.setattr("flet.controls.page.from_dict", no_device_info)

    async def run() -> None:
        browser, session = _session()
        page = session.page
        table = Table()
        task = asyncio.create_task(view._acknowledge(page, table))
        await asyncio.sleep(0)
        (call,) = browser.calls()
        assert (call.control_id, call.name, call.args) == (page._i, "get_device_info", None)
        await asyncio.sleep(0.01)
        assert table.unseen and not task.done()  # no answer yet: entries from it still refused
        again = asyncio.create_task(view._acknowledge(page, table))
        await asyncio.sleep(0)
        assert again.done() and len(browser.calls()) == 1  # one round trip at a time
        session.handle_invoke_method_results(page._i, call.call_id, {"browser_name": 1}, None)
        await task
        assert not table.unseen and table.seen_calls == 1

    asyncio.run(run())


def test_a_round_trip_that_fails_leaves_the_table_refusing_entries():
    async def run() -> None:
        browser, session = _session()
        page = session.page
        table = Table()
        task = asyncio.create_task(view._acknowledge(page, table))
        await asyncio.sleep(0)
        (call,) = browser.calls()
        session.handle_invoke_method_results(page._i, call.call_id, None, "Session closed")
        await task
        assert table.unseen and table.seen_calls == 0
        asyncio.create_task(view._acknowledge(page, table))  # the next one asks again
        await asyncio.sleep(0)
        assert len(browser.calls()) == 2

    asyncio.run(run())


def test_a_delivery_on_the_sessions_loop_is_a_task_made_there_in_a_fresh_context(monkeypatch):
    async def run() -> None:
        _, session = _session()
        page = session.page
        monkeypatch.setattr(type(page), "run_task", lambda *a, **k: pytest_fail("run_task"))
        got: list[tuple[Any, str, int]] = []

        async def handler(n: int) -> None:
            got.append((ft.context.page, _caller.get(), n))

        _caller.set("the publishing session")
        view.in_session(page, handler, 1)
        view.in_session(page, handler, 2)
        assert len(view._tasks) >= 2  # held until done
        await asyncio.sleep(0)
        assert got == [(page, "none", 1), (page, "none", 2)]  # in order, nothing of the caller's
        await asyncio.sleep(0)
        assert not view._tasks

    asyncio.run(run())


def test_a_delivery_from_another_thread_still_runs_on_the_sessions_loop():
    async def run() -> None:
        _, session = _session()
        page = session.page
        done = asyncio.Event()
        where: list[Any] = []

        async def handler() -> None:
            where.append((threading.current_thread(), ft.context.page))
            done.set()

        thread = threading.Thread(target=view.in_session, args=(page, handler))
        thread.start()
        thread.join()
        await asyncio.wait_for(done.wait(), 5)
        assert where == [(threading.main_thread(), page)]

    asyncio.run(run())


def test_no_delivery_to_a_session_without_its_browser():
    async def run() -> None:
        _, session = _session()
        await session.disconnect(60)
        ran: list[int] = []

        async def handler() -> None:
            ran.append(1)

        view.in_session(session.page, handler)
        await asyncio.sleep(0.01)
        assert ran == []

    asyncio.run(run())


def pytest_fail(what: str) -> None:
    raise AssertionError(f"{what} was used")
