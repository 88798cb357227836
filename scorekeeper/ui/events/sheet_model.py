"""A league fixture's result sheet, without any Flet: filled from its matches, confirmed for
each team by the phone holding its captain's (or vice-captain's) seat at the event, or by
the host (marked as the host's); a confirmed sheet's games change only once the host
re-opens it, and its captains see that it was.

Every action goes through the store at once, under the app's lock, and through the one
check of who may do what (:mod:`scorekeeper.ui.shell.policy`); an error is kept in
``error`` for the screen to say in place.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import EventBook
from scorekeeper.events.sheets import Sheet, sheet_of, when
from scorekeeper.store import message_of
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.events.book import book_of, read, refused, seat_key
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

__all__ = ["SheetModel"]


class SheetModel(Model):
    """A fixture's result sheet and its confirmations."""

    def __init__(self, shared: Shared, eid: str, round_number: int, fixture: int) -> None:
        self._shared = shared
        self.eid = eid
        self.round = round_number
        self.fixture = fixture
        self.error: str | None = None
        self.note: str | None = None

    def sheet(self) -> Sheet | None:
        def look(book: EventBook) -> Sheet | None:
            event = book.get(self.eid)
            played = book.played(event)
            return sheet_of(event, self.round, self.fixture, book.results(event, played), book.in_play(event, played))

        return read(self._shared, self, look, None)

    @property
    def me(self) -> str | None:
        return self._shared.visitor.seat(seat_key(self.eid))

    def _team(self, team: str) -> Any:
        try:
            with self._shared.lock:
                return book_of(self._shared).get(self.eid).team(team)
        except ScorekeeperError:
            return None

    def _confirming(self, team: str) -> tuple[bool, str]:
        """Whether this phone holds the seat of ``team``'s captain or vice-captain, and the
        words for a phone that does not."""
        found = self._team(team)
        me = self.me
        own = found is not None and me is not None and found.leader(me) is not None
        leaders = found.leaders if found is not None else "its captain"
        return (
            own,
            f"only {team}'s captain ({leaders}), on the phone holding that seat, or the host confirms {team}'s sheet",
        )

    def can_confirm(self, team: str) -> bool:
        """Whether this phone may confirm the sheet for ``team``: the host's, or the phone
        holding the seat of its captain or vice-captain."""
        own, _ = self._confirming(team)
        return self._team(team) is not None and self._shared.may(Act.CONFIRM, seat_key(self.eid), own=own).allowed

    def needs_captain(self, team: str) -> str | None:
        """For the host, on a league fixture taken from the league this laptop (or phone) is
        linked to, with no captain's seat of ``team`` here: what the league needs instead (it
        takes a sheet confirmed by a captain only). None where the host's own confirmation
        stands (an event of this club) or this phone holds the captain's seat."""
        found = self._team(team)
        me = self.me
        if self._shared.visitor.role is not Role.HOST or found is None or (me is not None and found.leader(me)):
            return None
        if not read(self._shared, self, lambda book: book.from_league(book.get(self.eid)), False):
            return None
        return (
            f"The league takes {team}'s sheet confirmed by its captain ({found.leaders}): say who you are "
            f"on the event's page (I'm {found.captain}) and confirm here, or confirm on the captain's phone."
        )

    def confirm(self, team: str) -> None:
        """This phone confirms the sheet for ``team``: its captain's or vice-captain's (the
        seat it holds at the event), or the host's (marked as the host's)."""
        own, words = self._confirming(team)
        if not refused(self._shared, self, Act.CONFIRM, seat_key(self.eid), own=own, detail=words):
            visitor = self._shared.visitor
            me = self.me
            try:
                with self._shared.lock:
                    book = book_of(self._shared)
                    if visitor.role is Role.HOST:
                        found = self._team(team)
                        by = me if me is not None and found is not None and found.leader(me) else "the host"
                        c = book.confirm(self.eid, self.round, self.fixture, team, by, role="host", phone="host")
                    else:
                        assert me is not None  # own: the seat of a leader of the team
                        c = book.confirm(self.eid, self.round, self.fixture, team, me, phone=visitor.fingerprint)
                self.note = f"confirmed for {c.team} by {c.words} at {when(c.at)}"
                self.error = None
            except ScorekeeperError as e:
                self.error = message_of(e)
        self._changed()

    @property
    def can_reopen(self) -> bool:
        return self._shared.may(Act.REOPEN).allowed

    def reopen(self) -> None:
        """The host re-opens the confirmed sheet: its games may change, its captains confirm again."""
        if not refused(self._shared, self, Act.REOPEN):
            try:
                with self._shared.lock:
                    book_of(self._shared).reopen(self.eid, self.round, self.fixture)
                self.note = "re-opened: its games may be corrected now, and both captains confirm it again"
                self.error = None
            except ScorekeeperError as e:
                self.error = message_of(e)
        self._changed()

    def tick(self, origin: object = None) -> None:
        """A match or an event changed somewhere: look again."""
        self._changed()
