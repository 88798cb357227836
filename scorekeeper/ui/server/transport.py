"""Flet's web transport, sending each message without first writing it out for a debug
line that nobody reads.

``flet_web.fastapi.FletApp.send_message`` (flet-web 1.0.5) begins with
``transport_log.debug(f"send_message: {message}")``: the f-string is made before the
logger is asked, so every message to every phone is written out in full -- the
repr of every control of the patch -- and thrown away. In ``tools/loadtest/capacity.py``'s
profile of the server that was about a twentieth of its time. :func:`install` puts in its
place the same send (the same bytes to the same queue) that writes the line only when
the ``flet_transport`` logger would keep it.

And its send loop: a message queued for a phone that has just closed its page (the
phone's browser gone between a redraw and its send) made Flet's loop raise out of the
connection, and the server's terminal said ``ERROR: Exception in ASGI application``
(seen in the suite, on a busy machine, as a test's page closed right after its first
screen). :func:`install` puts in its place the same loop, that stops quietly when the
phone is gone (the connection is ending: what was left to send had no one to read it,
as in Flet's own, which does not send it again either); any other failure still raises.

The send packs each message with the app's encoder
(:mod:`scorekeeper.ui.app.fletencode`: the same bytes as Flet's, with what Flet's asks
of a class asked once), where it is installed (on the Flet it was written for).

Only on the flet-web it was written for (:data:`FOR_FLET_WEB`);
``tests/ui/test_transport.py`` checks both against Flet's own.
"""

from __future__ import annotations

import logging
from importlib import metadata
from typing import Any

__all__ = ["FOR_FLET_WEB", "flets_loop", "flets_loop_of", "flets_send", "gone", "install", "send_loop"]

#: The flet-web this was written for and checked against.
FOR_FLET_WEB = "1.0.5"

_QUEUE = "_FletApp__send_queue"  # FletApp's own (name-mangled) send queue
_SOCKET = "_FletApp__websocket"  # and its WebSocket
_LOOP = "_FletApp__send_loop"  # and its send loop

#: Flet's own ``FletApp.send_message`` and send loop, kept by the first :func:`install`.
flets_send: list[Any] = []
flets_loop: list[Any] = []


def gone() -> tuple[type[BaseException], ...]:
    """What sending to a phone that has closed its page raises: Starlette's disconnect, or
    the socket's own error where the ASGI server lets it through."""
    from starlette.websockets import WebSocketDisconnect
    from uvicorn.protocols.utils import ClientDisconnected

    return (WebSocketDisconnect, ClientDisconnected, ConnectionError)


def flets_loop_of() -> Any:
    """Flet's own send loop (kept by the first :func:`install`, or Flet's class's now)."""
    from flet_web.fastapi import flet_app  # type: ignore[import-untyped]

    return flets_loop[0] if flets_loop else getattr(flet_app.FletApp, _LOOP)


async def send_loop(self: Any) -> None:
    """Flet's ``FletApp.__send_loop``: each queued message sent to the phone until the
    end's ``None``; stops quietly when the phone is gone."""
    socket, queue = getattr(self, _SOCKET), getattr(self, _QUEUE)
    while True:
        message = await queue.get()
        if message is None:
            break
        try:
            await socket.send_bytes(message)
        except gone():
            break  # the phone closed its page: no one to send the rest to
    setattr(self, _SOCKET, None)


def install(original: bool = False) -> bool:
    """Put the send in Flet's place on the flet-web it was written for (``original``: Flet's
    own back). Returns whether ours is in place."""
    import msgpack  # type: ignore[import-untyped]
    from flet.controls.base_control import BaseControl
    from flet.messaging import protocol
    from flet_web.fastapi import flet_app

    from scorekeeper.ui.app import fletencode

    app: Any = flet_app.FletApp
    if not flets_send:
        flets_send.append(app.send_message)
        flets_loop.append(getattr(app, _LOOP))
    own = flets_send[0]
    if original or metadata.version("flet-web") != FOR_FLET_WEB:
        app.send_message = own
        setattr(app, _LOOP, flets_loop[0])
        fletencode.install(original=True)
        return False
    log = flet_app.transport_log
    fletencode.install()  # on the Flet it was written for; else Flet's own stays
    encode = protocol.configure_encode_object_for_msgpack(BaseControl)

    def send_message(self: Any, message: Any) -> None:
        """Flet's ``FletApp.send_message``: the message packed as Flet packs it, queued for
        the browser; its debug line only if it is kept."""
        if log.isEnabledFor(logging.DEBUG):
            log.debug("send_message: %s", message)
        body = msgpack.packb([message.action, message.body], default=encode)
        getattr(self, _QUEUE).put_nowait(b"\x00" + body)

    app.send_message = send_message
    setattr(app, _LOOP, send_loop)
    return True
