"""The one state of a running app that every session shares, without any Flet: the store
behind a lock, the events kept beside it, the hub that keeps the phones in step, what the
table is entering together, the questions waiting for the other side, and the one check of
who may do what (:meth:`Shared.may`, from :mod:`scorekeeper.ui.shell.policy`).

The shell imports nothing of the server: the hub, the gate of the table codes and the
browsers' Visitor are handed to :class:`Shared` by whoever starts the app
(:func:`scorekeeper.ui.server.shared.open_shared`).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import EventBook
from scorekeeper.league.club import Send, request_async
from scorekeeper.store import Store
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.shell import glyphs, policy
from scorekeeper.ui.shell.asks import AskBook
from scorekeeper.ui.shell.drafts import DraftBook
from scorekeeper.ui.shell.policy import Act, Verdict
from scorekeeper.ui.shell.screens import screens_of

if TYPE_CHECKING:  # handed to Shared by whoever starts the app (scorekeeper.ui.server.shared)
    from scorekeeper.ui.access.gate import Gate, Invite
    from scorekeeper.ui.access.visitor import Visitor
    from scorekeeper.ui.live.hub import Hub

    #: How a browser's Visitor is made: from the gate, its address and its User-Agent.
    Visitors = Callable[[Gate | None, str | None, str], Visitor]

__all__ = ["Shared"]


class Shared:
    """The one store of a running app, shared by every session (browser tab) of the
    process, behind a lock (the store is not thread-safe), with the ``hub`` that keeps
    their screens in step and the ``gate`` of the table codes (None: every browser is the
    host, as in the desktop app), both handed over by whoever starts the app, and
    ``visitors``, what makes a browser's Visitor (from the gate and its address).
    :meth:`visit`: each session's own view, with its Visitor; ``visitor`` is the app's own
    (the host's, as the desktop app and the tests see it)."""

    def __init__(
        self,
        path: Any = None,
        gate: Gate | None = None,
        invite: Invite | None = None,
        *,
        hub: Hub,
        visitors: Visitors,
    ) -> None:
        self.store = Store(path, wait=0)  # another app holding the database: say so at once
        self.lock = threading.RLock()
        self.events = EventBook(self.store)  # the events kept beside the matches (under the lock)
        self._notices: dict[str, str] = {}
        self.hub = hub
        self.drafts = DraftBook()
        self.asks = AskBook()  # changes of finished matches waiting for the other side
        self.gate = gate
        self.invite = invite
        #: How the page reaches the server it came from (the phone's own site only: its
        #: finished matches sent to the table's laptop, :mod:`scorekeeper.ui.history.send`); None
        #: where the app is served by the table's laptop itself.
        self.post: Any = None
        #: How the app reaches a league (:data:`scorekeeper.league.club.Send`): the laptop's
        #: request in a thread; the phone's own site sets the browser's fetch.
        self.league_send: Send = request_async
        #: The phone's own site: names are drawn with its one font only, so a name it cannot
        #: draw is refused where it is typed (:mod:`scorekeeper.ui.shell.glyphs`).
        self.font_only = False
        self.visitors = visitors
        self.visitor = visitors(None, None, "")

    def visit(self, address: str | None, visitor: Visitors | None = None, agent: str = "") -> Shared:
        """The app as one browser sees it: the same store, lock, notices and hub, with a
        Visitor of its own (``visitor``: what makes it, e.g. an observable class; else
        :attr:`visitors`; ``agent``: its browser's User-Agent, to name it on the host's screen)."""
        view = copy.copy(self)
        view.visitor = (visitor or self.visitors)(self.gate, address, agent)
        return view

    def names_problem(self, names: Iterable[str]) -> str | None:
        """Why one of ``names``, typed on this page, cannot be shown on it, or None."""
        return glyphs.names_problem(names) if self.font_only else None

    def may(self, act: Act, place: str | None = None, **facts: Any) -> Verdict:
        """May this browser do ``act`` (at ``place``: a match id, an event's seat key)? The one
        check of :mod:`scorekeeper.ui.shell.policy`, with this browser's role and whether it
        holds a seat there; ``facts``: the rest :func:`~scorekeeper.ui.shell.policy.check` takes."""
        seated = place is not None and self.visitor.seat(place) is not None
        return policy.check(act, self.visitor.role, seated=seated, **facts)

    def free_seat(self, place: str, player: str) -> str | None:
        """The host frees ``player``'s seat at ``place`` (the phone that held it is told): why
        not, or None once it is free."""
        verdict = self.may(Act.SEATS)
        if not verdict.allowed:
            return verdict.words
        self.visitor.free_seat(place, player)
        return None

    def end_passes(self, new_codes: bool) -> str | None:
        """The host ends every phone's pass: new codes (``new_codes``), or the same codes with
        every phone forgotten. Why not, or None once done."""
        verdict = self.may(Act.RENEW)
        if not verdict.allowed or self.gate is None:
            return verdict.words or "this app is not served to phones"
        if new_codes:
            self.gate.renew()
        else:
            self.gate.forget_phones()
        return None

    def may_import(self, record: Any, role: Role | None | Literal["mine"] = "mine") -> Verdict:
        """May this browser (or one of ``role``: a phone sending a match, which has no
        session) import ``record``? A match of an event's table is the host's to import, and
        not while its result sheet is confirmed."""
        belongs, locked = False, None
        if isinstance(record, dict) and isinstance(record.get("event"), dict):
            try:
                with self.lock:
                    belongs = self.events.belongs(record)
                    locked = self.events.sheet_lock(record) if belongs else None
            except ScorekeeperError:  # the events cannot be read: whose it is cannot be told
                belongs = True
        act = Act.IMPORT_EVENT if belongs else Act.IMPORT
        if role != "mine":
            return policy.check(act, role, locked=locked)
        return self.may(act, locked=locked)

    def announce(self, mid: str, note: str) -> None:
        """A word for the next screen that opens match ``mid`` (e.g. who won the lots)."""
        with self.lock:
            self._notices[mid] = note

    def take_notice(self, mid: str) -> str | None:
        """The word left for match ``mid``: every screen that opens it is told, until its
        first change (so every phone says who won the lots, not only the one that drew them)."""
        with self.lock:
            return self._notices.get(mid)

    def drop_notice(self, mid: str) -> None:
        with self.lock:
            self._notices.pop(mid, None)

    def close(self) -> None:
        with self.lock:
            self.store.close()

    def names(self) -> list[str]:
        """Player names from earlier matches, most recent first, each once."""
        with self.lock:
            seen: dict[str, None] = {}
            for m in self.store.list(0, 50):
                for n in m.get("players") or []:
                    seen.setdefault(n, None)
            return list(seen)

    def my_match(self) -> dict[str, Any] | None:
        """The unfinished match where this browser holds a seat (the newest of them), or None."""
        with self.lock:
            try:
                rows = self.store.list(0, 50)
            except ScorekeeperError:
                return None
        for m in rows:
            if m.get("status") != "won" and self.visitor.seat(m["id"]) and screens_of(m.get("game")) is not None:
                return m
        return None

    def resume(self) -> dict[str, Any] | None:
        """The unfinished match to resume in one tap (its list entry), or None (also while it cannot be read)."""
        with self.lock:
            try:
                mid = self.store.latest_unfinished()
                summary = None if mid is None else self.store.summary(mid)
            except ScorekeeperError:  # Home does not offer it now; History lists it and opening it says why
                return None
            return summary if summary is not None and screens_of(summary.get("game")) is not None else None
