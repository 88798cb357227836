"""Flet's web transport, sending each message without first writing it out for a debug
line that nobody reads.

``flet_web.fastapi.FletApp.send_message`` (flet-web 1.0.5) begins with
``transport_log.debug(f"send_message: {message}")``: the f-string is made before the
logger is asked, so every message to every phone is written out in full -- the
repr of every control of the patch -- and thrown away. In ``tools/loadtest/capacity.py``'s
profile of the server that was about a twentieth of its time. :func:`install` puts in its
place the same send (the same bytes to the same queue) that writes the line only when
the ``flet_transport`` logger would keep it. Only on the flet-web it was written for
(:data:`FOR_FLET_WEB`); ``tests/ui/test_transport.py`` checks it against Flet's own.
"""

from __future__ import annotations

import logging
from importlib import metadata
from typing import Any

__all__ = ["FOR_FLET_WEB", "flets_send", "install"]

#: The flet-web this was written for and checked against.
FOR_FLET_WEB = "1.0.5"

_QUEUE = "_FletApp__send_queue"  # FletApp's own (name-mangled) send queue

#: Flet's own ``FletApp.send_message``, kept by the first :func:`install`.
flets_send: list[Any] = []


def install(original: bool = False) -> bool:
    """Put the send in Flet's place on the flet-web it was written for (``original``: Flet's
    own back). Returns whether ours is in place."""
    import msgpack  # type: ignore[import-untyped]
    from flet.controls.base_control import BaseControl
    from flet.messaging.protocol import configure_encode_object_for_msgpack
    from flet_web.fastapi import flet_app  # type: ignore[import-untyped]

    app: Any = flet_app.FletApp
    if not flets_send:
        flets_send.append(app.send_message)
    own = flets_send[0]
    if original or metadata.version("flet-web") != FOR_FLET_WEB:
        app.send_message = own
        return False
    log = flet_app.transport_log
    encode = configure_encode_object_for_msgpack(BaseControl)

    def send_message(self: Any, message: Any) -> None:
        """Flet's ``FletApp.send_message``: the message packed as Flet packs it, queued for
        the browser; its debug line only if it is kept."""
        if log.isEnabledFor(logging.DEBUG):
            log.debug("send_message: %s", message)
        body = msgpack.packb([message.action, message.body], default=encode)
        getattr(self, _QUEUE).put_nowait(b"\x00" + body)

    app.send_message = send_message
    return True
