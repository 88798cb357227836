"""``POST /matches``: a phone's finished match, sent to the table's laptop (the host's store).

A phone that scored alone on its own site (:mod:`scorekeeper.site`) comes back to the table's
Wi-Fi and sends its finished matches with one tap; each arrives here as one request, the
record itself as the body and who sends in a header:

    POST /matches   content-type: application/json
                    X-Scorekeeper-Pass: <the pass this browser kept when it joined>
                    (or X-Scorekeeper-Code: 482913)
    {"format": "scorekeeper/1", "game": "all-fives", ...}

and is answered with JSON: ``{"result": "stored", "id": ID}``, ``{"result": "already", "id":
ID}`` (the store holds the same match: nothing is stored twice) or ``{"error": "..."}``.

Who may send: a phone with the table code (or the pass it kept when it joined with it) or the
host itself; the watch code sees, it sends nothing (403). Served, the guard asks that before it
reads a byte of the body, and reads the body in a slot and in time
(:mod:`scorekeeper.ui.server.door`); a wrong code counts as a wrong code at the join screen,
with the same slow-down per address (the socket's, never a header). The request must be JSON
(a page of another site cannot send that, nor the headers, without the browser asking first,
and this server never says yes) and, when the browser names its ``Origin``, from this
server's own pages. The record goes through the same door as an import
(:func:`scorekeeper.boundary.decode`: the same refusals in the same words), must be a finished
match (it has a winner), and is stored under the app's lock, off the server's event loop.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from scorekeeper import boundary, registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import message_of
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.server.door import DEADLINE, SENDER, WATCHING, Refused, answer, read_body, sender
from scorekeeper.ui.shell.policy import Act, check

if TYPE_CHECKING:
    from scorekeeper.ui.server.guard import Receive, Scope, Send
    from scorekeeper.ui.shell.base import Shared

__all__ = ["LIMIT", "PATH", "TOO_LARGE", "Inbox", "Refused"]

#: Where the server takes matches sent by phones.
PATH = "/matches"

#: The largest body taken: a record (:data:`~scorekeeper.boundary.MAX_BYTES`) and a little room.
LIMIT = boundary.MAX_BYTES + 4_096
#: What a body past :data:`LIMIT` is told (its rest is not read).
TOO_LARGE = f"{boundary.too_large()}: not stored"


class Inbox:
    """The ASGI app at :data:`PATH`, storing into ``shared``'s store (its gate checks who sends)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        try:
            status, result = 200, await self._take(scope, receive)
        except Refused as r:
            status, result = r.status, {"error": r.words}
        await answer(send, status, result)

    async def _take(self, scope: Scope, receive: Receive) -> dict[str, Any]:
        if scope.get("method") != "POST":
            raise Refused(405, "send a match with POST")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise Refused(415, "send the match as JSON (content-type: application/json)")
        origin, host = headers.get("origin"), headers.get("host")
        if origin is not None and origin.lower() != f"http://{host or ''}".lower():
            raise Refused(403, "a match is sent from this server's own pages only")
        role = self._check_sender(scope)
        loop = asyncio.get_running_loop()
        data = await read_body(receive, LIMIT, loop.time() + DEADLINE, too_large=TOO_LARGE, clock=loop.time)
        return await asyncio.to_thread(self._store, data, role)  # a 2 MB record: not on the event loop

    def _check_sender(self, scope: Scope) -> Role:
        """Who sends, as the guard found it before it read the body (else, called without the
        guard, from the same headers in the same way); :class:`Refused` for one who may not."""
        role = scope.get(SENDER)
        if not isinstance(role, Role):
            role = sender(self.shared.gate, scope)
        if not check(Act.IMPORT, role).allowed:
            raise Refused(403, WATCHING)
        return role

    def _store(self, data: bytes, sent_by: Role) -> dict[str, Any]:
        """Store the record in ``data``, sent by a browser whose role is ``sent_by``: the same
        door as an import, then a finished match only, then once. (Runs in a worker thread.)"""
        try:
            record = boundary.decode(data)  # the import's refusals, in its words
        except ScorekeeperError as e:
            raise Refused(400, str(e)) from None
        verdict = self.shared.may_import(record, role=sent_by)  # an event's match: the host's
        if not verdict.allowed:
            raise Refused(403, f"not stored: {verdict.words}")
        try:
            if registry.game_of(record).load(record).winner is None:
                raise Refused(400, "not stored: the match has no winner yet (only finished matches are sent)")
            with self.shared.lock:
                store = self.shared.store
                same = store.find(record)
                if same is not None:
                    return {"result": "already", "id": same}
                return {"result": "stored", "id": store.import_record(record)}
        except ScorekeeperError as e:
            raise Refused(400, f"not stored: {message_of(e)}") from None
