"""The League screen without any Flet: this app linked to a league (the club's code), this
club's fixtures, and one taken as an event here; the sheets waiting to be sent.

The same on the laptop (``scorekeeper web``: the host) and on the phone alone (the site:
the phone is its own host): what is done is :mod:`scorekeeper.league.club`'s (the link kept
in the store's folder, the event made from the league's fixture, the outbox); only the
request differs, :attr:`Shared.league_send` (a thread on the laptop, the browser's fetch on
the phone). Every act goes through the one check (:data:`Act.LEAGUE`); every error is one
line in ``error``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.league import club
from scorekeeper.store import message_of
from scorekeeper.ui.events.book import book_of, refused
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

__all__ = ["FixtureLine", "LeagueModel"]


class FixtureLine:
    """One fixture of this club, as the screen shows it."""

    def __init__(self, doc: dict[str, Any], event: str | None) -> None:
        self.id: int = doc["id"]
        self.title = f"{doc.get('home', '?')} v {doc.get('away', '?')}"
        result = doc.get("result")
        games = result.get("games") if isinstance(result, dict) else None
        done = f", {games[0]}-{games[1]}" if isinstance(games, list) and len(games) == 2 else ""
        self.when = f"week {doc.get('week', '?')}, {doc.get('day', '?')}, at {doc.get('venue', '?')}{done}"
        #: the event it is here (taken), or None
        self.event = event


class LeagueModel(Model):
    """The League screen's state: ``typed`` (the link or address typed), ``code`` (the club's
    code, when the link has none), ``fixtures`` (None until the league gave them), ``busy``
    while the league is asked, ``error`` and ``note`` (one line each)."""

    def __init__(self, shared: Shared) -> None:
        self._shared = shared
        self.folder = Path(shared.store.path)
        self.typed = ""
        self.code = ""
        self.fixtures: list[FixtureLine] | None = None
        self.busy = False
        self.error: str | None = None
        self.note: str | None = None

    @property
    def allowed(self) -> bool:
        return self._shared.may(Act.LEAGUE).allowed

    def set(self, name: str, value: str) -> None:
        if name in ("typed", "code"):
            setattr(self, name, value)

    def link(self) -> club.Link | None:
        """The league this app is linked to (None: not linked)."""
        try:
            return club.link_of(self.folder)
        except (OSError, ScorekeeperError):
            return None

    async def connect(self) -> bool:
        """Link this app with what was typed (``URL/link#CODE``, or the address and the code):
        the code checked by the league first; then its fixtures are asked for."""
        if refused(self._shared, self, Act.LEAGUE):
            self._changed()
            return False
        self._start()
        try:
            made = await club.link_async(self.folder, self.typed, self.code.strip() or None, self._shared.league_send)
        except (OSError, ScorekeeperError) as e:
            return self._failed(e)
        self.typed = self.code = ""
        club.sending(self.folder)  # a sheet waiting from before goes now
        self.busy = False
        await self.refresh()  # the screen says "Linked to ... as CLUB", then the fixtures
        return made.url != ""

    async def refresh(self) -> bool:
        """Ask the league for this club's fixtures."""
        if refused(self._shared, self, Act.LEAGUE):
            self._changed()
            return False
        self._start()
        try:
            lk = club.linked(self.folder)
            docs = club.fixtures_of(await self._shared.league_send(lk, "GET", "/api/club", None))
        except (OSError, ScorekeeperError) as e:
            return self._failed(e)
        lk = self.link() or lk
        taken = {n: eid for eid, n in lk.fixtures.items()}
        with self._shared.lock:
            here = {e.id for e in book_of(self._shared).events()}
        self.fixtures = [FixtureLine(d, taken.get(d["id"]) if taken.get(d["id"]) in here else None) for d in docs]
        self.busy = False
        self._changed()
        return True

    async def take(self, fixture: int) -> str | None:
        """Take league fixture ``fixture``: an event here, as ``scorekeeper league take`` makes
        it (its id, or None with ``error`` set)."""
        if refused(self._shared, self, Act.LEAGUE):
            self._changed()
            return None
        self._start()
        try:
            lk = club.linked(self.folder)
            answer = await self._shared.league_send(lk, "GET", f"/api/fixtures/{fixture}", None)
            with self._shared.lock:
                event = club.take_from(book_of(self._shared), lk, fixture, *answer)
        except (OSError, ScorekeeperError, KeyError, TypeError, ValueError) as e:
            self._failed(e)
            return None
        self.note = f"fixture {fixture} taken: {event.name}"
        self.busy = False
        if self.fixtures is not None:
            for line in self.fixtures:
                if line.id == fixture:
                    line.event = event.id
        self._changed()
        return event.id

    def waiting(self) -> int:
        """Sheets in the outbox, not sent yet."""
        try:
            return len(club.outbox(self.folder))
        except OSError:
            return 0

    def refusals(self) -> list[str]:
        """The sheets the league refused, each in one line."""
        try:
            return [f"fixture {n}: {why}" for n, why in club.refused(self.folder)]
        except OSError:
            return []

    def problem(self) -> str | None:
        """Why the last round of sends left sheets waiting, or None."""
        last = club.last_round(self.folder)
        return last.problem if last is not None and last.problem else None

    def send_now(self) -> None:
        """Send the waiting sheets now (the pusher is woken; the screen looks again)."""
        if not refused(self._shared, self, Act.LEAGUE):
            club.sending(self.folder)
            self.note = "sending the waiting sheets now"
        self._changed()

    def tick(self) -> None:
        self._changed()

    def _start(self) -> None:
        self.busy, self.error, self.note = True, None, None
        self._changed()

    def _failed(self, e: Exception) -> bool:
        if isinstance(e, ScorekeeperError):
            self.error = message_of(e)
        elif isinstance(e, OSError):
            self.error = f"this app's folder cannot be written ({e.strerror or type(e).__name__}): nothing was changed"
        else:  # the league's answer is not what this Scorekeeper reads
            self.error = f"the league's answer could not be read ({type(e).__name__}): is it a Scorekeeper league?"
        self.busy = False
        self._changed()
        return False
