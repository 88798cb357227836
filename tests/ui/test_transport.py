"""The app's send of Flet's web transport (``scorekeeper/ui/server/transport.py``) against
Flet's own: the same bytes queued for the browser for every message of a table of four
phones played through two hands; the debug line still written when it is kept."""

from __future__ import annotations

import asyncio
import logging
from importlib import metadata
from typing import Any

import aio
import pytest
from flet_web.fastapi import flet_app
from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.utils import ClientDisconnected

from scorekeeper.ui.server import transport
from tools.loadtest import common
from ui.test_fletdiff import play


def queued(send: Any, messages: list[Any]) -> list[bytes]:
    """What ``send`` (a ``FletApp.send_message``) queues for ``messages``, on an app that
    has only its queue."""
    app = object.__new__(flet_app.FletApp)
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    app._FletApp__send_queue = queue
    for m in messages:
        send(app, m)
    return [queue.get_nowait() for _ in range(queue.qsize())]


@pytest.fixture
def messages(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    kept: list[Any] = []
    send = common.BrowserlessPhone.send_message

    def keep(self: Any, message: Any) -> None:
        kept.append(message)
        send(self, message)

    monkeypatch.setattr(common.BrowserlessPhone, "send_message", keep)
    play(fast=True, entries=30)
    return kept


def test_it_is_installed_on_the_flet_web_it_was_written_for() -> None:
    """On another flet-web this fails: check ``FletApp.send_message`` there, then set
    :data:`transport.FOR_FLET_WEB`."""
    assert metadata.version("flet-web") == transport.FOR_FLET_WEB
    try:
        assert transport.install()
        assert flet_app.FletApp.send_message is not transport.flets_send[0]
    finally:
        transport.install(original=True)
    assert flet_app.FletApp.send_message is transport.flets_send[0]


def test_every_message_is_queued_as_flets_own_send_queues_it(messages: list[Any]) -> None:
    assert len(messages) > 150
    flets = queued(flet_app.FletApp.send_message, messages)
    try:
        transport.install()
        ours = queued(flet_app.FletApp.send_message, messages)
    finally:
        transport.install(original=True)
    assert len(ours) == len(flets) == len(messages)
    for i, (a, b) in enumerate(zip(flets, ours, strict=True)):
        assert a == b, f"message {i} differs"


def test_the_debug_line_is_written_when_the_logger_keeps_it(caplog: pytest.LogCaptureFixture) -> None:
    from flet.messaging.protocol import Message, MessageAction, RegisterClientResponseBody

    message = Message(
        MessageAction.REGISTER_CLIENT, RegisterClientResponseBody(session_id="s", page_patch={}, error="")
    )
    try:
        transport.install()
        with caplog.at_level(logging.INFO, logger="flet_transport"):
            queued(flet_app.FletApp.send_message, [message])
        assert not [r for r in caplog.records if r.name == "flet_transport"]
        with caplog.at_level(logging.DEBUG, logger="flet_transport"):
            queued(flet_app.FletApp.send_message, [message])
        assert [r.getMessage() for r in caplog.records if r.name == "flet_transport"] == [f"send_message: {message}"]
    finally:
        transport.install(original=True)


class Socket:
    """A phone's WebSocket as the send loop sees it: what it was sent, and what it raises
    from the ``fail``-th send on."""

    def __init__(self, fail: int, error: BaseException) -> None:
        self.sent: list[bytes] = []
        self.fail, self.error = fail, error

    async def send_bytes(self, data: bytes) -> None:
        if len(self.sent) >= self.fail:
            raise self.error
        self.sent.append(data)


def loop_over(loop: Any, socket: Socket, messages: list[bytes | None]) -> Any:
    """``loop`` (a ``FletApp.__send_loop``) run over ``messages`` queued for ``socket``; the app."""
    app = object.__new__(flet_app.FletApp)
    queue: asyncio.Queue[bytes | None] = asyncio.Queue()
    for m in messages:
        queue.put_nowait(m)
    app._FletApp__send_queue = queue
    app._FletApp__websocket = socket
    aio.run(loop(app))
    return app


def test_the_send_loop_sends_every_message_as_flets_until_the_end() -> None:
    for loop in (transport.flets_loop_of(), transport.send_loop):
        socket = Socket(fail=99, error=RuntimeError("not reached"))
        app = loop_over(loop, socket, [b"a", b"b", None, b"after the end"])
        assert socket.sent == [b"a", b"b"] and app._FletApp__websocket is None


@pytest.mark.parametrize(
    "error", [WebSocketDisconnect(code=1006), ClientDisconnected(), BrokenPipeError(), ConnectionResetError()]
)
def test_a_phone_gone_stops_the_send_loop_quietly_where_flets_raised(error: BaseException) -> None:
    """A message queued for a phone that has just closed its page: Flet's loop raised out of
    the connection (the terminal's "Exception in ASGI application"); ours stops."""
    with pytest.raises(type(error)):
        loop_over(transport.flets_loop_of(), Socket(fail=1, error=error), [b"a", b"b", None])
    socket = Socket(fail=1, error=error)
    app = loop_over(transport.send_loop, socket, [b"a", b"b", b"c", None])
    assert socket.sent == [b"a"] and app._FletApp__websocket is None


def test_any_other_failure_of_a_send_still_raises() -> None:
    with pytest.raises(ValueError, match="a bug"):
        loop_over(transport.send_loop, Socket(fail=0, error=ValueError("a bug")), [b"a", None])


def test_the_send_loop_is_installed_with_the_send() -> None:
    try:
        assert transport.install()
        assert flet_app.FletApp._FletApp__send_loop is transport.send_loop
    finally:
        transport.install(original=True)
    assert flet_app.FletApp._FletApp__send_loop is transport.flets_loop_of()
