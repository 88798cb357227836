"""``POST /matches``: a phone's finished match, sent to the table's laptop (the host's store).

A phone that scored alone on its own site (:mod:`scorekeeper.site`) comes back to the table's
Wi-Fi and sends its finished matches with one tap; each arrives here as one request:

    POST /matches   content-type: application/json
    {"pass": "<the pass this browser kept when it joined>", "record": {...}}
    {"code": "482913", "record": {...}}

and is answered with JSON: ``{"result": "stored", "id": ID}``, ``{"result": "already", "id":
ID}`` (the store holds the same match: nothing is stored twice) or ``{"error": "..."}``.

Who may send: a phone with the table code (or the pass it kept when it joined with it) or the
host itself; the watch code sees, it sends nothing (403). A wrong code counts as a wrong code
at the join screen, with the same slow-down per address (the socket's, never a header). The
request must be JSON (a page of another site cannot send that without the browser asking
first, and this server never says yes) and, when the browser names its ``Origin``, from this
server's own pages. The body is read up to the record's limit (:data:`~scorekeeper.boundary.MAX_BYTES`)
and refused past it (413); the record goes through the same door as an import (the same
refusals in the same words), under the app's lock.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from scorekeeper import boundary
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import message_of
from scorekeeper.ui.server.access import JoinRefused, Role

if TYPE_CHECKING:
    from scorekeeper.ui.server.guard import Receive, Scope, Send
    from scorekeeper.ui.shell.base import Shared

__all__ = ["PATH", "Inbox"]

#: Where the server takes matches sent by phones.
PATH = "/matches"

#: What a request may hold besides its record (the JSON around it, a code or a pass).
_ROOM = 4_096


class Refused(Exception):
    """A request answered with ``status`` and ``words`` (one line)."""

    def __init__(self, status: int, words: str) -> None:
        super().__init__(words)
        self.status = status
        self.words = words


class Inbox:
    """The ASGI app at :data:`PATH`, storing into ``shared``'s store (its gate checks who sends)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        try:
            status, answer = 200, await self._take(scope, receive)
        except Refused as r:
            status, answer = r.status, {"error": r.words}
        body = json.dumps(answer).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _take(self, scope: Scope, receive: Receive) -> dict[str, Any]:
        if scope.get("method") != "POST":
            raise Refused(405, "send a match with POST")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise Refused(415, "send the match as JSON (content-type: application/json)")
        origin, host = headers.get("origin"), headers.get("host")
        if origin is not None and origin.lower() != f"http://{host or ''}".lower():
            raise Refused(403, "a match is sent from this server's own pages only")
        data = await _body(receive, boundary.MAX_BYTES + _ROOM)
        try:
            sent = json.loads(data)
        except (ValueError, RecursionError):
            raise Refused(400, "not a match sent by a phone: the request is not JSON") from None
        if not isinstance(sent, dict) or "record" not in sent:
            raise Refused(400, "not a match sent by a phone: no record in it")
        self._check_sender(scope, sent)
        return self._store(sent["record"])

    def _check_sender(self, scope: Scope, sent: dict[str, Any]) -> None:
        gate = self.shared.gate
        client = scope.get("client")
        address = client[0] if client else None
        role = gate.arrive(address) if gate is not None else Role.HOST
        if role is None:
            token, code = sent.get("pass"), sent.get("code")
            if isinstance(token, str) and (held := gate.passes.check(token)) is not None:  # type: ignore[union-attr]
                role = held.role
            elif isinstance(code, str):
                try:
                    role = gate.join(address or "", code)  # type: ignore[union-attr]
                except JoinRefused as e:
                    raise Refused(403, str(e)) from None
            else:
                raise Refused(403, "give the table code (on the host's screen) to send matches here")
        if not role.can_enter:
            raise Refused(403, "the watch code sees the table; it sends no match: give the table code")

    def _store(self, record: Any) -> dict[str, Any]:
        try:
            boundary.check(record)
            with self.shared.lock:
                store = self.shared.store
                same = store.find(record)
                if same is not None:
                    return {"result": "already", "id": same}
                return {"result": "stored", "id": store.import_record(record)}
        except ScorekeeperError as e:
            raise Refused(400, f"not stored: {message_of(e)}") from None


async def _body(receive: Receive, limit: int) -> bytes:
    """The request's body, refused (413) past ``limit`` bytes without reading more."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise Refused(400, "the phone went away before its match arrived")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"{boundary.too_large()}: not stored")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
