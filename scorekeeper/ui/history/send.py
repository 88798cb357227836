"""The phone alone, back at the table: its finished matches sent to the table's laptop in one tap.

Shown on History by the phone's own site (:mod:`scorekeeper.site`) only, where
:attr:`~scorekeeper.ui.shell.base.Shared.post` is how the page reaches the server it came from.
Each won match is one request to the laptop's ``/matches``
(:mod:`scorekeeper.ui.server.inbox`): with the pass this browser kept when it joined the table
(the same site as the table's app), else with the table code typed here. The laptop stores what
it does not hold yet; what it holds already is counted, never stored twice. Nothing on the
phone changes: its matches stay, and sending again sends nothing new.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import message_of
from scorekeeper.ui.shell.base import Model, Shared

__all__ = ["INBOX", "Post", "SendModel"]

#: The laptop's address for a sent match (:data:`scorekeeper.ui.server.inbox.PATH`).
INBOX = "/matches"

#: POST a JSON body to a path of the server the page came from: (status, its JSON answer or
#: None); :class:`OSError` when nothing answers.
Post = Callable[[str, dict[str, Any]], Awaitable[tuple[int, Any]]]


class SendModel(Model):
    """What History's "Send to the table" says and does."""

    def __init__(self, shared: Shared, post: Post) -> None:
        self._shared = shared
        self._post = post
        self.line: str | None = None  # what the last sending did
        self.error: str | None = None
        self.busy = False

    def finished(self) -> list[str]:
        """The ids of the won matches this phone holds, oldest first."""
        with self._shared.lock:
            listed = self._shared.store.list(limit=None)
        return [m["id"] for m in reversed(listed) if m.get("status") == "won"]

    async def send(self, code: str = "", kept_pass: str | None = None) -> None:
        """Send every finished match with ``kept_pass`` (this browser's, from joining the
        table), else ``code`` (the table code typed). Stops at the first refusal of the sender
        (a wrong code, a watch code) or when the laptop does not answer."""
        if self.busy:
            return
        credential: dict[str, Any] = {"pass": kept_pass} if kept_pass else {"code": code.strip()}
        if not kept_pass and not credential["code"]:
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
                    status, answer = await self._post(INBOX, {**credential, "record": record})
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
                elif status == 400 and said:
                    refused.append(f"{mid}: {said}")
                elif said and status in (403, 429):
                    error = str(said)
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
