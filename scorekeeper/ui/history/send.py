"""The phone alone, back at the table: its finished matches sent to the table's laptop in one tap.

Shown on History by the phone's own site (:mod:`scorekeeper.site`) only, where
:attr:`~scorekeeper.ui.shell.base.Shared.post` is how the page reaches the server it came from.
Each won match is one request to the laptop's ``/matches``
(:mod:`scorekeeper.ui.server.inbox`), the record as its body and who sends in a header: the
pass this browser kept when it joined the table (the same site as the table's app,
``X-Scorekeeper-Pass``) and the table code typed here (``X-Scorekeeper-Code``), either or both
(the code then decides: a browser that joined as a watcher sends with the table code). The
laptop asks for them before it reads the match, stores what it does not hold yet; what it
holds already is counted, never stored twice. Nothing on the phone changes: its matches stay,
and sending again sends nothing new.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import message_of
from scorekeeper.ui.shell.base import Model, Shared

__all__ = ["CODE_HEADER", "INBOX", "PASS_HEADER", "Post", "SendModel"]

#: The laptop's address for a sent match (:data:`scorekeeper.ui.server.inbox.PATH`).
INBOX = "/matches"

#: The headers of who sends (:mod:`scorekeeper.ui.server.door`).
PASS_HEADER = "X-Scorekeeper-Pass"
CODE_HEADER = "X-Scorekeeper-Code"

#: POST a value as JSON to a path of the server the page came from, with headers: (status, its
#: JSON answer or None); :class:`OSError` when nothing answers.
Post = Callable[[str, Any, dict[str, str]], Awaitable[tuple[int, Any]]]


class SendModel(Model):
    """What History's "Send to the table" says and does."""

    def __init__(self, shared: Shared, post: Post) -> None:
        self._shared = shared
        self._post = post
        self.line: str | None = None  # what the last sending did
        self.error: str | None = None
        self.busy = False
        #: the table refused this browser's pass (a watcher's, or one that ended): ask for the code
        self.ask_code = False

    def finished(self) -> list[str]:
        """The ids of the won matches this phone holds, oldest first."""
        with self._shared.lock:
            listed = self._shared.store.list(limit=None)
        return [m["id"] for m in reversed(listed) if m.get("status") == "won"]

    async def send(self, code: str = "", kept_pass: str | None = None) -> None:
        """Send every finished match with ``kept_pass`` (this browser's, from joining the
        table) and ``code`` (the table code typed), either or both. Stops at the first refusal
        of the sender (a wrong code, a watch code), of the laptop (too busy, too slow) or when
        it does not answer."""
        if self.busy:
            return
        headers: dict[str, str] = {}
        if kept_pass:
            headers[PASS_HEADER] = kept_pass
        if code.strip():
            headers[CODE_HEADER] = code.strip()
        if not headers:
            self._say(None, "type the table code first: six digits, on the table laptop's screen")
            return
        ids = self.finished()
        if not ids:
            self._say(None, "no finished match on this phone yet: a match is sent once it is won")
            return
        self.busy = True
        self._changed()
        stored = already = 0
        refused: list[str] = []
        error: str | None = None
        try:
            for mid in ids:
                try:
                    with self._shared.lock:
                        record = self._shared.store.record(mid)
                except ScorekeeperError as e:
                    refused.append(f"{mid}: {message_of(e)}")
                    continue
                try:
                    status, answer = await self._post(INBOX, record, headers)
                except OSError as e:
                    error = (
                        f"the table's laptop does not answer ({e}): send them when this phone is on "
                        "the table's Wi-Fi, with the laptop's app open"
                    )
                    break
                said = answer.get("error") if isinstance(answer, dict) else None
                result = answer.get("result") if isinstance(answer, dict) else None
                if status == 200 and result == "stored":
                    stored += 1
                elif status == 200 and result == "already":
                    already += 1
                elif status in (400, 413) and said:
                    refused.append(f"{mid}: {said}")
                elif said and status in (403, 408, 429, 503):
                    error = str(said)
                    self.ask_code = self.ask_code or (status == 403 and CODE_HEADER not in headers)
                    break
                else:
                    error = f"the server at this address is not a table's laptop (it answered {status})"
                    break
        finally:
            self.busy = False
        sent = f"{stored} sent to the table" + (f", {already} there already" if already else "")
        if refused:
            sent += f"; {len(refused)} refused: " + "; ".join(refused[:3])
        self._say(sent if stored or already or refused else None, error)

    def _say(self, line: str | None, error: str | None) -> None:
        self.line, self.error = line, error
        self._changed()
