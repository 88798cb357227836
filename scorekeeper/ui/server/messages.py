"""What a browser may say on the app's live connection (its WebSocket), without any Flet:
the app's client sends its page's properties (size, route, platform ...) and the values
typed into fields. A message whose page properties are not in :data:`PAGE_PROPS`
(``client_ip``, ``client_user_agent`` among them) has those dropped; a property starting
with ``_`` or ``on_`` is dropped from any control; a message longer than :data:`MAX_MESSAGE`
bytes, or one that is not the app's protocol, closes the connection; so does a WebSocket
that sends nothing for :data:`REGISTER_TIMEOUT` seconds after it opened. The guard
(:mod:`scorekeeper.ui.server.guard`) puts every WebSocket through :func:`filtered`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorekeeper.ui.server.guard import Message, Receive, Send

__all__ = ["MAX_MESSAGE", "PAGE_ID", "PAGE_PROPS", "REGISTER_TIMEOUT", "filter_message", "filtered"]

#: the page properties the app's client may send (as measured from Flet 1.0's web client); the
#: rest -- ``client_ip``, ``client_user_agent``, ``session_id``, anything unknown -- are dropped
PAGE_PROPS = frozenset(
    {
        "route",
        "pwa",
        "web",
        "debug",
        "wasm",
        "test",
        "multi_view",
        "pyodide",
        "platform_brightness",
        "width",
        "height",
        "platform",
        "window",
        "media",
        "locale_configuration",
    }
)
PAGE_ID = 1  # Flet's page is control 1 of every session

#: seconds a WebSocket has to send its first message (the app's registration) once it is open
REGISTER_TIMEOUT = 10.0

#: the longest message a client may send, in bytes (a pasted match record is far below it)
MAX_MESSAGE = 1024 * 1024

_REGISTER, _EVENT, _PATCH, _INVOKE = 1, 3, 4, 5  # Flet's MessageAction values a client sends


def _props(props: object, allowed: frozenset[str] | None) -> dict[str, Any]:
    """``props`` without what a client may not set: names outside ``allowed`` (None: any),
    and private (``_``) or handler (``on_``) names."""
    if not isinstance(props, dict):
        return {}
    return {
        k: v
        for k, v in props.items()
        if isinstance(k, str) and not k.startswith(("_", "on_")) and (allowed is None or k in allowed)
    }


def filter_message(data: bytes) -> bytes | None:
    """A client's WebSocket message as the app may see it: page properties outside
    :data:`PAGE_PROPS` and private or handler properties taken out (see the module's
    docstring). None: not a message of the app's protocol, or too long (the connection is
    then closed)."""
    if len(data) > MAX_MESSAGE or not data:
        return None
    if data[0] != 0:  # 0x01: a data channel frame (the app opens none: Flet drops unknown ones)
        return data
    import msgpack  # type: ignore[import-untyped]

    try:
        message = msgpack.unpackb(data[1:], strict_map_key=False)
    except Exception:
        return None
    if not (isinstance(message, list) and len(message) == 2 and isinstance(message[1], dict)):
        return None
    action, body = message
    if action in (_EVENT, _INVOKE):
        return data
    allowed: frozenset[str] | None
    if action == _REGISTER:
        key, allowed = "page", PAGE_PROPS
    elif action == _PATCH:
        key, allowed = "props", PAGE_PROPS if body.get("id") == PAGE_ID else None
    else:
        return None
    props = body.get(key)
    kept = _props(props, allowed)
    if isinstance(props, dict) and len(kept) == len(props):
        return data
    return b"\x00" + bytes(msgpack.packb([action, {**body, key: kept}]))


def filtered(receive: Receive, send: Send) -> Receive:
    """``receive`` of a WebSocket, each message from the client passed through
    :func:`filter_message`; one it refuses closes the connection (1008, or 1009 too long)."""

    state = {"connected": False, "spoken": False}

    async def guarded_receive() -> Message:
        if state["connected"] and not state["spoken"]:
            try:
                message = await asyncio.wait_for(receive(), REGISTER_TIMEOUT)
            except TimeoutError:  # a socket that never registers holds a connection for nothing
                await send({"type": "websocket.close", "code": 1008})
                return {"type": "websocket.disconnect", "code": 1008}
        else:
            message = await receive()
        state["connected"] = state["connected"] or message["type"] == "websocket.connect"
        if message["type"] != "websocket.receive":
            return message
        state["spoken"] = True
        data = message.get("bytes")
        if data is None:  # text frames are not the app's protocol
            data = b""
        kept = filter_message(data)
        if kept is None:
            await send({"type": "websocket.close", "code": 1009 if len(data) > MAX_MESSAGE else 1008})
            return {"type": "websocket.disconnect", "code": 1008}
        return {**message, "bytes": kept, "text": None}

    return guarded_receive
