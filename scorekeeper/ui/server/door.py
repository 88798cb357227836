"""The door for request bodies: who sends is asked before a byte of the body is read.

Of everything ``scorekeeper web`` answers, only ``POST /matches`` (a phone's finished match,
:mod:`scorekeeper.ui.server.inbox`) takes a body. Bodies cost the server memory and time, so
:class:`~scorekeeper.ui.server.guard.Guard` lets one through only in this order:

1. **Who sends**, from the request's headers alone (:func:`sender`): the host (its socket is
   loopback) needs nothing; a phone gives its pass (``X-Scorekeeper-Pass``) or a code
   (``X-Scorekeeper-Code``). When both are given the code decides, so a browser that joined as
   a watcher sends with the table code. No header, an unknown pass, a wrong code or a
   watcher's (no body is a watcher's to send): ``403`` before the body is read, and a wrong
   code counts against the address as at the join screen
   (:meth:`~scorekeeper.ui.access.gate.Gate.join`).
2. **Where**: a path that takes no body refuses one (``413``), unread.
3. **A slot** (:class:`Slots`): a few bodies are read at once across all clients
   (:data:`SLOTS`), one at a time from any one address (the host's own excepted); a request
   waits for its turn within its deadline, then gets ``503``.
4. **In time**: the body must be in within :data:`DEADLINE` seconds of the request's headers
   (its wait for a slot included), else ``408``; and no larger than the path's limit, else
   ``413`` without reading the rest.

Every refusal is one line of JSON (``{"error": "..."}``) and closes the connection, so the
unread rest of a body is never read on it: Uvicorn stops reading a request's body past 64 KB
that nobody asks for, and closes the socket once the answer is written.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from scorekeeper.ui.access.gate import JoinRefused, Role, is_local

if TYPE_CHECKING:
    from scorekeeper.ui.access.gate import Gate

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

__all__ = [
    "CODE_HEADER",
    "DEADLINE",
    "PASS_HEADER",
    "SENDER",
    "SLOTS",
    "WATCHING",
    "Refused",
    "Slots",
    "answer",
    "has_body",
    "read_body",
    "sender",
]

#: The header a phone gives its pass in (the one its browser kept when it joined).
PASS_HEADER = "x-scorekeeper-pass"
#: The header a phone gives a code in (the table code; the watch code sends nothing).
CODE_HEADER = "x-scorekeeper-code"
#: Seconds a request has, from its headers, to get a slot and deliver its whole body.
DEADLINE = 10.0
#: Bodies read at once across all clients (a phone's match is a few KB: each takes milliseconds).
SLOTS = 4
#: The key of the scope under which the guard hands the app the sender's role.
SENDER = "scorekeeper.sender"

_NO_CREDENTIAL = "give the table code (on the host's screen) to send matches here"
#: What a watcher (its code or its pass) is told when it sends.
WATCHING = "the watch code sees the table; it sends no match: give the table code"


class Refused(Exception):
    """A request answered with ``status`` and ``words`` (one line)."""

    def __init__(self, status: int, words: str) -> None:
        super().__init__(words)
        self.status = status
        self.words = words


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def address_of(scope: Scope) -> str:
    """The client's address, from the socket ('' when unknown)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def has_body(scope: Scope) -> bool:
    """True where the request announces a body (a length above 0, or a transfer coding)."""
    for k, v in scope.get("headers", []):
        name = k.lower()
        if name == b"transfer-encoding":
            return True
        if name == b"content-length":
            try:
                return int(v) > 0
            except ValueError:
                return True  # (the HTTP parser refuses it before it gets here)
    return False


def sender(gate: Gate | None, scope: Scope) -> Role:
    """The role of who sends the request, from its socket and its headers only (see the
    module); :class:`Refused` (403) for no credential, an unknown pass or a wrong code. No
    ``gate``: only the host sends."""
    address = address_of(scope)
    if gate is None:
        if is_local(address):
            return Role.HOST
        raise Refused(403, "this server takes nothing from phones")
    role = gate.arrive(address)
    if role is not None:
        return role
    headers = _headers(scope)
    code, token = headers.get(CODE_HEADER), headers.get(PASS_HEADER)
    if code is not None:  # the code decides (a watcher's pass with the table code sends)
        try:
            return gate.join(address, code)
        except JoinRefused as e:
            raise Refused(403, str(e)) from None
    held = gate.passes.check(token) if token is not None else None
    if held is None:
        raise Refused(403, _NO_CREDENTIAL)
    return held.role


class Slots:
    """At most ``total`` bodies read at once, and ``per_address`` from any one address (the
    host's loopback counted only in the total). Runs on the server's event loop; not
    thread-safe (it needs no lock: nothing here awaits between a test and a change).

    >>> slots = Slots(total=2)
    >>> slots.try_take("10.0.0.9"), slots.try_take("10.0.0.9")
    (True, False)
    >>> slots.try_take("10.0.0.8"), slots.try_take("10.0.0.7")
    (True, False)
    >>> slots.give_back("10.0.0.9"); slots.try_take("10.0.0.7")
    True
    """

    def __init__(self, total: int = SLOTS, per_address: int = 1) -> None:
        self.total = total
        self.per_address = per_address
        self._busy = 0
        self._by_address: dict[str, int] = {}
        self._waiters: list[asyncio.Future[None]] = []

    @property
    def busy(self) -> int:
        return self._busy

    def _free_for(self, address: str) -> bool:
        if self._busy >= self.total:
            return False
        return is_local(address) or self._by_address.get(address, 0) < self.per_address

    def try_take(self, address: str) -> bool:
        """Take a slot for ``address`` if one is free now (no waiting)."""
        if not self._free_for(address):
            return False
        self._busy += 1
        self._by_address[address] = self._by_address.get(address, 0) + 1
        return True

    async def take(self, address: str, timeout: float) -> bool:
        """Take a slot for ``address``, waiting up to ``timeout`` seconds; False when none came."""
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        while not self.try_take(address):
            left = until - loop.time()
            if left <= 0:
                return False
            woken: asyncio.Future[None] = loop.create_future()
            self._waiters.append(woken)
            try:
                await asyncio.wait_for(woken, left)
            except TimeoutError:
                return False
            finally:
                if woken in self._waiters:
                    self._waiters.remove(woken)
        return True

    def give_back(self, address: str) -> None:
        """The slot ``address`` took is free again: every waiter looks again."""
        self._busy -= 1
        left = self._by_address.get(address, 0) - 1
        if left > 0:
            self._by_address[address] = left
        else:
            self._by_address.pop(address, None)
        waiters, self._waiters = self._waiters, []
        for woken in waiters:
            if not woken.done():
                woken.set_result(None)


async def read_body(
    receive: Receive,
    limit: int,
    until: float,
    *,
    too_large: str = "the request is too large: not stored",
    clock: Callable[[], float] = time.monotonic,
) -> bytes:
    """The whole body, read by ``until`` (a time of ``clock``) and no longer than ``limit``
    bytes: :class:`Refused` 408 when it is late, 413 (``too_large``) past the limit (the rest
    unread), 400 when the client went away."""
    chunks: list[bytes] = []
    size = 0
    while True:
        left = until - clock()
        try:
            if left <= 0:
                raise TimeoutError
            message = await asyncio.wait_for(receive(), left)
        except TimeoutError:
            raise Refused(408, "the match took too long to arrive: not stored, send it again") from None
        if message["type"] == "http.disconnect":
            raise Refused(400, "the phone went away before its match arrived")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise Refused(413, too_large)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` whole, then what ``receive`` gives (a disconnect)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def answer(send: Send, status: int, value: Any, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """Send ``value`` as JSON with ``status``; ``extra``: more headers."""
    body = json.dumps(value).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
