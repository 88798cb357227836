"""The app's send of Flet's web transport (``scorekeeper/ui/server/transport.py``) against
Flet's own: the same bytes queued for the browser for every message of a table of four
phones played through two hands; the debug line still written when it is kept."""

from __future__ import annotations

import asyncio
import logging
from importlib import metadata
from typing import Any

import pytest
from flet_web.fastapi import flet_app

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
