"""The events' screens' view-models, without any Flet: the list and New event, an event's
page (its rounds, the tables' matches, opening a round, the next round, "I'm Ann": the
phone's own table first), the standings (the wall's and every phone's); a fixture's
result sheet is :mod:`scorekeeper.ui.events.sheet_model`'s.

Every action goes through the store at once (the events' file is a side file of it), under
the app's lock; an error is kept in ``error`` for the screen to say in place. Nothing here
raises to the UI.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import EventBook, Played, new_id
from scorekeeper.events import FORMATS, SCORING_TITLES, Event, Standing, new_event, standings
from scorekeeper.events.draw import is_complete, unfinished
from scorekeeper.store import StoreError, message_of
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act
from scorekeeper.ui.shell.roles import Role

__all__ = [
    "EventModel",
    "EventsModel",
    "Lead",
    "StandingsModel",
    "TableLine",
    "book_of",
    "home_lead",
    "refused",
    "seat_key",
    "tonight",
]

FORMAT_TITLES = {
    "round-robin": "Round robin",
    "swiss": "Swiss",
    "knockout": "Knockout",
    "league": "League (teams)",
}


def book_of(shared: Shared) -> EventBook:
    """The running app's one book of events (it remembers which stored records it read)."""
    return shared.events


class Reads(Protocol):
    _shared: Shared
    error: str | None


_T = TypeVar("_T")


def read(model: Reads, look: Callable[[EventBook], _T], default: _T) -> _T:
    """``look`` at the store's event book under the store's lock; a store error becomes the
    model's ``error`` (one line) and ``default``."""
    try:
        with model._shared.lock:
            return look(book_of(model._shared))
    except ScorekeeperError as e:
        model.error = message_of(e)
        return default


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


def seat_key(eid: str) -> str:
    """Where a phone keeps who it is at an event (its "I'm Ann")."""
    return f"event:{eid}"


def _can_enter(shared: Shared) -> bool:
    role = shared.visitor.role
    return role is not None and role.can_enter


def refused(model: Reads, act: Act, place: str | None = None, **facts: Any) -> bool:
    """True (with the model's ``error`` set to why) when this browser may not do ``act``:
    the one check of :mod:`scorekeeper.ui.shell.policy`."""
    verdict = model._shared.may(act, place, **facts)
    if verdict.allowed:
        return False
    model.error = verdict.words
    return True


class EventsModel(Model):
    """The list of events and the New event form."""

    def __init__(self, shared: Shared) -> None:
        self._shared = shared
        self.error: str | None = None
        self.name = ""
        self.format = "round-robin"
        self.game = registry.ids()[0]
        self.preset: str | None = self._first_preset()
        self.players = ""
        self.teams = ""
        self.rounds = ""
        self.target = ""
        self.scoring: str | None = None

    def events(self) -> list[Event]:
        return read(self, lambda book: book.events(), [])

    @property
    def may_create(self) -> bool:
        """This browser makes events (the host)."""
        return self._shared.may(Act.EVENT_NEW).allowed

    def presets(self) -> list[tuple[str, str | None]]:
        """The game's presets, the first (its usual rules) chosen when the game is; a game with
        none plays its rules as they are."""
        game = registry.get(self.game)
        return [(p.title, p.id) for p in registry.presets_of(game)] or [("Its usual rules", None)]

    def _first_preset(self) -> str | None:
        return self.presets()[0][1]

    def set(self, field: str, value: Any) -> None:
        setattr(self, field, value)
        if field == "game":
            self.preset = self._first_preset()
        if field == "format":
            self.scoring = None
        self.error = None
        self._changed()

    def create(self) -> str | None:
        """Make the event from the form; its id, or None (``error`` says why)."""
        if refused(self, Act.EVENT_NEW):
            self._changed()
            return None
        try:
            players = [p.strip() for p in self.players.replace("\n", ",").split(",") if p.strip()]
            teams: dict[str, list[str]] = {}
            vices: dict[str, str] = {}
            for line in self.teams.splitlines():
                if not line.strip():
                    continue
                name, _, members = line.partition(":")
                team = teams[name.strip()] = []
                for m in (m.strip() for m in members.split(",")):
                    plain = m.removesuffix("(vice)").strip()
                    if plain != m:
                        vices[name.strip()] = plain
                    if plain:
                        team.append(plain)
            rounds = int(self.rounds) if self.rounds.strip().isdigit() else None
            target = int(self.target) if self.target.strip().isdigit() else None
            if self.target.strip() and target is None:
                raise ScorekeeperError("the points to win a match must be a whole number (or left empty)")
            event = new_event(
                new_id(),
                self.name.strip(),
                self.format,
                self.game,
                preset=self.preset,
                players=players if self.format != "league" else [],
                teams=teams if self.format == "league" else None,
                vices=vices if self.format == "league" else None,
                scoring=self.scoring,
                rounds=rounds if self.format == "swiss" else None,
                target=target,
            )
            with self._shared.lock:
                book_of(self._shared).add(event)
            self.error = None
            return event.id
        except ScorekeeperError as e:
            # the form's words, not the command line's: "players: ...", not "--players: ..."
            field = (e.field or "").lstrip("-")
            self.error = f"{field}: {e.reason}" if field and not isinstance(e, StoreError) else message_of(e)
            return None
        finally:
            self._changed()


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
        return read(self, lambda book: book.get(self.eid), None)

    @property
    def me(self) -> str | None:
        """Who this phone is at the event (None: not said)."""
        return self._shared.visitor.seat(seat_key(self.eid))

    def iam(self, name: str | None) -> None:
        """This phone is ``name``'s at the event ("I'm Ann"; None: "Change", the seat given
        up). A seat another phone holds is refused, naming that phone."""
        place = seat_key(self.eid)
        leaving = name is None
        if not refused(self, Act.LEAVE_SEAT if leaving else Act.TAKE_SEAT, place):
            try:
                self._shared.visitor.take_seat(place, name)
                self.error = None
            except ScorekeeperError as e:
                self.error = str(e)
        self._changed()

    def tick(self) -> None:
        """A match or an event changed somewhere: look again."""
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
        return _can_enter(self._shared)

    @property
    def runs_it(self) -> bool:
        """This browser runs the night: it opens rounds, draws the next, changes the teams (the host)."""
        return self._shared.may(Act.EVENT_ROUND).allowed

    def delete(self) -> bool:
        """Forget the event (its matches stay stored, in History): the host's act. True when done."""
        if refused(self, Act.EVENT_DELETE):
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
        if refused(self, Act.EVENT_PLAYERS):
            self._changed()
            return False
        try:
            names = [p.strip() for p in players.replace("\n", ",").split(",") if p.strip()]
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
        return read(self, lambda book: book.played(event), [])

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
        if refused(self, Act.EVENT_ROUND):
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
        if refused(self, Act.EVENT_ROUND):
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
        results = read(self, lambda book: book.results(event), None)
        if results is None:
            return [], False
        return unfinished(event, results), is_complete(event, results)

    def scoring_title(self, event: Event) -> str:
        return SCORING_TITLES.get(event.scoring.preset, event.scoring.title)


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
        return read(self, look, nothing)

    def tick(self) -> None:
        """A match changed somewhere: look again."""
        self._changed()


def formats() -> list[tuple[str, str]]:
    return [(FORMAT_TITLES[f], f) for f in FORMATS]


def format_title(fmt: str) -> str:
    """An event's format as a player reads it ("Round robin", not "round-robin")."""
    return FORMAT_TITLES.get(fmt, fmt)
