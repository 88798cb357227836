"""The events' screens' view-models, without any Flet: an event's page (its rounds, the
tables' matches, opening a round, the next round, "I'm Ann": the phone's own table first)
and the standings (the wall's and every phone's). The list and New event are
:mod:`scorekeeper.ui.events.new_event`'s, a fixture's result sheet
:mod:`scorekeeper.ui.events.sheet_model`'s; what they share, :mod:`scorekeeper.ui.events.book`'s.

Every action goes through the store at once (the events' file is a side file of it), under
the app's lock; an error is kept in ``error`` for the screen to say in place. Nothing here
raises to the UI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import EventBook, Played
from scorekeeper.events import SCORING_TITLES, Event, Standing, standings
from scorekeeper.events.draw import is_complete, unfinished
from scorekeeper.events.summary import summary
from scorekeeper.store import message_of
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.events.book import book_of, can_enter, read, refused, seat_key
from scorekeeper.ui.events.new_event import EventsModel, format_title, formats
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

__all__ = [
    "EventModel",
    "EventsModel",
    "Lead",
    "StandingsModel",
    "TableLine",
    "book_of",
    "format_title",
    "formats",
    "home_lead",
    "read",
    "refused",
    "seat_key",
    "tonight",
]


@dataclass(frozen=True)
class TableLine:
    """A table of a round as the event's page shows it."""

    round: int
    number: int
    title: str
    match: str | None
    status: str  # "not opened", "in play", "won"
    scores: str
    mine: bool
    players: tuple[str, ...] = ()


class EventModel(Model):
    """An event's page: its rounds and tables, opening a round, the next round."""

    def __init__(self, shared: Shared, eid: str) -> None:
        self._shared = shared
        self.eid = eid
        self.error: str | None = None
        self.note: str | None = None

    def event(self) -> Event | None:
        return read(self._shared, self, lambda book: book.get(self.eid), None)

    @property
    def me(self) -> str | None:
        """Who this phone is at the event (None: not said)."""
        return self._shared.visitor.seat(seat_key(self.eid))

    def iam(self, name: str | None) -> None:
        """This phone is ``name``'s at the event ("I'm Ann"; None: "Change", the seat given
        up). A seat another phone holds is refused, naming that phone."""
        place = seat_key(self.eid)
        leaving = name is None
        if not refused(self._shared, self, Act.LEAVE_SEAT if leaving else Act.TAKE_SEAT, place):
            try:
                self._shared.visitor.take_seat(place, name)
                self.error = None
            except ScorekeeperError as e:
                self.error = str(e)
        self._changed()

    def tick(self, origin: object = None) -> None:
        """A match or an event changed somewhere (``origin``: the screen that changed it):
        look again. The note of what this page did last ("round 1 is open: 8 tables ready")
        is said until then: a change made elsewhere puts it out of date."""
        if origin is not self:
            self.note = None
        self._changed()

    def sit(self, table: TableLine) -> None:
        """Going to a table of this phone's player: the phone is that player's there (it
        lights up on their turn), unless another phone holds that seat (the table then asks)."""
        me = self.me
        if me is None or not table.mine or table.match is None or not self.can_enter:
            return
        player = next(p for p in table.players if _text.same_name(p, me))
        if self._shared.visitor.seat(table.match) == player:
            return
        try:
            self._shared.visitor.take_seat(table.match, player)
        except ScorekeeperError:
            pass  # held by another phone: the table's players row says so when this one taps it

    @property
    def can_enter(self) -> bool:
        return can_enter(self._shared)

    @property
    def runs_it(self) -> bool:
        """This browser runs the night: it opens rounds, draws the next, changes the teams (the host)."""
        return self._shared.may(Act.EVENT_ROUND).allowed

    def delete(self) -> bool:
        """Forget the event (its matches stay stored, in History): the host's act. True when done."""
        if refused(self._shared, self, Act.EVENT_DELETE):
            self._changed()
            return False
        try:
            with self._shared.lock:
                book_of(self._shared).remove(self.eid)
            self.error = None
            return True
        except ScorekeeperError as e:
            self.error = message_of(e)
            return False
        finally:
            self._changed()

    def set_team(self, team: str, players: str, vice: str | None) -> bool:
        """A league team's players (``"Ann, Cy, Ed"``: the captain first) and vice-captain
        changed: the host's act. True when done."""
        if refused(self._shared, self, Act.EVENT_PLAYERS):
            self._changed()
            return False
        try:
            names = [p.strip() for p in players.replace("\n", ",").split(",") if p.strip()]
            shown = self._shared.names_problem(names)
            if shown:
                raise ScorekeeperError(shown)
            with self._shared.lock:
                book_of(self._shared).set_team(self.eid, team, names, (vice or "").strip() or None)
            self.note = f"{team} changed"
            self.error = None
            return True
        except ScorekeeperError as e:
            self.error = message_of(e)
            return False
        finally:
            self._changed()

    def _played(self, event: Event) -> list[Played]:
        return read(self._shared, self, lambda book: book.played(event), [])

    def tables(self, event: Event) -> list[TableLine]:
        """Every table of every round, with its match (the last stored for it)."""
        played = {(p.round, p.table): p for p in self._played(event)}
        me = self.me
        out = []
        for rnd in event.rounds:
            for t in rnd.tables:
                p = played.get((rnd.number, t.number))
                if p is None:
                    status, scores = "not opened", ""
                else:
                    status = "won" if p.finished else "in play"
                    scores = " - ".join(str(s) for s in p.scores)
                mine = me is not None and any(_text.same_name(me, x) for x in t.players)
                mid = None if p is None else p.id
                out.append(TableLine(rnd.number, t.number, t.title, mid, status, scores, mine, t.players))
        return out

    def my_table(self, event: Event) -> TableLine | None:
        """This phone's player's table now: the first in play, else the first not opened
        yet, else the last played."""
        mine = self.my_tables(event)
        return mine[0] if mine else None

    def my_tables(self, event: Event, tables: list[TableLine] | None = None) -> list[TableLine]:
        """This phone's player's tables now: every one of the round being played (a league
        player may be drawn at several at once), those in play first; else the first not
        opened yet, else the last played."""
        tables = self.tables(event) if tables is None else tables
        mine = [t for t in tables if t.mine]
        now = self.current(event, tables)
        order = {"in play": 0, "not opened": 1, "won": 2}
        this_round = sorted((t for t in mine if t.round == now), key=lambda t: order.get(t.status, 3))
        if this_round and any(t.status != "won" for t in this_round):
            return this_round
        for status in ("in play", "not opened"):
            later = [t for t in mine if t.status == status]
            if later:
                return later[:1]
        return this_round or mine[-1:]

    def my_bye(self, event: Event, tables: list[TableLine]) -> int | None:
        """The round being played, when this phone's player sits it out (a bye) and has no
        table in play; else None."""
        me = self.me
        now = self.current(event, tables)
        if me is None or not event.rounds or any(t.mine and t.status == "in play" for t in tables):
            return None
        byes = event.rounds[now - 1].byes
        return now if any(_text.same_name(me, b) for b in byes) else None

    @staticmethod
    def current(event: Event, tables: list[TableLine]) -> int:
        """The round being played: the first with a table not won yet (else the last)."""
        for rnd in event.rounds:
            if any(t.round == rnd.number and t.status != "won" for t in tables):
                return rnd.number
        return len(event.rounds)

    def open_round(self, number: int) -> None:
        """Create every table's match of round ``number`` (the host's act)."""
        if refused(self._shared, self, Act.EVENT_ROUND):
            self._changed()
            return
        try:
            with self._shared.lock:
                made = book_of(self._shared).open_round(self.eid, number)
            self.note = f"round {number} is open: {len(made)} table{'s' if len(made) != 1 else ''} ready"
            self.error = None
        except ScorekeeperError as e:
            self.error = message_of(e)
        self._changed()

    def next_round(self) -> None:
        """Draw the next round (Swiss, knockout): the host's act."""
        if refused(self._shared, self, Act.EVENT_ROUND):
            self._changed()
            return
        try:
            with self._shared.lock:
                event = book_of(self._shared).next_round(self.eid)
            self.note = f"round {len(event.rounds)} is drawn"
            self.error = None
        except ScorekeeperError as e:
            self.error = message_of(e)
        self._changed()

    def waiting(self, event: Event) -> tuple[list[int], bool]:
        """The last round's tables without a result, and whether the event is over."""
        results = read(self._shared, self, lambda book: book.results(event), None)
        if results is None:
            return [], False
        return unfinished(event, results), is_complete(event, results)

    def scoring_title(self, event: Event) -> str:
        return SCORING_TITLES.get(event.scoring.preset, event.scoring.title)

    def heading(self, event: Event) -> str:
        """What the event is, under its name: ``'Swiss · All Fives: Fives and Threes (pub) ·
        to 61 · 3 rounds · a point a match won'``."""
        return f"{summary(event)} · {self.scoring_title(event)}"


def tonight(shared: Shared) -> tuple[Event, list[TableLine]] | None:
    """The event being played, and this phone's tables in it (none: it has not said who it
    is, or sits nowhere now): the newest event not finished yet where this phone said who it
    is, else the newest not finished; None when there is none (or the events cannot be read:
    the Events screen says why)."""
    try:
        with shared.lock:
            book = book_of(shared)
            playing = [e for e in reversed(book.events()) if not is_complete(e, book.results(e))]
    except ScorekeeperError:
        return None
    if not playing:
        return None
    visitor = shared.visitor
    event = next((e for e in playing if visitor.seat(seat_key(e.id)) is not None), playing[0])
    return event, [t for t in EventModel(shared, event.id).my_tables(event) if t.status != "won"]


@dataclass(frozen=True)
class Lead:
    """What Home leads with on this browser: the match to resume (``match``, its list entry),
    tonight's event and this phone's tables in it (in play, or not opened yet)."""

    match: dict[str, Any] | None
    event: Event | None
    tables: tuple[TableLine, ...] = ()


def home_lead(shared: Shared) -> Lead:
    """Home's first card. The host's screen (or a table with no codes): the match changed
    last. A phone that joined: the match where it holds a seat; else, while an event is
    played, its own tables there (or the event, to say who it is), never another table's
    match; with no event, the match in play (a kitchen table has one)."""
    night = tonight(shared)
    event, tables = night if night is not None else (None, [])
    gate = shared.gate
    if shared.visitor.role is Role.HOST or gate is None or gate.open:
        return Lead(shared.resume(), event, tuple(tables))
    mine = shared.my_match()
    if mine is not None or event is not None:
        return Lead(mine, event, tuple(tables))
    return Lead(shared.resume(), None)


class StandingsModel(Model):
    """The standings, worked out again from the stored matches at every look."""

    def __init__(self, shared: Shared, eid: str) -> None:
        self._shared = shared
        self.eid = eid
        self.error: str | None = None

    def rows(self) -> tuple[Event | None, list[Standing]]:
        def look(book: EventBook) -> tuple[Event | None, list[Standing]]:
            event = book.get(self.eid)
            return event, standings(event, book.results(event))

        nothing: tuple[Event | None, list[Standing]] = (None, [])
        return read(self._shared, self, look, nothing)

    def tick(self, origin: object = None) -> None:
        """A match changed somewhere: look again."""
        self._changed()
